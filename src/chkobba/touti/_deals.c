/*
 * chkobba.touti._deals: the search's draws of the hidden hands, compiled.
 *
 * A C transcription of chkobba.touti.search.DealSampler.draw for an observation
 * where no seat has said anything about its hand (no parlé answer, no alla or
 * macharich: those draws are repaired card by card in Python). It draws from the
 * caller's random.Random, whose state it takes (getstate) and hands back
 * (setstate), with CPython's arithmetic (Modules/_randommodule.c and
 * Lib/random.py: MT19937, random(), shuffle through getrandbits), so that it draws
 * exactly the deals the Python sampler draws and leaves the generator where the
 * Python sampler leaves it: tests/test_touti_kernel.py checks both. The Python face
 * is chkobba.touti.kernel; nothing else should import this module directly.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

typedef uint64_t mask_t;

#define NCARDS 40
#define SEATS 4
#define ALL_CARDS ((((mask_t)1) << NCARDS) - 1)
#define TRIES 40 /* search._TRIES: strict draws before the exclusions are dropped */

#include "../bits.h"

/* ---- CPython's random.Random ------------------------------------------------ */

#include "../pymt.h"

/* random.random(): 53 bits from two words. */
static double mt_random(PyMT *r) {
    uint32_t a = pymt_next(r) >> 5, b = pymt_next(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.shuffle */
static void mt_shuffle(PyMT *r, int *a, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = pymt_below(r, i + 1);
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* ---- the draw (DealSampler.draw without statements) ------------------------- */

typedef struct {
    mask_t hands[SEATS]; /* the observer's hand and the cards known in the others' */
    int others[SEATS - 1];
    int room[SEATS];
    int cards[NCARDS]; /* the cards to deal, ascending */
    int n_cards;
    int strict_allowed[NCARDS][SEATS - 1]; /* the seats that may hold each card */
    int n_strict[NCARDS];
} Sampler;

/* One draw: 1 and the hands in out, or 0 when every attempt failed. */
static int draw(const Sampler *sp, PyMT *r, mask_t *out) {
    for (int attempt = 0; attempt < 2 * TRIES; attempt++) {
        int strict = attempt < TRIES;
        int room[SEATS];
        int order[NCARDS];
        for (int s = 0; s < SEATS; s++) room[s] = sp->room[s], out[s] = sp->hands[s];
        for (int i = 0; i < sp->n_cards; i++) order[i] = sp->cards[i];
        mt_shuffle(r, order, sp->n_cards);
        if (strict) {
            /* order.sort(key=len(allowed)): stable, so by counting. */
            int sorted[NCARDS], k = 0;
            for (int len = 0; len < SEATS; len++)
                for (int i = 0; i < sp->n_cards; i++)
                    if (sp->n_strict[order[i]] == len) sorted[k++] = order[i];
            for (int i = 0; i < sp->n_cards; i++) order[i] = sorted[i];
        }
        int ok = 1;
        for (int i = 0; i < sp->n_cards && ok; i++) {
            int c = order[i];
            const int *allowed = strict ? sp->strict_allowed[c] : sp->others;
            int n_allowed = strict ? sp->n_strict[c] : SEATS - 1;
            int choices[SEATS - 1], n = 0, total = 0;
            for (int j = 0; j < n_allowed; j++)
                if (room[allowed[j]] > 0) {
                    choices[n++] = allowed[j];
                    total += room[allowed[j]];
                }
            if (!n) {
                ok = 0;
                break;
            }
            /* rng.choices(choices, weights): the first seat whose running total
               exceeds random() * total (bisect_right, capped at the last). */
            double x = mt_random(r) * (double)total;
            int j = 0, acc = room[choices[0]];
            while (j < n - 1 && acc <= x) acc += room[choices[++j]];
            int s = choices[j];
            out[s] |= ((mask_t)1) << c;
            room[s]--;
        }
        if (ok) return 1;
    }
    return 0;
}

/* ---- Python ------------------------------------------------------------------ */

static int get_mask(PyObject *o, mask_t *out, const char *what) {
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if ((v == (unsigned long long)-1 && PyErr_Occurred()) || (v & ~ALL_CARDS)) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be a card set (a 40-bit mask)", what);
        return -1;
    }
    *out = (mask_t)v;
    return 0;
}

static int get_masks(PyObject *o, mask_t *out, const char *what) {
    PyObject *seq = PySequence_Fast(o, what);
    if (!seq) return -1;
    int rc = 0;
    if (PySequence_Fast_GET_SIZE(seq) != SEATS) {
        PyErr_Format(PyExc_ValueError, "%s must hold one card set per seat", what);
        rc = -1;
    }
    for (int s = 0; s < SEATS && !rc; s++)
        rc = get_mask(PySequence_Fast_GET_ITEM(seq, s), &out[s], what);
    Py_DECREF(seq);
    return rc;
}

/* random.Random.getstate()[1]: 624 words and the index. */
static int get_mt(PyObject *o, PyMT *r) {
    PyObject *seq = PySequence_Fast(o, "the generator's state must be a tuple");
    if (!seq) return -1;
    int rc = -1;
    if (PySequence_Fast_GET_SIZE(seq) != PYMT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "the generator's state must hold 625 ints");
        goto done;
    }
    for (int i = 0; i <= PYMT_N; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == (unsigned long)-1 && PyErr_Occurred()) goto done;
        if (i < PYMT_N)
            r->mt[i] = (uint32_t)v;
        else if (v > PYMT_N) {
            PyErr_SetString(PyExc_ValueError, "the generator's index must be 0 to 624");
            goto done;
        } else
            r->index = (int)v;
    }
    rc = 0;
done:
    Py_DECREF(seq);
    return rc;
}

static PyObject *mt_state(const PyMT *r) {
    PyObject *t = PyTuple_New(PYMT_N + 1);
    if (!t) return NULL;
    for (int i = 0; i <= PYMT_N; i++) {
        PyObject *v = PyLong_FromUnsignedLong(i < PYMT_N ? r->mt[i] : (unsigned long)r->index);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

PyDoc_STRVAR(draw_doc,
             "draw(mt_state, seat, hands, pool, sizes, excluded, n, /) -> (draws, mt_state)\n\n"
             "n draws of the hidden hands, as search.DealSampler.draw draws them for an\n"
             "observation without statements; hands: the observer's own and the cards\n"
             "known in each other hand; pool: the cards to deal; sizes: each hand's size.\n"
             "Fewer than n draws where a draw failed.");

static PyObject *py_draw(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *state_o, *hands_o, *pool_o, *sizes_o, *excluded_o;
    int seat, n;
    if (!PyArg_ParseTuple(args, "OiOOOOi:draw", &state_o, &seat, &hands_o, &pool_o, &sizes_o,
                          &excluded_o, &n))
        return NULL;
    if (seat < 0 || seat >= SEATS) {
        PyErr_SetString(PyExc_ValueError, "seat must be 0 to 3");
        return NULL;
    }
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "n must not be negative");
        return NULL;
    }
    PyMT r;
    Sampler sp;
    mask_t pool, excluded[SEATS];
    if (get_mt(state_o, &r) < 0 || get_masks(hands_o, sp.hands, "hands") < 0 ||
        get_mask(pool_o, &pool, "pool") < 0 || get_masks(excluded_o, excluded, "excluded") < 0)
        return NULL;
    PyObject *sizes = PySequence_Fast(sizes_o, "sizes must be a sequence of ints");
    if (!sizes) return NULL;
    int free_room = 0;
    for (int s = 0; s < SEATS; s++) {
        long size = PySequence_Fast_GET_SIZE(sizes) == SEATS
                        ? PyLong_AsLong(PySequence_Fast_GET_ITEM(sizes, s))
                        : -1;
        int held = popcount(sp.hands[s]);
        if (size < held || size > 10) {
            Py_DECREF(sizes);
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "sizes must hold four hand sizes, 0 to 10");
            return NULL;
        }
        sp.room[s] = (int)(size - held);
        if (s != seat) free_room += sp.room[s];
    }
    Py_DECREF(sizes);
    sp.n_cards = 0;
    for (mask_t m = pool; m; m &= m - 1) sp.cards[sp.n_cards++] = lowest(m);
    if (free_room != sp.n_cards) {
        PyErr_SetString(PyExc_ValueError, "the pool does not fill the hidden hands");
        return NULL;
    }
    for (int s = 0, k = 0; s < SEATS; s++)
        if (s != seat) sp.others[k++] = s;
    for (int c = 0; c < NCARDS; c++) {
        sp.n_strict[c] = 0;
        for (int j = 0; j < SEATS - 1; j++)
            if (!(excluded[sp.others[j]] >> c & 1))
                sp.strict_allowed[c][sp.n_strict[c]++] = sp.others[j];
    }
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        mask_t hands[SEATS];
        /* A draw that fails ends the list there, the generator as the failure left it
           (where the Python sampler raises). */
        if (!draw(&sp, &r, hands)) break;
        PyObject *item = Py_BuildValue(
            "[KKKK]", (unsigned long long)hands[0], (unsigned long long)hands[1],
            (unsigned long long)hands[2], (unsigned long long)hands[3]);
        if (!item || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(item);
    }
    PyObject *state = mt_state(&r);
    if (!state) {
        Py_DECREF(out);
        return NULL;
    }
    return Py_BuildValue("(NN)", out, state);
}

static PyMethodDef methods[] = {
    {"draw", py_draw, METH_VARARGS, draw_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "chkobba.touti._deals",
    "The Touti search's draws of the hidden hands, compiled: use them through "
    "chkobba.touti.kernel.",
    -1,
    methods,
};

PyMODINIT_FUNC PyInit__deals(void) { return PyModule_Create(&module); }
