// fences.cu - exploration run 4: where the tree barrier's time goes on the
// H200. The tree's flat wake, written with the PTX instructions that xwg's
// ptx path uses (so the same SASS), against the same shape with fences
// taken away or moved, and against other ways to meet the PTX memory
// model with fewer fences on the critical path; in CUDA, where each
// variant is quick to write. Variants marked BROKEN are deliberately too
// weak: they are not barriers under the PTX memory model, and only
// measure what a fence costs (rows fences/broken/NAME). `+sleepN` adds a
// nanosleep of N ns after each poll that fails. Prints CSV rows in
// xwg-bench's columns (label cuda-fences); scripts/run_h200_explore.sh
// fences runs it.
//
// Per-barrier latency is the difference of two barrier counts, as in
// gridsync.cu. Every wait has a poll bound (a watchdog): a variant that
// hangs reports NAN instead. Nothing here checks data: these are
// measurements, not barriers that xwg ships.
//
// Usage: fences [E1 E2]
#include <cooperative_groups.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "cuda_timer.h"

namespace cg = cooperative_groups;

#define SENSE 0x80000000u
#define LINE 32u          // words per 128-byte line
#define BOUND (1u << 22)  // polls before a wait gives up (seconds: a poll
                          // takes 0.5 us or more, longer with a sleep)

__device__ __forceinline__ unsigned ld_relaxed(unsigned *p)
{
    unsigned v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];"
                 : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ unsigned ld_acquire(unsigned *p)
{
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];"
                 : "=r"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void st_relaxed(unsigned *p, unsigned v)
{
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;"
                 : : "l"(p), "r"(v) : "memory");
}
#define RMW(name, insn)                                                        \
    __device__ __forceinline__ unsigned name(unsigned *p, unsigned v)          \
    {                                                                          \
        unsigned old;                                                          \
        asm volatile(insn " %0, [%1], %2;"                                     \
                     : "=r"(old) : "l"(p), "r"(v) : "memory");                 \
        return old;                                                            \
    }
RMW(add_acq_rel, "atom.acq_rel.gpu.global.add.u32")
// PTX's one-way fences (fence.release, fence.acquire at gpu scope).
__device__ __forceinline__ void fence_release(void)
{
    asm volatile("fence.release.gpu;" : : : "memory");
}
__device__ __forceinline__ void fence_acquire(void)
{
    asm volatile("fence.acquire.gpu;" : : : "memory");
}
RMW(add_release, "atom.release.gpu.global.add.u32")
RMW(add_relaxed, "atom.relaxed.gpu.global.add.u32")

enum variant {
    SHIPPED,        // xwg's flat tree: acq_rel adds, relaxed polls + 1 acquire
    TOP_RELAXED,    // BROKEN: the cluster's last adds to the top relaxed
    NO_COLLECT,     // BROKEN: waiters never acquire (no final ld.acquire)
    ALL_RELAXED,    // BROKEN: no fence anywhere; the shape's bare cost
    SUB_RELEASE,    // BROKEN: cluster adds release only (the last does not
                    // acquire its members before it passes them on)
    CLUSTER_ACQ,    // monotonic cluster counts, release adds; the top is a
                    // relaxed go signal; waiters acquire every cluster word
    CLUSTER_ACQ264, // the same with clusters of 264 groups
    CLUSTER_ACQ528, // and of 528
    COUNTER_GO,     // one counter that every group adds to with a release
                    // and nobody polls; the last arrival raises a relaxed
                    // go flag, and each waiter, once it sees the flag,
                    // acquires the counter
    COUNTER,        // xwg's counter barrier
    COUNTER_RELAXED,// BROKEN: the counter's add relaxed (no fence at all)
    GRID_SYNC,      // cooperative groups
    ONEWAY,         // the tree with one-way fences: fence.release before a
                    // relaxed add at the cluster; the last then
                    // fence.acquire, fence.release, a relaxed add at the
                    // grid counter; waiters poll, then fence.acquire
    ONEWAY_LDACQ,   // the same, waiters end with an acquire load instead
    COUNTER_ONEWAY, // the counter: fence.release, a relaxed add; the last
                    // fence.acquire, the others poll and fence.acquire
};

// Waits until the top bit of *p differs from `before`; 1 on a timeout.
// SLEEP > 0: a nanosleep of that many ns after each poll that fails,
// fewer requests queued at the word's L2 slice.
template <int SLEEP>
__device__ __forceinline__ int await_flip(unsigned *p, unsigned before)
{
    for (unsigned polls = 0; ((ld_relaxed(p) ^ before) & SENSE) == 0;) {
        if (++polls == BOUND)
            return 1;
        if (SLEEP > 0)
            __nanosleep(SLEEP);
    }
    return 0;
}

// words: line 0 the failed flag, line 1 the top counter, lines 2.. the
// clusters. Zeroed before each launch.
template <int V, int SLEEP = 0>
__global__ void barriers(unsigned count, unsigned *words)
{
    const unsigned FANIN = V == CLUSTER_ACQ264   ? 264u
                           : V == CLUSTER_ACQ528 ? 528u
                                                 : 96u;
    __shared__ unsigned failed;
    const unsigned g = blockIdx.x, n = gridDim.x, l = threadIdx.x;
    const unsigned cluster = g / FANIN, clusters = (n + FANIN - 1) / FANIN;
    const unsigned members = min(FANIN, n - cluster * FANIN);
    unsigned *top = &words[LINE];
    unsigned *sub = &words[(2 + cluster) * LINE];
    const unsigned add = cluster == 0 ? SENSE - (clusters - 1) : 1u;
    if (l == 0)
        failed = 0;
    if (V == GRID_SYNC) {
        cg::grid_group grid = cg::this_grid();
        for (unsigned e = 0; e < count; e++)
            grid.sync();
        return;
    }
    for (unsigned e = 0; e < count; e++) {
        const unsigned before = (e & 1u) ? SENSE : 0u;
        __syncthreads();
        if ((V == COUNTER || V == COUNTER_RELAXED) && l == 0) {
            const unsigned cadd = g == 0 ? SENSE - (n - 1) : 1u;
            const unsigned old = V == COUNTER ? add_acq_rel(top, cadd)
                                              : add_relaxed(top, cadd);
            if (!(((old + cadd) ^ before) & SENSE)) {
                if (await_flip<SLEEP>(top, before))
                    failed = 1;
                else if (V == COUNTER)
                    (void)ld_acquire(top);
            }
        } else if (V == COUNTER_GO && l == 0) {
            // words[LINE]: the go flag (flips its top bit); the counter
            // sits on the first cluster line and only grows.
            if (add_release(sub - cluster * LINE, 1u) + 1 == (e + 1) * n)
                st_relaxed(top, before ^ SENSE);
            else if (await_flip<SLEEP>(top, before))
                failed = 1;
            unsigned polls = 0;
            while (!failed && (int)(ld_acquire(sub - cluster * LINE) -
                                    (e + 1) * n) < 0)
                if (++polls == BOUND)
                    failed = 1;
        } else if ((V == CLUSTER_ACQ || V == CLUSTER_ACQ264 ||
                    V == CLUSTER_ACQ528) && l < 32) {
            // Warp 0. Lane 0 arrives; once the top has flipped, lane l
            // acquires the words of clusters l, l + 32, ... (4224 groups
            // make 44 clusters of 96).
            if (l == 0) {
                const unsigned old = add_release(sub, 1u);
                if (old + 1 == (e + 1) * members)
                    (void)add_relaxed(top, add);
            }
            __syncwarp();
            if (await_flip<SLEEP>(top, before)) {
                failed = 1;
            } else {
                for (unsigned c = l; c < clusters && !failed; c += 32) {
                    unsigned *w = &words[(2 + c) * LINE];
                    const unsigned m = min(FANIN, n - c * FANIN);
                    unsigned polls = 0;
                    while ((int)(ld_acquire(w) - (e + 1) * m) < 0)
                        if (++polls == BOUND) {
                            failed = 1;
                            break;
                        }
                }
            }
        } else if ((V == ONEWAY || V == ONEWAY_LDACQ) && l == 0) {
            fence_release();
            const unsigned old = add_relaxed(sub, 1u);
            int last = 0;
            if (old == members - 1) {
                st_relaxed(sub, 0u);
                fence_acquire();
                fence_release();
                const unsigned top_old = add_relaxed(top, add);
                last = ((top_old + add) ^ before) & SENSE;
                if (last)
                    fence_acquire();
            }
            if (!last) {
                if (await_flip<SLEEP>(top, before))
                    failed = 1;
                else if (V == ONEWAY)
                    fence_acquire();
                else
                    (void)ld_acquire(top);
            }
        } else if (V == COUNTER_ONEWAY && l == 0) {
            const unsigned cadd = g == 0 ? SENSE - (n - 1) : 1u;
            fence_release();
            const unsigned old = add_relaxed(top, cadd);
            if (!(((old + cadd) ^ before) & SENSE)) {
                if (await_flip<SLEEP>(top, before))
                    failed = 1;
            }
            fence_acquire();
        } else if ((V == SHIPPED || V == TOP_RELAXED || V == NO_COLLECT ||
                    V == ALL_RELAXED || V == SUB_RELEASE) && l == 0) {
            unsigned old;
            if (V == ALL_RELAXED)
                old = add_relaxed(sub, 1u);
            else if (V == SUB_RELEASE)
                old = add_release(sub, 1u);
            else
                old = add_acq_rel(sub, 1u);
            int last = 0;
            if (old == members - 1) {
                st_relaxed(sub, 0u);
                const unsigned top_old = (V == TOP_RELAXED || V == ALL_RELAXED)
                                             ? add_relaxed(top, add)
                                             : add_acq_rel(top, add);
                last = ((top_old + add) ^ before) & SENSE;
            }
            if (!last) {
                if (await_flip<SLEEP>(top, before))
                    failed = 1;
                else if (V != NO_COLLECT && V != ALL_RELAXED)
                    (void)ld_acquire(top);
            }
        }
        __syncthreads();
        if (failed) {
            if (l == 0)
                words[0] = 1;
            return;
        }
    }
}

typedef void (*kernel_fn)(unsigned, unsigned *);
static const struct {
    const char *name;
    kernel_fn k;
} kernels[] = {
    {"shipped", barriers<SHIPPED>},
    {"broken/top-relaxed", barriers<TOP_RELAXED>},
    {"broken/no-collect", barriers<NO_COLLECT>},
    {"broken/all-relaxed", barriers<ALL_RELAXED>},
    {"broken/sub-release", barriers<SUB_RELEASE>},
    {"cluster-acq", barriers<CLUSTER_ACQ>},
    {"cluster-acq-264", barriers<CLUSTER_ACQ264>},
    {"cluster-acq-528", barriers<CLUSTER_ACQ528>},
    {"counter-go", barriers<COUNTER_GO>},
    {"counter", barriers<COUNTER>},
    {"broken/counter-relaxed", barriers<COUNTER_RELAXED>},
    {"grid.sync", barriers<GRID_SYNC>},
    {"shipped+sleep32", barriers<SHIPPED, 32>},
    {"shipped+sleep100", barriers<SHIPPED, 100>},
    {"shipped+sleep200", barriers<SHIPPED, 200>},
    {"shipped+sleep400", barriers<SHIPPED, 400>},
    {"counter+sleep32", barriers<COUNTER, 32>},
    {"counter+sleep100", barriers<COUNTER, 100>},
    {"counter+sleep200", barriers<COUNTER, 200>},
    {"counter+sleep400", barriers<COUNTER, 400>},
    {"oneway", barriers<ONEWAY>},
    {"oneway-ldacq", barriers<ONEWAY_LDACQ>},
    {"counter-oneway", barriers<COUNTER_ONEWAY>},
};

// Microseconds of one cooperative launch of `count` barriers, median of 5;
// NAN if any wait timed out.
static double launch_us(kernel_fn k, unsigned threads, unsigned groups,
                        unsigned count, unsigned *words)
{
    double t[5];
    for (int i = 0; i < 5; i++) {
        CHECK(cudaMemset(words, 0, 1 << 16));
        void *args[] = {&count, &words};
        cudaEvent_t a, b;
        start_timer(&a, &b);
        CHECK(cudaLaunchCooperativeKernel((void *)k, groups, threads, args));
        const float us = stop_timer_us(a, b);
        unsigned failed;
        CHECK(cudaMemcpy(&failed, words, 4, cudaMemcpyDeviceToHost));
        if (failed)
            return NAN;
        t[i] = us;
    }
    std::sort(t, t + 5);
    return t[2];
}

int main(int argc, char **argv)
{
    const unsigned e1 = argc > 2 ? atoi(argv[1]) : 256;
    const unsigned e2 = argc > 2 ? atoi(argv[2]) : 10256;
    const unsigned sizes[] = {64, 256, 1024};
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    unsigned *words;
    CHECK(cudaMalloc(&words, 1 << 16));
    printf("label,device,variant,local_size,occupancy,groups,us\n");
    for (unsigned threads : sizes)
        for (const auto &v : kernels) {
            int per_sm;
            CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &per_sm, v.k, threads, 0));
            const unsigned groups = per_sm * prop.multiProcessorCount;
            const double us =
                (launch_us(v.k, threads, groups, e2, words) -
                 launch_us(v.k, threads, groups, e1, words)) /
                (e2 - e1);
            printf("cuda-fences,\"%s\",fences/%s,%u,full,%u,%.4f\n", prop.name,
                   v.name, threads, groups, us);
            fflush(stdout);
        }
    return 0;
}
