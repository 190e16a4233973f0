/*
 * timing.h - the clocks and orderings that the benchmarks share.
 */
#ifndef XWG_BENCH_TIMING_H
#define XWG_BENCH_TIMING_H

/* Wall-clock microseconds. */
double now_us(void);
/* qsort's order for doubles, ascending. */
int cmp_double(const void *a, const void *b);
/* The median of us[0..n) (n > 0); sorts it. */
double median_us(double *us, unsigned n);

#endif
