/*
 * chkobba.touti._playout: Touti's playouts, compiled.
 *
 * A C transcription of the search player's playout (chkobba.touti.search:
 * playout and evaluate), which finishes a deal with the rule-based technique at
 * every seat: its card choice (chkobba.touti.technique.choose_card), the rules of
 * play (chkobba.touti.deal: legal_cards with or without Kaddour, trick_winner_index,
 * the announcements after a trick won by the declarer's team) and the score
 * (chkobba.touti.scoring.score_deal: card points, the 10 for the last trick, the
 * contract made or failed). The Python code stays the reference:
 * tests/test_touti_kernel.py checks that this module finishes deals with the same
 * cards, announcements and points. The Python face is chkobba.touti.kernel;
 * nothing else should import this module directly.
 *
 * Card sets are 40-bit masks, as in chkobba.fishing.cards: card c is of suit c / 10 and
 * rank index c % 10 (A 2 3 4 5 6 7 Q J K).
 *
 * The technique picks its card with Python's min and max over the legal cards in
 * ascending order, which keep the first of equal keys: every comparison below is
 * strict for the same reason.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

typedef uint64_t mask_t;

#define NCARDS 40
#define SEATS 4
#define TRICKS 10
#define ALL_CARDS ((((mask_t)1) << NCARDS) - 1)
#define LAST_TRICK_BONUS 10
#define ELEVEN 8
#define TWELVE 9
#define NO_TRUMP (-1)

/* chkobba.touti.cards: trick order within a suit and card points, by rank index. */
static const int STRENGTH_IN_SUIT[10] = {9, 0, 8, 1, 2, 3, 4, 5, 6, 7};
static const int POINTS_IN_SUIT[10] = {11, 0, 10, 0, 0, 0, 0, 2, 3, 4};

static int STRENGTH[NCARDS];
static int POINTS[NCARDS];
static mask_t BEATS[NCARDS];
static mask_t SUIT_MASK[4];
static mask_t PAIR[4];

static void init_tables(void) {
    for (int s = 0; s < 4; s++) {
        SUIT_MASK[s] = ((mask_t)0x3FF) << (10 * s);
        PAIR[s] = (((mask_t)1) << (10 * s + ELEVEN)) | (((mask_t)1) << (10 * s + TWELVE));
    }
    for (int c = 0; c < NCARDS; c++) {
        STRENGTH[c] = STRENGTH_IN_SUIT[c % 10];
        POINTS[c] = POINTS_IN_SUIT[c % 10];
    }
    for (int c = 0; c < NCARDS; c++) {
        BEATS[c] = 0;
        for (int o = 0; o < NCARDS; o++)
            if (o / 10 == c / 10 && STRENGTH_IN_SUIT[o % 10] > STRENGTH_IN_SUIT[c % 10])
                BEATS[c] |= ((mask_t)1) << o;
    }
}

#include "../bits.h"

static int mask_points(mask_t m) {
    int total = 0;
    while (m) {
        total += POINTS[lowest(m)];
        m &= m - 1;
    }
    return total;
}

/* ---- the state of a deal in its play -------------------------------------- */

enum { PHASE_PLAY = 0, PHASE_CANTO = 1, PHASE_OVER = 2 };

typedef struct {
    mask_t hands[SEATS];
    int trick[SEATS]; /* the trick in progress, in the order played */
    int n_trick;
    int leader, turn, trump, declarer, bid;
    mask_t played;
    mask_t won[2];
    int tricks; /* finished tricks */
    int sung;   /* suits whose pair has been announced, bit per suit */
    int cantos[2];
    int phase, canto_stage;
    int kaddour, declarer_loses;
    int last_team; /* once over */
} Play;

static inline int is_trump(int c, int trump) { return trump != NO_TRUMP && c / 10 == trump; }

/* deal.trick_winner_index */
static int winner_index(const int *cards, int n, int trump) {
    int best = 0, bc = cards[0];
    for (int i = 1; i < n; i++) {
        int c = cards[i];
        if (c / 10 == bc / 10) {
            if (STRENGTH[c] > STRENGTH[bc]) best = i, bc = c;
        } else if (is_trump(c, trump)) {
            best = i, bc = c;
        }
    }
    return best;
}

/* deal.legal_cards */
static mask_t legal_cards(mask_t hand, const int *trick, int n, int trump, int kaddour) {
    if (!n) return hand;
    int led = trick[0] / 10;
    mask_t follow = hand & SUIT_MASK[led];
    int best = trick[winner_index(trick, n, trump)];
    if (follow) {
        if (best / 10 == led) {
            mask_t over = follow & BEATS[best];
            return over ? over : follow;
        }
        return follow;
    }
    if (trump == NO_TRUMP) return hand;
    mask_t trumps = hand & SUIT_MASK[trump];
    if (!trumps) return hand;
    if (best / 10 == trump) {
        mask_t over = trumps & BEATS[best];
        if (over) return over;
        return kaddour ? hand : trumps;
    }
    return trumps;
}

/* ---- the technique's card (technique.choose_card) -------------------------- */

static inline int beats(int c, int best, int trump) {
    if (c / 10 == best / 10) return STRENGTH[c] > STRENGTH[best];
    return is_trump(c, trump);
}

/* technique._holds: no card still outside beats it (voids ignored). */
static inline int holds(int card, int trump, mask_t outside) {
    if (BEATS[card] & outside) return 0;
    if (trump == NO_TRUMP || card / 10 == trump) return 1;
    return !(outside & SUIT_MASK[trump]);
}

/* technique._value_key: (points, is a trump, strength), the cheapest card to give. */
static inline int value_key(int c, int trump) {
    return POINTS[c] * 100 + is_trump(c, trump) * 10 + STRENGTH[c];
}

/* (is a trump, strength): the cheapest card that wins. */
static inline int win_key(int c, int trump) { return is_trump(c, trump) * 10 + STRENGTH[c]; }

static int cheapest_by_value(const int *cards, int n, int trump) {
    int best = cards[0], bk = value_key(best, trump);
    for (int i = 1; i < n; i++) {
        int k = value_key(cards[i], trump);
        if (k < bk) best = cards[i], bk = k;
    }
    return best;
}

static int lead_card(int seat, mask_t hand, const int *cards, int n, int trump, mask_t outside,
                     int declarer_team) {
    if (trump != NO_TRUMP) {
        mask_t trumps_out = outside & SUIT_MASK[trump];
        int ours = declarer_team == seat % 2;
        int top = -1;
        for (int i = 0; i < n; i++)
            if (cards[i] / 10 == trump && (top < 0 || STRENGTH[cards[i]] > STRENGTH[top]))
                top = cards[i];
        if (ours && trumps_out && top >= 0 && !(BEATS[top] & outside))
            return top; /* draw trumps with a master trump */
        if (!trumps_out || ours) {
            int master = -1;
            for (int i = 0; i < n; i++) {
                int c = cards[i];
                if (c / 10 != trump && !(BEATS[c] & outside) && POINTS[c] >= 10 &&
                    (master < 0 || POINTS[c] > POINTS[master]))
                    master = c;
            }
            if (master >= 0) return master;
        }
    }
    /* A low card from the longest side suit, keeping the pairs and unguarded threes:
       the key (is a trump, points + 20 in a pair, -length, strength), smallest first. */
    int best = -1;
    long bk = 0;
    for (int i = 0; i < n; i++) {
        int c = cards[i], s = c / 10, r = c % 10;
        int in_pair = (hand & PAIR[s]) == PAIR[s] && (r == ELEVEN || r == TWELVE);
        int length = popcount(hand & SUIT_MASK[s]);
        long k = (long)is_trump(c, trump) * 1000000 + (long)(POINTS[c] + 20 * in_pair) * 1000 +
                 (long)(10 - length) * 10 + STRENGTH[c];
        if (best < 0 || k < bk) best = c, bk = k;
    }
    return best;
}

static int choose_card(int seat, mask_t hand, mask_t legal, const int *trick, int n_trick,
                       int trump, mask_t played, int declarer_team) {
    int cards[NCARDS];
    int n = 0;
    for (mask_t m = legal; m; m &= m - 1) cards[n++] = lowest(m);
    if (n == 1) return cards[0];
    mask_t in_trick = 0;
    for (int i = 0; i < n_trick; i++) in_trick |= ((mask_t)1) << trick[i];
    mask_t outside = ALL_CARDS & ~hand & ~played & ~in_trick;
    if (!n_trick) return lead_card(seat, hand, cards, n, trump, outside, declarer_team);
    int lead_seat = ((seat - n_trick) % SEATS + SEATS) % SEATS;
    int wi = winner_index(trick, n_trick, trump);
    int winner_seat = (lead_seat + wi) % SEATS;
    int best = trick[wi];
    int last = n_trick == SEATS - 1;
    int trick_pts = 0;
    for (int i = 0; i < n_trick; i++) trick_pts += POINTS[trick[i]];
    if (winner_seat % 2 == seat % 2) {
        if (last || holds(best, trump, outside)) {
            /* Points to the partner's trick: the richest card that is not a trump,
               the key (points if not a trump, -strength), largest first. */
            int pick = cards[0];
            int pk = POINTS[pick] * !is_trump(pick, trump) * 100 - STRENGTH[pick];
            for (int i = 1; i < n; i++) {
                int c = cards[i];
                int k = POINTS[c] * !is_trump(c, trump) * 100 - STRENGTH[c];
                if (k > pk) pick = c, pk = k;
            }
            return pick;
        }
        return cheapest_by_value(cards, n, trump);
    }
    int cheapest = -1, master = -1, weakest_master = -1;
    for (int i = 0; i < n; i++) {
        int c = cards[i];
        if (!beats(c, best, trump)) continue;
        if (cheapest < 0 || win_key(c, trump) < win_key(cheapest, trump)) cheapest = c;
        if (holds(c, trump, outside)) {
            if (master < 0 || win_key(c, trump) < win_key(master, trump)) master = c;
            if (weakest_master < 0 || STRENGTH[c] < STRENGTH[weakest_master]) weakest_master = c;
        }
    }
    if (cheapest >= 0) {
        if (last) {
            if (trick_pts + POINTS[cheapest] > 0 || !is_trump(cheapest, trump)) return cheapest;
        } else {
            if (master >= 0 && (trick_pts >= 2 || POINTS[weakest_master])) return master;
            if (trick_pts >= 10) return cheapest;
        }
    }
    return cheapest_by_value(cards, n, trump);
}

/* ---- playing on ------------------------------------------------------------- */

static void finish(Play *p, int last_team) {
    p->last_team = last_team;
    p->phase = PHASE_OVER;
}

/* deal._canto_possible: some pair is still unplayed and unannounced. */
static int canto_possible(const Play *p) {
    for (int s = 0; s < 4; s++)
        if (!(p->sung >> s & 1) && !(p->played & PAIR[s])) return 1;
    return 0;
}

/* deal._play_card */
static void play_card(Play *p, int seat, int card) {
    mask_t bit = ((mask_t)1) << card;
    p->hands[seat] ^= bit;
    p->played |= bit;
    p->trick[p->n_trick++] = card;
    if (p->n_trick < SEATS) {
        p->turn = (seat + 1) % SEATS;
        return;
    }
    int w = (p->leader + winner_index(p->trick, SEATS, p->trump)) % SEATS;
    for (int i = 0; i < SEATS; i++) p->won[w % 2] |= ((mask_t)1) << p->trick[i];
    p->n_trick = 0;
    p->leader = p->turn = w;
    p->tricks++;
    if (p->tricks == TRICKS) {
        finish(p, w % 2);
        return;
    }
    if (w % 2 == p->declarer % 2 && canto_possible(p)) {
        p->phase = PHASE_CANTO;
        p->canto_stage = 0;
    }
}

/* search.playout's announcement (the trump pair first, then suit order), deal._canto. */
static void canto_step(Play *p) {
    int seat = p->turn;
    mask_t hand = p->hands[seat];
    int suit = -1;
    for (int s = 0; s < 4; s++) {
        if ((hand & PAIR[s]) != PAIR[s] || p->sung >> s & 1) continue;
        if (s == p->trump) {
            suit = s;
            break;
        }
        if (suit < 0) suit = s;
    }
    if (suit >= 0) {
        p->sung |= 1 << suit;
        p->cantos[seat % 2] += suit == p->trump ? 40 : 20;
    } else if (p->canto_stage == 0) {
        p->canto_stage = 1;
        p->turn = (seat + 2) % SEATS;
        return;
    }
    p->phase = PHASE_PLAY;
    p->turn = p->leader;
}

/* search.playout: the technique at every seat to the end of the deal. */
static void run_playout(Play *p) {
    while (p->phase != PHASE_OVER) {
        if (p->phase == PHASE_CANTO) {
            canto_step(p);
            continue;
        }
        int seat = p->turn;
        mask_t legal = legal_cards(p->hands[seat], p->trick, p->n_trick, p->trump, p->kaddour);
        int card = choose_card(seat, p->hands[seat], legal, p->trick, p->n_trick, p->trump,
                               p->played, p->declarer % 2);
        play_card(p, seat, card);
    }
}

typedef struct {
    int card_points[2];
    int cantos[2];
    int points[2];
    int made;
} Score;

/* scoring.score_deal */
static void score_of(const Play *p, Score *sc) {
    for (int t = 0; t < 2; t++) {
        sc->card_points[t] = mask_points(p->won[t]);
        sc->cantos[t] = p->cantos[t];
        sc->points[t] = 0;
    }
    sc->card_points[p->last_team] += LAST_TRICK_BONUS;
    int dt = p->declarer % 2;
    sc->made = sc->card_points[dt] + sc->cantos[dt] >= p->bid;
    if (sc->made)
        sc->points[dt] = p->bid;
    else if (!p->declarer_loses)
        sc->points[1 - dt] = p->bid;
    else
        sc->points[dt] = -p->bid;
}

/* search.evaluate: match points, then a quarter of the card and announcement points. */
static double evaluate(const Score *sc, int team, double points_weight) {
    int o = 1 - team;
    int pts = sc->points[team] - sc->points[o];
    int diff = sc->card_points[team] + sc->cantos[team] - sc->card_points[o] - sc->cantos[o];
    return (double)pts + points_weight * (double)diff;
}

/* ---- Python ---------------------------------------------------------------- */

static int get_mask(PyObject *o, mask_t *out, const char *what) {
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be a card set (a 40-bit mask)", what);
        return -1;
    }
    if (v & ~ALL_CARDS) {
        PyErr_Format(PyExc_ValueError, "%s must be a card set (a 40-bit mask)", what);
        return -1;
    }
    *out = (mask_t)v;
    return 0;
}

static int get_int(PyObject *o, long lo, long hi, int *out, const char *what) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be an int", what);
        return -1;
    }
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be %ld to %ld, not %ld", what, lo, hi, v);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* The four hands from a sequence of four card sets. */
static int get_hands(PyObject *o, mask_t *hands, const char *what) {
    PyObject *seq = PySequence_Fast(o, what);
    if (!seq) return -1;
    int rc = 0;
    if (PySequence_Fast_GET_SIZE(seq) != SEATS) {
        PyErr_Format(PyExc_ValueError, "%s must hold four hands", what);
        rc = -1;
    }
    for (int s = 0; s < SEATS && !rc; s++)
        rc = get_mask(PySequence_Fast_GET_ITEM(seq, s), &hands[s], what);
    Py_DECREF(seq);
    return rc;
}

#define STATE_FIELDS 18

/*
 * The state, as chkobba.touti.kernel.state_of packs it: (hands, trick, leader, turn,
 * trump or -1, declarer, bid, played, won0, won1, tricks, sung, cantos0, cantos1,
 * phase (0 play, 1 canto), canto_stage, kaddour, declarer_loses).
 */
static int get_state(PyObject *o, Play *p) {
    PyObject *seq = PySequence_Fast(o, "the state must be a tuple");
    if (!seq) return -1;
    int rc = -1;
    PyObject **f = PySequence_Fast_ITEMS(seq);
    if (PySequence_Fast_GET_SIZE(seq) != STATE_FIELDS) {
        PyErr_Format(PyExc_ValueError, "the state must hold %d fields", STATE_FIELDS);
        goto done;
    }
    if (get_hands(f[0], p->hands, "hands") < 0) goto done;
    PyObject *trick = PySequence_Fast(f[1], "the trick must be a sequence of cards");
    if (!trick) goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(trick);
    if (n >= SEATS) {
        Py_DECREF(trick);
        PyErr_SetString(PyExc_ValueError, "the trick in progress holds at most three cards");
        goto done;
    }
    p->n_trick = (int)n;
    for (Py_ssize_t i = 0; i < n; i++)
        if (get_int(PySequence_Fast_GET_ITEM(trick, i), 0, NCARDS - 1, &p->trick[i], "a card") <
            0) {
            Py_DECREF(trick);
            goto done;
        }
    Py_DECREF(trick);
    if (get_int(f[2], 0, SEATS - 1, &p->leader, "leader") < 0 ||
        get_int(f[3], 0, SEATS - 1, &p->turn, "turn") < 0 ||
        get_int(f[4], -1, 3, &p->trump, "trump") < 0 ||
        get_int(f[5], 0, SEATS - 1, &p->declarer, "declarer") < 0 ||
        get_int(f[6], 0, 10000, &p->bid, "bid") < 0 || get_mask(f[7], &p->played, "played") < 0 ||
        get_mask(f[8], &p->won[0], "won") < 0 || get_mask(f[9], &p->won[1], "won") < 0 ||
        get_int(f[10], 0, TRICKS - 1, &p->tricks, "tricks") < 0 ||
        get_int(f[11], 0, 15, &p->sung, "sung") < 0 ||
        get_int(f[12], 0, 1000, &p->cantos[0], "cantos") < 0 ||
        get_int(f[13], 0, 1000, &p->cantos[1], "cantos") < 0 ||
        get_int(f[14], PHASE_PLAY, PHASE_CANTO, &p->phase, "phase") < 0 ||
        get_int(f[15], 0, 1, &p->canto_stage, "canto_stage") < 0 ||
        get_int(f[16], 0, 1, &p->kaddour, "kaddour") < 0 ||
        get_int(f[17], 0, 1, &p->declarer_loses, "declarer_loses") < 0)
        goto done;
    p->last_team = 0;
    rc = 0;
done:
    Py_DECREF(seq);
    return rc;
}

/* The cards left to play must make a whole deal: ten tricks of four cards. */
static int check_counts(const Play *p) {
    int left = 0;
    mask_t seen = 0;
    for (int s = 0; s < SEATS; s++) {
        if (p->hands[s] & seen) {
            PyErr_SetString(PyExc_ValueError, "a card is in two hands");
            return -1;
        }
        seen |= p->hands[s];
        left += popcount(p->hands[s]);
    }
    if (left + p->n_trick + SEATS * p->tricks != NCARDS) {
        PyErr_SetString(PyExc_ValueError,
                        "the hands, the trick and the tricks played do not make 40 cards");
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(finish_doc,
             "finish(state, /) -> (card_points, cantos, points, made, last_trick)\n\n"
             "Finish the deal with the technique at every seat and score it.");

static PyObject *py_finish(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *state;
    if (!PyArg_ParseTuple(args, "O:finish", &state)) return NULL;
    Play p;
    if (get_state(state, &p) < 0 || check_counts(&p) < 0) return NULL;
    run_playout(&p);
    Score sc;
    score_of(&p, &sc);
    return Py_BuildValue("((ii)(ii)(ii)Oi)", sc.card_points[0], sc.card_points[1], sc.cantos[0],
                         sc.cantos[1], sc.points[0], sc.points[1], sc.made ? Py_True : Py_False,
                         p.last_team);
}

PyDoc_STRVAR(card_totals_doc,
             "card_totals(state, samples, cards, team, points_weight, /) -> list[float]\n\n"
             "For each card, the sum over the sampled hands of the deal's worth to team\n"
             "after that card is played and the deal finished by the technique.");

static PyObject *py_card_totals(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *state, *samples_o, *cards_o;
    int team;
    double weight;
    if (!PyArg_ParseTuple(args, "OOOid:card_totals", &state, &samples_o, &cards_o, &team,
                          &weight))
        return NULL;
    if (team < 0 || team > 1) {
        PyErr_SetString(PyExc_ValueError, "team must be 0 or 1");
        return NULL;
    }
    Play base;
    if (get_state(state, &base) < 0) return NULL;
    if (base.phase != PHASE_PLAY) {
        PyErr_SetString(PyExc_ValueError, "cards are chosen in the play phase");
        return NULL;
    }
    PyObject *cards = PySequence_Fast(cards_o, "cards must be a sequence of cards");
    if (!cards) return NULL;
    PyObject *samples = PySequence_Fast(samples_o, "samples must be a sequence of hands");
    if (!samples) {
        Py_DECREF(cards);
        return NULL;
    }
    Py_ssize_t nc = PySequence_Fast_GET_SIZE(cards), ns = PySequence_Fast_GET_SIZE(samples);
    PyObject *out = NULL;
    int card_of[NCARDS];
    double totals[NCARDS];
    if (nc > NCARDS) {
        PyErr_SetString(PyExc_ValueError, "too many cards");
        goto done;
    }
    for (Py_ssize_t i = 0; i < nc; i++) {
        if (get_int(PySequence_Fast_GET_ITEM(cards, i), 0, NCARDS - 1, &card_of[i], "a card") <
            0)
            goto done;
        totals[i] = 0.0;
    }
    for (Py_ssize_t k = 0; k < ns; k++) {
        Play world = base;
        if (get_hands(PySequence_Fast_GET_ITEM(samples, k), world.hands, "a sample") < 0 ||
            check_counts(&world) < 0)
            goto done;
        mask_t legal = legal_cards(world.hands[world.turn], world.trick, world.n_trick,
                                   world.trump, world.kaddour);
        for (Py_ssize_t i = 0; i < nc; i++) {
            if (!(legal >> card_of[i] & 1)) {
                PyErr_Format(PyExc_ValueError, "card %d is not legal in sample %zd", card_of[i],
                             k);
                goto done;
            }
        }
        for (Py_ssize_t i = 0; i < nc; i++) {
            Play p = world;
            play_card(&p, p.turn, card_of[i]);
            run_playout(&p);
            Score sc;
            score_of(&p, &sc);
            totals[i] += evaluate(&sc, team, weight);
        }
    }
    out = PyList_New(nc);
    if (!out) goto done;
    for (Py_ssize_t i = 0; i < nc; i++) {
        PyObject *v = PyFloat_FromDouble(totals[i]);
        if (!v) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, i, v);
    }
done:
    Py_DECREF(cards);
    Py_DECREF(samples);
    return out;
}

static PyMethodDef methods[] = {
    {"finish", py_finish, METH_VARARGS, finish_doc},
    {"card_totals", py_card_totals, METH_VARARGS, card_totals_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "chkobba.touti._playout",
    "Touti's playouts, compiled: use them through chkobba.touti.kernel.",
    -1,
    methods,
};

PyMODINIT_FUNC PyInit__playout(void) {
    init_tables();
    return PyModule_Create(&module);
}
