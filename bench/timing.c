/*
 * timing.c - the clocks and orderings that the benchmarks share.
 */
#include "timing.h"

#include <stdlib.h>
#include <time.h>

double now_us(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double median_us(double *us, unsigned n)
{
    qsort(us, n, sizeof *us, cmp_double);
    return us[n / 2];
}
