// fences.cu - exploration run 4: where the tree barrier's time goes on the
// H200. The tree's flat wake, written with the PTX instructions that xwg's
// ptx path uses (so the same SASS), against the same shape with fences
// taken away or moved, and against other ways to meet the PTX memory
// model with fewer fences on the critical path; in CUDA, where each
// variant is quick to write. Variants marked BROKEN are deliberately too
// weak: they are not barriers under the PTX memory model, and only
// measure what a fence costs (rows fences/broken/NAME). `+sleepN` adds a
// nanosleep of N ns after each poll that fails. Prints CSV rows in
// xwg-bench's columns (label cuda-fences); scripts/run explore --platform
// nvidia -- fences runs it.
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

// One group's place in the barrier's words. words: line 0 the failed
// flag, line 1 the top counter (the go flag for COUNTER_GO), lines 2.. the
// clusters. Zeroed before each launch.
struct place {
    unsigned *words, *top, *sub; // sub: this group's cluster word
    unsigned g, n;               // this group, all groups
    unsigned cluster, clusters, members, fanin;
    unsigned add;                // this cluster's add at the top counter
};

__device__ place place_of(unsigned *words, unsigned fanin)
{
    place p;
    p.words = words;
    p.g = blockIdx.x;
    p.n = gridDim.x;
    p.fanin = fanin;
    p.cluster = p.g / fanin;
    p.clusters = (p.n + fanin - 1) / fanin;
    p.members = min(fanin, p.n - p.cluster * fanin);
    p.top = &words[LINE];
    p.sub = &words[(2 + p.cluster) * LINE];
    p.add = p.cluster == 0 ? SENSE - (p.clusters - 1) : 1u;
    return p;
}

// Each episode below is one barrier of work-item 0 (warp 0 for
// cluster_acq), between the kernel's two __syncthreads(). `e` counts
// episodes, `before` is the top bit before this one. Returns 1 when a
// wait timed out.

// The tree's flat wake (SHIPPED) and the variants that take its fences
// away: each group adds to its cluster word; the cluster's last resets it
// and adds to the top counter; the others poll the top and acquire it.
template <int V, int SLEEP>
__device__ int tree_episode(const place &p, unsigned before)
{
    unsigned old;
    if (V == ALL_RELAXED)
        old = add_relaxed(p.sub, 1u);
    else if (V == SUB_RELEASE)
        old = add_release(p.sub, 1u);
    else
        old = add_acq_rel(p.sub, 1u);
    if (old == p.members - 1) {
        st_relaxed(p.sub, 0u);
        const unsigned top_old = (V == TOP_RELAXED || V == ALL_RELAXED)
                                     ? add_relaxed(p.top, p.add)
                                     : add_acq_rel(p.top, p.add);
        if (((top_old + p.add) ^ before) & SENSE)
            return 0; // the last arrival of all
    }
    if (await_flip<SLEEP>(p.top, before))
        return 1;
    if (V != NO_COLLECT && V != ALL_RELAXED)
        (void)ld_acquire(p.top);
    return 0;
}

// The tree with PTX's one-way fences in place of acq_rel adds.
template <int V, int SLEEP>
__device__ int oneway_episode(const place &p, unsigned before)
{
    fence_release();
    const unsigned old = add_relaxed(p.sub, 1u);
    if (old == p.members - 1) {
        st_relaxed(p.sub, 0u);
        fence_acquire();
        fence_release();
        const unsigned top_old = add_relaxed(p.top, p.add);
        if (((top_old + p.add) ^ before) & SENSE) {
            fence_acquire();
            return 0;
        }
    }
    if (await_flip<SLEEP>(p.top, before))
        return 1;
    if (V == ONEWAY)
        fence_acquire();
    else
        (void)ld_acquire(p.top);
    return 0;
}

// xwg's counter barrier (COUNTER_RELAXED: with no fence at all).
template <int V, int SLEEP>
__device__ int counter_episode(const place &p, unsigned before)
{
    const unsigned cadd = p.g == 0 ? SENSE - (p.n - 1) : 1u;
    const unsigned old = V == COUNTER ? add_acq_rel(p.top, cadd)
                                      : add_relaxed(p.top, cadd);
    if (((old + cadd) ^ before) & SENSE)
        return 0; // the last arrival
    if (await_flip<SLEEP>(p.top, before))
        return 1;
    if (V == COUNTER)
        (void)ld_acquire(p.top);
    return 0;
}

// The counter with one-way fences.
template <int SLEEP>
__device__ int counter_oneway_episode(const place &p, unsigned before)
{
    const unsigned cadd = p.g == 0 ? SENSE - (p.n - 1) : 1u;
    fence_release();
    const unsigned old = add_relaxed(p.top, cadd);
    int timed_out = 0;
    if (!(((old + cadd) ^ before) & SENSE))
        timed_out = await_flip<SLEEP>(p.top, before);
    fence_acquire();
    return timed_out;
}

// One counter that only grows (on the first cluster line), added to with
// a release and polled by nobody; the last arrival flips the go flag (the
// top word) relaxed, and each waiter then acquires the counter.
template <int SLEEP>
__device__ int counter_go_episode(const place &p, unsigned e, unsigned before)
{
    unsigned *counter = &p.words[2 * LINE];
    if (add_release(counter, 1u) + 1 == (e + 1) * p.n)
        st_relaxed(p.top, before ^ SENSE);
    else if (await_flip<SLEEP>(p.top, before))
        return 1;
    for (unsigned polls = 0; (int)(ld_acquire(counter) - (e + 1) * p.n) < 0;)
        if (++polls == BOUND)
            return 1;
    return 0;
}

// Cluster counts that only grow, added to with a release; the cluster's
// last raises the top relaxed, a go signal only. Once the top has
// flipped, lane l of warp 0 acquires the words of clusters l, l + 32, ...
// (4224 groups make 44 clusters of 96).
template <int SLEEP>
__device__ int cluster_acq_episode(const place &p, unsigned e,
                                   unsigned before)
{
    const unsigned l = threadIdx.x;
    if (l == 0 && add_release(p.sub, 1u) + 1 == (e + 1) * p.members)
        (void)add_relaxed(p.top, p.add);
    __syncwarp();
    if (await_flip<SLEEP>(p.top, before))
        return 1;
    for (unsigned c = l; c < p.clusters; c += 32) {
        unsigned *w = &p.words[(2 + c) * LINE];
        const unsigned m = min(p.fanin, p.n - c * p.fanin);
        for (unsigned polls = 0; (int)(ld_acquire(w) - (e + 1) * m) < 0;)
            if (++polls == BOUND)
                return 1;
    }
    return 0;
}

__host__ __device__ constexpr bool is_cluster_acq(int v)
{
    return v == CLUSTER_ACQ || v == CLUSTER_ACQ264 || v == CLUSTER_ACQ528;
}

// Variant V's episode, by the work-items that take part in it.
template <int V, int SLEEP>
__device__ int episode(const place &p, unsigned e, unsigned before)
{
    if constexpr (is_cluster_acq(V))
        return threadIdx.x < 32 ? cluster_acq_episode<SLEEP>(p, e, before)
                                : 0;
    if (threadIdx.x != 0)
        return 0;
    if constexpr (V == COUNTER || V == COUNTER_RELAXED)
        return counter_episode<V, SLEEP>(p, before);
    else if constexpr (V == COUNTER_ONEWAY)
        return counter_oneway_episode<SLEEP>(p, before);
    else if constexpr (V == COUNTER_GO)
        return counter_go_episode<SLEEP>(p, e, before);
    else if constexpr (V == ONEWAY || V == ONEWAY_LDACQ)
        return oneway_episode<V, SLEEP>(p, before);
    else
        return tree_episode<V, SLEEP>(p, before);
}

template <int V, int SLEEP = 0>
__global__ void barriers(unsigned count, unsigned *words)
{
    if constexpr (V == GRID_SYNC) {
        cg::grid_group grid = cg::this_grid();
        for (unsigned e = 0; e < count; e++)
            grid.sync();
        return;
    }
    const place p = place_of(words, V == CLUSTER_ACQ264   ? 264u
                                    : V == CLUSTER_ACQ528 ? 528u
                                                          : 96u);
    __shared__ unsigned failed;
    if (threadIdx.x == 0)
        failed = 0;
    for (unsigned e = 0; e < count; e++) {
        __syncthreads();
        if (episode<V, SLEEP>(p, e, (e & 1u) ? SENSE : 0u))
            failed = 1;
        __syncthreads();
        if (failed) {
            if (threadIdx.x == 0)
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
