/*
 * xwg_barrier.cl - the global barrier among the participating groups, its
 * watchdog, and the fence-scope helpers.
 *
 * Specification (the barrier's, from Sorensen et al., OOPSLA 2016): for
 * every barrier instance i, every memory access made before instance i by
 * any work-item of any participant happens-before every access made after
 * instance i by any work-item of any other participant. The steps that
 * establish it, named in the comments below:
 *   B1 entry:   a work-group barrier orders every work-item's earlier
 *               accesses before work-item 0's arrival;
 *   B2 arrive:  work-item 0 publishes the arrival with a release at device
 *               scope;
 *   B3 collect: the waiter acquires every arrival (directly, or through the
 *               master), at device scope;
 *   B4 depart:  (XF, tree) the master releases the slaves, or the last of
 *               a tree cluster wakes its members (cluster wake only: with
 *               the flat wake they acquire the grid counter's flip, B3),
 *               at device scope, and each acquires that release;
 *   B5 exit:    a work-group barrier hands what the group's waiters (work-
 *               item 0; every work-item of the XF master) acquired to
 *               every work-item of the group.
 * The proof (docs/spec.md) covers the cl20 path (C11 acquire/release at
 * device scope) and the ptx path (the same orders in PTX). The cl12 path
 * builds the same steps from fences and 1.x atomics and rests on tests:
 * OpenCL 1.x has no memory model to prove it against.
 *
 * Every work-item of every participant must call xwg_barrier() the same
 * number of times. A wait that exceeds the watchdog bound (a count of
 * polls, calibrated by the host to about a second) marks the state failed,
 * and the host reports XWG_ERROR_BARRIER_TIMEOUT. Every wait still waiting,
 * in any group, then ends within XWG_TUNE_FLAG_EVERY (64) polls, and its
 * group's xwg_failed() turns true after that barrier; a wait that sees its
 * own condition first ends normally, so after a failure some groups may
 * never see it, and barriers no longer order anything. Work-group barriers
 * are never skipped, so a failed barrier still keeps each group's control
 * flow uniform.
 */

/* ---- Fence-scope helpers ------------------------------------------------ */

#if defined(XWG_PATH_CL20)
/* seq_cst where the device has it (OpenCL C 2.x always; 3.0 through a
 * feature macro), else acq_rel, the strongest order the cl20 path
 * requires. */
#if __OPENCL_C_VERSION__ < 300 || defined(__opencl_c_atomic_order_seq_cst)
#define XWG__FENCE_ORDER memory_order_seq_cst
#else
#define XWG__FENCE_ORDER memory_order_acq_rel
#endif

/* Like CUDA's __threadfence_block(): orders this work-item's accesses as
 * seen by the work-items of its group. */
inline void xwg_fence_work_group(void)
{
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE,
                           XWG__FENCE_ORDER, memory_scope_work_group);
}

/* Like __threadfence(): as seen by every work-item on the device. */
inline void xwg_fence_device(void)
{
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, XWG__FENCE_ORDER,
                           memory_scope_device);
}

/* Like __threadfence_system(): as seen by other devices and the host,
 * where the device supports that scope; device scope otherwise. */
inline void xwg_fence_system(void)
{
#if __OPENCL_C_VERSION__ < 300 || defined(__opencl_c_atomic_scope_all_devices)
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, XWG__FENCE_ORDER,
                           memory_scope_all_svm_devices);
#else
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, XWG__FENCE_ORDER,
                           memory_scope_device);
#endif
}

#else /* XWG_PATH_CL12 */
/* OpenCL 1.x has one fence, with no scope: the strongest available
 * serves all three. */
inline void xwg_fence_work_group(void)
{
    mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
inline void xwg_fence_device(void)
{
    mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
inline void xwg_fence_system(void)
{
    mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
#endif

/* Known-bad builds for the tests (XWG_TEST_BROKEN_BARRIER, never shipped):
 * 1 a no-op barrier, 2 no work-group barriers, 3 and 4 weakened orders
 * (below), 5 the tree's flat wake without its reset of the cluster's
 * count, 6 every grid arrival taken for the last, 7 the episode count
 * not kept between barriers, 8 helpers counting episodes of their own
 * (XWG_SELF, xwg_discovery.cl), 9 the tree's last cluster taken as full
 * (its members counted as the fan-in), 10 the counter's group 0 adding
 * as if there were two groups, 11 the exit barrier without its global
 * fence. 9 and 10 change nothing on two groups: tests/test_shapes.c runs
 * more. The stress tests must fail on each (tests/CMakeLists.txt), except
 * where no device at hand reorders: 3 and 4 need hardware (the H200
 * catches 4, not 3), and 11 fails nowhere, the H200 included: its
 * work-group barrier orders global memory for the group either way
 * (results/known-bad-h200.csv, scripts/run_h200_known_bad.sh). */

/* ---- The orders of the barrier's synchronising accesses -------------------
 * Release where a group publishes (arrive, depart), acquire where it
 * collects. The test-only known-bad builds weaken them, to show that the
 * stress tests notice on hardware that reorders (the H200): 3 replaces
 * every release by a relaxed access (the acq_rel arrivals too, the tree's
 * at its cluster and, by default, every one at the grid counter, so they
 * also lose their acquire), 4 makes every access relaxed. */
#if defined(XWG_TEST_BROKEN_BARRIER) && (XWG_TEST_BROKEN_BARRIER == 3 || \
                                         XWG_TEST_BROKEN_BARRIER == 4)
#define XWG__ARRIVE_STORE xwg__store_relaxed
#define XWG__ARRIVE_ADD xwg__add_relaxed
#define XWG__COMBINE_ADD xwg__fetch_add_relaxed
#else
#define XWG__ARRIVE_STORE xwg__store_release
#define XWG__ARRIVE_ADD xwg__add_release
#define XWG__COMBINE_ADD xwg__fetch_add_acq_rel
#endif
/* The tree's wake publishes what its waker acquired, as an arrival does. */
#define XWG__WAKE_ADD XWG__ARRIVE_ADD
/* The flat wake's reset of a cluster's count; known-bad 5 leaves it out. */
#if defined(XWG_TEST_BROKEN_BARRIER) && XWG_TEST_BROKEN_BARRIER == 5
#define XWG__FLAT_RESET(sub) ((void)0)
#else
#define XWG__FLAT_RESET(sub) xwg__store_relaxed((sub), 0u)
#endif
#if defined(XWG_TEST_BROKEN_BARRIER) && XWG_TEST_BROKEN_BARRIER == 4
#define XWG__COLLECT_LOAD xwg__load_relaxed
#define XWG__COLLECT_FENCE()
#else
#define XWG__COLLECT_LOAD xwg__load_acquire
#define XWG__COLLECT_FENCE() xwg__fence_acquire()
#endif

/* ---- Waiting -------------------------------------------------------------
 * XWG_TUNE_COLLECT says how a wait acquires what it waited for. xwg-bench
 * measures each (scripts/run_h200_bench.sh); the default was the fastest
 * on the H200 and costs nothing on CPUs:
 *   0  every poll is an acquire load: the poll that sees the value has
 *      already acquired it;
 *   1  relaxed polls, then one acquire load of the word: one more trip to
 *      memory once the value is seen, but each poll is cheaper (on the
 *      H200 an acquire load also invalidates the L1 cache);
 *   2  relaxed polls, then an acquire fence (on the H200 a fence waits
 *      for all of the work-item's outstanding memory accesses). */
#ifndef XWG_TUNE_COLLECT
#define XWG_TUNE_COLLECT 1
#endif
#if XWG_TUNE_COLLECT < 0 || XWG_TUNE_COLLECT > 2
#error "xwg: XWG_TUNE_COLLECT must be 0, 1 or 2"
#endif
#if XWG__TREE_FANIN < 1
#error "xwg: XWG__TREE_FANIN must be at least 1"
#endif

inline uint xwg__poll(volatile XWG__GLOBAL_WORD *p)
{
#if XWG_TUNE_COLLECT == 0
    return XWG__COLLECT_LOAD(p);
#else
    return xwg__load_relaxed(p);
#endif
}

/* Called once a poll of p has seen the awaited value: completes B3/B4's
 * acquire where the polls were relaxed. */
inline void xwg__collected(volatile XWG__GLOBAL_WORD *p)
{
#if XWG_TUNE_COLLECT == 1
    (void)XWG__COLLECT_LOAD(p);
#elif XWG_TUNE_COLLECT == 2
    XWG__COLLECT_FENCE();
#endif
}

/* ---- The watchdog ----------------------------------------------------- */

/* How many polls a wait makes between two reads of the failed flag: a
 * power of two. xwg-bench measures others (scripts/run_h200_bench.sh);
 * a larger one only delays the end of a failed barrier. */
#ifndef XWG_TUNE_FLAG_EVERY
#define XWG_TUNE_FLAG_EVERY 64u
#endif
#if (XWG_TUNE_FLAG_EVERY) == 0u || \
    ((XWG_TUNE_FLAG_EVERY) & ((XWG_TUNE_FLAG_EVERY) - 1u)) != 0u
#error "xwg: XWG_TUNE_FLAG_EVERY must be a power of two"
#endif

/* Counts one poll of a wait. Returns 1 when the wait must end: it took
 * `bound` polls (it then marks the state failed), or another wait did.
 * Relaxed: the flag carries no data, only "stop". Only every
 * XWG_TUNE_FLAG_EVERY-th poll reads the flag, and a barrier reads it
 * nowhere else: with thousands of groups, every read of one word is a
 * request queued at one L2 slice. */
inline int xwg__wait_expired(volatile XWG__GLOBAL_WORD *state, uint *polls,
                             uint bound)
{
    uint n = ++*polls;
    if (n >= bound) {
        xwg__store_relaxed(&state[XWG__W_FAILED], 1u);
        return 1;
    }
    return (n & ((XWG_TUNE_FLAG_EVERY) - 1u)) == 0u &&
           xwg__load_relaxed(&state[XWG__W_FAILED]) != 0u;
}

/* Waits until the bits `mask` of *p differ from those of `seen`, and
 * acquires the write that changed them. Returns 0, or 1 when the watchdog
 * ended the wait. */
inline uint xwg__await_change(volatile XWG__GLOBAL_WORD *p, uint seen,
                              uint mask, volatile XWG__GLOBAL_WORD *state,
                              uint bound)
{
    uint polls = 0u;
    while (((xwg__poll(p) ^ seen) & mask) == 0u) {
        if (xwg__wait_expired(state, &polls, bound))
            return 1u;
    }
    xwg__collected(p);
    return 0u;
}

/* ---- The shape shared by all three algorithms -----------------------------
 * xwg_barrier_of() runs two work-group barriers at the top level and calls
 * barrier-free parts of the chosen algorithm around them:
 *
 *     B1 entry barrier
 *     wait:    counter, tree: arrive and wait | xf: slaves arrive and wait
 *              for the master, the master's work-items collect the slaves
 *     record a failed wait for xwg_failed()
 *     B5 exit barrier
 *     release: xf master only: release the slaves
 *
 * The XF master's work-items must all have collected their slaves before
 * any slave is released: the exit barrier orders that, so the release
 * comes after it, and no algorithm pays for a third barrier.
 *
 * Work-group barriers inside branches (even uniform ones, such as the
 * choice of algorithm) make PoCL's kernel compiler fail: PoCL 5.0 asserts
 * (region_entry_barrier != NULL) once such a barrier sits in a loop of the
 * user's. Hence one shape for all three. */

/* ---- Counter barrier (the shape of CUDA's grid.sync()) ---------------- */

/* One counter. Group 0 adds 0x80000000 - (n - 1), every other group 1, so
 * the top bit flips exactly when all n have arrived (whatever their order:
 * every sum short of all n stays below the top bit), and the low bits are
 * back where they started: no reset between episodes. The host zeroes the
 * counter before every launch, so before a group's episode e (counted
 * from 0, in a private variable: xwg_self.episodes) the top bit is e's
 * parity. */

/* Begins this group's next episode (counts it) and returns the grid
 * counter's top bit as it stands before that episode. Work-item 0 only. */
inline uint xwg__begin_episode(xwg_self self)
{
#if defined(XWG_TEST_BROKEN_BARRIER) && XWG_TEST_BROKEN_BARRIER == 7
    /* TEST ONLY: the count never kept, as if each copy of xwg_self held
     * its own: every episode takes the first one's parity. */
    uint e = *self.episodes;
#else
    uint e = (*self.episodes)++;
#endif
    return (e & 1u) ? XWG__SENSE : 0u;
}

/* XWG_TUNE_ARRIVE_RETURN: how an arrival at the grid counter is made.
 *   1  (the default) a read-modify-write that returns the old value, as
 *      grid.sync()'s atomicAdd does, so the arrival that flips the bit
 *      knows it is the last and leaves at once. In a loop of barriers the
 *      last arrival is the critical path; without this it would still
 *      poll and then acquire, two requests queued behind every other
 *      group's polls at the counter's L2 slice. On the H200 at 264 groups:
 *      1.07 us against 1.37 (results/README.md, `+red`).
 *   0  a `red` that nothing waits for (the first version; kept, measured). */
#ifndef XWG_TUNE_ARRIVE_RETURN
#define XWG_TUNE_ARRIVE_RETURN 1
#endif
#if defined(XWG_TEST_BROKEN_BARRIER) && XWG_TEST_BROKEN_BARRIER == 6 && \
    !XWG_TUNE_ARRIVE_RETURN
#error "xwg: known-bad 6 needs XWG_TUNE_ARRIVE_RETURN=1 (it breaks that path)"
#endif

/* B2 arrive at the grid counter with `add`; `before` is its top bit before
 * this episode. Returns 1 when this arrival flipped the bit: it was the
 * last, and the acquire half of its acq_rel read-modify-write has
 * synchronised with every other arrival (each heads a release sequence
 * that runs through this one), so B3 is done. Returns 0 otherwise: the
 * caller waits for the flip. */
inline uint xwg__grid_arrive(volatile XWG__GLOBAL_WORD *counter, uint add,
                             uint before)
{
#if XWG_TUNE_ARRIVE_RETURN
    uint old = XWG__COMBINE_ADD(counter, add);
#if defined(XWG_TEST_BROKEN_BARRIER) && XWG_TEST_BROKEN_BARRIER == 6
    /* TEST ONLY: every arrival taken for the last, so nobody waits. */
    return 1u;
#endif
    return (((old + add) ^ before) & XWG__SENSE) != 0u;
#else
    XWG__ARRIVE_ADD(counter, add);
    return 0u;
#endif
}

/* Work-item 0 only. */
inline uint xwg__counter_arrive_and_wait(xwg_self self, uint bound)
{
    volatile XWG__GLOBAL_WORD *counter = &self.state[XWG__W_COUNTER];
    if (get_local_id(0) != 0)
        return 0u;
    const uint before = xwg__begin_episode(self);
#if defined(XWG_TEST_BROKEN_BARRIER) && XWG_TEST_BROKEN_BARRIER == 10
    /* TEST ONLY: right for two groups alone; the bit flips too early. */
    uint add = self.group_id == 0u ? XWG__SENSE - 1u : 1u;
#else
    uint add = self.group_id == 0u ? XWG__SENSE - (self.num_groups - 1u)
                                   : 1u;
#endif
    /* B2 arrive: the release publishes the group's accesses (ordered
     * before this by B1). */
    if (xwg__grid_arrive(counter, add, before))
        return 0u;
    /* B3 collect: wait for the top bit to differ from the one before our
     * arrival; the acquire that sees the flip synchronises with every
     * group's arrival (all in the release sequences that the flip ends). */
    return xwg__await_change(counter, before, XWG__SENSE, self.state, bound);
}

/* ---- Tree barrier: combining by cluster ------------------------------------
 * With thousands of groups, one counter is slow twice over: every arrival
 * and every poll is a request to the same L2 slice. Here groups arrive at
 * their cluster's word (XWG__TREE_FANIN groups each, its own line), and
 * only the last arrival of each cluster goes on to the grid counter (the
 * counter barrier's scheme among clusters). So the grid counter sees one
 * arrival per cluster. How the others learn of the flip depends on the
 * number of groups (uniform, so every group takes the same way):
 *   flat wake (up to XWG_TUNE_TREE_FLAT_MAX groups): every group polls the
 *     grid counter, and the last of each cluster zeroes the cluster's
 *     count before it arrives there;
 *   cluster wake (above): the last of each cluster waits for the flip and
 *     wakes its cluster by flipping the top bit of the cluster's word, so
 *     the grid counter sees one poller per cluster, and each cluster's
 *     line its own members only. That costs one more hand-off, and pays
 *     where thousands of pollers would queue at one L2 slice.
 * On the H200 (results/README.md) flat wake wins at 1056 groups (1.8 us
 * against 2.4) and loses at 4224 (5.5 us against 2.7).
 *
 * The cluster word is: top bit, flipped once per episode by a cluster
 * wake | arrivals in this episode. Either wake brings the count back to 0,
 * so a clean state after a launch is zeros below the top bits, whichever
 * wake the next launch takes. Work-item 0 only. */
#ifndef XWG_TUNE_TREE_FLAT_MAX
#define XWG_TUNE_TREE_FLAT_MAX 2048u
#endif

inline uint xwg__tree_arrive_and_wait(xwg_self self, uint bound)
{
    if (get_local_id(0) != 0)
        return 0u;
    volatile XWG__GLOBAL_WORD *top = &self.state[XWG__W_COUNTER];
    const uint cluster = self.group_id / XWG__TREE_FANIN;
    const uint clusters = (self.num_groups + XWG__TREE_FANIN - 1u) /
                          XWG__TREE_FANIN;
#if defined(XWG_TEST_BROKEN_BARRIER) && XWG_TEST_BROKEN_BARRIER == 9
    /* TEST ONLY: a partial last cluster waits for members it lacks. */
    const uint members = XWG__TREE_FANIN;
#else
    const uint members = min(XWG__TREE_FANIN,
                             self.num_groups - cluster * XWG__TREE_FANIN);
#endif
    const int flat = self.num_groups <= (XWG_TUNE_TREE_FLAT_MAX);
    volatile XWG__GLOBAL_WORD *sub =
        &self.state[XWG__W_FLAGS + cluster * XWG__LINE_WORDS];
    const uint before = xwg__begin_episode(self);
    /* B2 arrive (cluster): release this group's accesses. acq_rel: the
     * arrival that turns out last must also acquire the others'; theirs
     * are all in this read-modify-write's release sequence. */
    uint old = XWG__COMBINE_ADD(sub, 1u);
    if ((old & ~XWG__SENSE) != members - 1u) {
        /* B3/B4 (a member). Flat: wait for the grid counter's flip, whose
         * release sequences hold the arrival of the last of our cluster,
         * made after it acquired ours. Cluster: wait for the last of the
         * cluster to flip the cluster word's top bit. Either way, acquire
         * the flip. */
        return flat ? xwg__await_change(top, before, XWG__SENSE, self.state,
                                        bound)
                    : xwg__await_change(sub, old, XWG__SENSE, self.state,
                                        bound);
    }
    /* The last of the cluster. Flat: zero the count now (relaxed: the
     * release of the arrival below orders it first, and no member arrives
     * again before it acquires the flip that this arrival is part of). */
    if (flat)
        XWG__FLAT_RESET(sub);
    /* B2: arrive at the grid counter for the whole cluster, releasing
     * what it acquired from the cluster; B3: unless that arrival was the
     * last, wait for the flip and acquire it. */
    uint add = cluster == 0u ? XWG__SENSE - (clusters - 1u) : 1u;
    const uint last = xwg__grid_arrive(top, add, before);
    if (!last && xwg__await_change(top, before, XWG__SENSE, self.state, bound))
        return 1u; /* a failed barrier wakes nobody */
    /* B4 (cluster wake): the flip of the cluster word's top bit, and its
     * count (now `members`) back to 0, in one release that publishes
     * everything acquired from the grid. */
    if (!flat)
        XWG__WAKE_ADD(sub, XWG__SENSE - members);
    return 0u;
}

/* ---- XF master/slave barrier (Xiao and Feng; Sorensen et al.) ------------ */

/* Group 0 is the master. Each slave's work-item 0 raises its flag and waits
 * for the master to lower it; the master's work-items each wait for a
 * strided share of the slaves. Each flag sits on its own 128-byte line. */
inline uint xwg__xf_arrive_or_collect(xwg_self self, uint bound)
{
    volatile XWG__GLOBAL_WORD *flags = &self.state[XWG__W_FLAGS];
    if (self.group_id == 0u) {
        /* Work-item l waits for slaves l+1, l+1+size, ... in one flat loop:
         * PoCL 3.1 mis-compiles a spin loop nested in another loop here
         * (the kernel never ends, even when neither loop runs). */
        const uint size = (uint)get_local_size(0);
        uint polls = 0u;
        for (uint i = 1u + (uint)get_local_id(0); i < self.num_groups;) {
            volatile XWG__GLOBAL_WORD *flag = &flags[i * XWG__LINE_WORDS];
            /* B3 collect: poll slave i's flag; once raised, acquire what
             * slave i released. */
            if (xwg__poll(flag) == 1u) {
                xwg__collected(flag);
                i += size;
                polls = 0u;
            } else if (xwg__wait_expired(self.state, &polls, bound)) {
                return 1u;
            }
        }
        return 0u;
    }
    if (get_local_id(0) != 0)
        return 0u;
    volatile XWG__GLOBAL_WORD *flag = &flags[self.group_id * XWG__LINE_WORDS];
    /* B2 arrive: publish this group's accesses with the raised flag. */
    XWG__ARRIVE_STORE(flag, 1u);
    /* B4 depart: wait until the master lowers the flag, and acquire the
     * master's release. */
    return xwg__await_change(flag, 1u, 0xffffffffu, self.state, bound);
}

/* After the exit barrier: the master's work-items release the slaves
 * (each the share it collected), unless the barrier failed. The loop's
 * trip count is the same for every work-item: with a per-work-item count
 * after the exit barrier, PoCL 3.1 writes outside the kernel's buffers. */
inline void xwg__xf_release(xwg_self self)
{
    if (self.group_id != 0u || self.shared[XWG__SH_FAILED] != 0u)
        return;
    volatile XWG__GLOBAL_WORD *flags = &self.state[XWG__W_FLAGS];
    const uint size = (uint)get_local_size(0);
    for (uint base = 1u; base < self.num_groups; base += size) {
        uint i = base + (uint)get_local_id(0);
        /* B4 depart: release slave i, publishing everything the master
         * group acquired (all slaves' arrivals, through B5) and did. */
        if (i < self.num_groups)
            XWG__ARRIVE_STORE(&flags[i * XWG__LINE_WORDS], 0u);
    }
}

/* ---- xwg_barrier() ------------------------------------------------------ */

/* The algorithms a program compiles: bit a of XWG__BARRIERS for
 * xwg_barrier_algo a (xwg_program_build defines it: the context's fixed
 * one, else counter and tree, among which the default chooses); all three
 * where it is not defined. The launch's algorithm is chosen at run time
 * among them, or at compile time where there is one. The code of the
 * others costs even where it never runs: on the H200 at 264 groups the
 * counter takes 0.94 us alone, 0.96 beside the tree and 1.04 beside the
 * tree and XF (results/README.md, `+only`, `+all`). (The counter is the
 * dispatch's last branch, so a caller's own set without it, such as xf and
 * tree, still compiles it; the library's sets never leave it out idly.) */
#if defined(XWG__BARRIERS)
#if (XWG__BARRIERS) == 0 || ((XWG__BARRIERS) & ~0xeu) != 0
#error "xwg: XWG__BARRIERS must be a set of bits 1 (xf), 2 (counter), 3 (tree)"
#endif
#define XWG__RUNS(algo, which) \
    ((XWG__BARRIERS) == (1u << (which)) || \
     ((((XWG__BARRIERS) >> (which)) & 1u) != 0u && (algo) == (which)))
#else
#define XWG__RUNS(algo, which) ((algo) == (which))
#endif

inline void xwg_barrier_of(xwg_self self)
{
    /* Written by the host before the launch, read once by XWG_DISCOVER():
     * uniform for all work-items. */
    const uint bound = self.watchdog;
    const uint algo = self.barrier_algo;
#if defined(XWG_TEST_BROKEN_BARRIER) && XWG_TEST_BROKEN_BARRIER == 1
    /* TEST ONLY: a no-op barrier. The stress tests must catch it. */
    if (bound != 0u)
        return;
#endif
#if defined(XWG_TEST_BROKEN_BARRIER) && XWG_TEST_BROKEN_BARRIER == 2
    /* TEST ONLY: the barrier without its work-group barriers. */
#define XWG__WG_BARRIER()
#else
#define XWG__WG_BARRIER() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
#endif
    /* B1 entry: every work-item's accesses before work-item 0 arrives. */
    XWG__WG_BARRIER();
    uint failed;
    if (XWG__RUNS(algo, XWG__BARRIER_XF))
        failed = xwg__xf_arrive_or_collect(self, bound);
    else if (XWG__RUNS(algo, XWG__BARRIER_TREE))
        failed = xwg__tree_arrive_and_wait(self, bound);
    else
        failed = xwg__counter_arrive_and_wait(self, bound);
    /* xwg_failed() is sticky. Several XF master work-items may fail at
     * once, so the mark is an atomic OR on local memory. */
    if (failed)
        (void)atomic_or(&self.shared[XWG__SH_FAILED], 1u);
    /* B5 exit: what the waiters acquired, to every work-item. */
#if defined(XWG_TEST_BROKEN_BARRIER) && XWG_TEST_BROKEN_BARRIER == 11
    /* TEST ONLY: the exit barrier orders local memory alone. */
    barrier(CLK_LOCAL_MEM_FENCE);
#else
    XWG__WG_BARRIER();
#endif
#undef XWG__WG_BARRIER
    if (XWG__RUNS(algo, XWG__BARRIER_XF))
        xwg__xf_release(self);
}

/* Nonzero once a barrier wait of this group has failed (timed out, or seen
 * another group's timeout). The same for every work-item of a group
 * between two barriers. */
inline uint xwg_failed_of(xwg_self self) { return self.shared[XWG__SH_FAILED]; }

#define xwg_barrier() xwg_barrier_of(xwg__self)
#define xwg_failed() xwg_failed_of(xwg__self)
