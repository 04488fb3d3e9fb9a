/*
 * chkobba._fastcore: the compiled fast path for playouts.
 *
 * A C transcription of the pure engine's hot loop (chkobba.fishing.captures,
 * chkobba.fishing.game.Round, chkobba.fishing.scoring, chkobba.search.{policy,endgame,
 * determinize}). The pure engine stays the reference: tests/test_fast.py checks
 * that this module plays the same moves, scores the same points and solves the
 * same margins. The Python wrapper is chkobba.search.fast; nothing else should import
 * this module directly.
 *
 * Card sets are 40-bit masks, as in chkobba.fishing.cards: card c has value c % 10 + 1
 * and suit c / 10 (diamonds are suit 2, the 7 of diamonds is card 26).
 *
 * Every game of the family is played: chkobba.search.fast hands each rule set over
 * once as a Rules object (the options of chkobba.fishing.rules.RuleSet and the playout
 * policy's values for them, chkobba.search.fast.kernel_rules), and every function
 * takes one. The code branches on those options, never on a preset's name.
 *
 * Policy scores are integers: the weights of chkobba.search.policy are whole
 * millionths of a point, so that ties compare exactly.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define MAYBE_UNUSED __attribute__((unused))
#else
#define MAYBE_UNUSED
#endif

typedef uint64_t mask_t;

#define NCARDS 40
#define ALL_CARDS ((((mask_t)1) << NCARDS) - 1)
#define HAND_SIZE 3  /* Chkobba's hand (a rule set's is Rules.hand_size) */
#define TABLE_SIZE 4 /* Chkobba's first table (Rules.table_size) */
#define MAX_SEATS 4  /* Chkobba's tables: 2, 3 or 4 seats */
#define MAX_PLAYERS 6 /* the kernel's tables: up to six seats (the Scopa family) */
#define MAX_HAND 10   /* Scopone scientifico deals ten cards each */
#define SEVEN_OF_DIAMONDS 26
#define SEVEN_OF_SPADES 6 /* Cirulla's wild card (chkobba.fishing.captures.WILD_SEVEN) */
#define KING_OF_COINS 29
#define DIAMONDS_MASK (((mask_t)0x3FF) << 20)
#define INF_MARGIN 1000000

/* ---- bits ---------------------------------------------------------------- */

#include "bits.h"

static mask_t RANK_MASK[10]; /* the four cards of value v + 1 */
static int VALUE[NCARDS];
static int PRIMIERA_BEST[1024]; /* scoring._PRIMIERA_BEST: a suit's best primiera points */
static mask_t FRAC_MASK;        /* the aces and faces that score in Scopa Frac */

static void init_tables(void) {
    static const int primiera_of_rank[10] = {16, 12, 13, 14, 15, 18, 21, 10, 10, 10};
    for (int i = 0; i < 10; i++)
        RANK_MASK[i] = ((mask_t)1 << i) | ((mask_t)1 << (10 + i)) | ((mask_t)1 << (20 + i)) |
                       ((mask_t)1 << (30 + i));
    for (int c = 0; c < NCARDS; c++) VALUE[c] = c % 10 + 1;
    for (int p = 0; p < 1024; p++) {
        int best = 0;
        for (int i = 0; i < 10; i++)
            if (p >> i & 1 && primiera_of_rank[i] > best) best = primiera_of_rank[i];
        PRIMIERA_BEST[p] = best;
    }
    FRAC_MASK = RANK_MASK[0] | RANK_MASK[7] | RANK_MASK[8] | RANK_MASK[9];
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

/* Uniform in [0, 1), from the top 53 bits. */
static inline double rng_unit(Rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

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

/* ---- a rule set (chkobba.fishing.rules.RuleSet, as chkobba.search.fast.kernel_rules gives it) */

/* The point rules of chkobba.fishing.scoring, in chkobba.search.fast._POINT_ORDER. */
enum {
    PR_CARDS,
    PR_COINS,
    PR_SEVENS,
    PR_PRIMIERA,
    PR_SEVEN_OF_COINS,
    PR_KING_OF_COINS,
    PR_SWEEPS,
    PR_NAPOLA,
    PR_PONINO,
    PR_COIN_FACES,
    PR_FRAC,
    PR_FRAC_TIE,
    PR_DECLARATIONS,
    N_POINT_RULES
};

typedef struct {
    /* the deal */
    int hand_size, table_size, cut_choice, void_count, void_ranks, distinct_table;
    /* the captures (chkobba.fishing.captures) */
    int max_cards, fewest, may_drop, match, sum, total, priority, ace_all, general;
    mask_t no_sweep; /* cards whose sweep scores no point */
    /* declarations, the goal and the points */
    int declares, wild_keeps, lowest_wins;
    int points[N_POINT_RULES]; /* how many times each point rule is scored */
    /* the playout policy's values (chkobba.search.policy.weights) */
    int64_t worth[NCARDS];
    int64_t suit_worth[4][1024]; /* a suit's cards' worth by their pattern */
    int64_t lay[NCARDS];
    int64_t sweep;
    double caution;
    double caution_two; /* caution at a table of two (Weights.caution_two) */
    int ace_no_sweep;
    int pairs; /* the threat counts pairs of table cards at a table of two (Weights.pairs) */
    double epsilon; /* a playout's chance of a play drawn among all, at two (Weights.epsilon) */
} Rules;

/* ---- captures (chkobba.fishing.captures) ------------------------------------------ */

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

/* captures.card_value: the value the 7♠ keeps once a declaration made it wild. */
static inline int card_value(int card, int wild) {
    return wild && card == SEVEN_OF_SPADES ? wild : VALUE[card];
}

/* chkobba.fishing.captures._extend over the value-major items left in `items`: the
   same depth-first order; sets of at least `least` cards. */
static void extend(mask_t items, int rest, mask_t acc, int n, int limit, int least, int card,
                   MoveList *out) {
    while (items) {
        int b = lowest(items);
        items &= items - 1;
        int v = b / 4 + 1;
        if (v > rest) return;
        mask_t bit = (mask_t)1 << CARD_OF_VM[b];
        if (v == rest) {
            if (n + 1 >= least) ml_push(out, card, acc | bit);
        } else if (n + 1 < limit) {
            extend(items, rest - v, acc | bit, n + 1, limit, least, card, out);
        }
    }
}

/* The same walk over items sorted by (value, card) in an array: the table holds
   the wild 7♠, whose value is not its rank's. */
typedef struct {
    int v;
    int card;
} Item;

static void extend_items(const Item *items, int n_items, int start, int rest, mask_t acc, int n,
                         int limit, int least, int card, MoveList *out) {
    for (int i = start; i < n_items; i++) {
        int v = items[i].v;
        if (v > rest) return;
        mask_t bit = (mask_t)1 << items[i].card;
        if (v == rest) {
            if (n + 1 >= least) ml_push(out, card, acc | bit);
        } else if (n + 1 < limit) {
            extend_items(items, n_items, i + 1, rest - v, acc | bit, n + 1, limit, least, card,
                         out);
        }
    }
}

/* captures._subsets: every set of `least` or more (at most `max_cards`, 0: any)
   table cards adding up to `total`, for `card`; `vm` is the table in value-major
   order (unused when the wild 7♠ is on the table). */
static void subsets(int total, mask_t table, mask_t vm, int max_cards, int least, int wild,
                    int card, MoveList *out) {
    if (wild && (table >> SEVEN_OF_SPADES & 1)) {
        Item items[NCARDS];
        int n = 0;
        for (mask_t m = table; m; m &= m - 1) {
            int c = lowest(m);
            int v = card_value(c, wild);
            if (v > total) continue;
            /* Insertion by (value, card): cards come in ascending order. */
            int i = n++;
            while (i > 0 && items[i - 1].v > v) {
                items[i] = items[i - 1];
                i--;
            }
            items[i].v = v;
            items[i].card = c;
        }
        if (n >= least) extend_items(items, n, 0, total, 0, 0, max_cards ? max_cards : n, least,
                                     card, out);
        return;
    }
    mask_t items = total >= 10 ? vm : vm & ((((mask_t)1) << (4 * total)) - 1);
    int n = popcount(items);
    if (n >= least) extend(items, total, 0, 0, max_cards ? max_cards : n, least, card, out);
}

/* captures.matches: the table cards worth `value`, the wild 7♠ at its value. */
static inline mask_t matches(int value, mask_t table, int wild) {
    mask_t same = table & RANK_MASK[value - 1];
    if (wild && (table >> SEVEN_OF_SPADES & 1)) {
        same &= ~((mask_t)1 << SEVEN_OF_SPADES);
        if (value == wild) same |= (mask_t)1 << SEVEN_OF_SPADES;
    }
    return same;
}

/* captures.fewest over the captures from `before` on: keep those taking the fewest
   cards, in their order. */
static void keep_fewest(MoveList *out, int before) {
    if (out->n - before < 2) return;
    int least = NCARDS + 1;
    for (int i = before; i < out->n; i++) {
        int k = popcount(out->v[i].capture);
        if (k < least) least = k;
    }
    int j = before;
    for (int i = before; i < out->n; i++)
        if (popcount(out->v[i].capture) == least) out->v[j++] = out->v[i];
    out->n = j;
}

/* The table in value-major order, computed on first use. */
static inline mask_t vm_of(mask_t table, mask_t *vm, int *vm_done) {
    if (!*vm_done) {
        *vm = value_major(table);
        *vm_done = 1;
    }
    return *vm;
}

/* captures.captures for `card` on a non-empty `table`; `vm` caches the table in
   value-major order. */
static void card_captures(const Rules *R, int wild, int card, mask_t table, mask_t *vm,
                          int *vm_done, MoveList *out) {
    int value = card_value(card, wild);
    int before = out->n;
    if (!R->general && !(wild && (table >> SEVEN_OF_SPADES & 1))) {
        mask_t same = table & RANK_MASK[value - 1];
        if (same) {
            /* Matching has priority: one card of the same value. */
            while (same) {
                ml_push(out, card, same & (~same + 1));
                same &= same - 1;
            }
        } else {
            /* An addition uses cards worth less than the played card. */
            mask_t items = vm_of(table, vm, vm_done) & ((((mask_t)1) << (4 * (value - 1))) - 1);
            int n = popcount(items);
            if (n >= 2) extend(items, value, 0, 0, R->max_cards ? R->max_cards : n, 2, card, out);
        }
    } else {
        /* captures.general_captures */
        if (R->ace_all && value == 1) {
            ml_push(out, card, table);
            return;
        }
        if (R->match) {
            mask_t same = matches(value, table, wild);
            while (same) {
                ml_push(out, card, same & (~same + 1));
                same &= same - 1;
            }
        }
        if (R->sum && !(out->n > before && R->priority))
            subsets(value, table, vm_of(table, vm, vm_done), R->max_cards, 2, wild, card, out);
        if (R->total > value) {
            int from = out->n;
            subsets(R->total - value, table, vm_of(table, vm, vm_done), R->max_cards, 1, wild,
                    card, out);
            /* A capture by total is the same set as a match or an addition only
               when both add up to the same: the total is twice the card. */
            if (R->total == 2 * value) {
                int j = from;
                for (int i = from; i < out->n; i++) {
                    int dup = 0;
                    for (int k = before; k < from && !dup; k++)
                        dup = out->v[k].capture == out->v[i].capture;
                    if (!dup) out->v[j++] = out->v[i];
                }
                out->n = j;
            }
        }
    }
    if (R->fewest) keep_fewest(out, before);
}

/* Round.legal_moves for the play phase: cards ascending; for each card its
   captures in chkobba.fishing.captures order, then the lay when allowed. `wild` is the
   value the 7♠ keeps this round (0: a 7). */
static void gen_plays(const Rules *R, int wild, mask_t hand, mask_t table, MoveList *out) {
    out->n = 0;
    mask_t vm = 0;
    int vm_done = 0;
    while (hand) {
        int c = lowest(hand);
        hand &= hand - 1;
        int before = out->n;
        if (table) card_captures(R, wild, c, table, &vm, &vm_done, out);
        if (R->may_drop || out->n == before) ml_push(out, c, 0);
    }
}

/* ---- a round (chkobba.fishing.game.Round, play phase) ----------------------------- */

typedef struct {
    const Rules *R;
    int seats, sides;
    int side_of[MAX_PLAYERS];
    int cutter;
    int turn;
    int last;     /* the side that captured last, -1 for nobody */
    int in_hands; /* cards in all hands */
    int stock_pos, stock_len;
    int over;
    int void_deal;
    int wild;      /* the value the 7♠ keeps this round, 0 while it is a 7 */
    int last_seat; /* the seat that captured last since the state was set, -1 for none */
    uint32_t knights; /* bit 4 * seat + suit: the knights each seat took (Il ponino) */
    mask_t hands[MAX_PLAYERS];
    mask_t table;
    mask_t piles[MAX_PLAYERS];
    mask_t leftover;
    int chk[MAX_PLAYERS];
    int declared[MAX_PLAYERS]; /* each side's declaration points (Cirulla) */
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

/* scoring.declaration: the points a dealt hand declares (0: none) and the value
   the wild 7♠ takes to make it (0: not needed). */
static int declaration(mask_t hand, int *wild) {
    *wild = 0;
    if (popcount(hand) != 3) return 0;
    int values[3] = {0}, others[3] = {0}, n_others = 0, i = 0;
    for (mask_t m = hand; m; m &= m - 1) {
        int c = lowest(m);
        values[i++] = VALUE[c];
        if (c != SEVEN_OF_SPADES) others[n_others++] = VALUE[c];
    }
    if (values[0] == values[1] && values[1] == values[2]) return 10;
    if (n_others == 2 && others[0] == others[1]) {
        *wild = others[0];
        return 10;
    }
    if (values[0] + values[1] + values[2] <= 9) return 3;
    if (n_others == 2 && others[0] + others[1] + 1 <= 9) {
        *wild = 1;
        return 3;
    }
    return 0;
}

/* Round._declare: every hand just dealt declares, from the cutter on. */
static void declare(Game *g) {
    for (int i = 0; i < g->seats; i++) {
        int seat = (g->cutter + i) % g->seats;
        int wild;
        int points = declaration(g->hands[seat], &wild);
        if (!points) continue;
        g->declared[g->side_of[seat]] += points;
        /* game.wild_value: the first declaration that made the 7♠ wild. */
        if (g->R->wild_keeps && !g->wild && wild) g->wild = wild;
    }
}

static void deal_hands(Game *g, int first, int skip) {
    for (int i = 0; i < g->seats; i++) {
        int seat = (first + i) % g->seats;
        if (seat != skip) g->hands[seat] |= take(g, g->R->hand_size);
    }
    int n = 0;
    for (int s = 0; s < g->seats; s++) n += popcount(g->hands[s]);
    g->in_hands = n;
    if (g->R->declares) declare(g);
}

/* Round._deal_table: with distinct_table (Chkop) a card whose rank is already
   on the table goes under the stock and the next is dealt instead. */
static void deal_table(Game *g, int n) {
    if (!g->R->distinct_table) {
        g->table |= take(g, n);
        return;
    }
    int ranks = 0;
    for (mask_t t = g->table; t; t &= t - 1) ranks |= 1 << (lowest(t) % 10);
    int pos = g->stock_pos, len = g->stock_len, returned = 0;
    while (n && pos < len && returned <= len - pos) {
        int c = g->stock[pos];
        if (ranks >> (c % 10) & 1) {
            memmove(g->stock + pos, g->stock + pos + 1, (size_t)(len - pos - 1));
            g->stock[len - 1] = (int8_t)c;
            returned++;
            continue;
        }
        ranks |= 1 << (c % 10);
        g->table |= (mask_t)1 << c;
        pos++;
        n--;
    }
    g->stock_pos = pos;
    /* Too few ranks left to complete the table: the deal cannot be made. */
    if (n) g->void_deal = 1;
}

static void check_void(Game *g) {
    int counts[10] = {0};
    mask_t t = g->table;
    int worst = 0;
    while (t) {
        int r = lowest(t) % 10;
        if ((g->R->void_ranks >> r & 1) && ++counts[r] > worst) worst = counts[r];
        t &= t - 1;
    }
    if (worst >= g->R->void_count) g->void_deal = 1;
}

/* The seating fields of a game (the rest zeroed). */
static void game_seat(Game *g, const Rules *R, int seats, const int *side_of) {
    memset(g, 0, sizeof(*g));
    g->R = R;
    g->seats = seats;
    g->sides = 0;
    for (int s = 0; s < seats; s++) {
        g->side_of[s] = side_of[s];
        if (side_of[s] + 1 > g->sides) g->sides = side_of[s] + 1;
    }
    g->last = -1;
    g->last_seat = -1;
}

/* A new round from a 40-card deck (Round.__init__), with no cards dealt yet. */
static void game_new(Game *g, const Rules *R, int seats, const int *side_of, int dealer,
                     const int8_t *deck) {
    game_seat(g, R, seats, side_of);
    g->cutter = (dealer + 1) % seats;
    g->turn = g->cutter;
    memcpy(g->stock, deck, NCARDS);
    g->stock_len = NCARDS;
}

/* The deal of docs/rules.md §2.2: the cutter's decision (keep = 1, table = 0), or
   the plain deal when the rules have no cut (cut = -1). */
static void game_deal(Game *g, int cut) {
    const Rules *R = g->R;
    if (cut == 1) {
        g->hands[g->cutter] = take(g, R->hand_size);
        deal_hands(g, (g->cutter + 1) % g->seats, g->cutter);
        deal_table(g, R->table_size);
    } else if (cut == 0) {
        deal_table(g, R->table_size);
        deal_hands(g, g->cutter, -1);
    } else {
        deal_hands(g, g->cutter, -1);
        deal_table(g, R->table_size);
    }
    check_void(g);
}

/* The knights among `cards`, as four bits by suit. */
static inline uint32_t knights_of(mask_t cards) {
    return (uint32_t)(((cards >> 8) & 1) | ((cards >> 17) & 2) | ((cards >> 26) & 4) |
                      ((cards >> 35) & 8));
}

static void game_finish(Game *g) {
    if (g->last < 0) {
        g->leftover = g->table;
    } else {
        g->piles[g->last] |= g->table;
        if (g->last_seat >= 0) g->knights |= knights_of(g->table) << (4 * g->last_seat);
    }
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
        if (g->sides != g->seats) {
            /* Partners: Il ponino needs the player, not the side, that took the knights. */
            g->knights |= knights_of(capture | bit) << (4 * seat);
            g->last_seat = seat;
        }
        /* No sweep point on the last play of the round (docs/rules.md §2.4), nor where the
           rules give the card's sweep none (an ace taking the table, Scopa Frac). */
        if (table == 0 && !last_play && !(g->R->no_sweep >> card & 1)) g->chk[side]++;
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

/* ---- end-of-round points (chkobba.fishing.scoring) -------------------------------- */

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

/* The side holding `card`, or -1. */
static inline int holder(const Game *g, int card) {
    for (int s = 0; s < g->sides; s++)
        if (g->piles[s] >> card & 1) return s;
    return -1;
}

/* scoring.score_round: each side's points for the round, every point rule of the
   rule set counted as many times as its scoring names it. */
static void score_points(const Game *g, int *pts) {
    const Rules *R = g->R;
    const int *k = R->points;
    int counts[MAX_PLAYERS], sixes[MAX_PLAYERS];
    int n = g->sides;
    for (int s = 0; s < n; s++) pts[s] = k[PR_SWEEPS] * g->chk[s] + k[PR_DECLARATIONS] * g->declared[s];
    int w;
    if (k[PR_CARDS]) {
        for (int s = 0; s < n; s++) counts[s] = popcount(g->piles[s]);
        if ((w = strict_best(counts, n)) >= 0) pts[w] += k[PR_CARDS];
    }
    if (k[PR_COINS]) {
        for (int s = 0; s < n; s++) counts[s] = popcount(g->piles[s] & DIAMONDS_MASK);
        if ((w = strict_best(counts, n)) >= 0) pts[w] += k[PR_COINS];
    }
    if (k[PR_SEVENS]) {
        /* Barmīla: strictly the most 7s; among sides tied on 7s, strictly the most 6s. */
        int top = 0;
        for (int s = 0; s < n; s++) {
            counts[s] = popcount(g->piles[s] & RANK_MASK[6]);
            sixes[s] = popcount(g->piles[s] & RANK_MASK[5]);
            if (counts[s] > top) top = counts[s];
        }
        int best6 = -1, winner = -1, count = 0;
        for (int s = 0; s < n; s++) {
            if (counts[s] != top) continue;
            if (sixes[s] > best6) {
                best6 = sixes[s];
                winner = s;
                count = 1;
            } else if (sixes[s] == best6) {
                count++;
            }
        }
        if (count == 1) pts[winner] += k[PR_SEVENS];
    }
    if (k[PR_PRIMIERA]) {
        for (int s = 0; s < n; s++) {
            mask_t p = g->piles[s];
            counts[s] = PRIMIERA_BEST[p & 0x3FF] + PRIMIERA_BEST[p >> 10 & 0x3FF] +
                        PRIMIERA_BEST[p >> 20 & 0x3FF] + PRIMIERA_BEST[p >> 30 & 0x3FF];
        }
        if ((w = strict_best(counts, n)) >= 0) pts[w] += k[PR_PRIMIERA];
    }
    if (k[PR_SEVEN_OF_COINS] && (w = holder(g, SEVEN_OF_DIAMONDS)) >= 0)
        pts[w] += k[PR_SEVEN_OF_COINS];
    if (k[PR_KING_OF_COINS] && (w = holder(g, KING_OF_COINS)) >= 0)
        pts[w] += k[PR_KING_OF_COINS];
    if (k[PR_NAPOLA]) {
        /* The run of coins from the ace up, if it reaches the 3. */
        for (int s = 0; s < n; s++) {
            int coins = (int)(g->piles[s] >> 20 & 0x3FF);
            int run = 0;
            while (run < 10 && (coins >> run & 1)) run++;
            if (run >= 3) pts[s] += k[PR_NAPOLA] * run;
        }
    }
    if (k[PR_PONINO]) {
        /* One player taking the four knights doubles the side's sweep points. */
        int side = -1;
        if (n == g->seats) {
            for (int s = 0; s < n && side < 0; s++)
                if ((g->piles[s] & RANK_MASK[8]) == RANK_MASK[8]) side = s;
        } else {
            for (int s = 0; s < g->seats && side < 0; s++)
                if ((g->knights >> (4 * s) & 0xF) == 0xF) side = g->side_of[s];
        }
        if (side >= 0) pts[side] += k[PR_PONINO] * g->chk[side];
    }
    if (k[PR_COIN_FACES]) {
        /* The A, 2 and 3 of coins score their face value. */
        for (int face = 1; face <= 3; face++)
            if ((w = holder(g, 20 + face - 1)) >= 0) pts[w] += k[PR_COIN_FACES] * face;
    }
    if (k[PR_FRAC] || k[PR_FRAC_TIE]) {
        int top = 0, tied = 0;
        for (int s = 0; s < n; s++) {
            counts[s] = popcount(g->piles[s] & FRAC_MASK);
            pts[s] += k[PR_FRAC] * counts[s];
            if (counts[s] > top) top = counts[s];
        }
        for (int s = 0; s < n; s++) tied += counts[s] == top;
        /* The top tied: the K♦ decides among the tied sides. */
        w = holder(g, KING_OF_COINS);
        if (k[PR_FRAC_TIE] && tied > 1 && w >= 0 && counts[w] == top) pts[w] += k[PR_FRAC_TIE];
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

/* policy.worth: a set of cards' worth under the rule set's values. */
static inline int64_t card_weight(const Rules *R, mask_t m) {
    return R->suit_worth[0][m & 0x3FF] + R->suit_worth[1][m >> 10 & 0x3FF] +
           R->suit_worth[2][m >> 20 & 0x3FF] + R->suit_worth[3][m >> 30 & 0x3FF];
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
    const Rules *R;
    mask_t table;
    int last_play, side, last;
    int threat; /* whether the next player is an opponent */
    int two;    /* a table of two: the values for two apply (policy.Context.two) */
    double chances[11];
} PolicyContext;

/* policy.chances_of */
static void chances_of(PolicyContext *ctx, mask_t unseen, int hand) {
    int total = popcount(unseen);
    ctx->chances[0] = 0.0;
    for (int v = 1; v <= 10; v++)
        ctx->chances[v] = holds_one(total, popcount(unseen & RANK_MASK[v - 1]), hand);
}

static void policy_context(const Game *g, PolicyContext *ctx) {
    int seat = g->turn;
    mask_t known = g->hands[seat] | g->table | g->leftover;
    for (int s = 0; s < g->sides; s++) known |= g->piles[s];
    mask_t unseen = ALL_CARDS & ~known;
    int nxt = (seat + 1) % g->seats;
    ctx->R = g->R;
    ctx->table = g->table;
    ctx->last_play = g->in_hands == 1 && g->stock_pos == g->stock_len;
    ctx->side = g->side_of[seat];
    ctx->last = g->last;
    ctx->threat = g->side_of[nxt] != g->side_of[seat];
    ctx->two = g->seats == 2;
    if (ctx->threat) {
        int hand;
        if (g->in_hands > 1)
            hand = popcount(g->hands[nxt]);
        else
            hand = g->stock_pos < g->stock_len ? g->R->hand_size : 0;
        chances_of(ctx, unseen, hand);
    }
}

/* policy.pair_threat: the most the next player is expected to take from `left` by
   adding two of its cards (a sum a table card matches takes that card alone). */
static double pair_threat(mask_t left, const double *chances, const Rules *R) {
    int fewest = R->fewest || R->priority;
    double best = 0.0;
    for (mask_t m = left; m; m &= m - 1) {
        int a = lowest(m);
        for (mask_t rest = m & (m - 1); rest; rest &= rest - 1) {
            int b = lowest(rest);
            int v = VALUE[a] + VALUE[b];
            if (v > 10 || (fewest && (left & RANK_MASK[v - 1]))) continue;
            double t = chances[v] * (double)(R->worth[a] + R->worth[b]);
            if (t > best) best = t;
        }
    }
    return best;
}

/* policy.threat: what the next player is expected to take from `left` with one
   card, by the rule set's captures. */
static double threat_of(mask_t left, const PolicyContext *ctx) {
    const Rules *R = ctx->R;
    const double *chances = ctx->chances;
    int total = table_total(left);
    int n = popcount(left);
    int64_t whole = card_weight(R, left);
    int fits = !R->max_cards || n <= R->max_cards;
    /* The values whose card sweeps the table: a match of a lone card, an addition
       of the whole table, a capture making the total with it, an ace taking all. */
    int sweepers[3], k = 0;
    if (R->ace_all) sweepers[k++] = 1;
    if (n == 1) {
        if (R->match) sweepers[k++] = total;
    } else if (R->sum && fits && total <= 10) {
        sweepers[k++] = total;
    }
    if (R->total && fits && R->total - total >= 1 && R->total - total <= 10)
        sweepers[k++] = R->total - total;
    double best = 0.0;
    for (int i = 0; i < k; i++) {
        int u = sweepers[i];
        int64_t bonus = u == 1 && R->ace_no_sweep ? 0 : R->sweep;
        double t = chances[u] * (double)(bonus + whole);
        if (t > best) best = t;
    }
    for (mask_t m = left; m; m &= m - 1) {
        int c = lowest(m);
        int v = VALUE[c];
        if (R->match) {
            double t = chances[v] * (double)R->worth[c];
            if (t > best) best = t;
        }
        if (R->total && R->total - v >= 1 && R->total - v <= 10) {
            double t = chances[R->total - v] * (double)R->worth[c];
            if (t > best) best = t;
        }
    }
    if (ctx->two && R->pairs) {
        double t = pair_threat(left, chances, R);
        if (t > best) best = t;
    }
    return best;
}

/* policy._score */
static inline int64_t raw_score(int card, mask_t capture, const PolicyContext *ctx) {
    const Rules *R = ctx->R;
    mask_t table = ctx->table, left;
    int64_t score;
    if (capture) {
        left = table & ~capture;
        score = card_weight(R, capture | ((mask_t)1 << card));
        if (ctx->last_play) return score + card_weight(R, left);
        if (!left) return score + (R->no_sweep >> card & 1 ? 0 : R->sweep);
    } else {
        left = table | ((mask_t)1 << card);
        score = -R->lay[card];
        if (ctx->last_play) {
            if (ctx->last < 0) return score;
            int64_t rest = card_weight(R, left);
            return ctx->last == ctx->side ? score + rest : score - rest;
        }
    }
    if (!ctx->threat) return score;
    double caution = ctx->two ? R->caution_two : R->caution;
    return score - (int64_t)floor(caution * threat_of(left, ctx) + 0.5);
}

/* policy.play_score: turned round where the lowest total wins. */
static inline int64_t play_score(int card, mask_t capture, const PolicyContext *ctx) {
    int64_t s = raw_score(card, capture, ctx);
    return ctx->R->lowest_wins ? -s : s;
}

/* policy.best_plays / policy_move: the best-scored play; ties at random, or the
   first in legal order when `first_best` is set. */
static int policy_pick(const Game *g, MoveList *ml, Rng *rng, int first_best) {
    int n = ml->n;
    if (n == 1) return 0;
    if (!first_best && g->R->epsilon > 0.0 && g->seats == 2 && rng_unit(rng) < g->R->epsilon)
        return (int)rng_below(rng, (uint32_t)n);
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
        gen_plays(g->R, g->wild, g->hands[g->turn], g->table, ml);
        if (ml->n == 0 || ml->failed) return -1;
        int i = policy_pick(g, ml, rng, first_best);
        game_play(g, ml->v[i].card, ml->v[i].capture);
    }
    return 0;
}

/* ---- exact endgame (chkobba.search.endgame) -------------------------------- */

/* Negamax with alpha-beta over the value of the side to move: its margin, or
   where the lowest total wins its margin turned round (each side plays for its
   goal). The transposition table stores the value still to come (sweep points
   already made taken out), which depends only on the hands, the table, one
   side's pile (the other is the rest of the cards), the last capturer and the
   seat to move; under Il ponino, which doubles the sweeps, on the sweeps too.
   The declarations and the wild 7's value do not change within a solve. */

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
    uint8_t chk0, chk1; /* the sweeps made, under Il ponino */
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
    if (g->R->points[PR_PONINO]) h = mix(h, (uint64_t)g->chk[0] * 64 + (uint64_t)g->chk[1]);
    return &TT[(h ^ (h >> 29)) & (TT_SIZE - 1)];
}

static inline int tt_match(const TTEntry *e, const Game *g) {
    if (e->generation != TT_GENERATION || e->table != g->table || e->pile0 != g->piles[0] ||
        e->last != g->last || e->turn != g->turn)
        return 0;
    if (g->R->points[PR_PONINO] && (e->chk0 != g->chk[0] || e->chk1 != g->chk[1])) return 0;
    for (int s = 0; s < g->seats; s++)
        if (e->hands[s] != g->hands[s]) return 0;
    return 1;
}

/* 1, or -1 where the lowest total wins: a position's value is its margin times this. */
static inline int goal_sign(const Rules *R) { return R->lowest_wins ? -1 : 1; }

/* The value for the side to move at the end of a finished round. */
static int final_margin(const Game *g) {
    int pts[MAX_PLAYERS];
    score_points(g, pts);
    int me = g->side_of[g->turn];
    return goal_sign(g->R) * (pts[me] - pts[1 - me]);
}

static int negamax(const Game *g, int alpha, int beta, Solver *sv) {
    sv->nodes++;
    if (g->over) return final_margin(g);
    int me = g->side_of[g->turn];
    int made = goal_sign(g->R) * g->R->points[PR_SWEEPS] * (g->chk[me] - g->chk[1 - me]);
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
    gen_plays(g->R, g->wild, g->hands[g->turn], g->table, &ml);
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
        slot->chk0 = (uint8_t)g->chk[0];
        slot->chk1 = (uint8_t)g->chk[1];
        slot->generation = TT_GENERATION;
        slot->value = (int16_t)(best - made);
        slot->flag = best <= alpha0 ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
    }
    return best;
}

/* Whether the exact solver applies (endgame.solvable): two sides, the stock
   empty, and rules it scores exactly (not Il ponino between partners, which
   needs who took the knights). */
static int solvable(const Game *g) {
    return g->sides == 2 && !g->over && g->stock_pos == g->stock_len && g->in_hands > 0 &&
           (g->seats == g->sides || !g->R->points[PR_PONINO]);
}

/* Whether the solver applies with at most `solve_stock` cards left to deal, their order
   known (a sampled deal's): the deals still to come are made as the round makes them
   (chkobba.search.endgame.solve_dealt). 0: solvable. */
static int solvable_with(const Game *g, int solve_stock) {
    return g->sides == 2 && !g->over && g->stock_len - g->stock_pos <= solve_stock &&
           g->in_hands > 0 && (g->seats == g->sides || !g->R->points[PR_PONINO]);
}

static int solver_start(Solver *sv, const Game *g) {
    sv->error = 0;
    sv->nodes = 0;
    sv->use_tt = g->in_hands + (g->stock_len - g->stock_pos) >= TT_FROM_CARDS;
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

/* The exact margin for the side to move in a solvable position, under best play
   for each side's goal. */
static int solve_value(const Game *g, Solver *sv) {
    if (solver_start(sv, g) < 0) {
        sv->error = 1;
        return 0;
    }
    return goal_sign(g->R) * negamax(g, -INF_MARGIN, INF_MARGIN, sv);
}

/* ---- a playout's margin (chkobba.agents.expert.playout_margin) ------------ */

/* Finish `g`, solving it exactly once two sides are left with at most `solve_stock`
   cards to deal (0: an empty stock) and at most `solve_cards` cards in hands; `side`'s
   margin. With `solve_last` the policy plays only until the last deal is in hands (two
   sides, the stock empty, at most `solve_cards` cards), which is then solved exactly.
   Returns INT_MIN on an inconsistent state or out of memory. */
static int playout_margin(Game *g, int side, int solve_cards, int solve_stock,
                          int solve_last, MoveList *ml, Rng *rng) {
    if (g->void_deal) return 0;
    if (solvable_with(g, solve_stock) && g->in_hands <= solve_cards) {
        Solver sv;
        int v = solve_value(g, &sv);
        if (sv.error) return INT_MIN;
        return g->side_of[g->turn] == side ? v : -v;
    }
    if (solve_last) {
        while (!g->over && !(solvable(g) && g->in_hands <= solve_cards)) {
            gen_plays(g->R, g->wild, g->hands[g->turn], g->table, ml);
            if (ml->n == 0 || ml->failed) return INT_MIN;
            int i = policy_pick(g, ml, rng, 0);
            game_play(g, ml->v[i].card, ml->v[i].capture);
        }
        if (g->void_deal) return 0;
        if (!g->over) {
            Solver sv;
            int v = solve_value(g, &sv);
            if (sv.error) return INT_MIN;
            return g->side_of[g->turn] == side ? v : -v;
        }
    }
    if (game_rollout(g, ml, rng, 0) < 0) return INT_MIN;
    int pts[MAX_PLAYERS];
    score_points(g, pts);
    return margin_of(pts, g->sides, side);
}

/* ---- a second ply at the root (chkobba.search.fast.reply_margin) ----------------- */

/* `side`'s margin after its root move in `g`, with the next seat's reply searched
   when it is another side's and `reply` is positive: each of its legal plays is made
   and played out once, and the margin is `reply` times the one worst for `side`'s
   goal (the reply that side would pick, seeing the sampled deal) plus 1 - `reply`
   times the policy's reply. Otherwise, or where the position is already solved
   exactly, one playout (playout_margin). NAN on an inconsistent state or out of
   memory. */
static double reply_margin(Game *g, int side, int solve_cards, int solve_stock,
                           int solve_last, double reply, MoveList *ml, MoveList *replies,
                           Rng *rng) {
    if (reply <= 0.0 || g->void_deal || g->over || g->side_of[g->turn] == side ||
        (solvable_with(g, solve_stock) && g->in_hands <= solve_cards)) {
        int m = playout_margin(g, side, solve_cards, solve_stock, solve_last, ml, rng);
        return m == INT_MIN ? NAN : (double)m;
    }
    gen_plays(g->R, g->wild, g->hands[g->turn], g->table, replies);
    if (replies->failed || replies->n == 0) return NAN;
    int n = replies->n;
    int pick = policy_pick(g, replies, rng, 0);
    int lowest = g->R->lowest_wins;
    double worst = 0.0, chosen = 0.0;
    for (int j = 0; j < n; j++) {
        Game h = *g;
        game_play(&h, replies->v[j].card, replies->v[j].capture);
        int m = playout_margin(&h, side, solve_cards, solve_stock, solve_last, ml, rng);
        if (m == INT_MIN) return NAN;
        /* The other side plays for its own goal: the lowest margin of ours, or where
           the lowest total wins the highest. */
        if (j == 0 || (lowest ? m > worst : m < worst)) worst = m;
        if (j == pick) chosen = m;
    }
    return reply * worst + (1.0 - reply) * chosen;
}

/* ---- inference from the other seats' plays (chkobba.search.inference) ----- */

/* inference.Decision: one play of another seat in the current deal. */
typedef struct {
    int seat, card, side, last, last_play;
    int next_hand; /* -1: the next seat is a partner */
    mask_t capture, table, public_cards, later;
} Decision;

#define MAX_DECISIONS (MAX_PLAYERS * MAX_HAND)

/* inference.decision_log_likelihood: log P(the play | the seat held `hand` then), a
   softmax over the policy's scores at `scale` millionths of a point; the same
   operations in the same order as the reference. NAN if the play is not legal
   from `hand` (an inconsistent deal) or memory ran out. */
static double decision_log_likelihood(const Decision *d, mask_t hand, const Rules *R, int wild,
                                      double scale, MoveList *ml) {
    gen_plays(R, wild, hand, d->table, ml);
    if (ml->failed || ml->n == 0) return NAN;
    int chosen = -1;
    for (int i = 0; i < ml->n; i++)
        if (ml->v[i].card == d->card && ml->v[i].capture == d->capture) chosen = i;
    if (chosen < 0) return NAN;
    if (ml->n == 1) return 0.0;
    PolicyContext ctx;
    ctx.R = R;
    ctx.table = d->table;
    ctx.last_play = d->last_play;
    ctx.side = d->side;
    ctx.last = d->last;
    ctx.threat = d->next_hand >= 0;
    ctx.two = 0; /* inference.decision_context: the values of every table */
    if (ctx.threat) chances_of(&ctx, ALL_CARDS & ~(hand | d->public_cards), d->next_hand);
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
static double deal_log_likelihood(const Decision *ds, int n, const mask_t *hands, const Rules *R,
                                  int wild, double scale, MoveList *ml) {
    double total = 0.0;
    for (int i = 0; i < n; i++)
        total += decision_log_likelihood(&ds[i], hands[ds[i].seat] | ds[i].later, R, wild, scale,
                                         ml);
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

/* A table of the family: 2, 3, 4 or 6 seats, one side per seat or 2 against 2. */
static int get_players(PyObject *o, int seats, int *side_of, int *sides) {
    if (seats < 2 || seats > MAX_PLAYERS || seats == 5) {
        PyErr_Format(PyExc_ValueError, "a table seats 2, 3, 4 or 6 players, not %d", seats);
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

/* The seating of docs/rules.md §2.1: one side per seat, or 2 against 2 (for the
   blocks that serve Chkobba's tables only). */
static MAYBE_UNUSED int get_seating(PyObject *o, int seats, int *side_of, int *sides) {
    if (seats < 2 || seats > MAX_SEATS) {
        PyErr_Format(PyExc_ValueError, "Chkobba is played by 2, 3 or 4 players, not %d", seats);
        return -1;
    }
    return get_players(o, seats, side_of, sides);
}

/* The value the wild 7♠ keeps this round: 0 (a 7) or another value. */
static int check_wild(int wild) {
    if (wild < 0 || wild > 10 || wild == 7) {
        PyErr_Format(PyExc_ValueError,
                     "wild must be 0 (the 7♠ is a 7) or a value from 1 to 10, not %d", wild);
        return -1;
    }
    return 0;
}

typedef struct {
    PyObject_HEAD Rules rules;
    PyObject *args; /* the constructor's arguments, all nine, for pickling (__reduce__) */
} RulesObject;

static PyTypeObject RulesType;

/* The rule set of a chkobba._fastcore.Rules object (borrowed: the caller holds it). */
static int get_rules(PyObject *o, const Rules **out) {
    if (!PyObject_TypeCheck(o, &RulesType)) {
        PyErr_Format(PyExc_TypeError,
                     "rules must be a chkobba._fastcore.Rules (chkobba.search.fast.kernel_rules), "
                     "not %.80s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = &((RulesObject *)o)->rules;
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

/* A round in the play phase from the fields of chkobba.search.fast.FastState, as
   chkobba.search.fast._kernel_state gives them: the first ten, then the rules, each
   side's declaration points and the wild 7's value. */
static int get_state(PyObject *st, Game *g) {
    if (!PyTuple_Check(st) || PyTuple_GET_SIZE(st) != 13) {
        PyErr_SetString(PyExc_TypeError,
                        "state must be a chkobba.search.fast.FastState as the kernel reads it (13 "
                        "fields)");
        return -1;
    }
    PyObject **f = &PyTuple_GET_ITEM(st, 0);
    const Rules *R;
    int seats, side_of[MAX_PLAYERS], sides;
    if (get_rules(f[10], &R) < 0) return -1;
    if (get_int(f[0], 2, MAX_PLAYERS, &seats, "seats") < 0) return -1;
    if (get_players(f[1], seats, side_of, &sides) < 0) return -1;
    game_seat(g, R, seats, side_of);
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
    if (get_ints(f[11], g->sides, 0, INT_MAX / 4, g->declared, NULL, "declared") < 0) return -1;
    if (get_int(f[12], 0, 10, &g->wild, "wild") < 0 || check_wild(g->wild) < 0) return -1;
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
    if (n_stock % (R->hand_size * g->seats)) {
        PyErr_Format(PyExc_ValueError,
                     "the stock must hold whole deals of %d cards a seat (a multiple of %d), "
                     "not %d cards",
                     R->hand_size, R->hand_size * g->seats, n_stock);
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

/* The decisions to explain, as chkobba.search.fast passes them: a sequence of
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
    int pts[MAX_PLAYERS];
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

/* ---- module functions ------------------------------------------------------ */

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

#define N_OPTIONS (19 + N_POINT_RULES)

PyDoc_STRVAR(rules_doc,
             "Rules(options, worth, lay, sweep, caution, ace_no_sweep, pairs=False, "
             "epsilon=0.0, caution_two=caution)\n--\n\n"
             "A rule set as the kernel plays it: options holds the RuleSet's options in "
             "chkobba.search.fast.kernel_options order; worth and lay each card's worth and lay cost "
             "for the playout policy, sweep a scoring sweep's worth (millionths of a point), "
             "caution how much the next player's threat counts, ace_no_sweep whether an "
             "ace's sweep scores nothing, pairs whether the threat counts pairs of table "
             "cards at a table of two, epsilon a playout's chance of a play drawn among all at a "
             "table of two, caution_two the caution at a table of two. Build it with "
             "chkobba.search.fast.kernel_rules.");

/* An option out of its range: a one-line error naming it. */
static int option_range(int64_t v, int64_t lo, int64_t hi, const char *what) {
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "rules: %s must be from %lld to %lld, not %lld", what,
                     (long long)lo, (long long)hi, (long long)v);
        return -1;
    }
    return 0;
}

static PyObject *rules_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *options_o, *worth_o, *lay_o;
    long long sweep;
    double caution;
    int ace_no_sweep, pairs = 0;
    double epsilon = 0.0, caution_two = -1.0;
    static char *kwlist[] = {"options",      "worth", "lay",     "sweep",       "caution",
                             "ace_no_sweep", "pairs", "epsilon", "caution_two", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOLdp|pdd:Rules", kwlist, &options_o,
                                     &worth_o, &lay_o, &sweep, &caution, &ace_no_sweep, &pairs,
                                     &epsilon, &caution_two))
        return NULL;
    int64_t o[N_OPTIONS];
    if (get_int64s(options_o, N_OPTIONS, o, "options") < 0) return NULL;
    static const char *names[19] = {
        "hand_size",     "table_size",      "cut_choice",        "void_deal_count",
        "void_deal_ranks", "distinct_table", "max_capture_cards", "fewest_cards",
        "may_drop",      "capture_match",   "capture_sum",       "capture_total",
        "matching_priority", "ace_takes_all", "general",         "no_sweep",
        "declares",      "wild_seven_keeps_value", "lowest_wins"};
    static const int64_t lo[19] = {1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const int64_t hi[19] = {MAX_HAND, 10, 1, 5, 1023, 1, NCARDS, 1, 1, 1,
                                   1,        40, 1, 1, 1,    0, 1,      1, 1};
    for (int i = 0; i < 19; i++)
        if (option_range(o[i], lo[i], i == 15 ? (int64_t)ALL_CARDS : hi[i], names[i]) < 0)
            return NULL;
    for (int i = 19; i < N_OPTIONS; i++)
        if (option_range(o[i], 0, 40, "a point rule's count") < 0) return NULL;
    if (o[6] == 1 || o[11] == 1) {
        PyErr_SetString(PyExc_ValueError,
                        "rules: max_capture_cards and capture_total must be 0 or at least 2");
        return NULL;
    }
    if (!(epsilon >= 0.0 && epsilon <= 1.0)) {
        PyErr_SetString(PyExc_ValueError, "rules: epsilon must be a chance from 0 to 1");
        return NULL;
    }
    double caution_two_given = caution_two;
    if (caution_two < 0.0) caution_two = caution; /* not given: the same at every table */
    if (!(caution >= 0.0) || isinf(caution) || !(caution_two >= 0.0) || isinf(caution_two)) {
        PyErr_SetString(PyExc_ValueError, "rules: caution must be a non-negative number");
        return NULL;
    }
    RulesObject *self = (RulesObject *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    /* caution_two as given (-1: not given), so that a copy is built exactly as this was. */
    self->args = Py_BuildValue("(OOOLdiidd)", options_o, worth_o, lay_o, sweep, caution,
                               ace_no_sweep, pairs, epsilon, caution_two_given);
    if (self->args == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    Rules *R = &self->rules;
    if (get_int64s(worth_o, NCARDS, R->worth, "worth") < 0 ||
        get_int64s(lay_o, NCARDS, R->lay, "lay") < 0) {
        Py_DECREF(self);
        return NULL;
    }
    R->hand_size = (int)o[0];
    R->table_size = (int)o[1];
    R->cut_choice = (int)o[2];
    R->void_count = (int)o[3];
    R->void_ranks = (int)o[4];
    R->distinct_table = (int)o[5];
    R->max_cards = (int)o[6];
    R->fewest = (int)o[7];
    R->may_drop = (int)o[8];
    R->match = (int)o[9];
    R->sum = (int)o[10];
    R->total = (int)o[11];
    R->priority = (int)o[12];
    R->ace_all = (int)o[13];
    R->general = (int)o[14];
    R->no_sweep = (mask_t)o[15];
    R->declares = (int)o[16];
    R->wild_keeps = (int)o[17];
    R->lowest_wins = (int)o[18];
    for (int i = 0; i < N_POINT_RULES; i++) R->points[i] = (int)o[19 + i];
    for (int suit = 0; suit < 4; suit++)
        for (int p = 0; p < 1024; p++) {
            int64_t w = 0;
            for (int i = 0; i < 10; i++)
                if (p >> i & 1) w += R->worth[suit * 10 + i];
            R->suit_worth[suit][p] = w;
        }
    R->sweep = (int64_t)sweep;
    R->caution = caution;
    R->caution_two = caution_two;
    R->ace_no_sweep = ace_no_sweep;
    R->pairs = pairs;
    R->epsilon = epsilon;
    return (PyObject *)self;
}

static void rules_dealloc(RulesObject *self) {
    Py_XDECREF(self->args);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Pickling and copy: the type and the arguments that build the same rules again. */
static PyObject *rules_reduce(RulesObject *self, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("(OO)", (PyObject *)Py_TYPE(self), self->args);
}

/* The rules never change once built: a (deep) copy is the object itself. */
static PyObject *rules_copy(RulesObject *self, PyObject *Py_UNUSED(ignored)) {
    Py_INCREF(self);
    return (PyObject *)self;
}

static PyObject *rules_deepcopy(RulesObject *self, PyObject *Py_UNUSED(memo)) {
    Py_INCREF(self);
    return (PyObject *)self;
}

static PyMethodDef rules_methods[] = {
    {"__reduce__", (PyCFunction)rules_reduce, METH_NOARGS,
     "The type and its constructor's arguments: a pickle builds the same rules again."},
    {"__copy__", (PyCFunction)rules_copy, METH_NOARGS, "The rules themselves (immutable)."},
    {"__deepcopy__", (PyCFunction)rules_deepcopy, METH_O, "The rules themselves (immutable)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "chkobba._fastcore.Rules",
    .tp_basicsize = sizeof(RulesObject),
    .tp_dealloc = (destructor)rules_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = rules_doc,
    .tp_new = rules_new,
    .tp_methods = rules_methods,
};

PyDoc_STRVAR(legal_plays_doc,
             "legal_plays(rules, hand, table, wild)\n--\n\n"
             "The legal plays as (card, capture) pairs, in Round.legal_moves order; wild is "
             "the value the 7♠ keeps this round (0: a 7).");

static PyObject *fc_legal_plays(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *ro, *ho, *to;
    int wild;
    if (!PyArg_ParseTuple(args, "OOOi:legal_plays", &ro, &ho, &to, &wild)) return NULL;
    const Rules *R;
    if (get_rules(ro, &R) < 0 || check_wild(wild) < 0) return NULL;
    mask_t hand, table;
    if (get_mask(ho, &hand, "hand") < 0 || get_mask(to, &table, "table") < 0) return NULL;
    if (hand & table) {
        char name[3];
        card_name(lowest(hand & table), name);
        PyErr_Format(PyExc_ValueError, "card %s is both in the hand and on the table", name);
        return NULL;
    }
    MoveList ml;
    ml_init(&ml);
    gen_plays(R, wild, hand, table, &ml);
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
             "random_rounds(rules, seats, side_of, n, seed)\n--\n\n"
             "Play n random rounds of the rules at the table (dealer 0, a random cut decision "
             "where the rules have one, void deals redealt, each play drawn uniformly among "
             "the legal ones, full scoring); return the number of plays made.");

static PyObject *fc_random_rounds(PyObject *Py_UNUSED(self), PyObject *args) {
    long long n;
    int seats, side_of[MAX_PLAYERS], sides;
    PyObject *rules_o, *side_o, *seed_o;
    const Rules *R;
    if (!PyArg_ParseTuple(args, "OiOLO:random_rounds", &rules_o, &seats, &side_o, &n, &seed_o))
        return NULL;
    if (get_rules(rules_o, &R) < 0 || get_players(side_o, seats, side_of, &sides) < 0)
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "the number of rounds must not be negative");
        return NULL;
    }
    uint64_t seed = PyLong_AsUnsignedLongLongMask(seed_o);
    if (seed == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    Rng rng;
    rng_seed(&rng, seed);
    int8_t deck[NCARDS];
    for (int c = 0; c < NCARDS; c++) deck[c] = (int8_t)c;
    long long plays = 0, points = 0;
    MoveList ml;
    ml_init(&ml);
    Game g;
    for (long long r = 0; r < n; r++) {
        do {
            shuffle(deck, NCARDS, &rng);
            game_new(&g, R, seats, side_of, 0, deck);
            /* legal_moves() at the cut is [keep, table]. */
            game_deal(&g, R->cut_choice ? (rng_below(&rng, 2) == 0 ? 1 : 0) : -1);
        } while (g.void_deal);
        while (!g.over) {
            gen_plays(R, g.wild, g.hands[g.turn], g.table, &ml);
            if (ml.failed) {
                ml_free(&ml);
                return PyErr_NoMemory();
            }
            int i = (int)rng_below(&rng, (uint32_t)ml.n);
            game_play(&g, ml.v[i].card, ml.v[i].capture);
            plays++;
        }
        int pts[MAX_PLAYERS];
        score_points(&g, pts);
        points += pts[0] * 64 + pts[1];
    }
    ml_free(&ml);
    POINTS_SINK += points;
    return PyLong_FromLongLong(plays);
}

PyDoc_STRVAR(play_choices_doc,
             "play_choices(rules, seats, side_of, dealer, deck, choices)\n--\n\n"
             "Deal deck as Round does and play one round, taking at each decision the legal "
             "move at index int(u * len(legal)) for the next u of choices. Returns the moves "
             "('keep', 'table' or (card, capture)) and each side's points; the points are "
             "empty when the deal is void.");

static PyObject *fc_play_choices(PyObject *Py_UNUSED(self), PyObject *args) {
    int seats, dealer;
    PyObject *rules_o, *side_o, *deck_o, *choices_o;
    if (!PyArg_ParseTuple(args, "OiOiOO:play_choices", &rules_o, &seats, &side_o, &dealer,
                          &deck_o, &choices_o))
        return NULL;
    const Rules *R;
    int side_of[MAX_PLAYERS], sides;
    if (get_rules(rules_o, &R) < 0 || get_players(side_o, seats, side_of, &sides) < 0)
        return NULL;
    if (dealer < 0 || dealer >= seats) {
        PyErr_Format(PyExc_ValueError, "dealer must be a seat from 0 to %d, not %d", seats - 1,
                     dealer);
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
    game_new(&g, R, seats, side_of, dealer, deck);
    if (R->cut_choice) {
        Py_ssize_t k;
        NEXT_CHOICE(2, k);
        PyObject *name = PyUnicode_FromString(k == 0 ? "keep" : "table");
        if (name == NULL || PyList_Append(moves, name) < 0) {
            Py_XDECREF(name);
            goto done;
        }
        Py_DECREF(name);
        game_deal(&g, k == 0 ? 1 : 0);
    } else {
        game_deal(&g, -1);
    }
    if (g.void_deal) {
        result = Py_BuildValue("(O[])", moves);
        goto done;
    }
    while (!g.over) {
        gen_plays(R, g.wild, g.hands[g.turn], g.table, &ml);
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
             "(card, capture, margin) in legal order: two sides, nothing left in the stock; "
             "each side plays for its goal (the lowest margin where the lowest total wins).");

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
    if (!solvable(&g)) {
        PyErr_SetString(PyExc_ValueError,
                        "the solver does not score these rules between partners (Il ponino)");
        return NULL;
    }
    Solver sv;
    if (solver_start(&sv, &g) < 0) return PyErr_NoMemory();
    MoveList ml;
    ml_init(&ml);
    gen_plays(g.R, g.wild, g.hands[g.turn], g.table, &ml);
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
        v *= goal_sign(g.R);
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
             "evaluate(rules, cut_phase, seat, side_of, turn, dealer, hand, table, cut_card, "
             "piles, chkobba, last_capturer, hand_sizes, unseen, stock, declared, wild, shown, "
             "samples, seed, solve_cards, temperature, decisions, known=None, reply=0.0, "
             "solve_stock=0, solve_last=False, with_weight=False)\n--\n\n"
             "The expert's inner loop: the summed margin of each root move over sampled deals "
             "(chkobba.search.fast.evaluate takes an Observation). declared holds each side's "
             "declaration points, wild the value the 7♠ keeps this round (0: a 7), shown per "
             "seat the cards a declaration showed, which stay in that hand in every sample. "
             "With a positive temperature each deal's margins are weighted by how likely it "
             "makes the decisions (chkobba.search.inference). `known` (one card set per seat, "
             "0 for a hidden hand) fixes the other hands that the evaluator is let see; only "
             "the rest of the unseen cards is sampled. A positive `reply` (up to 1) searches the "
             "next seat's reply to each root move when it is another side's "
             "(chkobba.search.fast.reply_margin). A positive `solve_stock` solves a two-sided sampled deal "
             "exactly, its deals to come included, once at most that many cards are left to "
             "deal and at most solve_cards are in hands. With `solve_last` every playout of "
             "the play phase solves exactly the last deal of a two-sided round once it is in "
             "hands (at most solve_cards cards), rather than playing it with the policy. With "
             "`with_weight` the samples' total weight follows the sums (one more entry).");

static PyObject *fc_evaluate(PyObject *Py_UNUSED(self), PyObject *args) {
    int cut_phase, seat, seats, turn, dealer, cut_card, last, stock, wild, sides, solve_cards;
    long long samples;
    double temperature, scale, reply = 0.0;
    int solve_stock = 0, solve_last = 0, with_weight = 0;
    double weight_sum = 0.0;
    PyObject *rules_o, *side_o, *hand_o, *table_o, *piles_o, *chk_o, *sizes_o, *unseen_o,
        *declared_o, *shown_o, *seed_o, *dec_o, *known_o = Py_None;
    if (!PyArg_ParseTuple(args, "OpiOiiOOiOOiOOiOiOLOidO|Odipp:evaluate", &rules_o, &cut_phase,
                          &seat, &side_o, &turn, &dealer, &hand_o, &table_o, &cut_card, &piles_o,
                          &chk_o, &last, &sizes_o, &unseen_o, &stock, &declared_o, &wild,
                          &shown_o, &samples, &seed_o, &solve_cards, &temperature, &dec_o,
                          &known_o, &reply, &solve_stock, &solve_last, &with_weight))
        return NULL;
    if (solve_stock < 0 || solve_stock > NCARDS) {
        PyErr_SetString(PyExc_ValueError, "solve_stock must be from 0 to 40");
        return NULL;
    }
    if (!(reply >= 0.0 && reply <= 1.0)) {
        PyErr_SetString(PyExc_ValueError, "reply must be from 0 to 1");
        return NULL;
    }
    const Rules *R;
    if (get_rules(rules_o, &R) < 0 || check_wild(wild) < 0) return NULL;
    if (get_scale(temperature, &scale) < 0) return NULL;
    PyObject *seq = PySequence_Fast(side_o, "side_of must be a sequence of ints");
    if (seq == NULL) return NULL;
    seats = (int)PySequence_Fast_GET_SIZE(seq);
    Py_DECREF(seq);
    int side_of[MAX_PLAYERS];
    if (get_players(side_o, seats, side_of, &sides) < 0) return NULL;
    if (seat < 0 || seat >= seats || turn != seat) {
        PyErr_SetString(PyExc_ValueError, "the observer must be the seat to move");
        return NULL;
    }
    if (dealer < 0 || dealer >= seats) {
        PyErr_Format(PyExc_ValueError, "dealer must be a seat from 0 to %d", seats - 1);
        return NULL;
    }
    if (cut_phase && !R->cut_choice) {
        PyErr_SetString(PyExc_ValueError, "these rules have no cut to decide");
        return NULL;
    }
    if (samples < 0) {
        PyErr_SetString(PyExc_ValueError, "samples must not be negative");
        return NULL;
    }
    mask_t hand, table, unseen, piles[MAX_PLAYERS], shown[MAX_PLAYERS];
    int chk[MAX_PLAYERS], sizes[MAX_PLAYERS], declared[MAX_PLAYERS];
    if (get_mask(hand_o, &hand, "hand") < 0 || get_mask(table_o, &table, "table") < 0 ||
        get_mask(unseen_o, &unseen, "unseen") < 0 ||
        get_masks(piles_o, sides, piles, "piles") < 0 ||
        get_ints(chk_o, sides, 0, 40, chk, NULL, "chkobba") < 0 ||
        get_ints(sizes_o, seats, 0, MAX_HAND, sizes, NULL, "hand_sizes") < 0 ||
        get_ints(declared_o, sides, 0, INT_MAX / 4, declared, NULL, "declared") < 0 ||
        get_masks(shown_o, seats, shown, "shown") < 0)
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
    /* The observer's own shown cards are in its hand; the others' are public cards
       that stay in their hands. */
    if (shown[seat] & ~hand) {
        PyErr_SetString(PyExc_ValueError, "the observer's shown cards must be in its hand");
        return NULL;
    }
    shown[seat] = 0;
    mask_t shown_all = 0;
    for (int s = 0; s < seats; s++) {
        if (popcount(shown[s]) > sizes[s] || (shown_all & shown[s])) {
            PyErr_Format(PyExc_ValueError, "seat %d's shown cards do not fit its hand", s);
            return NULL;
        }
        shown_all |= shown[s];
    }

    /* Hands the evaluator is let see (a measurement's peeking player): fixed in
       every sample; the other hands and the stock are drawn from the rest. */
    mask_t known[MAX_PLAYERS] = {0}, known_all = 0;
    if (known_o != Py_None) {
        if (cut_phase) {
            PyErr_SetString(PyExc_ValueError, "known hands are for the play, not the cut");
            return NULL;
        }
        if (get_masks(known_o, seats, known, "known") < 0) return NULL;
        for (int s = 0; s < seats; s++) {
            if (!known[s]) continue;
            if (s == seat || (known[s] & ~(unseen | shown[s])) || (known_all & known[s]) ||
                (known[s] & shown[s]) != shown[s] || popcount(known[s]) != sizes[s]) {
                PyErr_Format(PyExc_ValueError,
                             "known hand of seat %d must be %d unseen cards of another seat", s,
                             sizes[s]);
                return NULL;
            }
            known_all |= known[s] & unseen;
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
    Game base;
    game_seat(&base, R, seats, side_of);
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
        if (claim(&seen, unseen, "unseen") < 0 || claim(&seen, shown_all, "shown") < 0)
            return NULL;
        int others = 0;
        for (int s = 0; s < seats; s++)
            if (s != seat) others += sizes[s] - popcount(shown[s]);
        if (popcount(hand) != sizes[seat] || popcount(unseen) != others + stock || stock < 0 ||
            stock % (R->hand_size * seats)) {
            PyErr_SetString(PyExc_ValueError,
                            "the unseen cards do not fill the other hands and the stock");
            return NULL;
        }
        base.cutter = (dealer + 1) % seats;
        base.turn = turn;
        base.last = last;
        base.table = table;
        base.wild = wild;
        for (int s = 0; s < sides; s++) {
            base.piles[s] = piles[s];
            base.chk[s] = chk[s];
            base.declared[s] = declared[s];
        }
        base.in_hands = others + sizes[seat];
        for (int s = 0; s < seats; s++) base.hands[s] = shown[s];
        base.hands[seat] = hand;
        gen_plays(R, wild, hand, table, &roots);
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
    MoveList ml, replies;
    ml_init(&ml);
    ml_init(&replies);
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
            game_new(&deal, R, seats, side_of, dealer, deck);
        } else {
            /* determinize: the other hands in seat order (a shown card stays in its
               hand), the rest as the stock. */
            shuffle(unseen_cards, n_unseen, &rng);
            deal = base;
            int pos = 0;
            for (int s = 0; s < seats; s++) {
                if (s == seat) continue;
                if (known[s]) {
                    deal.hands[s] = known[s];
                    continue;
                }
                for (int i = popcount(shown[s]); i < sizes[s]; i++)
                    deal.hands[s] |= (mask_t)1 << unseen_cards[pos++];
            }
            memcpy(deal.stock, unseen_cards + pos, (size_t)(n_unseen - pos));
            deal.stock_len = n_unseen - pos;
            deal.stock_pos = 0;
        }
        double weight = 1.0;
        if (n_decisions) {
            weight = exp(deal_log_likelihood(decisions, n_decisions, deal.hands, R, deal.wild,
                                             scale, &ml));
            if (isnan(weight)) {
                bad = 2;
                break;
            }
            /* A deal that cannot explain the plays adds nothing: no playouts. */
            if (weight == 0.0) continue;
        }
        weight_sum += weight;
        for (int i = 0; i < n_moves; i++) {
            Game g = deal;
            if (cut_phase)
                game_deal(&g, i == 0 ? 1 : 0);
            else
                game_play(&g, roots.v[i].card, roots.v[i].capture);
            double m = cut_phase
                           ? (double)playout_margin(&g, side, solve_cards, 0, 0, &ml, &rng)
                           : reply_margin(&g, side, solve_cards, solve_stock, solve_last,
                                          reply, &ml, &replies, &rng);
            if (isnan(m) || m == (double)INT_MIN) {
                bad = 1;
                break;
            }
            totals[i] += weight * m;
        }
    }
    int failed = ml.failed || replies.failed;
    ml_free(&ml);
    ml_free(&replies);
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
        out = PyList_New(n_moves + (with_weight ? 1 : 0));
        if (out != NULL && with_weight) {
            /* The samples' total weight last: the sums divided by it are means. */
            PyObject *w = PyFloat_FromDouble(weight_sum);
            if (w == NULL)
                Py_CLEAR(out);
            else
                PyList_SET_ITEM(out, n_moves, w);
        }
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
             "likelihoods(decisions, rules, wild, temperature, deals)\n--\n\n"
             "For each deal (every seat's hand now) the log of its weight: how likely it "
             "makes the decisions (chkobba.search.inference.log_likelihood); wild is the "
             "value the 7♠ keeps this round (0: a 7).");

static PyObject *fc_likelihoods(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *dec_o, *rules_o, *deals_o;
    int wild;
    double temperature, scale;
    if (!PyArg_ParseTuple(args, "OOidO:likelihoods", &dec_o, &rules_o, &wild, &temperature,
                          &deals_o))
        return NULL;
    const Rules *R;
    if (get_rules(rules_o, &R) < 0 || check_wild(wild) < 0) return NULL;
    if (get_scale(temperature, &scale) < 0) return NULL;
    Decision decisions[MAX_DECISIONS];
    int n = 0;
    if (get_decisions(dec_o, MAX_PLAYERS, MAX_PLAYERS, decisions, &n) < 0) return NULL;
    PyObject *deals = PySequence_Fast(deals_o, "deals must be a sequence of hands");
    if (deals == NULL) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(deals);
    PyObject *out = PyList_New(k);
    MoveList ml;
    ml_init(&ml);
    for (Py_ssize_t i = 0; out != NULL && i < k; i++) {
        PyObject *hands_o = PySequence_Fast_GET_ITEM(deals, i);
        PyObject *hs = PySequence_Fast(hands_o, "");
        mask_t hands[MAX_PLAYERS] = {0};
        Py_ssize_t seats = hs == NULL ? -1 : PySequence_Fast_GET_SIZE(hs);
        Py_XDECREF(hs);
        if (seats < 2 || seats > MAX_PLAYERS) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "each deal must hold 2 to 6 hands");
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
            ll = deal_log_likelihood(decisions, n, hands, R, wild, scale, &ml);
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

/* BYTE_FLOATS[b] is byte b as 8 floats, lowest bit first: a plane is five copies. */
static float BYTE_FLOATS[256][8];

static void init_byte_floats(void) {
    for (int b = 0; b < 256; b++)
        for (int i = 0; i < 8; i++) BYTE_FLOATS[b][i] = (float)((b >> i) & 1);
}

static inline void v1_plane(float *out, mask_t m) {
    for (int k = 0; k < 5; k++) memcpy(out + 8 * k, BYTE_FLOATS[(m >> (8 * k)) & 0xFF], 32);
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

/* What one seat's chkobba_v1 vector is made of, seats and sides absolute (the
   arguments of encode_v1 below, read into C). */
typedef struct {
    int seat, seats, sides, seating, dealer, phase;
    const int *side_of;
    const mask_t *hands, *piles;
    mask_t table, leftover, taken, shown, shown_all;
    int cut_card, choice_card;
    const int *last_cards; /* by offset 1, 2, 3; -1 for none */
    int n_last;
    const Move *plays;
    int n_plays;
    int cut_to_move, stock, last_capturer, target;
    const int *chk, *totals;
    int public_view; /* openspiel.public_view: the seat's hand and cut card among the unseen */
} V1In;

/* Write the vector of `in` into v and the mask of its plays (or of the cut) into mask. */
static void v1_write(float *v, int8_t *mask, const V1In *in) {
    int seat = in->seat, seats = in->seats, sides = in->sides;
    const int *side_of = in->side_of;
    mask_t table = in->table;
    /* What the seat has seen: its hand, the table, the piles, a declared hand, the cut card. */
    mask_t hand = in->hands[seat];
    mask_t known = hand | table | in->leftover | in->shown_all;
    for (int s = 0; s < sides; s++) known |= in->piles[s];
    if (in->cut_card >= 0) known |= (mask_t)1 << in->cut_card;
    mask_t unseen = ALL_CARDS & ~known;
    memset(mask, 0, V1_ACTIONS);
    int my_side = side_of[seat];
    mask_t set[V1_SET_PLANES];
    memset(set, 0, sizeof set);
    set[0] = hand;
    set[1] = table;
    set[2] = unseen;
    if (in->public_view) {
        /* What everyone sees of the seat: its own cards are unseen (the caller gives no
           choice and no plays). */
        set[0] = 0;
        set[2] |= hand | (in->cut_card >= 0 ? (mask_t)1 << in->cut_card : 0);
    }
    for (int s = 0; s < sides; s++) set[3 + (s - my_side + sides) % sides] = in->piles[s];
    if (in->cut_card >= 0 && !in->public_view) set[7] = (mask_t)1 << in->cut_card;
    if (in->choice_card >= 0) {
        set[8] = (mask_t)1 << in->choice_card;
        set[9] = in->taken;
    }
    set[10] = in->shown;
    for (int k = 0; k < in->n_last && k < seats - 1; k++)
        if (in->last_cards[k] >= 0) set[11 + k] = (mask_t)1 << in->last_cards[k];
    /* What each card of the hand can do now, read off the legal plays. */
    uint8_t counts[3][NCARDS];
    int any_count = 0;
    int table_total_v = -1;
    for (int i = 0; i < in->n_plays; i++) {
        int card = in->plays[i].card;
        mask_t cap = in->plays[i].capture;
        mask_t bit = (mask_t)1 << card;
        mask[card] = 1;
        if (cap) {
            if (!any_count) {
                memset(counts, 0, sizeof counts);
                any_count = 1;
            }
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
    if (in->cut_to_move) {
        mask[V1_KEEP] = 1;
        mask[V1_TABLE] = 1;
    }
    for (int k = 0; k < V1_SET_PLANES; k++) v1_plane(v + 40 * k, set[k]);
    if (any_count) {
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < NCARDS; c++)
                v[V1_COUNT_AT + 40 * k + c] = (float)(counts[k][c] * 0.1);
    } else {
        memset(v + V1_COUNT_AT, 0, sizeof(float) * 3 * NCARDS);
    }
    memset(v + V1_SCALAR_AT, 0, sizeof(float) * (V1_SIZE - V1_SCALAR_AT));
    if (in->phase < 2) v[V1_PHASE + in->phase] = 1.0f;
    for (int s = 0; s < seats; s++)
        v[V1_HAND_SIZES + (s - seat + seats) % seats] = (float)(popcount(in->hands[s]) / 10.0);
    v[V1_STOCK] = (float)(in->stock / 40.0);
    double tgt = in->target < 1 ? 1.0 : (double)in->target;
    for (int s = 0; s < sides; s++) {
        int k = (s - my_side + sides) % sides;
        double t = in->totals[s] / tgt;
        v[V1_CHKOBBA + k] = (float)(in->chk[s] / 10.0);
        v[V1_TOTALS + k] = (float)(t < V1_TOTALS_CLIP ? t : V1_TOTALS_CLIP);
    }
    int lc = in->last_capturer;
    v[V1_LAST_CAPTURER + (lc < 0 ? MAX_SEATS : (lc - my_side + sides) % sides)] = 1.0f;
    v[V1_SEATING + in->seating] = 1.0f;
    v[V1_POSITION + (seat - in->dealer + seats) % seats] = 1.0f;
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
    PyObject *plays = PySequence_Fast(plays_o, "plays must be a sequence of (card, capture)");
    if (plays == NULL) return NULL;
    MoveList ml;
    ml_init(&ml);
    Py_ssize_t np_ = PySequence_Fast_GET_SIZE(plays);
    for (Py_ssize_t i = 0; i < np_; i++) {
        PyObject *p = PySequence_Fast_GET_ITEM(plays, i);
        int card;
        mask_t cap;
        if (!PyTuple_Check(p) || PyTuple_GET_SIZE(p) != 2 ||
            get_int(PyTuple_GET_ITEM(p, 0), 0, NCARDS - 1, &card, "a play's card") < 0 ||
            get_mask(PyTuple_GET_ITEM(p, 1), &cap, "a play's capture") < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "each play must be a (card, capture) tuple");
            Py_DECREF(plays);
            ml_free(&ml);
            return NULL;
        }
        ml_push(&ml, card, cap);
    }
    Py_DECREF(plays);
    if (ml.failed) {
        ml_free(&ml);
        return PyErr_NoMemory();
    }
    Py_buffer vb, mb;
    if (get_out_buffer(vec_o, &vb, V1_SIZE, sizeof(float), "vec") < 0) {
        ml_free(&ml);
        return NULL;
    }
    if (get_out_buffer(mask_o, &mb, V1_ACTIONS, 1, "mask") < 0) {
        PyBuffer_Release(&vb);
        ml_free(&ml);
        return NULL;
    }
    V1In in = {
        .seat = seat, .seats = seats, .sides = sides, .seating = seating, .dealer = dealer,
        .phase = phase, .side_of = side_of, .hands = hands, .piles = piles, .table = table,
        .leftover = leftover, .taken = taken, .shown = shown, .shown_all = shown_all,
        .cut_card = cut_card, .choice_card = choice_card, .last_cards = last_cards,
        .n_last = n_last, .plays = ml.v, .n_plays = ml.n, .cut_to_move = cut_to_move,
        .stock = stock, .last_capturer = last_capturer, .target = target, .chk = chk,
        .totals = totals,
    };
    v1_write((float *)vb.buf, (int8_t *)mb.buf, &in);
    ml_free(&ml);
    PyBuffer_Release(&vb);
    PyBuffer_Release(&mb);
    Py_RETURN_NONE;
}

/* ---- the OpenSpiel game's chance outcomes (chkobba.rl.openspiel) ------------------ */

/* The chance outcomes of a shuffle's next draw, (card, 1/n) for each of the n cards left:
   the tuples are made once and shared (they are immutable), so a list of them costs n
   pointers instead of n lookups in Python. */
static PyObject *spiel_outcome_cache[NCARDS + 1][NCARDS];

PyDoc_STRVAR(spiel_outcomes_doc,
             "spiel_outcomes(left) -> list[tuple[int, float]]\n--\n\n"
             "OpenSpiel's chance outcomes of drawing one of the cards in the mask left "
             "uniformly: (card, 1/n) for each of its n cards, ascending.");

static PyObject *fc_spiel_outcomes(PyObject *Py_UNUSED(module), PyObject *arg) {
    unsigned long long left = PyLong_AsUnsignedLongLong(arg);
    if (left == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    if (left >> NCARDS) {
        PyErr_SetString(PyExc_ValueError, "spiel_outcomes: the mask holds cards above 39");
        return NULL;
    }
    mask_t m = (mask_t)left;
    int n = popcount(m);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; m; m &= m - 1, i++) {
        int c = lowest(m);
        PyObject *t = spiel_outcome_cache[n][c];
        if (t == NULL) {
            t = Py_BuildValue("(id)", c, 1.0 / n);
            if (t == NULL) {
                Py_DECREF(out);
                return NULL;
            }
            spiel_outcome_cache[n][c] = t; /* the cache's own reference */
        }
        Py_INCREF(t);
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

/* The floats 0.0 and 1.0, shared by the lists float_list makes (most of a tensor). */
static PyObject *FLOAT_ZERO = NULL, *FLOAT_ONE = NULL;

PyDoc_STRVAR(float_list_doc,
             "float_list(tensor) -> list[float]\n--\n\n"
             "The float32 items of a C-contiguous buffer as a list of Python floats, what "
             "OpenSpiel's observation_tensor returns (tensor.tolist(), several times faster: "
             "the zeros and ones, most of a tensor, are one shared float each).");

static PyObject *fc_float_list(PyObject *Py_UNUSED(module), PyObject *arg) {
    Py_buffer b;
    if (PyObject_GetBuffer(arg, &b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    const char *f = b.format == NULL ? "B" : b.format;
    if (*f == '<' || *f == '=' || *f == '@') f++;
    if (b.itemsize != (Py_ssize_t)sizeof(float) || strcmp(f, "f") != 0) {
        PyErr_SetString(PyExc_TypeError, "float_list: the tensor must hold float32 items");
        PyBuffer_Release(&b);
        return NULL;
    }
    Py_ssize_t n = b.len / (Py_ssize_t)sizeof(float);
    PyObject *out = PyList_New(n);
    if (out == NULL) {
        PyBuffer_Release(&b);
        return NULL;
    }
    const uint32_t *bits = (const uint32_t *)b.buf;
    /* The shared floats' references are counted, then added at once: one increment per
       item would chain thousands of dependent writes to one counter. */
    Py_ssize_t zeros = 0, ones = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x;
        /* Compared bit for bit: -0.0 is not 0.0's object. */
        if (bits[i] == 0) {
            x = FLOAT_ZERO;
            zeros++;
        } else if (bits[i] == 0x3F800000u) {
            x = FLOAT_ONE;
            ones++;
        } else {
            float v;
            memcpy(&v, &bits[i], sizeof v);
            x = PyFloat_FromDouble((double)v);
            if (x == NULL) break;
        }
        PyList_SET_ITEM(out, i, x);
    }
    Py_SET_REFCNT(FLOAT_ZERO, Py_REFCNT(FLOAT_ZERO) + zeros);
    Py_SET_REFCNT(FLOAT_ONE, Py_REFCNT(FLOAT_ONE) + ones);
    PyBuffer_Release(&b);
    if (PyErr_Occurred()) { /* the items not made yet are NULL, which the list skips */
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* ---- the module ------------------------------------------------------------ */

static PyTypeObject VecEnvType; /* the batched environment, at the end of the file */
static PyTypeObject SpielRoundType; /* one round for the OpenSpiel game, after it */

static PyMethodDef fastcore_methods[] = {
    {"legal_plays", fc_legal_plays, METH_VARARGS, legal_plays_doc},
    {"random_rounds", fc_random_rounds, METH_VARARGS, random_rounds_doc},
    {"play_choices", fc_play_choices, METH_VARARGS, play_choices_doc},
    {"rollout", fc_rollout, METH_VARARGS, rollout_doc},
    {"solve", fc_solve, METH_VARARGS, solve_doc},
    {"evaluate", fc_evaluate, METH_VARARGS, evaluate_doc},
    {"likelihoods", fc_likelihoods, METH_VARARGS, likelihoods_doc},
    {"encode_v1", fc_encode_v1, METH_VARARGS, encode_v1_doc},
    {"spiel_outcomes", fc_spiel_outcomes, METH_O, spiel_outcomes_doc},
    {"float_list", fc_float_list, METH_O, float_list_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef fastcore_module = {
    PyModuleDef_HEAD_INIT,
    "chkobba._fastcore",
    "The compiled fast path for playouts; use it through chkobba.search.fast.",
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
    init_byte_floats();
    if (FLOAT_ZERO == NULL) FLOAT_ZERO = PyFloat_FromDouble(0.0);
    if (FLOAT_ONE == NULL) FLOAT_ONE = PyFloat_FromDouble(1.0);
    if (FLOAT_ZERO == NULL || FLOAT_ONE == NULL) return NULL;
    if (PyType_Ready(&RulesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&fastcore_module);
    if (m == NULL) return NULL;
    Py_INCREF(&RulesType);
    if (PyModule_AddObject(m, "Rules", (PyObject *)&RulesType) < 0) {
        Py_DECREF(&RulesType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyType_Ready(&VecEnvType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&VecEnvType);
    if (PyModule_AddObject(m, "VecEnv", (PyObject *)&VecEnvType) < 0) {
        Py_DECREF(&VecEnvType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyType_Ready(&SpielRoundType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&SpielRoundType);
    if (PyModule_AddObject(m, "SpielRound", (PyObject *)&SpielRoundType) < 0) {
        Py_DECREF(&SpielRoundType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

/* ---- the batched environment (chkobba.rl.vector) ----------------------------
 *
 * N rounds of one rule set at one table, stepped together: what the PettingZoo
 * environment chkobba.rl.aec.raw_env (episode="round", the chkobba_v1 vector) does
 * one action at a time, done for N games per call without the GIL. Each game
 * deals exactly what raw_env deals after reset(seed=s): game i is seeded s + i,
 * and the deals come from a transcription of CPython's Mersenne Twister, so the
 * two are checked against each other step by step (tests/test_rl_vector.py).
 * A round that ends is scored and a new one dealt at once (automatic reset).
 */

/* CPython's random.Random (Modules/_randommodule.c): MT19937 and the arithmetic of
   seed(int), getrandbits, randrange and shuffle built on it. */
#include "pymt.h"


static void pymt_init_genrand(PyMT *r, uint32_t s) {
    uint32_t *mt = r->mt;
    mt[0] = s;
    for (int i = 1; i < PYMT_N; i++) mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    r->index = PYMT_N;
}

/* init_genrand(19650218), where every seeding starts: computed once (vecenv_new). */
static PyMT PYMT_START;
static int PYMT_START_DONE = 0;

static void pymt_start(void) {
    if (PYMT_START_DONE) return;
    pymt_init_genrand(&PYMT_START, 19650218U);
    PYMT_START_DONE = 1;
}

/* random.Random(seed) for 0 <= seed < 2**64: the seed's 32-bit words, lowest first. */
static void pymt_seed(PyMT *r, uint64_t seed) {
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    int len = key[1] ? 2 : 1;
    uint32_t *mt = r->mt;
    *r = PYMT_START;
    int i = 1, j = 0;
    for (int k = PYMT_N; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= PYMT_N) {
            mt[0] = mt[PYMT_N - 1];
            i = 1;
        }
        if (j >= len) j = 0;
    }
    for (int k = PYMT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= PYMT_N) {
            mt[0] = mt[PYMT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
}


/* random.getrandbits(64): the low word first. */
static uint64_t pymt_bits64(PyMT *r) {
    uint64_t lo = pymt_next(r);
    return lo | (uint64_t)pymt_next(r) << 32;
}


/* random.shuffle */
static void pymt_shuffle(PyMT *r, int8_t *a, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = pymt_below(r, i + 1);
        int8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

#define V1_TAKE 40
#define V1_DONE 80

/* One game of the batch: the round, the Match's random numbers and what the
   environment adds to the round (the cut, the capture being chosen, the cards
   declarations showed, each seat's last card). */
typedef struct {
    Game g;
    PyMT episodes; /* raw_env's own generator: one 64-bit Match seed per episode */
    PyMT match;    /* the Match's: the first dealer, every shuffle */
    int dealer;
    int phase;       /* 0: the cut, 1: play */
    int cut_card;    /* the top card at the cut */
    int choice_card; /* the card whose capture is being chosen, -1 for none */
    mask_t taken;    /* the table cards named so far in that capture */
    mask_t declared[MAX_SEATS];
    int last_card[MAX_SEATS]; /* the card each seat last played this round, -1 for none */
    MoveList plays;           /* the legal plays of the seat to move (play phase) */
} VGame;

typedef struct {
    PyObject_HEAD PyObject *rules_o;
    const Rules *R;
    int n, seats, sides, seating, target;
    int side_of[MAX_SEATS];
    int busy;   /* a call is stepping the games (with the GIL released) */
    int seeded; /* reset has dealt every game */
    Rng sampler; /* sample's random numbers, seeded by reset */
    VGame *games;
} VecEnvObject;

static void vg_after_deal(VGame *vg) {
    const Game *g = &vg->g;
    if (!g->R->declares) return;
    /* Round._declare: every hand just dealt is declared if it can be, and shown. */
    for (int s = 0; s < g->seats; s++) {
        int wild;
        if (declaration(g->hands[s], &wild)) vg->declared[s] |= g->hands[s];
    }
}

static void vg_gen(VGame *vg) {
    Game *g = &vg->g;
    gen_plays(g->R, g->wild, g->hands[g->turn], g->table, &vg->plays);
}

/* Match._new_round: shuffle until the deal is not void (the cut comes first where the
   rules have one: its deal is checked once the cutter has decided). */
static void vg_new_round(const VecEnvObject *E, VGame *vg) {
    for (;;) {
        int8_t deck[NCARDS];
        for (int c = 0; c < NCARDS; c++) deck[c] = (int8_t)c;
        pymt_shuffle(&vg->match, deck, NCARDS);
        game_new(&vg->g, E->R, E->seats, E->side_of, vg->dealer, deck);
        vg->choice_card = -1;
        vg->taken = 0;
        for (int s = 0; s < MAX_SEATS; s++) {
            vg->declared[s] = 0;
            vg->last_card[s] = -1;
        }
        vg->plays.n = 0;
        if (E->R->cut_choice) {
            vg->phase = 0;
            vg->cut_card = deck[0];
            return;
        }
        vg->phase = 1;
        vg->cut_card = -1;
        game_deal(&vg->g, -1);
        if (!vg->g.void_deal) break;
    }
    vg_after_deal(vg);
    vg_gen(vg);
}

/* raw_env.reset(): a new Match from the next 64-bit seed. */
static void vg_new_episode(const VecEnvObject *E, VGame *vg) {
    pymt_seed(&vg->match, pymt_bits64(&vg->episodes));
    vg->dealer = pymt_below(&vg->match, E->seats);
    vg_new_round(E, vg);
}

/* The choice's open captures: those of the card that begin with the cards taken
   (spaces._next_takes): the cards that may be taken next, and whether done is legal. */
static mask_t vg_next_takes(const VGame *vg, int *done, int *open, mask_t *only) {
    mask_t taken = vg->taken, nxt = 0;
    /* Every card up to the highest taken: the captures must agree with `taken` there. */
    mask_t low = taken;
    for (int sh = 1; sh < 64; sh <<= 1) low |= low >> sh;
    *done = 0;
    *open = 0;
    for (int i = 0; i < vg->plays.n; i++) {
        const Move *m = &vg->plays.v[i];
        if (m->card != vg->choice_card || (m->capture & low) != taken) continue;
        (*open)++;
        *only = m->capture;
        mask_t rest = m->capture & ~taken;
        if (rest)
            nxt |= rest & (~rest + 1);
        else
            *done = 1;
    }
    return nxt;
}

/* Whether action `a` (0 to 82) is legal in `vg` now. */
static int vg_legal(const VGame *vg, int a) {
    if (vg->phase == 0) return a == V1_KEEP || a == V1_TABLE;
    if (vg->choice_card >= 0) {
        int done, open;
        mask_t only;
        mask_t nxt = vg_next_takes(vg, &done, &open, &only);
        if (a == V1_DONE) return done;
        return a >= V1_TAKE && a < V1_DONE && (nxt >> (a - V1_TAKE) & 1);
    }
    if (a >= V1_TAKE) return 0;
    for (int i = 0; i < vg->plays.n; i++)
        if (vg->plays.v[i].card == a) return 1;
    return 0;
}

/* Each seat's reward for the round just scored (aec.round_rewards): its side's points
   minus the other sides' mean. */
static void vg_rewards(const VGame *vg, float *rew) {
    const Game *g = &vg->g;
    int pts[MAX_PLAYERS];
    score_points(g, pts);
    int total = 0;
    for (int s = 0; s < g->sides; s++) total += pts[s];
    for (int seat = 0; seat < g->seats; seat++) {
        int mine = pts[g->side_of[seat]];
        rew[seat] = (float)(mine - (double)(total - mine) / (g->sides - 1));
    }
}

/* Play (card, capture) for the seat to move; 1 if it ended the round (scored into rew). */
static int vg_play(VGame *vg, int card, mask_t capture, float *rew) {
    Game *g = &vg->g;
    int refill = g->in_hands == 1 && g->stock_pos < g->stock_len;
    vg->last_card[g->turn] = card;
    vg->choice_card = -1;
    vg->taken = 0;
    game_play(g, card, capture);
    if (g->over) {
        vg_rewards(vg, rew);
        return 1;
    }
    if (refill) vg_after_deal(vg);
    vg_gen(vg);
    return 0;
}

/* Apply a legal action (raw_env.step); 1 if it ended the round. */
static int vg_act(const VecEnvObject *E, VGame *vg, int a, float *rew) {
    if (vg->phase == 0) {
        game_deal(&vg->g, a == V1_KEEP ? 1 : 0);
        if (vg->g.void_deal) {
            /* A void deal is redone by the same dealer with a fresh shuffle (§2.2). */
            vg_new_round(E, vg);
            return 0;
        }
        vg->phase = 1;
        vg_after_deal(vg);
        vg_gen(vg);
        return 0;
    }
    if (vg->choice_card < 0) {
        int count = 0;
        mask_t cap = 0;
        for (int i = 0; i < vg->plays.n; i++)
            if (vg->plays.v[i].card == a) {
                count++;
                cap = vg->plays.v[i].capture;
            }
        if (count == 1) return vg_play(vg, a, cap, rew);
        vg->choice_card = a;
        vg->taken = 0;
        return 0;
    }
    if (a == V1_DONE) return vg_play(vg, vg->choice_card, vg->taken, rew);
    vg->taken |= (mask_t)1 << (a - V1_TAKE);
    int done, open;
    mask_t only = 0;
    vg_next_takes(vg, &done, &open, &only);
    if (open == 1) return vg_play(vg, vg->choice_card, only, rew);
    return 0;
}

/* The vector and mask of the seat to move, and that seat. */
static void vg_observe(const VecEnvObject *E, const VGame *vg, float *v, int8_t *mask,
                       int64_t *player) {
    static const int zeros[MAX_SEATS] = {0};
    const Game *g = &vg->g;
    int seat = g->turn, seats = g->seats;
    int last[MAX_SEATS - 1];
    mask_t shown = 0, shown_all = 0;
    for (int s = 0; s < seats; s++) {
        mask_t m = vg->declared[s] & g->hands[s];
        shown_all |= m;
        if (s != seat) shown |= m;
    }
    for (int k = 0; k < seats - 1; k++) last[k] = vg->last_card[(seat + 1 + k) % seats];
    V1In in = {
        .seat = seat, .seats = seats, .sides = g->sides, .seating = E->seating,
        .dealer = vg->dealer, .phase = vg->phase, .side_of = g->side_of, .hands = g->hands,
        .piles = g->piles, .table = g->table, .leftover = 0, .taken = vg->taken,
        .shown = shown, .shown_all = shown_all,
        .cut_card = vg->phase == 0 ? vg->cut_card : -1, .choice_card = vg->choice_card,
        .last_cards = last, .n_last = seats - 1,
        .plays = vg->plays.v, .n_plays = vg->phase == 0 ? 0 : vg->plays.n,
        .cut_to_move = vg->phase == 0, .stock = g->stock_len - g->stock_pos,
        .last_capturer = g->last, .target = E->target, .chk = g->chk, .totals = zeros,
    };
    v1_write(v, mask, &in);
    if (vg->choice_card >= 0) {
        int done, open;
        mask_t only;
        mask_t nxt = vg_next_takes(vg, &done, &open, &only);
        memset(mask, 0, V1_ACTIONS);
        for (; nxt; nxt &= nxt - 1) mask[V1_TAKE + lowest(nxt)] = 1;
        mask[V1_DONE] = (int8_t)done;
    }
    *player = seat;
}

static int vec_failed(const VecEnvObject *E) {
    for (int i = 0; i < E->n; i++)
        if (E->games[i].plays.failed) return 1;
    return 0;
}

PyDoc_STRVAR(vecenv_doc,
             "VecEnv(rules, n, seats, side_of, target)\n--\n\n"
             "n rounds of the rules at one table (side_of: 0..seats-1, or 0, 1, 0, 1 for 2 "
             "against 2), stepped together; target scales the totals' entries. Use it "
             "through chkobba.rl.vector.VecEnv, which holds the arrays.");

static PyObject *vecenv_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *ro, *side_o;
    int n, seats, target;
    static char *kwlist[] = {"rules", "n", "seats", "side_of", "target", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiiOi:VecEnv", kwlist, &ro, &n, &seats,
                                     &side_o, &target))
        return NULL;
    const Rules *R;
    int side_of[MAX_SEATS], sides;
    if (get_rules(ro, &R) < 0 || get_seating(side_o, seats, side_of, &sides) < 0) return NULL;
    if (n < 1 || n > (1 << 24)) {
        PyErr_Format(PyExc_ValueError, "n must be from 1 to %d games, not %d", 1 << 24, n);
        return NULL;
    }
    if (R->hand_size * seats + R->table_size > NCARDS) {
        PyErr_SetString(PyExc_ValueError, "rules: the deal needs more than 40 cards");
        return NULL;
    }
    pymt_start();
    VecEnvObject *self = (VecEnvObject *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    self->games = (VGame *)PyMem_RawCalloc((size_t)n, sizeof(VGame));
    if (self->games == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    Py_INCREF(ro);
    self->rules_o = ro;
    self->R = R;
    self->n = n;
    self->seats = seats;
    self->sides = sides;
    self->seating = seats == 2 ? 0 : seats == 3 ? 1 : sides == 4 ? 2 : 3;
    self->target = target;
    for (int s = 0; s < seats; s++) self->side_of[s] = side_of[s];
    for (int i = 0; i < n; i++) ml_init(&self->games[i].plays);
    return (PyObject *)self;
}

static void vecenv_dealloc(VecEnvObject *self) {
    if (self->games != NULL) {
        for (int i = 0; i < self->n; i++) ml_free(&self->games[i].plays);
        PyMem_RawFree(self->games);
    }
    Py_XDECREF(self->rules_o);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int vec_claim(VecEnvObject *self) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "VecEnv: another thread is stepping these games");
        return -1;
    }
    self->busy = 1;
    return 0;
}

/* The output arrays of reset and step: obs [n, 868] float32, mask [n, 83] bytes,
   player [n] int64. */
static int vec_outputs(VecEnvObject *self, PyObject *obs_o, PyObject *mask_o, PyObject *player_o,
                       Py_buffer *ob, Py_buffer *mb, Py_buffer *pb) {
    Py_ssize_t n = self->n;
    if (get_out_buffer(obs_o, ob, n * V1_SIZE, sizeof(float), "obs") < 0) return -1;
    if (get_out_buffer(mask_o, mb, n * V1_ACTIONS, 1, "mask") < 0) {
        PyBuffer_Release(ob);
        return -1;
    }
    if (get_out_buffer(player_o, pb, n, sizeof(int64_t), "player") < 0) {
        PyBuffer_Release(ob);
        PyBuffer_Release(mb);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(vecenv_reset_doc,
             "reset(seed, obs, mask, player)\n--\n\n"
             "Deal every game anew, game i as raw_env.reset(seed=seed + i) deals it, and "
             "write each seat to move's vector, mask and seat.");

static PyObject *vecenv_reset(VecEnvObject *self, PyObject *args) {
    unsigned long long seed;
    PyObject *obs_o, *mask_o, *player_o;
    if (!PyArg_ParseTuple(args, "KOOO:reset", &seed, &obs_o, &mask_o, &player_o)) return NULL;
    if (seed > UINT64_MAX - (unsigned long long)self->n) {
        PyErr_SetString(PyExc_ValueError, "seed + n must be below 2**64");
        return NULL;
    }
    Py_buffer ob, mb, pb;
    if (vec_outputs(self, obs_o, mask_o, player_o, &ob, &mb, &pb) < 0) return NULL;
    if (vec_claim(self) < 0) {
        PyBuffer_Release(&ob);
        PyBuffer_Release(&mb);
        PyBuffer_Release(&pb);
        return NULL;
    }
    float *obs = (float *)ob.buf;
    int8_t *mask = (int8_t *)mb.buf;
    int64_t *player = (int64_t *)pb.buf;
    Py_BEGIN_ALLOW_THREADS
    for (int i = 0; i < self->n; i++) {
        VGame *vg = &self->games[i];
        pymt_seed(&vg->episodes, (uint64_t)seed + (uint64_t)i);
        vg_new_episode(self, vg);
        vg_observe(self, vg, obs + (size_t)i * V1_SIZE, mask + (size_t)i * V1_ACTIONS,
                   player + i);
    }
    Py_END_ALLOW_THREADS
    self->busy = 0;
    self->seeded = 1;
    rng_seed(&self->sampler, (uint64_t)seed);
    PyBuffer_Release(&ob);
    PyBuffer_Release(&mb);
    PyBuffer_Release(&pb);
    if (vec_failed(self)) {
        self->seeded = 0;
        return PyErr_NoMemory();
    }
    Py_RETURN_NONE;
}

PyDoc_STRVAR(vecenv_step_doc,
             "step(actions, obs, mask, player, rewards, terminated, strict, illegal_reward, "
             "active=None)\n--\n\n"
             "Apply one action id (int64) in every game (or in the games whose byte of active "
             "is nonzero: the others' rows are left as they were, their rewards and "
             "terminated cleared, their actions unread). With strict, a masked action "
             "changes nothing at all and its game's index is returned; otherwise it ends "
             "its game's round with illegal_reward to the seat that chose it. Every round "
             "that ends writes its rewards [n, seats] (float32) and terminated (bytes) and "
             "is dealt anew: obs, mask and player are the new round's. Return -1 once "
             "applied; -2 - i, with nothing changed, if game i's action is no action id "
             "(outside 0 to 82), whatever strict says.");

static PyObject *vecenv_step(VecEnvObject *self, PyObject *args) {
    PyObject *act_o, *obs_o, *mask_o, *player_o, *rew_o, *term_o, *active_o = Py_None;
    int strict;
    double illegal_reward;
    if (!PyArg_ParseTuple(args, "OOOOOOpd|O:step", &act_o, &obs_o, &mask_o, &player_o, &rew_o,
                          &term_o, &strict, &illegal_reward, &active_o))
        return NULL;
    if (!self->seeded) {
        PyErr_SetString(PyExc_RuntimeError, "VecEnv: reset the games before stepping them");
        return NULL;
    }
    Py_buffer ab, ob, mb, pb, rb, tb, vb;
    const int8_t *active = NULL;
    if (active_o != Py_None) {
        if (PyObject_GetBuffer(active_o, &vb, PyBUF_C_CONTIGUOUS) < 0) return NULL;
        if (vb.len != (Py_ssize_t)self->n) {
            PyErr_Format(PyExc_ValueError, "active must hold %d bytes", self->n);
            PyBuffer_Release(&vb);
            return NULL;
        }
        active = (const int8_t *)vb.buf;
    }
    if (PyObject_GetBuffer(act_o, &ab, PyBUF_C_CONTIGUOUS) < 0) {
        if (active) PyBuffer_Release(&vb);
        return NULL;
    }
    if (ab.len != (Py_ssize_t)self->n * (Py_ssize_t)sizeof(int64_t)) {
        PyErr_Format(PyExc_ValueError, "actions must hold %d int64 action ids", self->n);
        PyBuffer_Release(&ab);
        if (active) PyBuffer_Release(&vb);
        return NULL;
    }
    if (vec_outputs(self, obs_o, mask_o, player_o, &ob, &mb, &pb) < 0) {
        PyBuffer_Release(&ab);
        if (active) PyBuffer_Release(&vb);
        return NULL;
    }
    int rb_ok = get_out_buffer(rew_o, &rb, (Py_ssize_t)self->n * self->seats, sizeof(float),
                               "rewards") == 0;
    int tb_ok = rb_ok && get_out_buffer(term_o, &tb, self->n, 1, "terminated") == 0;
    if (!tb_ok || vec_claim(self) < 0) {
        if (rb_ok) PyBuffer_Release(&rb);
        if (tb_ok) PyBuffer_Release(&tb);
        if (active) PyBuffer_Release(&vb);
        PyBuffer_Release(&ab);
        PyBuffer_Release(&ob);
        PyBuffer_Release(&mb);
        PyBuffer_Release(&pb);
        return NULL;
    }
    const int64_t *act = (const int64_t *)ab.buf;
    float *obs = (float *)ob.buf, *rew = (float *)rb.buf;
    int8_t *mask = (int8_t *)mb.buf, *term = (int8_t *)tb.buf;
    int64_t *player = (int64_t *)pb.buf;
    int n = self->n, seats = self->seats;
    Py_ssize_t bad = -1;
    Py_BEGIN_ALLOW_THREADS
    /* Every action is checked before any is applied: a strict step changes all or nothing,
       and no step reads something that is no action id. */
    for (int i = 0; i < n && bad == -1; i++)
        if ((!active || active[i]) && (act[i] < 0 || act[i] >= V1_ACTIONS)) bad = -2 - i;
    if (strict)
        for (int i = 0; i < n && bad == -1; i++)
            if ((!active || active[i]) && !vg_legal(&self->games[i], (int)act[i])) bad = i;
    if (bad == -1) {
        for (int i = 0; i < n; i++) {
            VGame *vg = &self->games[i];
            float *r = rew + (size_t)i * seats;
            for (int s = 0; s < seats; s++) r[s] = 0.0f;
            if (active && !active[i]) {
                term[i] = 0;
                continue;
            }
            int a = (int)act[i];
            int ended;
            if (a >= 0 && a < V1_ACTIONS && vg_legal(vg, a)) {
                ended = vg_act(self, vg, a, r);
            } else {
                /* TerminateIllegalWrapper: the round ends, the seat that chose pays. */
                r[vg->g.turn] = (float)illegal_reward;
                ended = 1;
            }
            term[i] = (int8_t)ended;
            if (ended) vg_new_episode(self, vg);
            vg_observe(self, vg, obs + (size_t)i * V1_SIZE, mask + (size_t)i * V1_ACTIONS,
                       player + i);
        }
    }
    Py_END_ALLOW_THREADS
    self->busy = 0;
    PyBuffer_Release(&ab);
    PyBuffer_Release(&ob);
    PyBuffer_Release(&mb);
    PyBuffer_Release(&pb);
    PyBuffer_Release(&rb);
    PyBuffer_Release(&tb);
    if (active) PyBuffer_Release(&vb);
    if (vec_failed(self)) {
        self->seeded = 0;
        return PyErr_NoMemory();
    }
    return PyLong_FromSsize_t(bad);
}

PyDoc_STRVAR(vecenv_legal_doc,
             "legal(i, action)\n--\n\nWhether action id `action` is legal in game i now.");

static PyObject *vecenv_legal(VecEnvObject *self, PyObject *args) {
    int i, a;
    if (!PyArg_ParseTuple(args, "ii:legal", &i, &a)) return NULL;
    if (i < 0 || i >= self->n) {
        PyErr_Format(PyExc_IndexError, "game %d: the games are 0 to %d", i, self->n - 1);
        return NULL;
    }
    if (!self->seeded) {
        PyErr_SetString(PyExc_RuntimeError, "VecEnv: reset the games first");
        return NULL;
    }
    return PyBool_FromLong(a >= 0 && a < V1_ACTIONS && vg_legal(&self->games[i], a));
}

PyDoc_STRVAR(vecenv_sample_doc,
             "sample(mask, actions)\n--\n\n"
             "Write into actions (int64) a legal action per game drawn uniformly from its row of "
             "mask (bytes, as step writes it), with the generator reset seeded.");

static PyObject *vecenv_sample(VecEnvObject *self, PyObject *args) {
    PyObject *mask_o, *act_o;
    if (!PyArg_ParseTuple(args, "OO:sample", &mask_o, &act_o)) return NULL;
    if (!self->seeded) {
        PyErr_SetString(PyExc_RuntimeError, "VecEnv: reset the games first");
        return NULL;
    }
    Py_buffer mb, ab;
    if (PyObject_GetBuffer(mask_o, &mb, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (mb.len != (Py_ssize_t)self->n * V1_ACTIONS) {
        PyErr_Format(PyExc_ValueError, "mask must hold %d rows of %d", self->n, V1_ACTIONS);
        PyBuffer_Release(&mb);
        return NULL;
    }
    if (get_out_buffer(act_o, &ab, self->n, sizeof(int64_t), "actions") < 0) {
        PyBuffer_Release(&mb);
        return NULL;
    }
    const uint8_t *mask = (const uint8_t *)mb.buf;
    int64_t *act = (int64_t *)ab.buf;
    int empty = -1;
    for (int i = 0; i < self->n && empty < 0; i++) {
        const uint8_t *row = mask + (size_t)i * V1_ACTIONS;
        int count = 0;
        for (int a = 0; a < V1_ACTIONS; a++) count += row[a] != 0;
        if (!count) {
            empty = i;
            break;
        }
        int k = (int)rng_below(&self->sampler, (uint32_t)count);
        for (int a = 0; a < V1_ACTIONS; a++)
            if (row[a] && k-- == 0) {
                act[i] = a;
                break;
            }
    }
    PyBuffer_Release(&mb);
    PyBuffer_Release(&ab);
    if (empty >= 0) {
        PyErr_Format(PyExc_ValueError, "mask row %d allows no action", empty);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef vecenv_methods[] = {
    {"reset", (PyCFunction)vecenv_reset, METH_VARARGS, vecenv_reset_doc},
    {"step", (PyCFunction)vecenv_step, METH_VARARGS, vecenv_step_doc},
    {"legal", (PyCFunction)vecenv_legal, METH_VARARGS, vecenv_legal_doc},
    {"sample", (PyCFunction)vecenv_sample, METH_VARARGS, vecenv_sample_doc},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject VecEnvType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "chkobba._fastcore.VecEnv",
    .tp_basicsize = sizeof(VecEnvObject),
    .tp_dealloc = (destructor)vecenv_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = vecenv_doc,
    .tp_new = vecenv_new,
    .tp_methods = vecenv_methods,
};

/* ---- one round for the OpenSpiel game (chkobba.rl.openspiel) ----------------------- */

/* One round dealt from a given deck (the OpenSpiel game's chance nodes drew it) and
   played by chkobba_v1 action ids, as the batched environment plays each of its games:
   the OpenSpiel state's legal actions and steps, without the pure engine. */
/* One entry of the round's public history (chkobba.fishing.game.Turn), for the
   information state tensor: a play (card >= 0, its capture, whether it swept) or the cut
   (card -1, kind 0 keep, 1 table). */
typedef struct {
    mask_t capture;
    int8_t seat, card, kind;
} SpielTurn;

/* A round's history holds at most one cut and one play per card. */
#define SPIEL_TURNS (NCARDS + 1)

typedef struct {
    PyObject_HEAD PyObject *rules_o;
    VGame vg;
    int n_turns;
    SpielTurn turns[SPIEL_TURNS];
} SpielRoundObject;

PyDoc_STRVAR(spiel_round_doc,
             "SpielRound(rules, seats, side_of, dealer, deck)\n--\n\n"
             "A round of the rules dealt from deck (the 40 card numbers, top first) by "
             "dealer, played by chkobba_v1 action ids (chkobba.rl.openspiel's fast path). "
             "void is 1 when the deal is void (docs/rules.md 2.2) and must be shuffled again.");

static SpielRoundObject *spiel_round_alloc(PyObject *ro, const Rules *R) {
    SpielRoundObject *self = PyObject_New(SpielRoundObject, &SpielRoundType);
    if (self == NULL) return NULL;
    Py_INCREF(ro);
    self->rules_o = ro;
    (void)R;
    return self;
}

static int spiel_round_failed(SpielRoundObject *self) {
    if (!self->vg.plays.failed) return 0;
    PyErr_NoMemory();
    return 1;
}

static PyObject *spiel_round_new(PyTypeObject *Py_UNUSED(type), PyObject *args,
                                 PyObject *kwds) {
    PyObject *ro, *side_o;
    int seats, dealer;
    Py_buffer deck;
    static char *kwlist[] = {"rules", "seats", "side_of", "dealer", "deck", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiOiy*:SpielRound", kwlist, &ro, &seats,
                                     &side_o, &dealer, &deck))
        return NULL;
    const Rules *R;
    int side_of[MAX_SEATS], sides;
    if (get_rules(ro, &R) < 0 || get_seating(side_o, seats, side_of, &sides) < 0) {
        PyBuffer_Release(&deck);
        return NULL;
    }
    int8_t cards[NCARDS];
    mask_t seen = 0;
    int ok = deck.len == NCARDS && dealer >= 0 && dealer < seats &&
             R->hand_size * seats + R->table_size <= NCARDS;
    for (int i = 0; ok && i < NCARDS; i++) {
        int c = ((const unsigned char *)deck.buf)[i];
        if (c >= NCARDS || (seen >> c & 1)) ok = 0;
        seen |= (mask_t)1 << (c < NCARDS ? c : 0);
        cards[i] = (int8_t)c;
    }
    PyBuffer_Release(&deck);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError,
                        "SpielRound: a deal needs the 40 cards once each and a seated dealer");
        return NULL;
    }
    SpielRoundObject *self = spiel_round_alloc(ro, R);
    if (self == NULL) return NULL;
    VGame *vg = &self->vg;
    memset(vg, 0, sizeof(*vg));
    self->n_turns = 0;
    ml_init(&vg->plays);
    vg->dealer = dealer;
    game_new(&vg->g, R, seats, side_of, dealer, cards);
    vg->choice_card = -1;
    for (int s = 0; s < MAX_SEATS; s++) vg->last_card[s] = -1;
    if (R->cut_choice) {
        vg->phase = 0;
        vg->cut_card = cards[0];
        return (PyObject *)self;
    }
    vg->phase = 1;
    vg->cut_card = -1;
    game_deal(&vg->g, -1);
    if (!vg->g.void_deal) {
        vg_after_deal(vg);
        vg_gen(vg);
    }
    if (spiel_round_failed(self)) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void spiel_round_dealloc(SpielRoundObject *self) {
    ml_free(&self->vg.plays);
    Py_XDECREF(self->rules_o);
    PyObject_Free(self);
}

PyDoc_STRVAR(spiel_round_legal_doc,
             "legal() -> list[int]\n--\n\nThe legal action ids of the seat to move, "
             "ascending (none once the round is over or its deal void).");

static PyObject *spiel_round_legal(SpielRoundObject *self, PyObject *Py_UNUSED(ignored)) {
    const VGame *vg = &self->vg;
    PyObject *out = PyList_New(0);
    if (out == NULL || vg->g.over || vg->g.void_deal) return out;
    mask_t ids = 0; /* the action ids below 64: cards (0-39) and takes (40-79) */
    int tail = 0;   /* 1: done, 2: keep and table */
    if (vg->phase == 0) {
        tail = 2;
    } else if (vg->choice_card >= 0) {
        int done, open;
        mask_t only;
        mask_t nxt = vg_next_takes(vg, &done, &open, &only);
        for (; nxt; nxt &= nxt - 1) {
            PyObject *a = PyLong_FromLong(V1_TAKE + lowest(nxt));
            if (a == NULL || PyList_Append(out, a) < 0) {
                Py_XDECREF(a);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(a);
        }
        tail = done ? 1 : 0;
    } else {
        for (int i = 0; i < vg->plays.n; i++) ids |= (mask_t)1 << vg->plays.v[i].card;
    }
    for (; ids; ids &= ids - 1) {
        PyObject *a = PyLong_FromLong(lowest(ids));
        if (a == NULL || PyList_Append(out, a) < 0) {
            Py_XDECREF(a);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(a);
    }
    int extra[2] = {tail == 1 ? V1_DONE : V1_KEEP, V1_TABLE};
    for (int k = 0; k < (tail == 2 ? 2 : tail); k++) {
        PyObject *a = PyLong_FromLong(extra[k]);
        if (a == NULL || PyList_Append(out, a) < 0) {
            Py_XDECREF(a);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(a);
    }
    return out;
}

/* Log one entry of the round's history. */
static void spiel_turn(SpielRoundObject *self, int seat, int card, mask_t capture, int kind) {
    if (self->n_turns >= SPIEL_TURNS) return; /* cannot happen: one entry per card, one cut */
    SpielTurn *t = &self->turns[self->n_turns++];
    t->seat = (int8_t)seat;
    t->card = (int8_t)card;
    t->capture = capture;
    t->kind = (int8_t)kind;
}

/* vg_play, logged: whether the play swept is whether it scored a sweep point. */
static int spiel_play(SpielRoundObject *self, int card, mask_t capture) {
    VGame *vg = &self->vg;
    int seat = vg->g.turn, side = vg->g.side_of[seat], sweeps = vg->g.chk[side];
    float rew[MAX_PLAYERS];
    int code = vg_play(vg, card, capture, rew);
    spiel_turn(self, seat, card, capture, vg->g.chk[side] != sweeps);
    return code;
}

PyDoc_STRVAR(spiel_round_act_doc,
             "act(action) -> int\n--\n\nApply a legal action id of the seat to move: the "
             "seat to move next when play goes on, -1 when it ended the round, -2 when the "
             "cut made the deal void. ValueError (and nothing changed) for an illegal one.");

static PyObject *spiel_round_act(SpielRoundObject *self, PyObject *arg) {
    long a = PyLong_AsLong(arg);
    if (a == -1 && PyErr_Occurred()) return NULL;
    VGame *vg = &self->vg;
    if (vg->g.over || vg->g.void_deal || a < 0 || a >= V1_ACTIONS || !vg_legal(vg, (int)a)) {
        PyErr_Format(PyExc_ValueError, "action %ld is illegal now", a);
        return NULL;
    }
    int code = 0;
    if (vg->phase == 0) {
        spiel_turn(self, vg->g.turn, -1, 0, a == V1_KEEP ? 0 : 1);
        game_deal(&vg->g, a == V1_KEEP ? 1 : 0);
        if (vg->g.void_deal) return PyLong_FromLong(-2);
        vg->phase = 1;
        vg_after_deal(vg);
        vg_gen(vg);
    } else {
        int before = vg->choice_card;
        /* vg_act without its void-deal branch (phase 1 here). */
        if (before < 0) {
            int count = 0;
            mask_t cap = 0;
            for (int i = 0; i < vg->plays.n; i++)
                if (vg->plays.v[i].card == a) {
                    count++;
                    cap = vg->plays.v[i].capture;
                }
            if (count == 1) {
                code = spiel_play(self, (int)a, cap);
            } else {
                vg->choice_card = (int)a;
                vg->taken = 0;
            }
        } else if (a == V1_DONE) {
            code = spiel_play(self, vg->choice_card, vg->taken);
        } else {
            vg->taken |= (mask_t)1 << (a - V1_TAKE);
            int done, open;
            mask_t only = 0;
            vg_next_takes(vg, &done, &open, &only);
            if (open == 1) code = spiel_play(self, vg->choice_card, only);
        }
    }
    if (spiel_round_failed(self)) return NULL;
    return PyLong_FromLong(code ? -1 : vg->g.turn);
}

PyDoc_STRVAR(spiel_round_turn_doc, "turn() -> int\n--\n\nThe seat to move.");

static PyObject *spiel_round_turn(SpielRoundObject *self, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLong(self->vg.g.turn);
}

PyDoc_STRVAR(spiel_round_points_doc,
             "points() -> list[int]\n--\n\nEach side's points for the round (once it is over).");

static PyObject *spiel_round_points(SpielRoundObject *self, PyObject *Py_UNUSED(ignored)) {
    const Game *g = &self->vg.g;
    if (!g->over) {
        PyErr_SetString(PyExc_ValueError, "points: the round is not over");
        return NULL;
    }
    int pts[MAX_PLAYERS];
    score_points(g, pts);
    PyObject *out = PyList_New(g->sides);
    if (out == NULL) return NULL;
    for (int s = 0; s < g->sides; s++) PyList_SET_ITEM(out, s, PyLong_FromLong(pts[s]));
    return out;
}

PyDoc_STRVAR(spiel_round_copy_doc, "copy() -> SpielRound\n--\n\nAn independent copy.");

static PyObject *spiel_round_copy(SpielRoundObject *self, PyObject *Py_UNUSED(ignored)) {
    SpielRoundObject *c = spiel_round_alloc(self->rules_o, self->vg.g.R);
    if (c == NULL) return NULL;
    c->vg = self->vg;
    c->n_turns = self->n_turns;
    memcpy(c->turns, self->turns, sizeof(SpielTurn) * (size_t)self->n_turns);
    /* The legal plays live in the list's own buffer (or on the heap): listed again. */
    ml_init(&c->vg.plays);
    if (c->vg.phase == 1 && !c->vg.g.over && !c->vg.g.void_deal) vg_gen(&c->vg);
    if (spiel_round_failed(c)) {
        Py_DECREF(c);
        return NULL;
    }
    return (PyObject *)c;
}

static PyObject *spiel_round_deepcopy(SpielRoundObject *self, PyObject *Py_UNUSED(memo)) {
    return spiel_round_copy(self, NULL);
}

/* The chkobba_v1 seating index (encoder._SEATING): 2, 3 or 4 seats alone, or 2 against 2. */
static inline int v1_seating(const Game *g) {
    return g->sides != g->seats ? 3 : g->seats - 2;
}

PyDoc_STRVAR(
    spiel_round_observe_doc,
    "observe(out, seat, totals, target, public=False)\n--\n\n"
    "Write the chkobba_v1 vector of seat into out (868 float32): what encoder.encode_round "
    "writes from the engine's round, the legal moves and the capture being chosen if seat "
    "is to move. totals are the sides' match points, target the preset's (they scale the "
    "totals' entries). public: what every seat sees of it (openspiel.public_view: no hand, "
    "cut card, choice or legal moves; those cards unseen).");

static PyObject *spiel_round_observe(SpielRoundObject *self, PyObject *args) {
    PyObject *out_o, *totals_o;
    int seat, target, public_view = 0;
    if (!PyArg_ParseTuple(args, "OiOi|p:observe", &out_o, &seat, &totals_o, &target,
                          &public_view))
        return NULL;
    const VGame *vg = &self->vg;
    const Game *g = &vg->g;
    int seats = g->seats;
    if (seat < 0 || seat >= seats) {
        PyErr_Format(PyExc_ValueError, "observe: seat must be from 0 to %d", seats - 1);
        return NULL;
    }
    int totals[MAX_PLAYERS];
    if (get_ints(totals_o, g->sides, INT_MIN, INT_MAX, totals, NULL, "totals") < 0) return NULL;
    Py_buffer vb;
    if (get_out_buffer(out_o, &vb, V1_SIZE, sizeof(float), "out") < 0) return NULL;
    int phase = g->over ? 2 : vg->phase;
    int to_move = !public_view && phase < 2 && !g->void_deal && seat == g->turn;
    int last[MAX_SEATS - 1];
    mask_t shown = 0, shown_all = 0;
    for (int s = 0; s < seats; s++) {
        mask_t m = vg->declared[s] & g->hands[s];
        shown_all |= m;
        if (s != seat) shown |= m;
    }
    for (int k = 0; k < seats - 1; k++) last[k] = vg->last_card[(seat + 1 + k) % seats];
    V1In in = {
        .seat = seat, .seats = seats, .sides = g->sides, .seating = v1_seating(g),
        .dealer = vg->dealer, .phase = phase, .side_of = g->side_of, .hands = g->hands,
        .piles = g->piles, .table = g->table, .leftover = g->leftover,
        .taken = to_move ? vg->taken : 0, .shown = shown, .shown_all = shown_all,
        .cut_card = phase == 0 && seat == g->cutter ? vg->cut_card : -1,
        .choice_card = to_move ? vg->choice_card : -1, .last_cards = last, .n_last = seats - 1,
        .plays = vg->plays.v, .n_plays = to_move && phase == 1 ? vg->plays.n : 0,
        .cut_to_move = to_move && phase == 0, .stock = g->stock_len - g->stock_pos,
        .last_capturer = g->last, .target = target, .chk = g->chk, .totals = totals,
        .public_view = public_view,
    };
    int8_t mask[V1_ACTIONS];
    v1_write((float *)vb.buf, mask, &in);
    PyBuffer_Release(&vb);
    Py_RETURN_NONE;
}

/* One history entry (spaces.HISTORY_FIELDS): the relative seat (4), the card (40), its
   capture (40), whether it swept (1), a cut (2: keep, table). */
#define HIST_SEAT 0
#define HIST_CARD 4
#define HIST_CAPTURE 44
#define HIST_SWEEP 84
#define HIST_CUT 85
#define HIST_ENTRY 87

PyDoc_STRVAR(spiel_round_history_doc,
             "history(out, seat)\n--\n\n"
             "Write the round's public history as seat sees it into out (float32, whole rows "
             "of 87: spaces.encode_history's), the rows past it 0. ValueError if out has "
             "fewer rows than the history has entries.");

static PyObject *spiel_round_history(SpielRoundObject *self, PyObject *args) {
    PyObject *out_o;
    int seat;
    if (!PyArg_ParseTuple(args, "Oi:history", &out_o, &seat)) return NULL;
    int seats = self->vg.g.seats;
    if (seat < 0 || seat >= seats) {
        PyErr_Format(PyExc_ValueError, "history: seat must be from 0 to %d", seats - 1);
        return NULL;
    }
    Py_buffer vb;
    if (PyObject_GetBuffer(out_o, &vb, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    Py_ssize_t row = (Py_ssize_t)sizeof(float) * HIST_ENTRY;
    if (vb.len % row || vb.len / row < self->n_turns) {
        PyErr_Format(PyExc_ValueError,
                     "history: out must be whole rows of %d float32, at least %d of them",
                     HIST_ENTRY, self->n_turns);
        PyBuffer_Release(&vb);
        return NULL;
    }
    float *v = (float *)vb.buf;
    memset(v, 0, (size_t)vb.len);
    for (int i = 0; i < self->n_turns; i++, v += HIST_ENTRY) {
        const SpielTurn *t = &self->turns[i];
        v[HIST_SEAT + (t->seat - seat + seats) % seats] = 1.0f;
        if (t->card < 0) {
            v[HIST_CUT + t->kind] = 1.0f;
            continue;
        }
        v[HIST_CARD + t->card] = 1.0f;
        for (mask_t m = t->capture; m; m &= m - 1) v[HIST_CAPTURE + lowest(m)] = 1.0f;
        v[HIST_SWEEP] = (float)t->kind;
    }
    PyBuffer_Release(&vb);
    Py_RETURN_NONE;
}

static PyMethodDef spiel_round_methods[] = {
    {"observe", (PyCFunction)spiel_round_observe, METH_VARARGS, spiel_round_observe_doc},
    {"history", (PyCFunction)spiel_round_history, METH_VARARGS, spiel_round_history_doc},
    {"legal", (PyCFunction)spiel_round_legal, METH_NOARGS, spiel_round_legal_doc},
    {"act", (PyCFunction)spiel_round_act, METH_O, spiel_round_act_doc},
    {"turn", (PyCFunction)spiel_round_turn, METH_NOARGS, spiel_round_turn_doc},
    {"points", (PyCFunction)spiel_round_points, METH_NOARGS, spiel_round_points_doc},
    {"copy", (PyCFunction)spiel_round_copy, METH_NOARGS, spiel_round_copy_doc},
    {"__deepcopy__", (PyCFunction)spiel_round_deepcopy, METH_O, spiel_round_copy_doc},
    {NULL, NULL, 0, NULL},
};

static PyObject *spiel_round_get_void(SpielRoundObject *self, void *Py_UNUSED(c)) {
    return PyLong_FromLong(self->vg.g.void_deal);
}

static PyGetSetDef spiel_round_getset[] = {
    {"void", (getter)spiel_round_get_void, NULL, "1 when the deal is void", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SpielRoundType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "chkobba._fastcore.SpielRound",
    .tp_basicsize = sizeof(SpielRoundObject),
    .tp_dealloc = (destructor)spiel_round_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = spiel_round_doc,
    .tp_new = spiel_round_new,
    .tp_methods = spiel_round_methods,
    .tp_getset = spiel_round_getset,
};
