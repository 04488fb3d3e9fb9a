/* Bit tricks on a Touti card mask (mask_t, bit i for card i), shared by
   chkobba.touti._playout and chkobba.touti._deals: each defines mask_t, then includes
   this file. Everything here is static. */
#ifndef CHKOBBA_TOUTI_BITS_H
#define CHKOBBA_TOUTI_BITS_H

static inline int popcount(mask_t m) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(m);
#else
    int n = 0;
    while (m) {
        m &= m - 1;
        n++;
    }
    return n;
#endif
}

static inline int lowest(mask_t m) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(m);
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
