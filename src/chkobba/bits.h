/* Bit tricks on a 64-bit card mask (mask_t, bit i for card i), shared by the C
   kernels (chkobba._fastcore, chkobba.touti._playout and _deals): each defines
   mask_t as uint64_t, then includes this file. Everything here is static. */
#ifndef CHKOBBA_BITS_H
#define CHKOBBA_BITS_H

#if defined(_MSC_VER)
#include <intrin.h> /* _BitScanForward64 */
#endif

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

#endif
