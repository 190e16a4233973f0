/*
 * xwg_discovery.cl - the occupancy discovery protocols, XWG_DISCOVER() and
 * the participant-relative ids.
 *
 * Specification (docs/spec.md; the design in docs/guide.md, "Discovery"):
 * a group participates only if it joined the poll before the poll closed,
 * and it stays resident until it has seen the poll closed. So at the
 * moment of closing every participant is resident: the count is a safe
 * lower bound of the co-resident groups. Ids are distinct and dense in
 * [0, count), and every participant reads the same count.
 *
 * Only work-item 0 of a group takes part; the others wait at a work-group
 * barrier. No work-item ever spins on a value set by another work-item of
 * its own group (PoCL runs a group's work-items one after another between
 * barriers, so such a spin would never end).
 *
 * The protocol's two spins on other groups (the ticket lock, and the
 * wait for the published count) end on every runtime whose loads see
 * other groups' stores. One whose loads do not (rusticl's cl12 path on
 * Zink) would spin for ever, so each spin is bounded by the launch's
 * watchdog: a spin that expires marks the state failed and makes its
 * group a non-participant. The host then reports the failure, never the
 * count.
 */

/* The group's shared words, in local memory. Work-item 0 writes them in
 * XWG_DISCOVER() before a work-group barrier, except: */
#define XWG__SH_ID 0u       /* the group's id among the participants */
#define XWG__SH_COUNT 1u    /* the participants; 0: the group returns */
#define XWG__SH_FAILED 2u   /* xwg_failed(): a barrier wait of this group
                               failed. Set inside xwg_barrier() before its
                               exit work-group barrier, read by all after
                               it, so a group's work-items agree */
#define XWG__SH_ALGO 3u     /* the launch's barrier algorithm */
#define XWG__SH_WATCHDOG 4u /* the launch's XWG__W_WATCHDOG word */
#define XWG__SH_ARRIVED 5u  /* XWG_CHECK_DIVERGENCE: the work-items that
                               entered this barrier (xwg__count_arrival) */
#define XWG__SH_WORDS 6u

/* The bits of xwg_self.split, work-item 0's alone. */
#define XWG__SPLIT_PENDING 1u /* between a split barrier's arrive and wait */
#define XWG__SPLIT_MARKED 2u  /* the group has set XWG__W_SPLIT */

/* What a participant knows about itself; private to each work-item. */
typedef struct xwg_self {
    volatile XWG__GLOBAL_WORD *state;
    __local uint *shared; /* the group's words, XWG__SH_* below */
    uint group_id;   /* 0 .. num_groups-1 among the participants */
    uint num_groups; /* participants; 0 in a group that must return */
    /* The launch's barrier algorithm and watchdog bound, read from the
     * state once per group (not once per work-item per barrier: a global
     * load by every work-item of every group costs microseconds). */
    uint barrier_algo;
    ulong watchdog; /* polls, xwg__watchdog_polls() */
    /* Barrier episodes this work-item has begun, plus 1 if the launch
     * started with the grid counter's top bit set (only work-item 0's is
     * read; xwg_barrier.cl, "Counter barrier"): a private variable of the
     * kernel's, declared by
     * XWG_DISCOVER(), so that once inlined it lives in a register (in local
     * memory it cost more: docs/performance.md, "Tried and left out"). */
    __private uint *episodes;
    /* The collectives' scratch (XWG__SCRATCH_WORDS words of local
     * memory, declared by XWG_DISCOVER()), and how many collectives this
     * work-item has called: every work-item counts its own, and all agree,
     * as all call each one. */
    __local uint *scratch;
    __private uint *collectives;
    /* The split barrier's state, XWG__SPLIT_* (work-item 0's is read),
     * private for the reason episodes is: every xwg_barrier() checks it
     * on its critical path, where a local-memory read costs measurably
     * (docs/performance.md, "What the split barrier's misuse check cost,
     * and its fix"). */
    __private uint *split;
} xwg_self;

/* ---- The discovery window, shared by both protocols ------------------ */

/* A `launched` that no arrival count reaches: poll for the whole window. */
#define XWG__NO_LIMIT 0xffffffffu

/* Polls the arrivals word until no group has joined for `window`
 * consecutive polls, the poll has closed, or all `launched` groups have
 * joined (then none can come). Relaxed: only the value matters here; the
 * caller's fetch-or orders. The host times this very loop (calibration
 * mode) to turn a window in microseconds into polls. */
inline void xwg__wait_stable(volatile XWG__GLOBAL_WORD *arrivals, uint seen,
                             uint window, uint launched)
{
    uint stable = 0u;
    while (stable < window && seen != launched) {
        uint now = xwg__load_relaxed(arrivals);
        if (now & XWG__CLOSED)
            break;
        stable = (now == seen) ? stable + 1u : 0u;
        seen = now;
    }
}

/* A participant's id when the group does not take part. */
#define XWG__NOT_PARTICIPATING 0xffffffffu

/* The polls a wait may take under the watchdog word (0 gives 0: no bound
 * to xwg__spin_expired, an end at the first poll to xwg__wait_expired).
 * 64 bits: a CPU core polls 2^32 times in seconds; 20 s must mean 20 s. */
inline ulong xwg__watchdog_polls(uint word)
{
    return (ulong)word * XWG__WATCHDOG_UNIT;
}

/* Counts one poll of a protocol spin. Returns 1 once it has taken `bound`
 * polls (0: no bound was written, as in calibration mode, which has no
 * such spin), after marking the state failed. Relaxed: the flag carries
 * no data, only "the host must not trust this launch". */
inline int xwg__spin_expired(volatile XWG__GLOBAL_WORD *state, ulong *polls,
                             ulong bound)
{
    if (bound == 0u || ++*polls < bound)
        return 0;
    xwg__store_relaxed(&state[XWG__W_FAILED], 1u);
    return 1;
}

/* ---- The paper's protocol: a fair ticket lock ------------------------ */

/* Returns the ticket, or XWG__NOT_PARTICIPATING if the watchdog ended the
 * wait (the ticket is then never served: later holders expire too). */
inline uint xwg__ticket_lock(volatile XWG__GLOBAL_WORD *state, ulong bound)
{
    /* Take a ticket. Relaxed: the acquire below gives the ordering. */
    uint ticket = xwg__fetch_add_relaxed(&state[XWG__W_TICKET_NEXT], 1u);
    ulong polls = 0u;
    /* Lock acquire: see every write of the previous holder. */
    while (xwg__load_acquire(&state[XWG__W_TICKET_SERVE]) != ticket) {
        if (xwg__spin_expired(state, &polls, bound))
            return XWG__NOT_PARTICIPATING;
    }
    return ticket;
}

inline void xwg__ticket_unlock(volatile XWG__GLOBAL_WORD *state, uint ticket)
{
    /* Lock release: publish this holder's writes to the next holder. */
    xwg__store_release(&state[XWG__W_TICKET_SERVE], ticket + 1u);
}

/* Returns the participant's id, or XWG__NOT_PARTICIPATING if the poll had
 * closed or a spin expired. */
inline uint xwg__poll_ticket_lock(volatile XWG__GLOBAL_WORD *state,
                                  uint *count, ulong bound)
{
    /* Polling phase: inside the lock, so relaxed accesses suffice. */
    uint ticket = xwg__ticket_lock(state, bound);
    if (ticket == XWG__NOT_PARTICIPATING)
        return XWG__NOT_PARTICIPATING;
    uint id = XWG__NOT_PARTICIPATING;
    if (xwg__load_relaxed(&state[XWG__W_POLL_OPEN]) != 0u) {
        id = xwg__load_relaxed(&state[XWG__W_COUNT]);
        xwg__store_relaxed(&state[XWG__W_COUNT], id + 1u);
    }
    xwg__ticket_unlock(state, ticket);
    if (id == XWG__NOT_PARTICIPATING)
        return id;

    /* The paper's delay between polling and closing, which CPUs need:
     * other groups' threads take time to start. The arrivals word is
     * unused (0) under this protocol, so this is exactly `window` polls,
     * the loop the host calibrated. */
    xwg__wait_stable(&state[XWG__W_ARRIVALS], 0u,
                     xwg__load_relaxed(&state[XWG__W_WINDOW]),
                     XWG__NO_LIMIT);

    /* Closing phase. The count is stable once the poll is closed, and we
     * read it inside the lock after closing. A group whose wait expires
     * here was counted and leaves: the state is failed, so the count is
     * never trusted. */
    ticket = xwg__ticket_lock(state, bound);
    if (ticket == XWG__NOT_PARTICIPATING)
        return XWG__NOT_PARTICIPATING;
    xwg__store_relaxed(&state[XWG__W_POLL_OPEN], 0u);
    *count = xwg__load_relaxed(&state[XWG__W_COUNT]);
    xwg__ticket_unlock(state, ticket);
    return id;
}

/* ---- xwg's protocol: one lock-free word and a stability window --------- */

inline uint xwg__poll_stable_window(volatile XWG__GLOBAL_WORD *state,
                                    uint *count, ulong bound)
{
    volatile XWG__GLOBAL_WORD *arrivals = &state[XWG__W_ARRIVALS];

    /* Join: one fetch-add. If the closed bit was already set, the group
     * arrived after closing and leaves at once (its increment lands in the
     * low bits but nobody reads them after closing). acq_rel: orders the
     * join before anything the participant does next. */
    uint old = xwg__fetch_add_acq_rel(arrivals, 1u);
    if (old & XWG__CLOSED)
        return XWG__NOT_PARTICIPATING;

    /* Wait until the groups that fit have all been started. */
    xwg__wait_stable(arrivals, old + 1u,
                     xwg__load_relaxed(&state[XWG__W_WINDOW]),
                     (uint)get_num_groups(0));

    /* Close. Exactly one participant sees the bit clear in the old value;
     * the arrivals before its fetch-or are the participants, so it
     * publishes that count (release: the count is the last word written
     * by the protocol). acq_rel on the fetch-or orders it after our join. */
    uint before = xwg__fetch_or_acq_rel(arrivals, XWG__CLOSED);
    if (!(before & XWG__CLOSED))
        xwg__store_release(&state[XWG__W_COUNT], before);

    /* Every participant waits for the published count. The closer is a
     * participant and resident, so this ends where loads see its store
     * (else the watchdog ends it, and the state is failed). Acquire:
     * pairs with the closer's release. */
    uint n;
    ulong polls = 0u;
    while ((n = xwg__load_acquire(&state[XWG__W_COUNT])) == 0u) {
        if (xwg__spin_expired(state, &polls, bound))
            return XWG__NOT_PARTICIPATING;
    }
    *count = n;
    return old;
}

/* Either known-bad discovery replaces both protocols' polls. */
#if defined(XWG_TEST_BROKEN_ADMIT_ALL) || \
    defined(XWG_TEST_BROKEN_CLOSE_AT_FIRST_JOIN)
#define XWG__BROKEN_DISCOVERY 1
#endif

#ifdef XWG__BROKEN_DISCOVERY
/* TEST ONLY: known-bad discoveries (never shipped; tests/known_bad.md):
 * ADMIT_ALL admits every launched group and never closes (unsafe: the
 * safety tests catch it); CLOSE_AT_FIRST_JOIN closes the poll at the
 * first join (safe, but recall is never full: the recall tests, which
 * give a correct protocol every chance, catch it). */
inline uint xwg__poll_broken(volatile XWG__GLOBAL_WORD *state, uint *count)
{
    uint id = xwg__fetch_add_acq_rel(&state[XWG__W_ARRIVALS], 1u);
#if defined(XWG_TEST_BROKEN_CLOSE_AT_FIRST_JOIN)
    /* Only the first arrival participates: the join is the close. */
    if (id != 0u)
        return 0xffffffffu;
    *count = 1u;
#else
    /* ADMIT_ALL: every launched group participates, resident or not. */
    *count = get_num_groups(0);
#endif
    xwg__store_release(&state[XWG__W_COUNT], *count);
    return id;
}
#endif

/* ---- XWG_DISCOVER() ------------------------------------------------------ */

inline xwg_self xwg__discover(volatile XWG__GLOBAL_WORD *state,
                              __local uint *shared, __local uint *scratch,
                              __private uint *episodes,
                              __private uint *collectives,
                              __private uint *split)
{
    if (get_local_id(0) == 0) {
        uint mode = xwg__load_relaxed(&state[XWG__W_MODE]);
        uint watchdog = xwg__load_relaxed(&state[XWG__W_WATCHDOG]);
        ulong bound = xwg__watchdog_polls(watchdog);
        uint id = get_group_id(0);
        uint count = get_num_groups(0);
        /* The launch's mark that it ran (XWG__W_RUNS): only this
         * work-item writes the word, and the host reads it once the
         * kernel has completed, so a plain increment is enough. */
        if (id == 0u)
            xwg__store_relaxed(&state[XWG__W_RUNS],
                               xwg__load_relaxed(&state[XWG__W_RUNS]) + 1u);
        if (mode == XWG__MODE_CALIBRATE) {
            /* Group 0 polls an unchanging word `window` times; the host
             * times it. Every group then returns. */
            if (get_group_id(0) == 0u)
                xwg__wait_stable(&state[XWG__W_ARRIVALS], 0u,
                                 xwg__load_relaxed(&state[XWG__W_WINDOW]),
                                 XWG__NO_LIMIT);
            count = 0u;
        } else if (mode != XWG__MODE_SKIP) {
#ifdef XWG__BROKEN_DISCOVERY
            id = xwg__poll_broken(state, &count);
#else
            if (xwg__load_relaxed(&state[XWG__W_PROTOCOL]) == 1u)
                id = xwg__poll_ticket_lock(state, &count, bound);
            else
                id = xwg__poll_stable_window(state, &count, bound);
#endif
            /* Non-participants, and everyone in discovery-only mode,
             * return: a count of 0 tells the group so. */
            if (id == XWG__NOT_PARTICIPATING ||
                mode == XWG__MODE_DISCOVERY_ONLY)
                count = 0u;
        }
        /* The grid counter's top bit at the launch's start (relaxed: the
         * launch before wrote it, and its completion made that visible;
         * no flip of this launch can come before this group's arrival). */
        *episodes = (xwg__load_relaxed(&state[XWG__W_COUNTER]) &
                     XWG__SENSE) != 0u;
        shared[XWG__SH_ID] = id;
        shared[XWG__SH_COUNT] = count;
        shared[XWG__SH_FAILED] = 0u;
        shared[XWG__SH_ALGO] = xwg__load_relaxed(&state[XWG__W_BARRIER_ALGO]);
        shared[XWG__SH_WATCHDOG] = watchdog;
        shared[XWG__SH_ARRIVED] = 0u;
    }
    /* The ids reach the group's other work-items through local memory. */
    barrier(CLK_LOCAL_MEM_FENCE);
    xwg_self self;
    self.state = state;
    self.shared = shared;
    self.group_id = shared[XWG__SH_ID];
    self.num_groups = shared[XWG__SH_COUNT];
    self.barrier_algo = shared[XWG__SH_ALGO];
    self.watchdog = xwg__watchdog_polls(shared[XWG__SH_WATCHDOG]);
    self.episodes = episodes;
    self.scratch = scratch;
    self.collectives = collectives;
    self.split = split;
    return self;
}

/* XWG_SELF: what a kernel passes to the _of forms below, for helper
 * functions. Known-bad SELF_OWN_EPISODES (tests only) makes it a copy of
 * xwg_self with an episode count of its own, so that helpers and the
 * kernel's own xwg_barrier() calls count different episodes: the stress
 * test, which calls both, must fail on it. */
#if defined(XWG_TEST_BROKEN_SELF_OWN_EPISODES)
#define XWG__BROKEN_SELF_COPY                                                \
    uint xwg__episodes_own = 0u;                                             \
    xwg_self xwg__self_own = xwg__self;                                      \
    xwg__self_own.episodes = &xwg__episodes_own;
#define XWG_SELF xwg__self_own
#else
#define XWG__BROKEN_SELF_COPY
#define XWG_SELF xwg__self
#endif

/* Words of local memory for the collectives' work-group trees, one per
 * work-item: xwg_program_build() defines it as the device's largest
 * work-group. A collective in a larger group ends the launch with
 * XWG_ERROR_BARRIER_MISUSE. A kernel that calls no collective does not
 * use it, and the compilers we know then allocate none. */
#ifndef XWG__SCRATCH_WORDS
#define XWG__SCRATCH_WORDS 256u
#endif

/* What XWG_DISCOVER() declares, and every call below passes on. Outside a
 * kernel that ran XWG_DISCOVER() it is undeclared, and the compiler's
 * error names the identifier: so the identifier says what to do in both
 * places that happen, a kernel without XWG_DISCOVER() and a helper
 * function (which cannot see the kernel's locals) that should take an
 * xwg_self and call the _of forms ("use of undeclared identifier
 * 'xwg__needs_XWG_DISCOVER_in_this_kernel_or_pass_XWG_SELF_to_helpers_using_the_of_forms'"). */
#define xwg__self                                                            \
    xwg__needs_XWG_DISCOVER_in_this_kernel_or_pass_XWG_SELF_to_helpers_using_the_of_forms

/* The first statement of a kernel that has an XWG_STATE parameter. It runs
 * the protocol, and groups that do not participate return. It declares
 * names at kernel scope (local memory must be declared there). */
#define XWG_DISCOVER()                                                       \
    __local uint xwg__shared_ids[XWG__SH_WORDS];                             \
    __local uint xwg__scratch[XWG__SCRATCH_WORDS];                           \
    uint xwg__episodes = 0u, xwg__collectives = 0u, xwg__split = 0u;         \
    const xwg_self xwg__self =                                               \
        xwg__discover(xwg__state, xwg__shared_ids, xwg__scratch,             \
                      &xwg__episodes, &xwg__collectives, &xwg__split);       \
    if (xwg__self.num_groups == 0u)                                          \
        return;                                                              \
    XWG__BROKEN_SELF_COPY(void)0

/* Ids relative to the participants, for grid-stride loops. The _of forms
 * take the xwg_self explicitly, for helper functions (pass XWG_SELF). */

inline uint xwg_group_id_of(xwg_self self) { return self.group_id; }
inline uint xwg_num_groups_of(xwg_self self) { return self.num_groups; }
inline uint xwg_global_id_of(xwg_self self)
{
    return self.group_id * (uint)get_local_size(0) + (uint)get_local_id(0);
}
inline uint xwg_global_size_of(xwg_self self)
{
    return self.num_groups * (uint)get_local_size(0);
}

#define xwg_group_id() xwg_group_id_of(xwg__self)
#define xwg_num_groups() xwg_num_groups_of(xwg__self)
#define xwg_global_id() xwg_global_id_of(xwg__self)
#define xwg_global_size() xwg_global_size_of(xwg__self)
