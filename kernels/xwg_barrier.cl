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

/* Known-bad builds for the tests (never shipped): each
 * `#if defined(XWG_TEST_BROKEN_<NAME>)` branch below, and in the other
 * kernels/ files, breaks one thing on purpose. tests/known_bad.md is the
 * one list of them: what each breaks, the tests that must fail on it and
 * how; tests/known_bad.h holds the names that the test programs take
 * (--broken NAME). */

/* ---- The orders of the barrier's synchronising accesses -------------------
 * Release where a group publishes (arrive, depart), acquire where it
 * collects. The test-only known-bad builds weaken them, to show that the
 * stress tests notice on hardware that reorders (the H200):
 * RELAXED_RELEASE replaces every release by a relaxed access (the acq_rel
 * arrivals too, the tree's at its cluster and, by default, every one at
 * the grid counter, so they also lose their acquire); ALL_RELAXED makes
 * every access relaxed: RELAXED_RELEASE's releases and the collects'
 * acquires. */
#if defined(XWG_TEST_BROKEN_RELAXED_RELEASE) || \
    defined(XWG_TEST_BROKEN_ALL_RELAXED)
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
/* The flat wake's reset of a cluster's count; known-bad TREE_FLAT_NO_RESET
 * leaves it out, so the next episode finds no last member. */
#if defined(XWG_TEST_BROKEN_TREE_FLAT_NO_RESET)
#define XWG__FLAT_RESET(sub) ((void)0)
#else
#define XWG__FLAT_RESET(sub) xwg__store_relaxed((sub), 0u)
#endif
#if defined(XWG_TEST_BROKEN_ALL_RELAXED)
#define XWG__COLLECT_LOAD xwg__load_relaxed
#define XWG__COLLECT_FENCE()
#else
#define XWG__COLLECT_LOAD xwg__load_acquire
#define XWG__COLLECT_FENCE() xwg__fence_acquire()
#endif

/* ---- Waiting -------------------------------------------------------------
 * XWG_TUNE_COLLECT (xwg_tuning.h) says how a wait acquires what it
 * waited for:
 *   0  every poll is an acquire load: the poll that sees the value has
 *      already acquired it;
 *   1  relaxed polls, then one acquire load of the word: one more trip to
 *      memory once the value is seen, but each poll is cheaper (on the
 *      H200 an acquire load also invalidates the L1 cache);
 *   2  relaxed polls, then an acquire fence (on the H200 a fence waits
 *      for all of the work-item's outstanding memory accesses). */

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

/* A wait reads the failed flag every XWG_TUNE_FLAG_EVERY polls
 * (xwg_tuning.h). */

/* Counts one poll of a wait. Returns 1 when the wait must end: it took
 * `bound` polls (it then marks the state failed), or another wait did.
 * Relaxed: the flag carries no data, only "stop". Only every
 * XWG_TUNE_FLAG_EVERY-th poll reads the flag, and a barrier reads it
 * nowhere else: with thousands of groups, every read of one word is a
 * request queued at one L2 slice. */
inline int xwg__wait_expired(volatile XWG__GLOBAL_WORD *state, ulong *polls,
                             ulong bound)
{
    ulong n = ++*polls;
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
                              ulong bound)
{
    ulong polls = 0u;
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
 * back where they started: no reset between episodes, nor between
 * launches. A launch starts with the low bits 0 (the host zeroes them, or
 * the launch before left them so) and the top bit as it is: the host's 0,
 * or the parity of the episodes of the launch before, which then skips
 * the write (launch.c). Each group reads the top bit before its first
 * arrival (xwg__discover), when it cannot have flipped yet: the first flip
 * needs that arrival. So before a group's episode e (counted from 0) the
 * top bit is e's parity, flipped if the launch started with it set; the
 * count in xwg_self.episodes starts at 1 then, and its parity is the top
 * bit's. */

/* Begins this group's next episode (counts it) and returns the grid
 * counter's top bit as it stands before that episode. Work-item 0 only. */
inline uint xwg__begin_episode(xwg_self self)
{
#if defined(XWG_TEST_BROKEN_EPISODES_NOT_KEPT)
    /* TEST ONLY: the count never kept, as if each copy of xwg_self held
     * its own: every episode takes the first one's parity. */
    uint e = *self.episodes;
#else
    uint e = (*self.episodes)++;
#endif
    return (e & 1u) ? XWG__SENSE : 0u;
}

/* XWG_TUNE_ARRIVE_RETURN (xwg_tuning.h): how an arrival at the grid
 * counter is made.
 *   1  a read-modify-write that returns the old value, as
 *      grid.sync()'s atomicAdd does, so the arrival that flips the bit
 *      knows it is the last and leaves at once. In a loop of barriers the
 *      last arrival is the critical path; without this it would still
 *      poll and then acquire, two requests queued behind every other
 *      group's polls at the counter's L2 slice (measured against 0 in
 *      docs/performance.md, tuning-h200, rows +red).
 *   0  a `red` that nothing waits for, for comparison. */
#if defined(XWG_TEST_BROKEN_EVERY_ARRIVAL_LAST) && !XWG_TUNE_ARRIVE_RETURN
#error "xwg: EVERY_ARRIVAL_LAST needs XWG_TUNE_ARRIVE_RETURN=1 (it breaks that path)"
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
#if defined(XWG_TEST_BROKEN_EVERY_ARRIVAL_LAST)
    /* TEST ONLY: every arrival taken for the last, so nobody waits. */
    return 1u;
#endif
    return (((old + add) ^ before) & XWG__SENSE) != 0u;
#else
    XWG__ARRIVE_ADD(counter, add);
    return 0u;
#endif
}

/* ---- Arrival tokens ---------------------------------------------------------
 * The counter and the tree barrier each run in two halves, an arrival and
 * a wait, so that the split-phase barrier (xwg_barrier_arrive() and
 * xwg_barrier_wait(), below) is the same code as xwg_barrier(). The
 * arrival returns a token that says what the wait has left to do:
 *   bit 31 (XWG__SENSE)   the grid counter's top bit before the episode;
 *   bit 30                the cluster word's top bit as this group's
 *                         arrival read it (tree, cluster wake);
 *   XWG__AWAIT_GRID       wait for the grid counter's top bit to flip;
 *   XWG__AWAIT_CLUSTER    wait for the cluster word's top bit to flip;
 *   XWG__WAKE_CLUSTER     then wake the cluster (its last arrival).
 * A token with none of the three is the arrival that completed the
 * episode: it has acquired every other arrival already. Work-item 0's
 * token only; the others' are 0. */
#define XWG__AWAIT_GRID 1u
#define XWG__AWAIT_CLUSTER 2u
#define XWG__WAKE_CLUSTER 4u
#define XWG__CLUSTER_SENSE(token) (((token) << 1) & XWG__SENSE)

/* B2 arrive at the grid counter (counter barrier). Work-item 0 only. */
inline uint xwg__counter_arrive(xwg_self self)
{
    volatile XWG__GLOBAL_WORD *counter = &self.state[XWG__W_COUNTER];
    const uint before = xwg__begin_episode(self);
#if defined(XWG_TEST_BROKEN_COUNTER_ADD_FOR_TWO)
    /* TEST ONLY: right for two groups alone; the bit flips too early. */
    uint add = self.group_id == 0u ? XWG__SENSE - 1u : 1u;
#else
    uint add = self.group_id == 0u ? XWG__SENSE - (self.num_groups - 1u)
                                   : 1u;
#endif
    /* B2 arrive: the release publishes the group's accesses (ordered
     * before this by B1). */
    if (xwg__grid_arrive(counter, add, before))
        return before;
    return before | XWG__AWAIT_GRID;
}

/* ---- Tree barrier: combining by cluster ------------------------------------
 * With thousands of groups, one counter is slow twice over: every arrival
 * and every poll is a request to the same L2 slice. Here groups arrive at
 * their cluster's word (XWG_TUNE_TREE_FANIN groups each, its own line), and
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
 * On the H200 flat wake wins at 1056 groups and loses at 4224
 * (docs/performance.md, tuning-h200, +flat, +cluster); hence the limit.
 *
 * The cluster word is: top bit, flipped once per episode by a cluster
 * wake | arrivals in this episode. Either wake brings the count back to 0,
 * so a clean state after a launch is zeros below the top bits, whichever
 * wake the next launch takes. Work-item 0 only. XWG_TUNE_TREE_FLAT_MAX and
 * XWG_TUNE_TREE_FANIN are in xwg_tuning.h. */

/* The cluster's word, and how many groups it has (the last cluster may be
 * partial). */
inline volatile XWG__GLOBAL_WORD *xwg__cluster_word(xwg_self self)
{
    const uint cluster = self.group_id / XWG_TUNE_TREE_FANIN;
    return &self.state[XWG__W_FLAGS + cluster * XWG__LINE_WORDS];
}

inline uint xwg__cluster_count(xwg_self self)
{
    const uint clusters = (self.num_groups + XWG_TUNE_TREE_FANIN - 1u) /
                          XWG_TUNE_TREE_FANIN;
    return clusters;
}

/* Written from the cluster count, not as num_groups - cluster * fan-in:
 * LLVM turns that into group_id % fan-in and then inserts a `freeze`,
 * which Oclgrind's uninitialised-value checker cannot run. */
inline uint xwg__cluster_members(xwg_self self)
{
    const uint cluster = self.group_id / XWG_TUNE_TREE_FANIN;
    const uint clusters = xwg__cluster_count(self);
#if defined(XWG_TEST_BROKEN_TREE_PARTIAL_AS_FULL)
    /* TEST ONLY: a partial last cluster waits for members it lacks. */
    const uint members = XWG_TUNE_TREE_FANIN;
#else
    const uint members = cluster + 1u < clusters
                             ? XWG_TUNE_TREE_FANIN
                             : self.num_groups - (clusters - 1u) * XWG_TUNE_TREE_FANIN;
#endif
    return members;
}

/* Which wake an episode of the tree takes, the same in every group: the
 * flat wake up to XWG_TUNE_TREE_FLAT_MAX participants, the cluster wake
 * above. xwg_barrier() and the split barrier both ask here. */
inline int xwg__tree_flat(xwg_self self)
{
    return self.num_groups <= (XWG_TUNE_TREE_FLAT_MAX);
}

/* B2 arrive at the cluster and, for the cluster's last arrival, at the
 * grid counter. `flat`: uniform, which wake this episode takes. Returns
 * the token (above). Work-item 0 only. */
inline uint xwg__tree_arrive(xwg_self self, int flat)
{
    volatile XWG__GLOBAL_WORD *top = &self.state[XWG__W_COUNTER];
    volatile XWG__GLOBAL_WORD *sub = xwg__cluster_word(self);
    const uint cluster = self.group_id / XWG_TUNE_TREE_FANIN;
    const uint clusters = xwg__cluster_count(self);
    const uint members = xwg__cluster_members(self);
    const uint before = xwg__begin_episode(self);
    /* B2 arrive (cluster): release this group's accesses. acq_rel: the
     * arrival that turns out last must also acquire the others'; theirs
     * are all in this read-modify-write's release sequence. */
    uint old = XWG__COMBINE_ADD(sub, 1u);
    if ((old & ~XWG__SENSE) != members - 1u) {
        /* A member. Flat: it will wait for the grid counter's flip, whose
         * release sequences hold the arrival of the last of our cluster,
         * made after it acquired ours. Cluster: for the last of the
         * cluster to flip the cluster word's top bit. */
        return flat ? before | XWG__AWAIT_GRID
                    : before | (old & XWG__SENSE) >> 1 | XWG__AWAIT_CLUSTER;
    }
    /* The last of the cluster zeroes the count now, whichever the wake
     * (relaxed: the release of the arrival below orders it first, and no
     * member arrives again before it acquires a flip that comes after
     * it). Flat: the top bit too. Cluster wake: the top bit stays, for
     * the wake to flip; a member compares top bits only. So the count is
     * 0 again once every member has arrived, and an episode whose waits
     * never come (a split barrier's last arrive) leaves it clean. */
    if (flat)
        XWG__FLAT_RESET(sub);
    else
        xwg__store_relaxed(sub, old & XWG__SENSE);
    /* B2: arrive at the grid counter for the whole cluster, releasing
     * what it acquired from the cluster. Unless that arrival was the
     * last, the wait acquires the flip (B3); a cluster wake then wakes. */
    uint add = cluster == 0u ? XWG__SENSE - (clusters - 1u) : 1u;
    const uint wait = xwg__grid_arrive(top, add, before) ? 0u : XWG__AWAIT_GRID;
    return before | wait | (flat ? 0u : XWG__WAKE_CLUSTER);
}

/* What is left of an episode once its arrival returned `token`: B3 (and
 * B4 for the tree's cluster wake). Returns 0, or 1 when the watchdog
 * ended a wait. Work-item 0 only. */
inline uint xwg__episode_wait(xwg_self self, uint token, ulong bound)
{
    volatile XWG__GLOBAL_WORD *top = &self.state[XWG__W_COUNTER];
    /* B3 collect: wait for the top bit to differ from the one before our
     * arrival; the acquire that sees the flip synchronises with every
     * arrival (all in the release sequences that the flip ends). */
    if ((token & XWG__AWAIT_GRID) &&
        xwg__await_change(top, token & XWG__SENSE, XWG__SENSE, self.state,
                          bound))
        return 1u; /* a failed barrier wakes nobody */
    /* B4 (a member of a cluster wake): acquire the flip of the cluster
     * word's top bit. */
    if (token & XWG__AWAIT_CLUSTER)
        return xwg__await_change(xwg__cluster_word(self),
                                 XWG__CLUSTER_SENSE(token), XWG__SENSE,
                                 self.state, bound);
    /* B4 (cluster wake): the flip of the cluster word's top bit (its
     * count is 0 since the arrival), in one release that publishes
     * everything acquired from the grid. */
    if (token & XWG__WAKE_CLUSTER)
        XWG__WAKE_ADD(xwg__cluster_word(self), XWG__SENSE);
    return 0u;
}

/* The two whole episodes, for xwg_barrier(). Work-item 0 only (the
 * others return 0). */
inline uint xwg__counter_arrive_and_wait(xwg_self self, ulong bound)
{
    if (get_local_id(0) != 0)
        return 0u;
    return xwg__episode_wait(self, xwg__counter_arrive(self), bound);
}

inline uint xwg__tree_arrive_and_wait(xwg_self self, ulong bound)
{
    if (get_local_id(0) != 0)
        return 0u;
    const uint token = xwg__tree_arrive(self, xwg__tree_flat(self));
    return xwg__episode_wait(self, token, bound);
}

/* ---- XF master/slave barrier (Xiao and Feng; Sorensen et al.) ------------ */

/* Group 0 is the master. Each slave's work-item 0 raises its flag and waits
 * for the master to lower it; the master's work-items each wait for a
 * strided share of the slaves. Each flag sits on its own 128-byte line. */
inline uint xwg__xf_arrive_or_collect(xwg_self self, ulong bound)
{
    volatile XWG__GLOBAL_WORD *flags = &self.state[XWG__W_FLAGS];
    if (self.group_id == 0u) {
        /* Work-item l waits for slaves l+1, l+1+size, ... in one flat loop:
         * PoCL 3.1 mis-compiles a spin loop nested in another loop here
         * (the kernel never ends, even when neither loop runs). */
        const uint size = (uint)get_local_size(0);
        ulong polls = 0u;
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

/* ---- Misuse that the kernel can see ---------------------------------------
 * The split-phase barrier's calls must alternate, arrive then wait, with
 * no other barrier between them; a collective's arguments must be the
 * same in every group. A group that sees otherwise records which rule it
 * broke (XWG__W_MISUSE, read by the host: XWG_ERROR_BARRIER_MISUSE) and
 * fails the launch as a timeout does, so that every wait ends within
 * XWG_TUNE_FLAG_EVERY polls instead of hanging. Relaxed: as with the
 * failed flag, only the value matters. Work-item 0 only. */
inline void xwg__misuse(xwg_self self, uint rule)
{
    xwg__store_relaxed(&self.state[XWG__W_MISUSE], rule);
    xwg__store_relaxed(&self.state[XWG__W_FAILED], 1u);
    (void)atomic_or(&self.shared[XWG__SH_FAILED], 1u);
}

/* XWG_CHECK_DIVERGENCE (a build option; env XWG_CHECK_DIVERGENCE=1 sets
 * it in xwg_program_build): a barrier, split arrive or collective entered
 * by only some work-items of a group is misuse. Every work-item counts
 * itself in before the entry work-group barrier (B1), and after it
 * work-item 0 compares the count with the group's size and zeroes it.
 * The counts of two calls never mix: work-item 0 zeroes before it leaves
 * the call, and the others count again only in a later call, past a
 * work-group barrier that work-item 0 reaches after the zeroing (B5 of
 * this call, or of the wait that follows an arrive).
 * It catches what the device lets happen: only where B1 lets the
 * work-items that reach it pass without the others (NVIDIA's does) does
 * work-item 0 see a short count. PoCL runs a branch with a barrier in
 * every work-item, and on Intel's CPU runtime a work-item held at such a
 * barrier never resumes: there the count is never short, and only
 * xwg-racecheck finds the bug (docs/guide.md, "At run time"). Off by
 * default: a local atomic per work-item per call. Local memory only,
 * within the group: the relaxed atomic and B1 order it. */
#if defined(XWG_CHECK_DIVERGENCE)
#define xwg__count_arrival(self) \
    ((void)atomic_inc(&(self).shared[XWG__SH_ARRIVED]))
inline void xwg__check_arrivals(xwg_self self)
{
    if (get_local_id(0) == 0) {
        const uint arrived = self.shared[XWG__SH_ARRIVED];
        self.shared[XWG__SH_ARRIVED] = 0u;
        uint expected = (uint)(get_local_size(0) * get_local_size(1) *
                               get_local_size(2));
#if defined(XWG_TEST_BROKEN_DIVERGENCE_UNCHECKED)
        /* TEST ONLY: a check that takes any count for the whole group. */
        expected = arrived;
#endif
        if (arrived != expected)
            xwg__misuse(self, XWG__MISUSE_DIVERGENT);
    }
}
#else
#define xwg__count_arrival(self) ((void)0)
#define xwg__check_arrivals(self) ((void)0)
#endif

/* Work-item 0 only: a misuse of `rule` unless the group's split barrier
 * is in the state `expected` (XWG__SPLIT_PENDING: arrived, not yet waited
 * for; 0: not). Only work-item 0 reads and writes xwg_self.split. */
inline void xwg__check_pending(xwg_self self, uint expected, uint rule)
{
    if (get_local_id(0) == 0 &&
        (*self.split & XWG__SPLIT_PENDING) != expected)
        xwg__misuse(self, rule);
}

/* ---- xwg_barrier() ------------------------------------------------------ */

/* The algorithms a program compiles: bit a of XWG_BARRIERS for
 * xwg_barrier_algo a (xwg_program_build defines it: the context's fixed
 * one, else counter and tree, among which the default chooses); all three
 * where it is not defined. The launch's algorithm is chosen at run time
 * among them, or at compile time where there is one. The code of the
 * others costs even where it never runs (docs/performance.md, +only
 * and +all). (The counter is the
 * dispatch's last branch, so a caller's own set without it, such as xf and
 * tree, still compiles it; the library's sets never leave it out idly.) */
#if defined(XWG_BARRIERS)
#if (XWG_BARRIERS) == 0 || ((XWG_BARRIERS) & ~0xeu) != 0
#error "xwg: XWG_BARRIERS must be a set of bits 1 (xf), 2 (counter), 3 (tree)"
#endif
#define XWG__RUNS(algo, which) \
    ((XWG_BARRIERS) == (1u << (which)) || \
     ((((XWG_BARRIERS) >> (which)) & 1u) != 0u && (algo) == (which)))
#else
#define XWG__RUNS(algo, which) ((algo) == (which))
#endif

inline void xwg_barrier_of(xwg_self self)
{
    /* Written by the host before the launch, read once by XWG_DISCOVER():
     * uniform for all work-items. */
    const ulong bound = self.watchdog;
    const uint algo = self.barrier_algo;
#if defined(XWG_TEST_BROKEN_BARRIER_NOOP)
    /* TEST ONLY: a no-op barrier: no group waits for another. The stress
     * tests must catch it. Only the waits and the release are skipped: a
     * return here would put the two work-group barriers below a branch,
     * which PoCL's kernel compiler cannot prove uniform, and its compile
     * of the collectives driver then had not ended after 150 s. */
    const int wait = bound == 0u;
#else
    const int wait = 1;
#endif
#if defined(XWG_TEST_BROKEN_NO_GROUP_BARRIERS)
    /* TEST ONLY: the barrier without its work-group barriers. */
#define XWG__WG_BARRIER()
#else
#define XWG__WG_BARRIER() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
#endif
    /* B1 entry: every work-item's accesses before work-item 0 arrives. */
    xwg__count_arrival(self);
    XWG__WG_BARRIER();
    xwg__check_arrivals(self);
    /* A split barrier's arrival must be waited for first: an episode
     * begun here would add to the counter before the arrival's episode
     * completes. */
    xwg__check_pending(self, 0u, XWG__MISUSE_BARRIER_WHILE_ARRIVED);
    uint failed = 0u;
    if (!wait)
        ; /* TEST ONLY (BARRIER_NOOP): no wait */
    else if (XWG__RUNS(algo, XWG__BARRIER_XF))
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
#if defined(XWG_TEST_BROKEN_EXIT_NO_GLOBAL_FENCE)
    /* TEST ONLY: the exit barrier orders local memory alone. */
    barrier(CLK_LOCAL_MEM_FENCE);
#else
    XWG__WG_BARRIER();
#endif
#undef XWG__WG_BARRIER
    if (wait && XWG__RUNS(algo, XWG__BARRIER_XF))
        xwg__xf_release(self);
}

/* Nonzero once a barrier wait of this group has failed (timed out, or seen
 * another group's timeout). The same for every work-item of a group
 * between two barriers. */
inline uint xwg_failed_of(xwg_self self) { return self.shared[XWG__SH_FAILED]; }

/* ---- The split-phase barrier -------------------------------------------------
 * xwg_barrier_arrive() is xwg_barrier()'s first half (B1, B2), and
 * xwg_barrier_wait(token) its second (B3, B4, B5), so every access made
 * before an arrive by any participant happens-before every access made
 * after the matching wait by any other participant, and the work between
 * the two overlaps the barrier. Every work-item calls both, with the
 * token its own arrive returned.
 *
 * Which algorithm: the tree where the launch runs the tree, with the wake
 * that xwg_barrier() takes for the launch's size, and the counter
 * otherwise (XF too). Both leave the state clean at every arrival: the
 * grid counter's count is 0 again once every group has arrived, and the
 * last of a tree cluster zeroes the cluster's count before it arrives at
 * the grid. So a wait is the only part that can be missing when a kernel
 * ends, and a last arrive that no group waits for leaves nothing for the
 * next launch to trip on. (Under the cluster wake a group that waits
 * while the last of its cluster does not would wait for ever: that is a
 * wait missing in one group, which the watchdog ends.) They share the
 * episode count with xwg_barrier() (the counter's and the tree's grid
 * counter flip the same top bit once per episode), so the two kinds of
 * call mix freely. */
typedef uint xwg_token;

/* Work-item 0 only, before a split arrive at the tree: tells the host
 * that this launch's cluster words may keep a count, and how many there
 * are (XWG__W_SPLIT: the kernel's own fan-in counts them), once per group
 * and launch. Every group stores the same value. Relaxed: the host reads
 * it after the kernel. */
inline void xwg__split_mark(xwg_self self)
{
    if ((*self.split & XWG__SPLIT_MARKED) == 0u) {
        *self.split |= XWG__SPLIT_MARKED;
        xwg__store_relaxed(&self.state[XWG__W_SPLIT],
                           xwg__cluster_count(self));
    }
}

inline xwg_token xwg_barrier_arrive_of(xwg_self self)
{
    /* B1 entry, as in xwg_barrier_of. */
    xwg__count_arrival(self);
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    xwg__check_arrivals(self);
    if (get_local_id(0) != 0)
        return 0u;
    xwg__check_pending(self, 0u, XWG__MISUSE_ARRIVE_TWICE);
    *self.split |= XWG__SPLIT_PENDING;
#if defined(XWG_TEST_BROKEN_SPLIT_WAIT_SKIPPED)
    /* TEST ONLY: an arrival that nothing waits for. */
    (void)xwg__counter_arrive(self);
    return 0u;
#else
    if (XWG__RUNS(self.barrier_algo, XWG__BARRIER_TREE)) {
        xwg__split_mark(self);
        return xwg__tree_arrive(self, xwg__tree_flat(self));
    }
    return xwg__counter_arrive(self);
#endif
}

inline void xwg_barrier_wait_of(xwg_self self, xwg_token token)
{
    uint failed = 0u;
    if (get_local_id(0) == 0) {
        xwg__check_pending(self, XWG__SPLIT_PENDING,
                           XWG__MISUSE_WAIT_WITHOUT_ARRIVE);
        *self.split &= ~XWG__SPLIT_PENDING;
        failed = xwg__episode_wait(self, token, self.watchdog);
    }
    if (failed)
        (void)atomic_or(&self.shared[XWG__SH_FAILED], 1u);
    /* B5 exit: what work-item 0 acquired, to every work-item. */
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}

#define xwg_barrier() xwg_barrier_of(xwg__self)
#define xwg_failed() xwg_failed_of(xwg__self)
#define xwg_barrier_arrive() xwg_barrier_arrive_of(xwg__self)
#define xwg_barrier_wait(token) xwg_barrier_wait_of(xwg__self, (token))
