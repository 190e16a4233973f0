// gridsync.cu - the CUDA side of the comparison: grid.sync() through a
// cooperative launch, and an empty-kernel relaunch, at the sizes xwg-bench
// measures (64, 256, 1024 threads per block; full, half and quarter
// occupancy). Per-sync latency is the difference of two sync counts
// (E1, E2) over the same launch shape, timed with CUDA events, so launch
// costs cancel. Then the floor, as xwg-bench measures it in OpenCL: a flag
// handed between two blocks and back (release store, acquire loads at
// device scope; and all relaxed), per round trip. Prints CSV rows in
// xwg-bench's columns.
//
// With PLACEMENTS, the floor is also measured with its flags at that many
// places in memory (64 KiB + 128 B apart, as xwg-bench --placements does):
// rows pingpong@min/median/max-of-N.
//
// Usage: gridsync [E1 E2 [PLACEMENTS]]
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "cuda_timer.h"

namespace cg = cooperative_groups;

__global__ void syncs(unsigned count)
{
    cg::grid_group grid = cg::this_grid();
    for (unsigned i = 0; i < count; i++)
        grid.sync();
}

__global__ void empty(unsigned *sink)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        sink[0] += 1;
}

// Blocks 0 and 1 (on different SMs) hand a flag back and forth.
__global__ void pingpong(unsigned *flags, unsigned rounds, int relaxed)
{
    if (threadIdx.x != 0)
        return;
    const unsigned me = blockIdx.x;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> mine(flags[me * 32]);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> theirs(
        flags[(1 - me) * 32]);
    const cuda::std::memory_order st =
        relaxed ? cuda::std::memory_order_relaxed
                : cuda::std::memory_order_release;
    const cuda::std::memory_order ld =
        relaxed ? cuda::std::memory_order_relaxed
                : cuda::std::memory_order_acquire;
    for (unsigned r = 1; r <= rounds; r++) {
        if (me == 0)
            mine.store(r, st);
        while (theirs.load(ld) != r) {
        }
        if (me == 1)
            mine.store(r, st);
    }
}

// One cooperative launch of `count` grid.sync() calls; median of 5, in us.
static float time_syncs(int blocks, int threads, unsigned count)
{
    void *args[] = {&count};
    return time_cooperative_us((void *)syncs, blocks, threads, args);
}

// Where the flags of placement i sit, in words (xwg-bench's spacing).
static unsigned placement_words(unsigned i) { return i * (16384u + 32u); }

static float time_pingpong(unsigned *flags, unsigned rounds, int relaxed)
{
    CHECK(cudaMemset(flags, 0, 4096));
    cudaEvent_t a, b;
    start_timer(&a, &b);
    pingpong<<<2, 64>>>(flags, rounds, relaxed);
    return stop_timer_us(a, b);
}

static float time_relaunch(int blocks, int threads, unsigned count,
                           unsigned *sink)
{
    CHECK(cudaDeviceSynchronize());
    cudaEvent_t a, b;
    start_timer(&a, &b);
    for (unsigned i = 0; i < count; i++)
        empty<<<blocks, threads>>>(sink);
    return stop_timer_us(a, b);
}

int main(int argc, char **argv)
{
    unsigned e1 = argc > 2 ? atoi(argv[1]) : 256;
    unsigned e2 = argc > 2 ? atoi(argv[2]) : 10256;
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    unsigned *sink;
    CHECK(cudaMalloc(&sink, 64));
    const int sizes[] = {64, 256, 1024};
    const char *occ_name[] = {"full", "half", "quarter"};
    for (int size : sizes) {
        int per_sm = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, syncs,
                                                            size, 0));
        for (int o = 0; o < 3; o++) {
            int blocks = (per_sm * sms) >> o;
            float t1 = time_syncs(blocks, size, e1);
            float t2 = time_syncs(blocks, size, e2);
            printf("cuda,\"%s\",grid.sync,%d,%s,%d,%.4f\n", prop.name, size,
                   occ_name[o], blocks, (t2 - t1) / (e2 - e1));
            float r1 = time_relaunch(blocks, size, e1 / 4, sink);
            float r2 = time_relaunch(blocks, size, e2 / 4, sink);
            printf("cuda,\"%s\",relaunch,%d,%s,%d,%.4f\n", prop.name, size,
                   occ_name[o], blocks, (r2 - r1) / ((e2 - e1) / 4));
            fflush(stdout);
        }
    }
    int asked = argc > 3 ? atoi(argv[3]) : 0;
    if (asked < 0 || asked > 64) {
        fprintf(stderr, "gridsync: PLACEMENTS takes 0 to 64\n");
        return 2;
    }
    unsigned placements = (unsigned)asked;
    unsigned *flags;
    CHECK(cudaMalloc(&flags, 4 * placement_words(placements) + 4096));
    for (int relaxed = 0; relaxed < 2; relaxed++) {
        float t1 = time_pingpong(flags, 1000, relaxed);
        float t2 = time_pingpong(flags, 21000, relaxed);
        printf("cuda,\"%s\",%s,64,2 groups,2,%.4f\n", prop.name,
               relaxed ? "pingpong/relaxed" : "pingpong", (t2 - t1) / 20000);
    }
    for (int relaxed = 0; relaxed < 2 && placements; relaxed++) {
        float us[64];
        for (unsigned i = 0; i < placements; i++) {
            unsigned *at = flags + placement_words(i);
            us[i] = (time_pingpong(at, 21000, relaxed) -
                     time_pingpong(at, 1000, relaxed)) / 20000;
        }
        std::sort(us, us + placements);
        const float pick[3] = {us[0], us[placements / 2], us[placements - 1]};
        const char *what[3] = {"min", "median", "max"};
        for (int j = 0; j < 3; j++)
            printf("cuda,\"%s\",pingpong%s@%s-of-%u,64,2 groups,2,%.4f\n",
                   prop.name, relaxed ? "/relaxed" : "", what[j], placements,
                   pick[j]);
    }
    return 0;
}
