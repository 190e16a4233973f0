/*
 * cpu_barriers.h - two barriers among host threads, the yardstick for xwg
 * on a CPU device: a pthread_barrier_t, and a C11-atomics sense-reversal
 * spin barrier.
 */
#ifndef XWG_CPU_BARRIERS_H
#define XWG_CPU_BARRIERS_H

typedef struct cpu_barrier_result {
    const char *name; /* "cpu/pthread", "cpu/spin" */
    double us;        /* per barrier */
} cpu_barrier_result;

/* Times `episodes` barriers among `threads` threads with each barrier. */
void cpu_barriers_measure(int threads, int episodes,
                          cpu_barrier_result out[2]);

#endif
