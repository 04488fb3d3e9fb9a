/* CPython's random.Random (Modules/_randommodule.c): the MT19937 state, its next
   32-bit word and randrange(n) built on getrandbits, shared by the C kernels that must
   draw exactly what Python's generator draws (chkobba._fastcore, chkobba.touti._deals).
   Included by each kernel's single source file: everything here is static. */
#ifndef CHKOBBA_PYMT_H
#define CHKOBBA_PYMT_H

#include <stdint.h>

#define PYMT_N 624
#define PYMT_M 397

typedef struct {
    uint32_t mt[PYMT_N];
    int index;
} PyMT;

static uint32_t pymt_next(PyMT *r) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t *mt = r->mt;
    uint32_t y;
    if (r->index >= PYMT_N) {
        int kk;
        for (kk = 0; kk < PYMT_N - PYMT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + PYMT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < PYMT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (PYMT_M - PYMT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[PYMT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[PYMT_N - 1] = mt[PYMT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.randrange(n) for 1 <= n < 2**32: getrandbits(n.bit_length()) until below n. */
static int pymt_below(PyMT *r, int n) {
    int k = 0;
    while ((n >> k) > 0) k++;
    uint32_t v;
    do v = pymt_next(r) >> (32 - k);
    while (v >= (uint32_t)n);
    return (int)v;
}

#endif
