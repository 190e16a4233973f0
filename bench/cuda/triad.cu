// triad.cu - the GPU's memory floor: STREAM's triad a[i] = b[i] + s c[i]
// over 2^26 floats (768 MiB moved, far past the L2), best of 30 launches
// timed with CUDA events, and the same over 2^20 floats (12 MiB, one CG
// vector's size: what a pass over one vector of apps/cg's systems can
// reach). A bandwidth-bound kernel that moves B bytes cannot take less
// than B / (the first figure); docs/performance.md sets the CG solvers'
// bytes a row against it.
// Usage: triad. Prints two lines: "triad 2^K floats: best T, R GB/s".
#include <cstdio>
#include <cuda_runtime.h>

#include "cuda_timer.h"

__global__ void triad(float *a, const float *b, const float *c, float s,
                      size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        a[i] = b[i] + s * c[i];
}

// The best of 30 launches over n floats, in ms.
static float best_ms(float *a, const float *b, const float *c, size_t n,
                     int blocks)
{
    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    float best = 1e30f;
    for (int r = 0; r < 30; r++) {
        CHECK(cudaEventRecord(t0));
        triad<<<blocks, 256>>>(a, b, c, 2.0f, n);
        CHECK(cudaEventRecord(t1));
        CHECK(cudaEventSynchronize(t1));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, t0, t1));
        best = ms < best ? ms : best;
    }
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    return best;
}

int main()
{
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t big = (size_t)1 << 26, small = (size_t)1 << 20;
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, big * sizeof(float)));
    CHECK(cudaMalloc(&b, big * sizeof(float)));
    CHECK(cudaMalloc(&c, big * sizeof(float)));
    CHECK(cudaMemset(b, 0, big * sizeof(float)));
    CHECK(cudaMemset(c, 0, big * sizeof(float)));
    const float big_ms = best_ms(a, b, c, big, sms * 16);
    printf("triad 2^26 floats: best %.3f ms, %.0f GB/s\n", big_ms,
           3.0 * big * sizeof(float) / (big_ms * 1e-3) / 1e9);
    const float small_ms = best_ms(a, b, c, small, sms * 4);
    printf("triad 2^20 floats: best %.2f us, %.0f GB/s\n", small_ms * 1e3,
           3.0 * small * sizeof(float) / (small_ms * 1e-3) / 1e9);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    return 0;
}
