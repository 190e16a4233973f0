/*
 * check_cg_rand.c - csr_rand (apps/cg/cg_matrix.c) gives glibc's rand()
 * sequence: the first 10^6 values after srand(1) and after srand(12345),
 * compared with this libc's rand(). On another libc there is nothing to
 * compare with, and it says so (exit 77, which ctest counts as skipped).
 * A broken generator is shown to fail: the same comparison with one
 * value thrown away first must differ.
 */
#include "../apps/cg/cg_matrix.h"

#include <stdio.h>
#include <stdlib.h>

/* The first index at which csr_rand and rand() differ, or -1. */
static long first_difference(unsigned seed, int skip)
{
    csr_rand g;
    csr_rand_seed(&g, seed);
    for (int i = 0; i < skip; i++)
        (void)csr_rand_next(&g);
    srand(seed);
    for (long i = 0; i < 1000000; i++)
        if (csr_rand_next(&g) != rand())
            return i;
    return -1;
}

int main(void)
{
#ifndef __GLIBC__
    puts("check_cg_rand: not glibc, nothing to compare with");
    return 77;
#else
    int bad = 0;
    const unsigned seeds[] = {1, 12345};
    for (int s = 0; s < 2; s++) {
        long at = first_difference(seeds[s], 0);
        printf("seed %u: %s", seeds[s], at < 0 ? "10^6 values as rand()\n"
                                                : "differs from rand() at ");
        if (at >= 0)
            printf("%ld\n", at);
        bad |= at >= 0;
    }
    if (first_difference(1, 1) < 0) {
        puts("the skewed generator matched: the check proves nothing");
        bad = 1;
    }
    return bad;
#endif
}
