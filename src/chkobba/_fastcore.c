/*
 * chkobba._fastcore: the compiled fast path for playouts.
 *
 * A C transcription of the pure engine's hot loop (chkobba.captures,
 * chkobba.game.Round, chkobba.scoring, chkobba.search.{policy,endgame,
 * determinize}). The pure engine stays the reference: tests/test_fast.py checks
 * that this module plays the same moves, scores the same points and solves the
 * same margins. The Python wrapper is chkobba.fast; nothing else should import
 * this module directly.
 *
 * Card sets are 40-bit masks, as in chkobba.cards: card c has value c % 10 + 1
 * and suit c / 10 (diamonds are suit 2, the 7 of diamonds is card 26).
 *
 * Policy scores are integers: the weights of chkobba.search.policy scaled by
 * chkobba.fast (set_policy) so that ties compare exactly, as the pure policy's
 * 1e-9 tolerance does for its floats.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(_MSC_VER)
#include <intrin.h>
#endif

typedef uint64_t mask_t;

#define NCARDS 40
#define ALL_CARDS ((((mask_t)1) << NCARDS) - 1)
#define HAND_SIZE 3
#define TABLE_SIZE 4
#define MAX_SEATS 4
#define SEVEN_OF_DIAMONDS 26
#define DIAMONDS_MASK (((mask_t)0x3FF) << 20)
#define INF_MARGIN 1000000

/* ---- bits ---------------------------------------------------------------- */

static inline int popcount(mask_t m) {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || defined(__aarch64__))
    return __builtin_popcountll(m);
#else
    /* Without a popcount instruction the builtin is a library call: this is faster. */
    m = m - ((m >> 1) & 0x5555555555555555ULL);
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((m * 0x0101010101010101ULL) >> 56);
#endif
}

static inline int lowest(mask_t m) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(m);
#elif defined(_MSC_VER) && defined(_M_X64)
    unsigned long i;
    _BitScanForward64(&i, m);
    return (int)i;
#else
    int i = 0;
    while (!(m & 1)) {
        m >>= 1;
        i++;
    }
    return i;
#endif
}

static mask_t RANK_MASK[10]; /* the four cards of value v + 1 */
static int VALUE[NCARDS];

static void init_tables(void) {
    for (int i = 0; i < 10; i++)
        RANK_MASK[i] = ((mask_t)1 << i) | ((mask_t)1 << (10 + i)) | ((mask_t)1 << (20 + i)) |
                       ((mask_t)1 << (30 + i));
    for (int c = 0; c < NCARDS; c++) VALUE[c] = c % 10 + 1;
}

static inline int table_total(mask_t table) {
    int t = 0;
    while (table) {
        t += VALUE[lowest(table)];
        table &= table - 1;
    }
    return t;
}

/* ---- random numbers: xoshiro256** seeded by splitmix64 -------------------- */

typedef struct {
    uint64_t s[4];
} Rng;

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static void rng_seed(Rng *r, uint64_t seed) {
    for (int i = 0; i < 4; i++) {
        uint64_t z = (seed += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        r->s[i] = z ^ (z >> 31);
    }
}

static inline uint64_t rng_next(Rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n) without bias (Lemire's multiply-and-reject). */
static inline uint32_t rng_below(Rng *r, uint32_t n) {
    uint64_t m = (rng_next(r) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (rng_next(r) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* The same walk as random.shuffle: from the back, swap with a lower index. */
static void shuffle(int8_t *a, int n, Rng *r) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)(i + 1));
        int8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* ---- move lists ----------------------------------------------------------- */

typedef struct {
    mask_t capture;
    int card;
    int64_t score;
} Move;

#define INLINE_MOVES 48

typedef struct {
    Move *v;
    int n;
    int cap;
    int failed; /* out of memory while growing */
    Move buf[INLINE_MOVES];
} MoveList;

static void ml_init(MoveList *ml) {
    ml->v = ml->buf;
    ml->n = 0;
    ml->cap = INLINE_MOVES;
    ml->failed = 0;
}

static void ml_free(MoveList *ml) {
    if (ml->v != ml->buf) PyMem_RawFree(ml->v);
    ml->v = ml->buf;
    ml->cap = INLINE_MOVES;
}

static int ml_grow(MoveList *ml) {
    int cap = ml->cap * 2;
    Move *v = (Move *)PyMem_RawMalloc(sizeof(Move) * (size_t)cap);
    if (v == NULL) {
        ml->failed = 1;
        return -1;
    }
    memcpy(v, ml->v, sizeof(Move) * (size_t)ml->n);
    if (ml->v != ml->buf) PyMem_RawFree(ml->v);
    ml->v = v;
    ml->cap = cap;
    return 0;
}

static inline void ml_push(MoveList *ml, int card, mask_t capture) {
    if (ml->n == ml->cap && ml_grow(ml) < 0) return;
    ml->v[ml->n].card = card;
    ml->v[ml->n].capture = capture;
    ml->n++;
}

/* ---- captures (chkobba.captures) ------------------------------------------ */

/* Sums are searched over the table in value-major order: bit 4 * (v - 1) + suit
   stands for the card of value v in that suit. Walking those bits upward visits
   the cards sorted by (value, card), the order captures.sum_captures sorts its
   items in, with no sort and no item array. */
static int8_t VM_OF_CARD[NCARDS];
static int8_t CARD_OF_VM[NCARDS];

static void init_value_major(void) {
    for (int c = 0; c < NCARDS; c++) {
        int vm = (c % 10) * 4 + c / 10;
        VM_OF_CARD[c] = (int8_t)vm;
        CARD_OF_VM[vm] = (int8_t)c;
    }
}

static inline mask_t value_major(mask_t cards) {
    mask_t vm = 0;
    while (cards) {
        vm |= (mask_t)1 << VM_OF_CARD[lowest(cards)];
        cards &= cards - 1;
    }
    return vm;
}

/* chkobba.captures._extend over the value-major items left in `items`: the
   same depth-first order. */
static void extend(mask_t items, int rest, mask_t acc, int n, int limit, int card,
                   MoveList *out) {
    while (items) {
        int b = lowest(items);
        items &= items - 1;
        int v = b / 4 + 1;
        if (v > rest) return;
        mask_t bit = (mask_t)1 << CARD_OF_VM[b];
        if (v == rest) {
            if (n >= 1) ml_push(out, card, acc | bit);
        } else if (n + 1 < limit) {
            extend(items, rest - v, acc | bit, n + 1, limit, card, out);
        }
    }
}

/* Round.legal_moves for the play phase: cards ascending; for each card its
   captures in chkobba.captures order (matching cards ascending, else the sums
   in depth-first order), then the lay when allowed. */
static void gen_plays(mask_t hand, mask_t table, int max_cards, int may_drop, MoveList *out) {
    out->n = 0;
    mask_t vm = 0;
    int vm_done = 0;
    while (hand) {
        int c = lowest(hand);
        hand &= hand - 1;
        int before = out->n;
        if (table) {
            int value = VALUE[c];
            mask_t same = table & RANK_MASK[value - 1];
            if (same) {
                /* Matching has priority: one card of the same value. */
                while (same) {
                    ml_push(out, c, same & (~same + 1));
                    same &= same - 1;
                }
            } else {
                if (!vm_done) {
                    vm = value_major(table);
                    vm_done = 1;
                }
                /* An addition uses cards worth less than the played card. */
                mask_t items = vm & ((((mask_t)1) << (4 * (value - 1))) - 1);
                int n = popcount(items);
                if (n >= 2) extend(items, value, 0, 0, max_cards ? max_cards : n, c, out);
            }
        }
        if (may_drop || out->n == before) ml_push(out, c, 0);
    }
}

/* ---- a round (chkobba.game.Round, play phase) ----------------------------- */

typedef struct {
    int seats, sides;
    int side_of[MAX_SEATS];
    int cutter;
    int turn;
    int last;     /* the side that captured last, -1 for nobody */
    int in_hands; /* cards in all hands */
    int stock_pos, stock_len;
    int max_cards, may_drop;
    int over;
    int void_deal;
    mask_t hands[MAX_SEATS];
    mask_t table;
    mask_t piles[MAX_SEATS];
    mask_t leftover;
    int chk[MAX_SEATS];
    int8_t stock[NCARDS];
} Game;

static inline mask_t take(Game *g, int n) {
    mask_t m = 0;
    int end = g->stock_pos + n;
    if (end > g->stock_len) end = g->stock_len;
    for (int i = g->stock_pos; i < end; i++) m |= (mask_t)1 << g->stock[i];
    g->stock_pos = end;
    return m;
}

static void deal_hands(Game *g, int first, int skip) {
    for (int i = 0; i < g->seats; i++) {
        int seat = (first + i) % g->seats;
        if (seat != skip) g->hands[seat] |= take(g, HAND_SIZE);
    }
    int n = 0;
    for (int s = 0; s < g->seats; s++) n += popcount(g->hands[s]);
    g->in_hands = n;
}

static void check_void(Game *g, int void_count) {
    int counts[10] = {0};
    mask_t t = g->table;
    int worst = 0;
    while (t) {
        int r = lowest(t) % 10;
        if (++counts[r] > worst) worst = counts[r];
        t &= t - 1;
    }
    g->void_deal = worst >= void_count;
}

/* A new round from a 40-card deck (Round.__init__), with no cards dealt yet. */
static void game_new(Game *g, int seats, const int *side_of, int dealer, const int8_t *deck,
                     int max_cards, int may_drop) {
    memset(g, 0, sizeof(*g));
    g->seats = seats;
    g->sides = 0;
    for (int s = 0; s < seats; s++) {
        g->side_of[s] = side_of[s];
        if (side_of[s] + 1 > g->sides) g->sides = side_of[s] + 1;
    }
    g->cutter = (dealer + 1) % seats;
    g->turn = g->cutter;
    g->last = -1;
    g->max_cards = max_cards;
    g->may_drop = may_drop;
    memcpy(g->stock, deck, NCARDS);
    g->stock_len = NCARDS;
}

/* The deal of docs/rules.md §2.2: the cutter's decision (keep = 1, table = 0), or
   the plain deal when the rules have no cut (cut = -1). */
static void game_deal(Game *g, int cut, int void_count) {
    if (cut == 1) {
        g->hands[g->cutter] = take(g, HAND_SIZE);
        deal_hands(g, (g->cutter + 1) % g->seats, g->cutter);
        g->table |= take(g, TABLE_SIZE);
    } else if (cut == 0) {
        g->table |= take(g, TABLE_SIZE);
        deal_hands(g, g->cutter, -1);
    } else {
        deal_hands(g, g->cutter, -1);
        g->table |= take(g, TABLE_SIZE);
    }
    check_void(g, void_count);
}

static void game_finish(Game *g) {
    if (g->last < 0)
        g->leftover = g->table;
    else
        g->piles[g->last] |= g->table;
    g->table = 0;
    g->over = 1;
}

/* Round.apply_unchecked for a play. */
static inline void game_play(Game *g, int card, mask_t capture) {
    int seat = g->turn;
    int side = g->side_of[seat];
    mask_t bit = (mask_t)1 << card;
    g->hands[seat] ^= bit;
    g->in_hands--;
    int last_play = g->in_hands == 0 && g->stock_pos == g->stock_len;
    if (capture) {
        mask_t table = g->table ^ capture;
        g->table = table;
        g->piles[side] |= capture | bit;
        g->last = side;
        /* No chkobba on the last play of the round (docs/rules.md §2.4). */
        if (table == 0 && !last_play) g->chk[side]++;
    } else {
        g->table |= bit;
    }
    g->turn = (seat + 1) % g->seats;
    if (g->in_hands == 0) {
        if (last_play)
            game_finish(g);
        else
            deal_hands(g, g->cutter, -1);
    }
}

/* ---- end-of-round points (chkobba.scoring) -------------------------------- */

/* The index of the strictly highest value, or -1 when the top is tied. */
static int strict_best(const int *v, int n) {
    int best = 0, count = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || v[i] > v[best]) {
            best = i;
            count = 1;
        } else if (v[i] == v[best]) {
            count++;
        }
    }
    return count == 1 ? best : -1;
}

static void score_points(const Game *g, int *pts) {
    int cards[MAX_SEATS], diamonds[MAX_SEATS], sevens[MAX_SEATS], sixes[MAX_SEATS];
    int n = g->sides;
    for (int s = 0; s < n; s++) {
        mask_t p = g->piles[s];
        pts[s] = g->chk[s];
        cards[s] = popcount(p);
        diamonds[s] = popcount(p & DIAMONDS_MASK);
        sevens[s] = popcount(p & RANK_MASK[6]);
        sixes[s] = popcount(p & RANK_MASK[5]);
    }
    int w = strict_best(cards, n);
    if (w >= 0) pts[w]++;
    w = strict_best(diamonds, n);
    if (w >= 0) pts[w]++;
    /* Barmīla: strictly the most 7s; among sides tied on 7s, strictly the most 6s. */
    int top = 0;
    for (int s = 0; s < n; s++)
        if (sevens[s] > top) top = sevens[s];
    int best6 = -1, winner = -1, count = 0;
    for (int s = 0; s < n; s++) {
        if (sevens[s] != top) continue;
        if (sixes[s] > best6) {
            best6 = sixes[s];
            winner = s;
            count = 1;
        } else if (sixes[s] == best6) {
            count++;
        }
    }
    if (count == 1) pts[winner]++;
    for (int s = 0; s < n; s++)
        if (g->piles[s] >> SEVEN_OF_DIAMONDS & 1) {
            pts[s]++;
            break;
        }
}

/* A side's points minus the best of the other sides' (chkobba.agents.expert.margin). */
static int margin_of(const int *pts, int sides, int side) {
    int other = INT_MIN;
    for (int s = 0; s < sides; s++)
        if (s != side && pts[s] > other) other = pts[s];
    return pts[side] - other;
}

/* ---- the playout policy (chkobba.search.policy) --------------------------- */

typedef struct {
    int64_t card, diamond, seven, six, haya, sweep;
    int64_t lay[NCARDS]; /* what laying each card costs */
    double caution;
    int ready;
} Policy;

static Policy POLICY;

static inline int64_t card_weight(mask_t m) {
    return POLICY.card * popcount(m) + POLICY.diamond * popcount(m & DIAMONDS_MASK) +
           POLICY.seven * popcount(m & RANK_MASK[6]) + POLICY.six * popcount(m & RANK_MASK[5]) +
           POLICY.haya * (int64_t)(m >> SEVEN_OF_DIAMONDS & 1);
}

/* policy.holds_one: the chance that `hand` cards drawn from `unseen` include one
   of `k` given cards; the same operations in the same order as the reference. */
static double holds_one(int unseen, int k, int hand) {
    if (k == 0 || hand == 0) return 0.0;
    if (k >= unseen || hand >= unseen) return 1.0;
    double miss = 1.0;
    for (int i = 0; i < hand; i++) miss *= (double)(unseen - k - i) / (double)(unseen - i);
    return 1.0 - miss;
}

/* policy.Context */
typedef struct {
    mask_t table;
    int last_play, side, last;
    int threat; /* whether the next player is an opponent */
    double chances[11];
} PolicyContext;

static void policy_context(const Game *g, PolicyContext *ctx) {
    int seat = g->turn;
    mask_t known = g->hands[seat] | g->table | g->leftover;
    for (int s = 0; s < g->sides; s++) known |= g->piles[s];
    mask_t unseen = ALL_CARDS & ~known;
    int nxt = (seat + 1) % g->seats;
    ctx->table = g->table;
    ctx->last_play = g->in_hands == 1 && g->stock_pos == g->stock_len;
    ctx->side = g->side_of[seat];
    ctx->last = g->last;
    ctx->threat = g->side_of[nxt] != g->side_of[seat];
    if (ctx->threat) {
        int hand;
        if (g->in_hands > 1)
            hand = popcount(g->hands[nxt]);
        else
            hand = g->stock_pos < g->stock_len ? HAND_SIZE : 0;
        int total = popcount(unseen);
        ctx->chances[0] = 0.0;
        for (int v = 1; v <= 10; v++)
            ctx->chances[v] = holds_one(total, popcount(unseen & RANK_MASK[v - 1]), hand);
    }
}

/* policy.play_score */
static inline int64_t play_score(int card, mask_t capture, const PolicyContext *ctx) {
    mask_t table = ctx->table, left;
    int64_t score;
    if (capture) {
        left = table & ~capture;
        score = card_weight(capture | ((mask_t)1 << card));
        if (ctx->last_play) return score + card_weight(left);
        if (!left) return score + POLICY.sweep;
    } else {
        left = table | ((mask_t)1 << card);
        score = -POLICY.lay[card];
        if (ctx->last_play) {
            if (ctx->last < 0) return score;
            int64_t rest = card_weight(left);
            return ctx->last == ctx->side ? score + rest : score - rest;
        }
    }
    if (!ctx->threat) return score;
    int total = table_total(left);
    double threat = total <= 10 ? ctx->chances[total] * (double)(POLICY.sweep + card_weight(left))
                                : 0.0;
    mask_t m = left;
    while (m) {
        int c = lowest(m);
        m &= m - 1;
        double t = ctx->chances[VALUE[c]] * (double)card_weight((mask_t)1 << c);
        if (t > threat) threat = t;
    }
    return score - (int64_t)floor(POLICY.caution * threat + 0.5);
}

/* policy.best_plays / policy_move: the best-scored play; ties at random, or the
   first in legal order when `first_best` is set. */
static int policy_pick(const Game *g, MoveList *ml, Rng *rng, int first_best) {
    int n = ml->n;
    if (n == 1) return 0;
    PolicyContext ctx;
    policy_context(g, &ctx);
    int64_t best = 0;
    int first = -1, ties = 0;
    for (int i = 0; i < n; i++) {
        int64_t s = play_score(ml->v[i].card, ml->v[i].capture, &ctx);
        ml->v[i].score = s;
        if (first < 0 || s > best) {
            best = s;
            first = i;
            ties = 1;
        } else if (s == best) {
            ties++;
        }
    }
    if (ties == 1 || first_best) return first;
    int k = (int)rng_below(rng, (uint32_t)ties);
    for (int i = first; i < n; i++)
        if (ml->v[i].score == best && k-- == 0) return i;
    return first;
}

/* Play the round out with the policy. Returns -1 if a seat to move has no card
   (an inconsistent state) or memory ran out. */
static int game_rollout(Game *g, MoveList *ml, Rng *rng, int first_best) {
    while (!g->over) {
        gen_plays(g->hands[g->turn], g->table, g->max_cards, g->may_drop, ml);
        if (ml->n == 0 || ml->failed) return -1;
        int i = policy_pick(g, ml, rng, first_best);
        game_play(g, ml->v[i].card, ml->v[i].capture);
    }
    return 0;
}

/* ---- exact endgame (chkobba.search.endgame) -------------------------------- */

/* Negamax with alpha-beta over the margin of the side to move. The transposition
   table stores the margin still to come (chkobba points already made taken
   out), which depends only on the hands, the table, one side's pile (the other
   is the rest of the cards), the last capturer and the seat to move. */

#define TT_BITS 16
#define TT_SIZE (1u << TT_BITS)
#define TT_EXACT 1
#define TT_LOWER 2
#define TT_UPPER 3
#define TT_FROM_CARDS 7 /* small endgames are faster without the table */

typedef struct {
    mask_t hands[MAX_SEATS];
    mask_t table, pile0;
    uint32_t generation;
    int16_t value;
    int8_t last, turn;
    uint8_t flag;
} TTEntry;

static TTEntry *TT = NULL;
static uint32_t TT_GENERATION = 0;

typedef struct {
    int use_tt;
    int error;
    long nodes;
} Solver;

static inline uint64_t mix(uint64_t h, uint64_t x) {
    h ^= x + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    return h * 0xBF58476D1CE4E5B9ULL;
}

static inline TTEntry *tt_slot(const Game *g) {
    uint64_t h = 0x243F6A8885A308D3ULL;
    for (int s = 0; s < g->seats; s++) h = mix(h, g->hands[s]);
    h = mix(h, g->table);
    h = mix(h, g->piles[0]);
    h = mix(h, (uint64_t)(g->last + 1) * 8 + (uint64_t)g->turn);
    return &TT[(h ^ (h >> 29)) & (TT_SIZE - 1)];
}

static inline int tt_match(const TTEntry *e, const Game *g) {
    if (e->generation != TT_GENERATION || e->table != g->table || e->pile0 != g->piles[0] ||
        e->last != g->last || e->turn != g->turn)
        return 0;
    for (int s = 0; s < g->seats; s++)
        if (e->hands[s] != g->hands[s]) return 0;
    return 1;
}

/* The margin of the side to move at the end of a finished round. */
static int final_margin(const Game *g) {
    int pts[MAX_SEATS];
    score_points(g, pts);
    int me = g->side_of[g->turn];
    return pts[me] - pts[1 - me];
}

static int negamax(const Game *g, int alpha, int beta, Solver *sv) {
    sv->nodes++;
    if (g->over) return final_margin(g);
    int me = g->side_of[g->turn];
    int made = g->chk[me] - g->chk[1 - me];
    TTEntry *slot = NULL;
    int alpha0 = alpha;
    if (sv->use_tt) {
        slot = tt_slot(g);
        if (tt_match(slot, g)) {
            int v = slot->value + made;
            if (slot->flag == TT_EXACT) return v;
            if (slot->flag == TT_LOWER && v > alpha) alpha = v;
            if (slot->flag == TT_UPPER && v < beta) beta = v;
            if (alpha >= beta) return v;
        }
    }
    MoveList ml;
    ml_init(&ml);
    gen_plays(g->hands[g->turn], g->table, g->max_cards, g->may_drop, &ml);
    if (ml.n == 0 || ml.failed) {
        sv->error = 1;
        ml_free(&ml);
        return 0;
    }
    int best = -INF_MARGIN;
    for (int i = 0; i < ml.n; i++) {
        Game child = *g;
        game_play(&child, ml.v[i].card, ml.v[i].capture);
        /* The two sides alternate in seat order, so the child's mover is the
           other side. */
        int v = -negamax(&child, -beta, -alpha, sv);
        if (sv->error) break;
        if (v > best) best = v;
        if (best > alpha) alpha = best;
        if (alpha >= beta) break;
    }
    ml_free(&ml);
    if (slot != NULL && !sv->error) {
        for (int s = 0; s < MAX_SEATS; s++) slot->hands[s] = g->hands[s];
        slot->table = g->table;
        slot->pile0 = g->piles[0];
        slot->last = (int8_t)g->last;
        slot->turn = (int8_t)g->turn;
        slot->generation = TT_GENERATION;
        slot->value = (int16_t)(best - made);
        slot->flag = best <= alpha0 ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
    }
    return best;
}

/* Whether the exact solver applies (endgame.solvable). */
static int solvable(const Game *g) {
    return g->sides == 2 && !g->over && g->stock_pos == g->stock_len && g->in_hands > 0;
}

static int solver_start(Solver *sv, const Game *g) {
    sv->error = 0;
    sv->nodes = 0;
    sv->use_tt = g->in_hands >= TT_FROM_CARDS;
    if (sv->use_tt) {
        if (TT == NULL) {
            TT = (TTEntry *)PyMem_RawCalloc(TT_SIZE, sizeof(TTEntry));
            if (TT == NULL) return -1;
        }
        /* A new generation empties the table without touching it. */
        if (++TT_GENERATION == 0) {
            memset(TT, 0, sizeof(TTEntry) * TT_SIZE);
            TT_GENERATION = 1;
        }
    }
    return 0;
}

/* The exact margin for the side to move in a solvable position. */
static int solve_value(const Game *g, Solver *sv) {
    if (solver_start(sv, g) < 0) {
        sv->error = 1;
        return 0;
    }
    return negamax(g, -INF_MARGIN, INF_MARGIN, sv);
}

/* ---- a playout's margin (chkobba.agents.expert.playout_margin) ------------ */

/* Finish `g`, solving it exactly once two sides are left with an empty stock and
   at most `solve_cards` cards in hands; `side`'s margin. Returns INT_MIN on an
   inconsistent state or out of memory. */
static int playout_margin(Game *g, int side, int solve_cards, MoveList *ml, Rng *rng) {
    if (g->void_deal) return 0;
    if (solvable(g) && g->in_hands <= solve_cards) {
        Solver sv;
        int v = solve_value(g, &sv);
        if (sv.error) return INT_MIN;
        return g->side_of[g->turn] == side ? v : -v;
    }
    if (game_rollout(g, ml, rng, 0) < 0) return INT_MIN;
    int pts[MAX_SEATS];
    score_points(g, pts);
    return margin_of(pts, g->sides, side);
}

/* ---- inference from the other seats' plays (chkobba.search.inference) ----- */

/* inference.Decision: one play of another seat in the current deal. */
typedef struct {
    int seat, card, side, last, last_play;
    int next_hand; /* -1: the next seat is a partner */
    mask_t capture, table, public_cards, later;
} Decision;

#define MAX_DECISIONS (MAX_SEATS * HAND_SIZE)

/* inference.decision_log_likelihood: log P(the play | the seat held `hand` then), a
   softmax over the policy's scores at `scale` millionths of a point; the same
   operations in the same order as the reference. NAN if the play is not legal
   from `hand` (an inconsistent deal) or memory ran out. */
static double decision_log_likelihood(const Decision *d, mask_t hand, int max_cards,
                                      int may_drop, double scale, MoveList *ml) {
    gen_plays(hand, d->table, max_cards, may_drop, ml);
    if (ml->failed || ml->n == 0) return NAN;
    int chosen = -1;
    for (int i = 0; i < ml->n; i++)
        if (ml->v[i].card == d->card && ml->v[i].capture == d->capture) chosen = i;
    if (chosen < 0) return NAN;
    if (ml->n == 1) return 0.0;
    PolicyContext ctx;
    ctx.table = d->table;
    ctx.last_play = d->last_play;
    ctx.side = d->side;
    ctx.last = d->last;
    ctx.threat = d->next_hand >= 0;
    if (ctx.threat) {
        mask_t unseen = ALL_CARDS & ~(hand | d->public_cards);
        int total = popcount(unseen);
        ctx.chances[0] = 0.0;
        for (int v = 1; v <= 10; v++)
            ctx.chances[v] = holds_one(total, popcount(unseen & RANK_MASK[v - 1]), d->next_hand);
    }
    int64_t best = 0;
    for (int i = 0; i < ml->n; i++) {
        int64_t s = play_score(ml->v[i].card, ml->v[i].capture, &ctx);
        ml->v[i].score = s;
        if (i == 0 || s > best) best = s;
    }
    double z = 0.0;
    for (int i = 0; i < ml->n; i++) z += exp((double)(ml->v[i].score - best) / scale);
    return (double)(ml->v[chosen].score - best) / scale - log(z);
}

/* inference.log_likelihood: the log of a sampled deal's weight (`hands`: every
   seat's cards now). */
static double deal_log_likelihood(const Decision *ds, int n, const mask_t *hands, int max_cards,
                                  int may_drop, double scale, MoveList *ml) {
    double total = 0.0;
    for (int i = 0; i < n; i++)
        total += decision_log_likelihood(&ds[i], hands[ds[i].seat] | ds[i].later, max_cards,
                                         may_drop, scale, ml);
    return total;
}

/* ---- arguments from Python ------------------------------------------------- */

static const char RANK_LETTERS[] = "A234567QJK";
static const char SUIT_LETTERS[] = "shdc";

static void card_name(int c, char out[3]) {
    out[0] = RANK_LETTERS[c % 10];
    out[1] = SUIT_LETTERS[c / 10];
    out[2] = 0;
}

/* A card set: an int holding only bits 0..39. */
static int get_mask(PyObject *o, mask_t *out, const char *what) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be a card set (an int mask), not %.80s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < 0 || ((unsigned long long)v & ~ALL_CARDS)) {
        PyErr_Format(PyExc_ValueError, "%s must be a set of the 40 cards (a mask below 2**40)",
                     what);
        return -1;
    }
    *out = (mask_t)v;
    return 0;
}

static int get_int(PyObject *o, int lo, int hi, int *out, const char *what) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.80s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be from %d to %d", what, lo, hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* A sequence of exactly `n` ints in [lo, hi] (n < 0: any length up to -n). */
static int get_ints(PyObject *o, int n, int lo, int hi, int *out, int *len, const char *what) {
    PyObject *seq = PySequence_Fast(o, "");
    if (seq == NULL) {
        PyErr_Format(PyExc_TypeError, "%s must be a sequence of ints", what);
        return -1;
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if ((n >= 0 && k != n) || (n < 0 && k > -n)) {
        if (n >= 0)
            PyErr_Format(PyExc_ValueError, "%s must hold %d entries, not %zd", what, n, k);
        else
            PyErr_Format(PyExc_ValueError, "%s must hold at most %d entries, not %zd", what, -n,
                         k);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        if (get_int(PySequence_Fast_GET_ITEM(seq, i), lo, hi, &out[i], what) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    if (len != NULL) *len = (int)k;
    Py_DECREF(seq);
    return 0;
}

static int get_masks(PyObject *o, int n, mask_t *out, const char *what) {
    PyObject *seq = PySequence_Fast(o, "");
    if (seq == NULL) {
        PyErr_Format(PyExc_TypeError, "%s must be a sequence of card sets", what);
        return -1;
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k != n) {
        PyErr_Format(PyExc_ValueError, "%s must hold %d entries, not %zd", what, n, k);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        if (get_mask(PySequence_Fast_GET_ITEM(seq, i), &out[i], what) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static int check_max_cards(int max_cards) {
    if (max_cards < 0 || max_cards == 1) {
        PyErr_Format(PyExc_ValueError,
                     "max_capture_cards must be 0 (no limit) or at least 2, not %d", max_cards);
        return -1;
    }
    return 0;
}

/* The seating of docs/rules.md §2.1: one side per seat, or 2 against 2. */
static int get_seating(PyObject *o, int seats, int *side_of, int *sides) {
    if (seats < 2 || seats > MAX_SEATS) {
        PyErr_Format(PyExc_ValueError, "Chkobba is played by 2, 3 or 4 players, not %d", seats);
        return -1;
    }
    if (get_ints(o, seats, 0, seats - 1, side_of, NULL, "side_of") < 0) return -1;
    int singles = 1, teams = seats == 4;
    for (int s = 0; s < seats; s++) {
        if (side_of[s] != s) singles = 0;
        if (side_of[s] != s % 2) teams = 0;
    }
    if (!singles && !teams) {
        PyErr_SetString(PyExc_ValueError,
                        "side_of must give each seat its own side (0, 1, ...) or pair "
                        "partners opposite (0, 1, 0, 1)");
        return -1;
    }
    *sides = singles ? seats : 2;
    return 0;
}

/* Add `m` to the cards seen so far; a card named twice is an error. */
static int claim(mask_t *seen, mask_t m, const char *what) {
    mask_t twice = *seen & m;
    if (twice) {
        char name[3];
        card_name(lowest(twice), name);
        PyErr_Format(PyExc_ValueError, "card %s appears twice in the state (again in %s)", name,
                     what);
        return -1;
    }
    *seen |= m;
    return 0;
}

/* Hand sizes as play leaves them: from the seat to move round the table, each
   hand no larger than the one before and at most one card smaller than the
   mover's, the mover holding a card. */
static int check_hand_sizes(const Game *g) {
    int k = popcount(g->hands[g->turn]);
    int prev = k;
    int ok = k > 0;
    for (int i = 1; i < g->seats && ok; i++) {
        int n = popcount(g->hands[(g->turn + i) % g->seats]);
        if (n > prev || n < k - 1) ok = 0;
        prev = n;
    }
    if (!ok) {
        PyErr_Format(PyExc_ValueError,
                     "the hand sizes do not fit seat %d to move: from the mover round the "
                     "table each hand must hold as many cards as the one before or one fewer",
                     g->turn);
        return -1;
    }
    return 0;
}

/* A round in the play phase from the fields of chkobba.fast.FastState. */
static int get_state(PyObject *st, Game *g) {
    if (!PyTuple_Check(st) || PyTuple_GET_SIZE(st) != 12) {
        PyErr_SetString(PyExc_TypeError,
                        "state must be a chkobba.fast.FastState (a tuple of 12 fields)");
        return -1;
    }
    memset(g, 0, sizeof(*g));
    PyObject **f = &PyTuple_GET_ITEM(st, 0);
    if (get_int(f[0], 2, MAX_SEATS, &g->seats, "seats") < 0) return -1;
    if (get_seating(f[1], g->seats, g->side_of, &g->sides) < 0) return -1;
    if (get_int(f[2], 0, g->seats - 1, &g->cutter, "cutter") < 0) return -1;
    if (get_masks(f[3], g->seats, g->hands, "hands") < 0) return -1;
    if (get_mask(f[4], &g->table, "table") < 0) return -1;
    if (get_masks(f[5], g->sides, g->piles, "piles") < 0) return -1;
    if (get_ints(f[6], g->sides, 0, 40, g->chk, NULL, "chkobba") < 0) return -1;
    if (get_int(f[7], -1, g->sides - 1, &g->last, "last_capturer") < 0) return -1;
    if (get_int(f[8], 0, g->seats - 1, &g->turn, "turn") < 0) return -1;
    int stock[NCARDS];
    int n_stock = 0;
    if (get_ints(f[9], -NCARDS, 0, NCARDS - 1, stock, &n_stock, "stock") < 0) return -1;
    if (get_int(f[10], 0, NCARDS, &g->max_cards, "max_capture_cards") < 0) return -1;
    if (check_max_cards(g->max_cards) < 0) return -1;
    int drop = PyObject_IsTrue(f[11]);
    if (drop < 0) return -1;
    g->may_drop = drop;
    mask_t seen = 0;
    for (int s = 0; s < g->seats; s++)
        if (claim(&seen, g->hands[s], "hands") < 0) return -1;
    if (claim(&seen, g->table, "table") < 0) return -1;
    for (int s = 0; s < g->sides; s++)
        if (claim(&seen, g->piles[s], "piles") < 0) return -1;
    for (int i = 0; i < n_stock; i++) {
        if (claim(&seen, (mask_t)1 << stock[i], "stock") < 0) return -1;
        g->stock[i] = (int8_t)stock[i];
    }
    if (n_stock % (HAND_SIZE * g->seats)) {
        PyErr_Format(PyExc_ValueError,
                     "the stock must hold whole deals of 3 cards a seat (a multiple of %d), "
                     "not %d cards",
                     HAND_SIZE * g->seats, n_stock);
        return -1;
    }
    g->stock_len = n_stock;
    for (int s = 0; s < g->seats; s++) g->in_hands += popcount(g->hands[s]);
    if (g->in_hands == 0) {
        PyErr_SetString(PyExc_ValueError, "no cards in hands: the round is over");
        return -1;
    }
    return check_hand_sizes(g);
}

/* The decisions to explain, as chkobba.fast passes them: a sequence of
   (seat, card, capture, table, public, side, last_capturer, last_play, next_hand,
   later) tuples (inference.Decision, last_capturer -1 for nobody). */
static int get_decisions(PyObject *o, int seats, int sides, Decision *out, int *n) {
    PyObject *seq = PySequence_Fast(o, "");
    if (seq == NULL) {
        PyErr_SetString(PyExc_TypeError, "decisions must be a sequence of tuples");
        return -1;
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k > MAX_DECISIONS) {
        PyErr_Format(PyExc_ValueError, "at most %d decisions in a deal, not %zd", MAX_DECISIONS,
                     k);
        Py_DECREF(seq);
        return -1;
    }
    int rc = 0;
    for (Py_ssize_t i = 0; i < k && rc == 0; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(seq, i);
        Decision *d = &out[i];
        PyObject *f = PySequence_Fast(t, "");
        if (f == NULL || PySequence_Fast_GET_SIZE(f) != 10) {
            Py_XDECREF(f);
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "each decision must be a tuple of 10 fields");
            rc = -1;
            break;
        }
        PyObject **x = PySequence_Fast_ITEMS(f);
        int last_play;
        if (get_int(x[0], 0, seats - 1, &d->seat, "a decision's seat") < 0 ||
            get_int(x[1], 0, NCARDS - 1, &d->card, "a decision's card") < 0 ||
            get_mask(x[2], &d->capture, "a decision's capture") < 0 ||
            get_mask(x[3], &d->table, "a decision's table") < 0 ||
            get_mask(x[4], &d->public_cards, "a decision's public cards") < 0 ||
            get_int(x[5], 0, sides - 1, &d->side, "a decision's side") < 0 ||
            get_int(x[6], -1, sides - 1, &d->last, "a decision's last capturer") < 0 ||
            get_int(x[7], 0, 1, &last_play, "a decision's last_play") < 0 ||
            get_int(x[8], -1, NCARDS, &d->next_hand, "a decision's next hand") < 0 ||
            get_mask(x[9], &d->later, "a decision's later cards") < 0) {
            rc = -1;
        } else if (!(d->later >> d->card & 1) || (d->capture & ~d->table)) {
            PyErr_SetString(PyExc_ValueError,
                            "a decision's card must be among its later cards and its capture "
                            "on its table");
            rc = -1;
        }
        d->last_play = last_play;
        Py_DECREF(f);
    }
    Py_DECREF(seq);
    if (rc == 0) *n = (int)k;
    return rc;
}

/* The softmax's scale in millionths of a point, or 0 for no inference. */
static int get_scale(double temperature, double *scale) {
    if (!(temperature >= 0.0) || isinf(temperature)) {
        PyErr_SetString(PyExc_ValueError,
                        "the temperature must be a non-negative number of points (0: uniform)");
        return -1;
    }
    *scale = temperature * 1000000.0;
    return 0;
}

static PyObject *points_list(const Game *g) {
    int pts[MAX_SEATS];
    score_points(g, pts);
    PyObject *out = PyList_New(g->sides);
    if (out == NULL) return NULL;
    for (int s = 0; s < g->sides; s++) {
        PyObject *v = PyLong_FromLong(pts[s]);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, s, v);
    }
    return out;
}

static PyObject *play_tuple(int card, mask_t capture) {
    return Py_BuildValue("(iK)", card, (unsigned long long)capture);
}

static int policy_ready(void) {
    if (!POLICY.ready) {
        PyErr_SetString(PyExc_RuntimeError,
                        "the playout policy's weights are not set: import chkobba.fast");
        return -1;
    }
    return 0;
}

/* ---- module functions ------------------------------------------------------ */

PyDoc_STRVAR(set_policy_doc,
             "set_policy(weights, lay, caution)\n--\n\n"
             "Set the playout policy's weights in millionths of a point: weights holds card, "
             "diamond, seven, six, haya and sweep; lay each card's cost when laid; caution "
             "how much the next player's threat counts.");

/* A sequence of exactly n ints of any size that fits 64 bits. */
static int get_int64s(PyObject *o, int n, int64_t *out, const char *what) {
    PyObject *seq = PySequence_Fast(o, "");
    if (seq == NULL || PySequence_Fast_GET_SIZE(seq) != n) {
        Py_XDECREF(seq);
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be a sequence of %d ints", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *fc_set_policy(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *weights_o, *lay_o;
    double caution;
    if (!PyArg_ParseTuple(args, "OOd:set_policy", &weights_o, &lay_o, &caution)) return NULL;
    int64_t w[6], lay[NCARDS];
    if (get_int64s(weights_o, 6, w, "weights") < 0 || get_int64s(lay_o, NCARDS, lay, "lay") < 0)
        return NULL;
    POLICY.card = w[0];
    POLICY.diamond = w[1];
    POLICY.seven = w[2];
    POLICY.six = w[3];
    POLICY.haya = w[4];
    POLICY.sweep = w[5];
    memcpy(POLICY.lay, lay, sizeof(lay));
    POLICY.caution = caution;
    POLICY.ready = 1;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(legal_plays_doc,
             "legal_plays(hand, table, max_capture_cards, may_drop)\n--\n\n"
             "The legal plays as (card, capture) pairs, in Round.legal_moves order.");

static PyObject *fc_legal_plays(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *ho, *to;
    int max_cards, may_drop;
    if (!PyArg_ParseTuple(args, "OOip:legal_plays", &ho, &to, &max_cards, &may_drop)) return NULL;
    mask_t hand, table;
    if (get_mask(ho, &hand, "hand") < 0 || get_mask(to, &table, "table") < 0) return NULL;
    if (check_max_cards(max_cards) < 0) return NULL;
    if (hand & table) {
        char name[3];
        card_name(lowest(hand & table), name);
        PyErr_Format(PyExc_ValueError, "card %s is both in the hand and on the table", name);
        return NULL;
    }
    MoveList ml;
    ml_init(&ml);
    gen_plays(hand, table, max_cards, may_drop, &ml);
    if (ml.failed) {
        ml_free(&ml);
        return PyErr_NoMemory();
    }
    PyObject *out = PyList_New(ml.n);
    if (out != NULL) {
        for (int i = 0; i < ml.n; i++) {
            PyObject *t = play_tuple(ml.v[i].card, ml.v[i].capture);
            if (t == NULL) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(out, i, t);
        }
    }
    ml_free(&ml);
    return out;
}

/* Written by random_rounds so the compiler cannot skip the scoring. */
static volatile long long POINTS_SINK = 0;

PyDoc_STRVAR(random_rounds_doc,
             "random_rounds(n, seed)\n--\n\n"
             "Play n random 2-player rounds (dealer 0, a random cut decision, void deals "
             "redealt, each play drawn uniformly among the legal ones, full scoring); return "
             "the number of plays made.");

static PyObject *fc_random_rounds(PyObject *Py_UNUSED(self), PyObject *args) {
    long long n;
    PyObject *seed_o;
    if (!PyArg_ParseTuple(args, "LO:random_rounds", &n, &seed_o)) return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "the number of rounds must not be negative");
        return NULL;
    }
    uint64_t seed = PyLong_AsUnsignedLongLongMask(seed_o);
    if (seed == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    Rng rng;
    rng_seed(&rng, seed);
    static const int side_of[2] = {0, 1};
    int8_t deck[NCARDS];
    for (int c = 0; c < NCARDS; c++) deck[c] = (int8_t)c;
    long long plays = 0, points = 0;
    MoveList ml;
    ml_init(&ml);
    Game g;
    for (long long r = 0; r < n; r++) {
        do {
            shuffle(deck, NCARDS, &rng);
            game_new(&g, 2, side_of, 0, deck, 0, 0);
            /* legal_moves() at the cut is [keep, table]. */
            game_deal(&g, rng_below(&rng, 2) == 0 ? 1 : 0, 3);
        } while (g.void_deal);
        while (!g.over) {
            gen_plays(g.hands[g.turn], g.table, 0, 0, &ml);
            if (ml.failed) {
                ml_free(&ml);
                return PyErr_NoMemory();
            }
            int i = (int)rng_below(&rng, (uint32_t)ml.n);
            game_play(&g, ml.v[i].card, ml.v[i].capture);
            plays++;
        }
        int pts[MAX_SEATS];
        score_points(&g, pts);
        points += pts[0] * 64 + pts[1];
    }
    ml_free(&ml);
    POINTS_SINK += points;
    return PyLong_FromLongLong(plays);
}

PyDoc_STRVAR(play_choices_doc,
             "play_choices(seats, side_of, dealer, deck, cut_choice, max_capture_cards, "
             "may_drop, void_deal_count, choices)\n--\n\n"
             "Deal deck as Round does and play one round, taking at each decision the legal "
             "move at index int(u * len(legal)) for the next u of choices. Returns the moves "
             "('keep', 'table' or (card, capture)) and each side's points; the points are "
             "empty when the deal is void.");

static PyObject *fc_play_choices(PyObject *Py_UNUSED(self), PyObject *args) {
    int seats, dealer, cut_choice, max_cards, may_drop, void_count;
    PyObject *side_o, *deck_o, *choices_o;
    if (!PyArg_ParseTuple(args, "iOiOpipiO:play_choices", &seats, &side_o, &dealer, &deck_o,
                          &cut_choice, &max_cards, &may_drop, &void_count, &choices_o))
        return NULL;
    int side_of[MAX_SEATS], sides;
    if (get_seating(side_o, seats, side_of, &sides) < 0) return NULL;
    if (dealer < 0 || dealer >= seats) {
        PyErr_Format(PyExc_ValueError, "dealer must be a seat from 0 to %d, not %d", seats - 1,
                     dealer);
        return NULL;
    }
    if (check_max_cards(max_cards) < 0) return NULL;
    if (void_count < 2 || void_count > 5) {
        PyErr_Format(PyExc_ValueError, "void_deal_count must be 2 to 5, not %d", void_count);
        return NULL;
    }
    int deck_i[NCARDS];
    if (get_ints(deck_o, NCARDS, 0, NCARDS - 1, deck_i, NULL, "deck") < 0) return NULL;
    int8_t deck[NCARDS];
    mask_t seen = 0;
    for (int i = 0; i < NCARDS; i++) {
        if (claim(&seen, (mask_t)1 << deck_i[i], "deck") < 0) return NULL;
        deck[i] = (int8_t)deck_i[i];
    }
    PyObject *choices = PySequence_Fast(choices_o, "choices must be a sequence of floats");
    if (choices == NULL) return NULL;
    Py_ssize_t n_choices = PySequence_Fast_GET_SIZE(choices), next = 0;
    PyObject *moves = PyList_New(0);
    PyObject *result = NULL;
    MoveList ml;
    ml_init(&ml);
    Game g;
    if (moves == NULL) goto done;
#define NEXT_CHOICE(n_legal, out_index)                                                        \
    do {                                                                                       \
        if (next >= n_choices) {                                                               \
            PyErr_Format(PyExc_ValueError, "choices ran out after %zd decisions", n_choices); \
            goto done;                                                                         \
        }                                                                                      \
        double u = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(choices, next));                  \
        if (u == -1.0 && PyErr_Occurred()) goto done;                                          \
        if (!(u >= 0.0 && u < 1.0)) {                                                          \
            PyErr_Format(PyExc_ValueError, "choice %zd must be in [0, 1)", next);              \
            goto done;                                                                         \
        }                                                                                      \
        next++;                                                                                \
        out_index = (Py_ssize_t)(u * (double)(n_legal));                                       \
    } while (0)
    game_new(&g, seats, side_of, dealer, deck, max_cards, may_drop);
    if (cut_choice) {
        Py_ssize_t k;
        NEXT_CHOICE(2, k);
        PyObject *name = PyUnicode_FromString(k == 0 ? "keep" : "table");
        if (name == NULL || PyList_Append(moves, name) < 0) {
            Py_XDECREF(name);
            goto done;
        }
        Py_DECREF(name);
        game_deal(&g, k == 0 ? 1 : 0, void_count);
    } else {
        game_deal(&g, -1, void_count);
    }
    if (g.void_deal) {
        result = Py_BuildValue("(O[])", moves);
        goto done;
    }
    while (!g.over) {
        gen_plays(g.hands[g.turn], g.table, g.max_cards, g.may_drop, &ml);
        if (ml.failed) {
            PyErr_NoMemory();
            goto done;
        }
        Py_ssize_t k;
        NEXT_CHOICE(ml.n, k);
        PyObject *t = play_tuple(ml.v[k].card, ml.v[k].capture);
        if (t == NULL || PyList_Append(moves, t) < 0) {
            Py_XDECREF(t);
            goto done;
        }
        Py_DECREF(t);
        game_play(&g, ml.v[k].card, ml.v[k].capture);
    }
#undef NEXT_CHOICE
    {
        PyObject *pts = points_list(&g);
        if (pts != NULL) {
            result = PyTuple_Pack(2, moves, pts);
            Py_DECREF(pts);
        }
    }
done:
    ml_free(&ml);
    Py_XDECREF(moves);
    Py_DECREF(choices);
    return result;
}

PyDoc_STRVAR(rollout_doc,
             "rollout(state, seed, deterministic)\n--\n\n"
             "Finish the round from state with the playout policy; each side's points. "
             "deterministic breaks ties by the first best play in legal order.");

static PyObject *fc_rollout(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *st, *seed_o;
    int first_best;
    if (!PyArg_ParseTuple(args, "OOp:rollout", &st, &seed_o, &first_best)) return NULL;
    if (policy_ready() < 0) return NULL;
    Game g;
    if (get_state(st, &g) < 0) return NULL;
    uint64_t seed = PyLong_AsUnsignedLongLongMask(seed_o);
    if (seed == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    Rng rng;
    rng_seed(&rng, seed);
    MoveList ml;
    ml_init(&ml);
    int rc = game_rollout(&g, &ml, &rng, first_best);
    int failed = ml.failed;
    ml_free(&ml);
    if (rc < 0) {
        if (failed) return PyErr_NoMemory();
        PyErr_SetString(PyExc_ValueError, "a seat to move has no card: inconsistent state");
        return NULL;
    }
    return points_list(&g);
}

PyDoc_STRVAR(solve_doc,
             "solve(state)\n--\n\n"
             "The exact round-point margin of each legal play for the side to move, as "
             "(card, capture, margin) in legal order: two sides, nothing left in the stock.");

static PyObject *fc_solve(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *st;
    if (!PyArg_ParseTuple(args, "O:solve", &st)) return NULL;
    Game g;
    if (get_state(st, &g) < 0) return NULL;
    if (g.sides != 2 || g.stock_len != 0) {
        PyErr_SetString(PyExc_ValueError,
                        "solve needs two sides and an empty stock (every card known)");
        return NULL;
    }
    Solver sv;
    if (solver_start(&sv, &g) < 0) return PyErr_NoMemory();
    MoveList ml;
    ml_init(&ml);
    gen_plays(g.hands[g.turn], g.table, g.max_cards, g.may_drop, &ml);
    if (ml.failed) {
        ml_free(&ml);
        return PyErr_NoMemory();
    }
    int side = g.side_of[g.turn];
    PyObject *out = PyList_New(ml.n);
    for (int i = 0; out != NULL && i < ml.n; i++) {
        Game child = g;
        game_play(&child, ml.v[i].card, ml.v[i].capture);
        int v = negamax(&child, -INF_MARGIN, INF_MARGIN, &sv);
        if (sv.error) {
            Py_CLEAR(out);
            PyErr_SetString(PyExc_ValueError, "a seat to move has no card: inconsistent state");
            break;
        }
        if (child.side_of[child.turn] != side) v = -v;
        PyObject *t = Py_BuildValue("(iKd)", ml.v[i].card, (unsigned long long)ml.v[i].capture,
                                    (double)v);
        if (t == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, t);
    }
    ml_free(&ml);
    return out;
}

PyDoc_STRVAR(evaluate_doc,
             "evaluate(cut_phase, seat, side_of, turn, dealer, hand, table, cut_card, piles, "
             "chkobba, last_capturer, hand_sizes, unseen, stock, max_capture_cards, may_drop, "
             "void_deal_count, samples, seed, solve_cards, temperature, decisions, known=None)\n--\n\n"
             "The expert's inner loop: the summed margin of each root move over sampled deals "
             "(chkobba.fast.evaluate takes an Observation). With a positive temperature each "
             "deal's margins are weighted by how likely it makes the decisions "
             "(chkobba.search.inference). `known` (one card set per seat, 0 for a hidden "
             "hand) fixes the other hands that the evaluator is let see; only the rest of "
             "the unseen cards is sampled.");

static PyObject *fc_evaluate(PyObject *Py_UNUSED(self), PyObject *args) {
    int cut_phase, seat, seats, turn, dealer, cut_card, last, stock, max_cards, may_drop,
        void_count, sides, solve_cards;
    long long samples;
    double temperature, scale;
    PyObject *side_o, *hand_o, *table_o, *piles_o, *chk_o, *sizes_o, *unseen_o, *seed_o, *dec_o,
        *known_o = Py_None;
    if (!PyArg_ParseTuple(args, "piOiiOOiOOiOOiipiLOidO|O:evaluate", &cut_phase, &seat, &side_o,
                          &turn, &dealer, &hand_o, &table_o, &cut_card, &piles_o, &chk_o, &last,
                          &sizes_o, &unseen_o, &stock, &max_cards, &may_drop, &void_count,
                          &samples, &seed_o, &solve_cards, &temperature, &dec_o, &known_o))
        return NULL;
    if (get_scale(temperature, &scale) < 0) return NULL;
    if (policy_ready() < 0) return NULL;
    PyObject *seq = PySequence_Fast(side_o, "side_of must be a sequence of ints");
    if (seq == NULL) return NULL;
    seats = (int)PySequence_Fast_GET_SIZE(seq);
    Py_DECREF(seq);
    Game base;
    memset(&base, 0, sizeof(base));
    int side_of[MAX_SEATS];
    if (get_seating(side_o, seats, side_of, &sides) < 0) return NULL;
    if (seat < 0 || seat >= seats || turn != seat) {
        PyErr_SetString(PyExc_ValueError, "the observer must be the seat to move");
        return NULL;
    }
    if (dealer < 0 || dealer >= seats) {
        PyErr_Format(PyExc_ValueError, "dealer must be a seat from 0 to %d", seats - 1);
        return NULL;
    }
    if (check_max_cards(max_cards) < 0) return NULL;
    if (void_count < 2 || void_count > 5) {
        PyErr_Format(PyExc_ValueError, "void_deal_count must be 2 to 5, not %d", void_count);
        return NULL;
    }
    if (samples < 0) {
        PyErr_SetString(PyExc_ValueError, "samples must not be negative");
        return NULL;
    }
    mask_t hand, table, unseen, piles[MAX_SEATS];
    int chk[MAX_SEATS], sizes[MAX_SEATS];
    if (get_mask(hand_o, &hand, "hand") < 0 || get_mask(table_o, &table, "table") < 0 ||
        get_mask(unseen_o, &unseen, "unseen") < 0 ||
        get_masks(piles_o, sides, piles, "piles") < 0 ||
        get_ints(chk_o, sides, 0, 40, chk, NULL, "chkobba") < 0 ||
        get_ints(sizes_o, seats, 0, NCARDS, sizes, NULL, "hand_sizes") < 0)
        return NULL;
    if (last < -1 || last >= sides) {
        PyErr_SetString(PyExc_ValueError, "last_capturer must be a side or -1");
        return NULL;
    }
    uint64_t seed = PyLong_AsUnsignedLongLongMask(seed_o);
    if (seed == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    Decision decisions[MAX_DECISIONS];
    int n_decisions = 0;
    if (get_decisions(dec_o, seats, sides, decisions, &n_decisions) < 0) return NULL;
    if (scale == 0.0 || cut_phase) n_decisions = 0;
    for (int i = 0; i < n_decisions; i++)
        if (decisions[i].seat == seat) {
            PyErr_SetString(PyExc_ValueError, "the observer's own plays are not decisions to explain");
            return NULL;
        }

    /* Hands the evaluator is let see (a measurement's peeking player): fixed in
       every sample; the other hands and the stock are drawn from the rest. */
    mask_t known[MAX_SEATS] = {0}, known_all = 0;
    if (known_o != Py_None) {
        if (cut_phase) {
            PyErr_SetString(PyExc_ValueError, "known hands are for the play, not the cut");
            return NULL;
        }
        if (get_masks(known_o, seats, known, "known") < 0) return NULL;
        for (int s = 0; s < seats; s++) {
            if (!known[s]) continue;
            if (s == seat || (known[s] & ~unseen) || (known_all & known[s]) ||
                popcount(known[s]) != sizes[s]) {
                PyErr_Format(PyExc_ValueError,
                             "known hand of seat %d must be %d unseen cards of another seat", s,
                             sizes[s]);
                return NULL;
            }
            known_all |= known[s];
        }
    }

    int8_t unseen_cards[NCARDS];
    int n_unseen = 0;
    for (mask_t m = unseen & ~known_all; m; m &= m - 1)
        unseen_cards[n_unseen++] = (int8_t)lowest(m);

    mask_t seen = 0;
    int n_moves;
    MoveList roots;
    ml_init(&roots);
    if (cut_phase) {
        if (cut_card < 0 || cut_card >= NCARDS || n_unseen != NCARDS - 1 ||
            (unseen >> cut_card & 1)) {
            PyErr_SetString(PyExc_ValueError,
                            "at the cut the cutter knows the cut card and nothing else");
            return NULL;
        }
        n_moves = 2; /* keep, table */
    } else {
        if (claim(&seen, hand, "hand") < 0 || claim(&seen, table, "table") < 0) return NULL;
        for (int s = 0; s < sides; s++)
            if (claim(&seen, piles[s], "piles") < 0) return NULL;
        if (claim(&seen, unseen, "unseen") < 0) return NULL;
        int others = 0;
        for (int s = 0; s < seats; s++)
            if (s != seat) others += sizes[s];
        if (popcount(hand) != sizes[seat] || popcount(unseen) != others + stock || stock < 0 ||
            stock % (HAND_SIZE * seats)) {
            PyErr_SetString(PyExc_ValueError,
                            "the unseen cards do not fill the other hands and the stock");
            return NULL;
        }
        base.seats = seats;
        base.sides = sides;
        memcpy(base.side_of, side_of, sizeof(side_of));
        base.cutter = (dealer + 1) % seats;
        base.turn = turn;
        base.last = last;
        base.max_cards = max_cards;
        base.may_drop = may_drop;
        base.table = table;
        for (int s = 0; s < sides; s++) {
            base.piles[s] = piles[s];
            base.chk[s] = chk[s];
        }
        base.in_hands = others + sizes[seat];
        base.hands[seat] = hand;
        gen_plays(hand, table, max_cards, may_drop, &roots);
        if (roots.failed) {
            ml_free(&roots);
            return PyErr_NoMemory();
        }
        n_moves = roots.n;
        if (n_moves == 0) {
            ml_free(&roots);
            PyErr_SetString(PyExc_ValueError, "the observer has no card to play");
            return NULL;
        }
    }

    double *totals = (double *)PyMem_Calloc((size_t)n_moves, sizeof(double));
    if (totals == NULL) {
        ml_free(&roots);
        return PyErr_NoMemory();
    }
    Rng rng;
    rng_seed(&rng, seed);
    MoveList ml;
    ml_init(&ml);
    int side = side_of[seat];
    int bad = 0;
    for (long long k = 0; k < samples && !bad; k++) {
        Game deal;
        if (cut_phase) {
            /* Before the cut only the cutter knows a card: the top of the deck. */
            int8_t deck[NCARDS];
            shuffle(unseen_cards, n_unseen, &rng);
            deck[0] = (int8_t)cut_card;
            memcpy(deck + 1, unseen_cards, NCARDS - 1);
            game_new(&deal, seats, side_of, dealer, deck, max_cards, may_drop);
        } else {
            /* determinize: the other hands in seat order, the rest as the stock. */
            shuffle(unseen_cards, n_unseen, &rng);
            deal = base;
            int pos = 0;
            for (int s = 0; s < seats; s++) {
                if (s == seat) continue;
                if (known[s]) {
                    deal.hands[s] = known[s];
                    continue;
                }
                for (int i = 0; i < sizes[s]; i++)
                    deal.hands[s] |= (mask_t)1 << unseen_cards[pos++];
            }
            memcpy(deal.stock, unseen_cards + pos, (size_t)(n_unseen - pos));
            deal.stock_len = n_unseen - pos;
            deal.stock_pos = 0;
        }
        double weight = 1.0;
        if (n_decisions) {
            weight = exp(deal_log_likelihood(decisions, n_decisions, deal.hands, max_cards,
                                             may_drop, scale, &ml));
            if (isnan(weight)) {
                bad = 2;
                break;
            }
            /* A deal that cannot explain the plays adds nothing: no playouts. */
            if (weight == 0.0) continue;
        }
        for (int i = 0; i < n_moves; i++) {
            Game g = deal;
            if (cut_phase)
                game_deal(&g, i == 0 ? 1 : 0, void_count);
            else
                game_play(&g, roots.v[i].card, roots.v[i].capture);
            int m = playout_margin(&g, side, solve_cards, &ml, &rng);
            if (m == INT_MIN) {
                bad = 1;
                break;
            }
            totals[i] += weight * m;
        }
    }
    int failed = ml.failed;
    ml_free(&ml);
    ml_free(&roots);
    PyObject *out = NULL;
    if (bad) {
        if (failed)
            PyErr_NoMemory();
        else if (bad == 2)
            PyErr_SetString(PyExc_ValueError,
                            "a sampled deal cannot have made a decision's play: inconsistent "
                            "decisions");
        else
            PyErr_SetString(PyExc_ValueError, "a seat to move has no card: inconsistent state");
    } else {
        out = PyList_New(n_moves);
        for (int i = 0; out != NULL && i < n_moves; i++) {
            PyObject *v = PyFloat_FromDouble(totals[i]);
            if (v == NULL) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(out, i, v);
        }
    }
    PyMem_Free(totals);
    return out;
}

PyDoc_STRVAR(likelihoods_doc,
             "likelihoods(decisions, max_capture_cards, may_drop, temperature, deals)\n--\n\n"
             "For each deal (every seat's hand now) the log of its weight: how likely it "
             "makes the decisions (chkobba.search.inference.log_likelihood).");

static PyObject *fc_likelihoods(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *dec_o, *deals_o;
    int max_cards, may_drop;
    double temperature, scale;
    if (!PyArg_ParseTuple(args, "OipdO:likelihoods", &dec_o, &max_cards, &may_drop, &temperature,
                          &deals_o))
        return NULL;
    if (policy_ready() < 0 || check_max_cards(max_cards) < 0) return NULL;
    if (get_scale(temperature, &scale) < 0) return NULL;
    Decision decisions[MAX_DECISIONS];
    int n = 0;
    if (get_decisions(dec_o, MAX_SEATS, MAX_SEATS, decisions, &n) < 0) return NULL;
    PyObject *deals = PySequence_Fast(deals_o, "deals must be a sequence of hands");
    if (deals == NULL) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(deals);
    PyObject *out = PyList_New(k);
    MoveList ml;
    ml_init(&ml);
    for (Py_ssize_t i = 0; out != NULL && i < k; i++) {
        PyObject *hands_o = PySequence_Fast_GET_ITEM(deals, i);
        PyObject *hs = PySequence_Fast(hands_o, "");
        mask_t hands[MAX_SEATS] = {0};
        Py_ssize_t seats = hs == NULL ? -1 : PySequence_Fast_GET_SIZE(hs);
        Py_XDECREF(hs);
        if (seats < 2 || seats > MAX_SEATS) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "each deal must hold 2 to 4 hands");
            Py_CLEAR(out);
            break;
        }
        if (get_masks(hands_o, (int)seats, hands, "hands") < 0) {
            Py_CLEAR(out);
            break;
        }
        double ll = 0.0;
        if (scale > 0.0) {
            int ok = 1;
            for (int j = 0; j < n; j++)
                if (decisions[j].seat >= seats) ok = 0;
            if (!ok) {
                PyErr_SetString(PyExc_ValueError, "a decision's seat is not in the deal");
                Py_CLEAR(out);
                break;
            }
            ll = deal_log_likelihood(decisions, n, hands, max_cards, may_drop, scale, &ml);
            if (ml.failed) {
                PyErr_NoMemory();
                Py_CLEAR(out);
                break;
            }
            if (isnan(ll)) {
                PyErr_SetString(PyExc_ValueError,
                                "a sampled deal cannot have made a decision's play: "
                                "inconsistent decisions");
                Py_CLEAR(out);
                break;
            }
        }
        PyObject *v = PyFloat_FromDouble(ll);
        if (v == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, v);
    }
    ml_free(&ml);
    Py_DECREF(deals);
    return out;
}

/* ---- the chkobba_v1 observation vector (chkobba.rl.spaces.encode) ----------
 *
 * The RL environment's observation, written straight into a float32 buffer, and
 * the action mask of a seat not choosing a capture, into an int8 buffer. This
 * block stands alone: it takes the legal plays from the caller (the engine's or
 * legal_plays above), so it serves every rule set. chkobba.rl.spaces.encode is
 * the reference; tests/test_rl_fast.py checks that both write the same vector.
 * The layout is OBS_LAYOUT of chkobba/rl/spaces.py (docs/rl.md).
 */

#define V1_SIZE 868
#define V1_ACTIONS 83
#define V1_SET_PLANES 18
#define V1_COUNT_AT (V1_SET_PLANES * 40)
#define V1_SCALAR_AT (V1_COUNT_AT + 3 * 40)
#define V1_PHASE (V1_SCALAR_AT + 0)
#define V1_HAND_SIZES (V1_SCALAR_AT + 2)
#define V1_STOCK (V1_SCALAR_AT + 6)
#define V1_CHKOBBA (V1_SCALAR_AT + 7)
#define V1_LAST_CAPTURER (V1_SCALAR_AT + 11)
#define V1_TOTALS (V1_SCALAR_AT + 16)
#define V1_SEATING (V1_SCALAR_AT + 20)
#define V1_POSITION (V1_SCALAR_AT + 24)
#define V1_KEEP 81
#define V1_TABLE 82
#define V1_TOTALS_CLIP 4.0

static void v1_plane(float *out, mask_t m) {
    for (int c = 0; c < NCARDS; c++) out[c] = (float)((m >> c) & 1);
}

/* A writable, C-contiguous buffer of exactly `n` items of `itemsize` bytes. */
static int get_out_buffer(PyObject *o, Py_buffer *view, Py_ssize_t n, Py_ssize_t itemsize,
                          const char *what) {
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len != n * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd items of %zd bytes", what, n, itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(
    encode_v1_doc,
    "encode_v1(vec, mask, seat, seats, seating, side_of, dealer, phase, hands, table, leftover, "
    "piles, cut_card, choice_card, choice_taken, shown, shown_all, last_cards, plays, "
    "cut_to_move, stock, chkobba, last_capturer, totals, target)\n--\n\n"
    "Write the chkobba_v1 observation of `seat` into `vec` (868 float32) and its action "
    "mask for `plays` (or the cut) into `mask` (83 int8). Seats and sides are absolute; "
    "phase is 0 (cut), 1 (play) or 2 (over); -1 means none for a card or the last capturer; "
    "cut_card is the card the seat sees at the cut; shown holds the cards the other seats' "
    "declarations showed, shown_all every seat's; last_cards the card each other seat last "
    "put down, by offset 1, 2, 3.");

static PyObject *fc_encode_v1(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *vec_o, *mask_o, *side_o, *hands_o, *table_o, *left_o, *piles_o, *taken_o;
    PyObject *shown_o, *shown_all_o, *last_o, *plays_o, *chk_o, *totals_o;
    int seat, seats, seating, dealer, phase, cut_card, choice_card, cut_to_move, stock;
    int last_capturer, target;
    if (!PyArg_ParseTuple(args, "OOiiiOiiOOOOiiOOOOOpiOiOi:encode_v1", &vec_o, &mask_o, &seat,
                          &seats, &seating, &side_o, &dealer, &phase, &hands_o, &table_o,
                          &left_o, &piles_o, &cut_card, &choice_card, &taken_o, &shown_o,
                          &shown_all_o, &last_o, &plays_o, &cut_to_move, &stock, &chk_o,
                          &last_capturer, &totals_o, &target))
        return NULL;
    int side_of[MAX_SEATS], sides;
    if (get_seating(side_o, seats, side_of, &sides) < 0) return NULL;
    if (seat < 0 || seat >= seats || dealer < 0 || dealer >= seats || seating < 0 ||
        seating > 3 || phase < 0 || phase > 2 || cut_card < -1 || cut_card >= NCARDS ||
        choice_card < -1 || choice_card >= NCARDS || last_capturer < -1 ||
        last_capturer >= sides) {
        PyErr_SetString(PyExc_ValueError, "encode_v1: a seat, phase or card is out of range");
        return NULL;
    }
    mask_t hands[MAX_SEATS], table, leftover, taken, shown, shown_all, piles[MAX_SEATS];
    if (get_masks(hands_o, seats, hands, "hands") < 0 || get_mask(table_o, &table, "table") < 0 ||
        get_mask(left_o, &leftover, "leftover") < 0 ||
        get_mask(taken_o, &taken, "choice_taken") < 0 || get_mask(shown_o, &shown, "shown") < 0 ||
        get_mask(shown_all_o, &shown_all, "shown_all") < 0 ||
        get_masks(piles_o, sides, piles, "piles") < 0)
        return NULL;
    int last_cards[MAX_SEATS - 1], n_last = 0, chk[MAX_SEATS];
    int totals[MAX_SEATS];
    if (get_ints(last_o, -(MAX_SEATS - 1), -1, NCARDS - 1, last_cards, &n_last, "last_cards") < 0 ||
        get_ints(chk_o, sides, 0, INT_MAX, chk, NULL, "chkobba") < 0 ||
        get_ints(totals_o, sides, INT_MIN, INT_MAX, totals, NULL, "totals") < 0)
        return NULL;
    /* What the seat has seen: its hand, the table, the piles, a declared hand, the cut card. */
    mask_t hand = hands[seat];
    mask_t known = hand | table | leftover | shown_all;
    for (int s = 0; s < sides; s++) known |= piles[s];
    if (cut_card >= 0) known |= (mask_t)1 << cut_card;
    mask_t unseen = ALL_CARDS & ~known;
    PyObject *plays = PySequence_Fast(plays_o, "plays must be a sequence of (card, capture)");
    if (plays == NULL) return NULL;
    Py_buffer vb, mb;
    if (get_out_buffer(vec_o, &vb, V1_SIZE, sizeof(float), "vec") < 0) {
        Py_DECREF(plays);
        return NULL;
    }
    if (get_out_buffer(mask_o, &mb, V1_ACTIONS, 1, "mask") < 0) {
        PyBuffer_Release(&vb);
        Py_DECREF(plays);
        return NULL;
    }
    float *v = (float *)vb.buf;
    int8_t *mask = (int8_t *)mb.buf;
    memset(mask, 0, V1_ACTIONS);
    int my_side = side_of[seat];
    mask_t set[V1_SET_PLANES];
    memset(set, 0, sizeof set);
    set[0] = hand;
    set[1] = table;
    set[2] = unseen;
    for (int s = 0; s < sides; s++) set[3 + (s - my_side + sides) % sides] = piles[s];
    if (cut_card >= 0) set[7] = (mask_t)1 << cut_card;
    if (choice_card >= 0) {
        set[8] = (mask_t)1 << choice_card;
        set[9] = taken;
    }
    set[10] = shown;
    for (int k = 0; k < n_last && k < seats - 1; k++)
        if (last_cards[k] >= 0) set[11 + k] = (mask_t)1 << last_cards[k];
    /* What each card of the hand can do now, read off the legal plays. */
    uint8_t counts[3][NCARDS];
    memset(counts, 0, sizeof counts);
    int table_total_v = -1, ok = 1;
    Py_ssize_t np_ = PySequence_Fast_GET_SIZE(plays);
    for (Py_ssize_t i = 0; i < np_ && ok; i++) {
        PyObject *p = PySequence_Fast_GET_ITEM(plays, i);
        int card;
        mask_t cap;
        if (!PyTuple_Check(p) || PyTuple_GET_SIZE(p) != 2 ||
            get_int(PyTuple_GET_ITEM(p, 0), 0, NCARDS - 1, &card, "a play's card") < 0 ||
            get_mask(PyTuple_GET_ITEM(p, 1), &cap, "a play's capture") < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "each play must be a (card, capture) tuple");
            ok = 0;
            break;
        }
        mask_t bit = (mask_t)1 << card;
        mask[card] = 1;
        if (cap) {
            set[14] |= bit;
            if (cap == table) set[15] |= bit;
            mask_t got = cap | bit;
            if ((got >> SEVEN_OF_DIAMONDS) & 1) set[16] |= bit;
            int n = popcount(cap);
            if (n > counts[0][card]) counts[0][card] = (uint8_t)n;
            n = popcount(got & DIAMONDS_MASK);
            if (n > counts[1][card]) counts[1][card] = (uint8_t)n;
            n = popcount(got & RANK_MASK[6]);
            if (n > counts[2][card]) counts[2][card] = (uint8_t)n;
        } else {
            if (table_total_v < 0) table_total_v = table_total(table);
            /* Laid, the card leaves a table one card could sweep (a chkobba offered). */
            if (table_total_v + VALUE[card] <= 10) set[17] |= bit;
        }
    }
    Py_DECREF(plays);
    if (!ok) {
        PyBuffer_Release(&vb);
        PyBuffer_Release(&mb);
        return NULL;
    }
    if (cut_to_move) {
        mask[V1_KEEP] = 1;
        mask[V1_TABLE] = 1;
    }
    for (int k = 0; k < V1_SET_PLANES; k++) v1_plane(v + 40 * k, set[k]);
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < NCARDS; c++) v[V1_COUNT_AT + 40 * k + c] = (float)(counts[k][c] * 0.1);
    for (int i = V1_SCALAR_AT; i < V1_SIZE; i++) v[i] = 0.0f;
    if (phase < 2) v[V1_PHASE + phase] = 1.0f;
    for (int s = 0; s < seats; s++)
        v[V1_HAND_SIZES + (s - seat + seats) % seats] = (float)(popcount(hands[s]) / 10.0);
    v[V1_STOCK] = (float)(stock / 40.0);
    double tgt = target < 1 ? 1.0 : (double)target;
    for (int s = 0; s < sides; s++) {
        int k = (s - my_side + sides) % sides;
        double t = totals[s] / tgt;
        v[V1_CHKOBBA + k] = (float)(chk[s] / 10.0);
        v[V1_TOTALS + k] = (float)(t < V1_TOTALS_CLIP ? t : V1_TOTALS_CLIP);
    }
    v[V1_LAST_CAPTURER +
      (last_capturer < 0 ? MAX_SEATS : (last_capturer - my_side + sides) % sides)] = 1.0f;
    v[V1_SEATING + seating] = 1.0f;
    v[V1_POSITION + (seat - dealer + seats) % seats] = 1.0f;
    PyBuffer_Release(&vb);
    PyBuffer_Release(&mb);
    Py_RETURN_NONE;
}

/* ---- the module ------------------------------------------------------------ */

static PyMethodDef fastcore_methods[] = {
    {"set_policy", fc_set_policy, METH_VARARGS, set_policy_doc},
    {"legal_plays", fc_legal_plays, METH_VARARGS, legal_plays_doc},
    {"random_rounds", fc_random_rounds, METH_VARARGS, random_rounds_doc},
    {"play_choices", fc_play_choices, METH_VARARGS, play_choices_doc},
    {"rollout", fc_rollout, METH_VARARGS, rollout_doc},
    {"solve", fc_solve, METH_VARARGS, solve_doc},
    {"evaluate", fc_evaluate, METH_VARARGS, evaluate_doc},
    {"likelihoods", fc_likelihoods, METH_VARARGS, likelihoods_doc},
    {"encode_v1", fc_encode_v1, METH_VARARGS, encode_v1_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef fastcore_module = {
    PyModuleDef_HEAD_INIT,
    "chkobba._fastcore",
    "The compiled fast path for playouts; use it through chkobba.fast.",
    -1,
    fastcore_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__fastcore(void) {
    init_tables();
    init_value_major();
    return PyModule_Create(&fastcore_module);
}
