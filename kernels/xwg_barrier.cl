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
 *   B4 depart:  (XF only) the master releases the slaves at device scope,
 *               and each slave acquires that release;
 *   B5 exit:    a work-group barrier hands what work-item 0 acquired to
 *               every work-item of the group.
 * The proof covers the cl20 path (C11 acquire/release at device scope).
 * The cl12 path builds the same steps from fences and 1.x atomics and rests
 * on tests: OpenCL 1.x has no memory model to prove it against.
 *
 * Every work-item of every participant must call xwg_barrier() the same
 * number of times. A wait that exceeds the watchdog bound (a count of
 * polls, calibrated by the host to about a second) marks the state failed;
 * every later wait, in any group, then ends at once, xwg_failed() turns
 * true, and the host reports XWG_ERROR_BARRIER_TIMEOUT. Work-group barriers
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

/* ---- The orders of the barrier's synchronising accesses -------------------
 * Release where a group publishes (arrive, depart), acquire where it
 * collects. The test-only known-bad builds weaken them, to show that the
 * stress tests notice on hardware that reorders (the H200): 3 replaces
 * every release by a relaxed access, 4 makes every access relaxed. */
#if defined(XWG_TEST_BROKEN_BARRIER) && (XWG_TEST_BROKEN_BARRIER == 3 || \
                                         XWG_TEST_BROKEN_BARRIER == 4)
#define XWG__ARRIVE_STORE xwg__store_relaxed
#define XWG__ARRIVE_ADD xwg__fetch_add_relaxed
#else
#define XWG__ARRIVE_STORE xwg__store_release
#define XWG__ARRIVE_ADD xwg__fetch_add_acq_rel
#endif
#if defined(XWG_TEST_BROKEN_BARRIER) && XWG_TEST_BROKEN_BARRIER == 4
#define XWG__COLLECT_LOAD xwg__load_relaxed
#else
#define XWG__COLLECT_LOAD xwg__load_acquire
#endif

/* ---- The watchdog ----------------------------------------------------- */

/* Counts one poll of a wait. Returns 1 when the wait must end: it took
 * `bound` polls (it then marks the state failed), or another wait did.
 * Relaxed: the flag carries no data, only "stop". */
inline int xwg__wait_expired(volatile XWG__GLOBAL_WORD *state, uint *polls,
                             uint bound)
{
    uint n = ++*polls;
    if (n >= bound) {
        xwg__store_relaxed(&state[XWG__W_FAILED], 1u);
        return 1;
    }
    /* Every 64 polls, look whether another wait has failed. */
    return (n & 63u) == 0u &&
           xwg__load_relaxed(&state[XWG__W_FAILED]) != 0u;
}

/* Work-item 0 records the group's view of the failed flag for
 * xwg_failed(), before the exit barrier makes it visible to the group. */
inline void xwg__record_failed(xwg_self self)
{
    if (get_local_id(0) == 0)
        self.shared[2] = xwg__load_relaxed(&self.state[XWG__W_FAILED]);
}

/* ---- The shape shared by all three algorithms -----------------------------
 * xwg_barrier_of() runs three work-group barriers at the top level and
 * calls barrier-free parts of the chosen algorithm between them:
 *
 *     B1 entry barrier
 *     part 1: counter, tree: arrive, wait | xf: slaves arrive, wait for
 *             the master, master work-items collect the slaves
 *     record xwg_failed()
 *     middle barrier: in the master, every work-item knows all slaves came
 *     part 2: xf master only: release the slaves
 *     B5 exit barrier
 *
 * Work-group barriers inside branches (even uniform ones, such as the
 * choice of algorithm) make PoCL's kernel compiler fail: PoCL 5.0 asserts
 * (region_entry_barrier != NULL) once such a barrier sits in a loop of the
 * user's, and PoCL 3.1 never ends a kernel that records xwg_failed() after
 * the release loop. The counter barrier needs no middle barrier; it pays
 * for one so that the shape stays the same. */

/* ---- Counter barrier (the shape of CUDA's grid.sync()) ---------------- */

/* One counter. Group 0 adds 0x80000000 - (n - 1), every other group 1, so
 * the top bit flips exactly when all n have arrived, and the low bits are
 * back where they started: no reset between episodes. Work-item 0 only. */
inline void xwg__counter_arrive_and_wait(xwg_self self, uint bound)
{
    volatile XWG__GLOBAL_WORD *counter = &self.state[XWG__W_COUNTER];
    if (get_local_id(0) != 0 ||
        xwg__load_relaxed(&self.state[XWG__W_FAILED]) != 0u)
        return;
    uint add = self.group_id == 0u ? XWG__CLOSED - (self.num_groups - 1u)
                                   : 1u;
    /* B2 arrive: the release half publishes the group's accesses (ordered
     * before this by B1); the add continues the release sequence that the
     * last arrival's flip heads. */
    uint old = XWG__ARRIVE_ADD(counter, add);
    /* B3 collect: poll relaxed until the top bit differs from the one we
     * arrived under... */
    uint polls = 0u;
    while (((xwg__load_relaxed(counter) ^ old) & XWG__CLOSED) == 0u) {
        if (xwg__wait_expired(self.state, &polls, bound))
            return;
    }
    /* ...then acquire: this load reads the flip or later, which is in the
     * release sequence of every group's arrival. */
    (void)XWG__COLLECT_LOAD(counter);
}

/* ---- Tree barrier: a counter per cluster, then the counter barrier ---------
 * Thousands of groups adding to one word serialise at its cache line. Here
 * groups add to their cluster's counter (XWG__TREE_FANIN groups each), and
 * only the last arrival of each cluster adds to the grid's counter, with
 * the counter barrier's top-bit scheme among the clusters. Work-item 0
 * only. */
inline void xwg__tree_arrive_and_wait(xwg_self self, uint bound)
{
    volatile XWG__GLOBAL_WORD *top = &self.state[XWG__W_COUNTER];
    if (get_local_id(0) != 0 ||
        xwg__load_relaxed(&self.state[XWG__W_FAILED]) != 0u)
        return;
    const uint cluster = self.group_id / XWG__TREE_FANIN;
    const uint clusters = (self.num_groups + XWG__TREE_FANIN - 1u) /
                          XWG__TREE_FANIN;
    const uint members = min(XWG__TREE_FANIN,
                             self.num_groups - cluster * XWG__TREE_FANIN);
    volatile XWG__GLOBAL_WORD *sub =
        &self.state[XWG__W_FLAGS + cluster * XWG__LINE_WORDS];
    /* The grid counter's top bit cannot flip before this group arrives, so
     * reading it now gives the bit to wait against. Relaxed: only the value
     * matters; the acquire comes after the wait. */
    const uint before = xwg__load_relaxed(top) & XWG__CLOSED;
    /* B2 arrive (cluster): release this group's accesses to the cluster. */
    if (XWG__ARRIVE_ADD(sub, 1u) == members - 1u) {
        /* The last of the cluster: every member's release is in this
         * RMW's release sequence, so this acq_rel add acquires them all.
         * Reset the cluster for the next episode (no member can arrive
         * again before the flip below), then arrive at the grid counter,
         * releasing the whole cluster's accesses onward. */
        xwg__store_relaxed(sub, 0u);
        uint add = cluster == 0u ? XWG__CLOSED - (clusters - 1u) : 1u;
        (void)XWG__ARRIVE_ADD(top, add);
    }
    /* B3 collect: wait for the flip, then acquire it. */
    uint polls = 0u;
    while ((xwg__load_relaxed(top) & XWG__CLOSED) == before) {
        if (xwg__wait_expired(self.state, &polls, bound))
            return;
    }
    (void)XWG__COLLECT_LOAD(top);
}

/* ---- XF master/slave barrier (Xiao and Feng; Sorensen et al.) ------------ */

/* Group 0 is the master. Each slave's work-item 0 raises its flag and waits
 * for the master to lower it; the master's work-items each wait for a
 * strided share of the slaves, meet (middle barrier), and lower the flags.
 * Each flag sits on its own 128-byte line. */
inline void xwg__xf_arrive_or_collect(xwg_self self, uint bound)
{
    volatile XWG__GLOBAL_WORD *flags = &self.state[XWG__W_FLAGS];
    uint failed = xwg__load_relaxed(&self.state[XWG__W_FAILED]);
    if (self.group_id == 0u) {
        /* Work-item l waits for slaves l+1, l+1+size, ... in one flat loop:
         * PoCL 3.1 mis-compiles a spin loop nested in another loop here
         * (the kernel never ends, even when neither loop runs). */
        const uint size = (uint)get_local_size(0);
        uint polls = 0u;
        for (uint i = 1u + (uint)get_local_id(0);
             i < self.num_groups && !failed;) {
            volatile XWG__GLOBAL_WORD *flag = &flags[i * XWG__LINE_WORDS];
            /* B3 collect: poll slave i's flag (relaxed)... */
            if (xwg__load_relaxed(flag) == 1u) {
                /* ...and once raised, acquire what slave i released. */
                (void)XWG__COLLECT_LOAD(flag);
                i += size;
                polls = 0u;
            } else if (xwg__wait_expired(self.state, &polls, bound)) {
                failed = 1u;
            }
        }
    } else if (get_local_id(0) == 0) {
        volatile XWG__GLOBAL_WORD *flag =
            &flags[self.group_id * XWG__LINE_WORDS];
        /* B2 arrive: publish this group's accesses with the raised flag. */
        XWG__ARRIVE_STORE(flag, 1u);
        uint polls = 0u;
        /* B4 depart: wait (relaxed) until the master lowers the flag... */
        while (!failed && xwg__load_relaxed(flag) != 0u) {
            if (xwg__wait_expired(self.state, &polls, bound))
                failed = 1u;
        }
        /* ...and acquire the master's release. */
        (void)XWG__COLLECT_LOAD(flag);
    }
}

/* After the middle barrier: the master releases every slave. */
inline void xwg__xf_release(xwg_self self)
{
    if (self.group_id != 0u)
        return;
    volatile XWG__GLOBAL_WORD *flags = &self.state[XWG__W_FLAGS];
    const uint size = (uint)get_local_size(0);
    for (uint base = 1u; base < self.num_groups; base += size) {
        uint i = base + (uint)get_local_id(0);
        /* B4 depart: release slave i, publishing everything the master
         * group acquired (and did) before. */
        if (i < self.num_groups)
            XWG__ARRIVE_STORE(&flags[i * XWG__LINE_WORDS], 0u);
    }
}

/* ---- xwg_barrier() ------------------------------------------------------ */

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
    if (algo == XWG__BARRIER_XF)
        xwg__xf_arrive_or_collect(self, bound);
    else if (algo == XWG__BARRIER_TREE)
        xwg__tree_arrive_and_wait(self, bound);
    else
        xwg__counter_arrive_and_wait(self, bound);
    xwg__record_failed(self);
    /* Middle: in the XF master, every work-item knows all slaves came. */
    XWG__WG_BARRIER();
    if (algo == XWG__BARRIER_XF)
        xwg__xf_release(self);
    /* B5 exit: what work-item 0 acquired, to every work-item. */
    XWG__WG_BARRIER();
#undef XWG__WG_BARRIER
}

/* Nonzero once a barrier of this launch has timed out. The same for every
 * work-item of a group between two barriers. */
inline uint xwg_failed_of(xwg_self self) { return self.shared[2]; }

#define xwg_barrier() xwg_barrier_of(xwg__self)
#define xwg_failed() xwg_failed_of(xwg__self)
