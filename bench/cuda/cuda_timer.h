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

#endif
