/*
 * cpu_barriers.c - a pthread barrier and a C11 sense-reversal spin barrier,
 * timed among host threads (see cpu_barriers.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "cpu_barriers.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

typedef struct spin_barrier {
    atomic_int count; /* arrivals left in this episode */
    atomic_int sense; /* flips once per episode */
    int threads;
} spin_barrier;

static void spin_wait(spin_barrier *b, int *local_sense)
{
    *local_sense = !*local_sense;
    /* acq_rel: the last arrival sees every earlier arrival's writes... */
    if (atomic_fetch_sub_explicit(&b->count, 1, memory_order_acq_rel) == 1) {
        atomic_store_explicit(&b->count, b->threads, memory_order_relaxed);
        /* ...and publishes them, with the reset, by the flip (release). */
        atomic_store_explicit(&b->sense, *local_sense, memory_order_release);
    } else {
        /* Acquire: pairs with the flip. */
        while (atomic_load_explicit(&b->sense, memory_order_acquire) !=
               *local_sense) {
        }
    }
}

typedef struct run {
    int episodes;
    int use_spin;
    pthread_barrier_t pthread_barrier;
    spin_barrier spin;
} run;

static void *worker(void *arg)
{
    run *r = arg;
    int sense = 0;
    for (int i = 0; i < r->episodes; i++) {
        if (r->use_spin)
            spin_wait(&r->spin, &sense);
        else
            pthread_barrier_wait(&r->pthread_barrier);
    }
    return NULL;
}

static double time_us(run *r, int threads)
{
    pthread_t t[64];
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 1; i < threads; i++)
        pthread_create(&t[i], NULL, worker, r);
    worker(r);
    for (int i = 1; i < threads; i++)
        pthread_join(t[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    return ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3 /
           r->episodes;
}

void cpu_barriers_measure(int threads, int episodes,
                          cpu_barrier_result out[2])
{
    static run r; /* large and shared by the threads */
    r.episodes = episodes;
    r.use_spin = 0;
    pthread_barrier_init(&r.pthread_barrier, NULL, (unsigned)threads);
    out[0].name = "cpu/pthread";
    out[0].us = time_us(&r, threads);
    pthread_barrier_destroy(&r.pthread_barrier);

    r.use_spin = 1;
    atomic_init(&r.spin.count, threads);
    atomic_init(&r.spin.sense, 0);
    r.spin.threads = threads;
    out[1].name = "cpu/spin";
    out[1].us = time_us(&r, threads);
}
