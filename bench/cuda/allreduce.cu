// allreduce.cu - the CUDA side of xwg-bench's all-reduce rows: a float
// sum over every thread of the grid, to every thread, inside one
// cooperative kernel, written as CUDA users write it today (CUDA's
// conjugateGradientMultiBlockCG sample does its dot products so): a warp
// reduce with cg::reduce, the warps' sums added in shared memory, one
// atomicAdd per block to a global word, grid.sync(), and every thread
// reads the word. Three words in turn, so that one grid.sync() per
// all-reduce suffices: call i adds to word i % 3, and before its sync
// block 0 zeroes word (i + 1) % 3, whose last reads (call i - 2's) every
// block finished before the sync of call i - 1, and which call i + 1
// adds to only after this call's sync. (With two words, zeroed after the
// sync, a fast block's next add could land before the zero.) (Its float sum is in the
// atomics' order: not deterministic, unlike xwg's.) Beside it, in the same
// run, grid.sync() alone. Per-call latency is the difference of two call
// counts (E1, E2) over the same launch, timed with CUDA events, so launch
// costs cancel. Prints CSV rows in xwg-bench's columns, at full occupancy
// for 64, 256 and 1024 threads per block.
//
// Usage: allreduce [E1 E2]
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "cuda_timer.h"

namespace cg = cooperative_groups;

__global__ void allreduces(unsigned count, float *sums, float *sink)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float warp_sums[32];
    float acc = 1.0f;
    for (unsigned i = 0; i < count; i++) {
        float v = cg::reduce(warp, acc * 0.5f, cg::plus<float>());
        if (warp.thread_rank() == 0)
            warp_sums[warp.meta_group_rank()] = v;
        block.sync();
        if (block.thread_rank() == 0) {
            float s = 0.0f;
            for (unsigned w = 0; w < warp.meta_group_size(); w++)
                s += warp_sums[w];
            atomicAdd(&sums[i % 3], s);
            if (block.group_index().x == 0)
                sums[(i + 1) % 3] = 0.0f;
        }
        grid.sync();
        acc = sums[i % 3];
    }
    if (grid.thread_rank() == 0)
        sink[0] = acc;
}

__global__ void syncs(unsigned count)
{
    cg::grid_group grid = cg::this_grid();
    for (unsigned i = 0; i < count; i++)
        grid.sync();
}

int main(int argc, char **argv)
{
    unsigned e1 = argc > 2 ? atoi(argv[1]) : 256;
    unsigned e2 = argc > 2 ? atoi(argv[2]) : 10256;
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    float *sums, *sink;
    CHECK(cudaMalloc(&sums, 3 * sizeof(float)));
    CHECK(cudaMalloc(&sink, sizeof(float)));
    const int sizes[] = {64, 256, 1024};
    for (int size : sizes) {
        int per_sm = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm,
                                                            allreduces, size,
                                                            0));
        int blocks = per_sm * sms;
        float t[2];
        unsigned counts[2] = {e1, e2};
        for (int k = 0; k < 2; k++) {
            CHECK(cudaMemset(sums, 0, 3 * sizeof(float)));
            void *args[] = {&counts[k], &sums, &sink};
            t[k] = time_cooperative_us((void *)allreduces, blocks, size,
                                       args);
        }
        printf("cuda,\"%s\",allreduce-float,%d,full,%d,%.4f\n", prop.name,
               size, blocks, (t[1] - t[0]) / (e2 - e1));
        for (int k = 0; k < 2; k++) {
            void *args[] = {&counts[k]};
            t[k] = time_cooperative_us((void *)syncs, blocks, size, args);
        }
        printf("cuda,\"%s\",grid.sync,%d,full,%d,%.4f\n", prop.name, size,
               blocks, (t[1] - t[0]) / (e2 - e1));
        fflush(stdout);
    }
    return 0;
}
