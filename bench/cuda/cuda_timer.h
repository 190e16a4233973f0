// cuda_timer.h - what the CUDA comparison programs share: CHECK, which
// ends the program on a CUDA error, and a timer made of two events on
// stream 0.
#ifndef XWG_BENCH_CUDA_TIMER_H
#define XWG_BENCH_CUDA_TIMER_H

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                               \
    do {                                                                       \
        cudaError_t e_ = (x);                                                  \
        if (e_ != cudaSuccess) {                                               \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));           \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

// Creates two events and records the first: a timer started on stream 0.
static inline void start_timer(cudaEvent_t *a, cudaEvent_t *b)
{
    CHECK(cudaEventCreate(a));
    CHECK(cudaEventCreate(b));
    CHECK(cudaEventRecord(*a));
}

// Stops the timer: microseconds from the first event to now (on stream
// 0), once the work between them has finished; releases both events.
static inline float stop_timer_us(cudaEvent_t a, cudaEvent_t b)
{
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    return ms * 1000.0f;
}

// A cooperative launch of `kernel` timed 5 times: the median, in us.
static inline float time_cooperative_us(void *kernel, int blocks, int threads,
                                        void **args)
{
    float t[5];
    for (int r = 0; r < 5; r++) {
        cudaEvent_t a, b;
        start_timer(&a, &b);
        CHECK(cudaLaunchCooperativeKernel(kernel, blocks, threads, args, 0, 0));
        t[r] = stop_timer_us(a, b);
    }
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++)
            if (t[j] < t[i]) {
                float x = t[i];
                t[i] = t[j];
                t[j] = x;
            }
    return t[2];
}

#endif
