/*
 * xwg.pml - a Promela model of xwg's occupancy discovery protocols and
 * global barriers, under an occupancy-bound scheduler. model/README.md
 * says how to run it; docs/spec.md maps it to kernels/.
 *
 * Configuration (spin -D...):
 *   N          groups launched                         (default 3)
 *   K          slots: groups that can be resident at once (default 2)
 *   EPISODES   barrier instances per group             (default 3)
 *   PROTOCOL   0 none (discovery skipped: every group takes part with its
 *              hardware id), 1 ticket lock (the paper's), 2 stable window
 *              (xwg's), 9 KNOWN-BAD: no closing check (every group joins)
 *   BARRIER    1 XF master/slave, 2 counter (grid.sync shape; the arrival
 *              that flips the top bit is the last and does not wait), 3
 *              tree (groups arrive at their cluster's word of FANIN groups;
 *              the last of each cluster arrives at the grid counter, with
 *              the counter scheme among clusters, waits for its flip, and
 *              wakes its cluster by flipping the cluster word's top bit;
 *              with FLAT, members wait for the grid counter instead),
 *              9 KNOWN-BAD: a barrier that does not wait
 *   FANIN      groups per cluster of the tree barrier      (default 2)
 *   FLAT       1: the tree's flat wake (every member waits for the grid
 *              counter's flip, and the last of a cluster zeroes its count
 *              before its grid arrival; kernels/xwg_barrier.cl takes it up
 *              to XWG_TUNE_TREE_FLAT_MAX groups)           (default 0)
 *   NO_RESET   1: KNOWN-BAD flat wake without that reset (known-bad
 *              TREE_FLAT_NO_RESET)
 *   ALWAYS_LAST 1: KNOWN-BAD every grid arrival takes itself for the last
 *              and does not wait (known-bad EVERY_ARRIVAL_LAST)
 *   RELAXED    1: KNOWN-BAD arrivals that do not release (a group's plain
 *              stores stay buffered past its arrival)
 *   SPLIT      1: every barrier is xwg_barrier_arrive(), a step of the
 *              group's own, then xwg_barrier_wait() (BARRIER 2 or 3,
 *              the tree with either wake, as the kernel's split barrier)
 *   NO_WAIT    1: KNOWN-BAD split wait that does not wait (known-bad
 *              SPLIT_WAIT_SKIPPED: an arrival whose token asks for no
 *              wait)
 *   COLLECTIVE 1: every barrier is an all-reduce (kernels/
 *              xwg_collectives.cl): the episode's partial is stored in bank
 *              e % 2 before it (published by the arrival), and after it
 *              every participant reads all n partials, one at a time
 *   NONBLOCKING 1 (with COLLECTIVE): every all-reduce is the nonblocking
 *              one, xwg_reduce_OP_T_arrive() (the partial, then the split
 *              arrive that publishes it) and, after steps of the group's
 *              own, xwg_reduce_OP_T_wait(token) (the split wait, then the
 *              reads); with EARLY_READ, KNOWN-BAD: the reads between the
 *              two (known-bad NONBLOCKING_READ_EARLY)
 *   ONE_BANK   1: KNOWN-BAD all-reduce with one bank of partials
 *   EARLY_READ 1: KNOWN-BAD all-reduce that reads the partials before
 *              its barrier (known-bad PARTIALS_READ_EARLY)
 *   START_SET  which top bit the grid counter starts a launch with: 0
 *              clear, 1 set (what a launch with an odd number of barriers
 *              leaves for the next one on its buffer, when that one skips
 *              the host's write), 2 either, chosen by Spin (default 2).
 *              Each group reads it after discovery, before its first
 *              arrival (kernels/xwg_discovery.cl, xwg__discover)
 *   ASSUME_CLEAR 1: KNOWN-BAD groups that take the top bit for clear
 *              instead of reading it
 *   WATCHDOG   1: every wait may time out (the bound is abstracted as
 *              "at any time"); a timeout marks the launch failed, and from
 *              then on every wait may end at once (the kernel reads the flag
 *              every 64 polls); a wait that ended so has failed, and a
 *              failed wait releases nobody (the tree's wake, XF's release)
 *
 * One process per group stands for its work-item 0 (in the XF master, for
 * all its work-items: their strided shares of the slaves are collected one
 * after the other); the work-group barriers that order the other
 * work-items around it (B1, B5 in kernels/xwg_barrier.cl) are abstracted
 * into the process's program order.
 * Spinning is modelled as blocking on the awaited condition, so a spin that
 * can never end is a deadlock: Spin reports it as an invalid end state.
 *
 * Memory: each group's plain stores of user data go to a one-entry store
 * buffer and reach memory at its next release (the arrival: B2; for the XF
 * master, its release of the slaves: B4), or, under RELAXED, whenever the
 * memory system gets to them. Readers read memory. So the model checks
 * that nobody passes a barrier early and that every group's arrival
 * publishes its stores; it does not model acquires, nor the cumulativity
 * through which the tree's and XF's forwarded releases (the grid arrival
 * and the wake; the master's release) pass other groups' stores on:
 * docs/spec.md argues those.
 */

#ifndef N
#define N 3
#endif
#ifndef K
#define K 2
#endif
#ifndef EPISODES
#define EPISODES 3
#endif
#ifndef PROTOCOL
#define PROTOCOL 2
#endif
#ifndef BARRIER
#define BARRIER 2
#endif
#ifndef RELAXED
#define RELAXED 0
#endif
#ifndef FLAT
#define FLAT 0
#endif
#ifndef NO_RESET
#define NO_RESET 0
#endif
#ifndef ALWAYS_LAST
#define ALWAYS_LAST 0
#endif
#ifndef START_SET
#define START_SET 2
#endif
#ifndef ASSUME_CLEAR
#define ASSUME_CLEAR 0
#endif
/* An arrival that found `old` and added `add` flipped the top bit away
 * from `before`: it was the last (kernels/xwg_barrier.cl, xwg__grid_arrive,
 * decides from the same private values). ALWAYS_LAST: KNOWN-BAD, every
 * arrival takes itself for the last. */
#if ALWAYS_LAST
#define LAST(old, add, before) true
#else
#define LAST(old, add, before) (((((old) + (add)) % 256) ^ (before)) & TOP) != 0
#endif
#ifndef FANIN
#define FANIN 2
#endif
#ifndef WATCHDOG
#define WATCHDOG 0
#endif
#ifndef SPLIT
#define SPLIT 0
#endif
#ifndef NO_WAIT
#define NO_WAIT 0
#endif
#ifndef COLLECTIVE
#define COLLECTIVE 0
#endif
#ifndef ONE_BANK
#define ONE_BANK 0
#endif
#ifndef EARLY_READ
#define EARLY_READ 0
#endif
#ifndef NONBLOCKING
#define NONBLOCKING 0
#endif
#if NONBLOCKING && !COLLECTIVE
#error "NONBLOCKING is an all-reduce: set COLLECTIVE too"
#endif
#if (SPLIT || COLLECTIVE) && BARRIER != 2 && BARRIER != 3
#error "SPLIT and COLLECTIVE run on the counter or the tree (BARRIER 2, 3)"
#endif
/* The bank of episode e's partials (COLLECTIVE): words bank * N + id. */
#if ONE_BANK
#define BANK(e) 0
#else
#define BANK(e) ((e) % 2)
#endif

#define NONE 255
#define TOP 128 /* the counter's top bit, in an 8-bit counter */

/* ---- the scheduler: K slots ------------------------------------------- */
byte free_slots = K;

/* ---- discovery state (kernels/xwg_discovery.cl) ------------------------ */
byte arrivals = 0;      /* stable window: joins, closed or not */
bool closed = false;    /* stable window: the closed bit */
byte published = 0;     /* the count, once published (0: not yet) */
byte next_ticket = 0;   /* ticket lock */
byte serving = 0;
bool poll_open = true;
byte lock_count = 0;    /* ticket lock: participants so far */
bool id_taken[N];       /* for the distinct-ids check */

/* ---- barrier state (kernels/xwg_barrier.cl) ------------------------------ */
byte counter = 0;       /* the counter barrier's word */
bool flag[N];           /* the XF flags, by participant id */
byte sub[N];            /* the tree's cluster words: top bit (flipped once per
                           episode) | arrivals this episode */
bool failed = false;    /* the watchdog's mark */

/* ---- user data and the specification's bookkeeping ----------------------- */
byte data[2 * N];       /* memory: each participant's value, by id (and,
                           COLLECTIVE, bank 1's partials at N + id) */
byte buffered[N];       /* a participant's store not yet in memory */
byte slot[N];           /* the word of data[] it is for */
bool pending[N];
byte reached[EPISODES + 1]; /* participants that entered each instance */
byte finished = 0;      /* groups that ended */
byte completed = 0;     /* participants that passed every barrier */
byte participants_total = 0;

/* A wait (kernels/xwg_barrier.cl, xwg__await_change): block until cond,
 * or (WATCHDOG) time out, or end because the launch has failed; a wait
 * that ends without cond sets wf, the group's "this barrier failed". */
#if WATCHDOG
#define AWAIT(cond) \
    if \
    :: cond \
    :: failed -> wf = true \
    :: failed = true; wf = true /* the bound ran out */ \
    fi
#else
#define AWAIT(cond) (cond)
#endif

/* ---- discovery ------------------------------------------------------------ */

/* Sets me (the participant id) and n (the count), or me = NONE. */
inline discover(g, me, n) {
#if PROTOCOL == 0
    me = g; n = N
#elif PROTOCOL == 1
    /* The paper's: poll under a fair ticket lock... */
    byte t;
    atomic { t = next_ticket; next_ticket++ };
    (serving == t);
    if
    :: poll_open -> me = lock_count; lock_count++
    :: else -> me = NONE
    fi;
    serving++;
    if
    :: me != NONE ->
        /* ...then close under it (after any delay: the window). */
        atomic { t = next_ticket; next_ticket++ };
        (serving == t);
        poll_open = false;
        n = lock_count;
        serving++
    :: else -> skip
    fi
#elif PROTOCOL == 2
    /* xwg's: join with one fetch-add; a set closed bit means too late. */
    bool was_closed;
    atomic { was_closed = closed; me = arrivals; arrivals++ };
    if
    :: was_closed -> me = NONE
    :: else ->
        /* The window ends at any time (safety may not rest on its length);
         * the first to close publishes the joins before the close. */
        atomic {
            if
            :: !closed -> closed = true; published = arrivals
            :: else -> skip
            fi
        };
        (published > 0);
        n = published
    fi
#elif PROTOCOL == 9
    /* KNOWN-BAD: every launched group joins; nothing closes. */
    atomic { me = arrivals; arrivals++ };
    n = N
#endif
}

/* ---- barriers ------------------------------------------------------------ */

/* Counter arrival (B2): group 0 adds TOP - (n - 1), the others 1; the top
 * bit flips when all n have arrived. The add releases the buffered store
 * and returns the old value. The counter's count starts at 0 in every
 * launch, its top bit as the launch before left it (START_SET), read into
 * `base` by every group before its first arrival; so before episode e
 * (from 1) its top bit is base flipped by the parity of e - 1. The
 * token: the arrival that flipped it (the last) has nothing to wait for;
 * the others must wait for the top bit to differ from `before`. */
inline counter_arrive(me, n, e) {
    atomic {
        before = (((e - 1) & 1) == 1 -> TOP : 0) ^ base;
        add = (me == 0 -> TOP - (n - 1) : 1);
        old = counter;
        counter = (counter + add) % 256;
#if !RELAXED
        if :: pending[me] -> data[slot[me]] = buffered[me]; pending[me] = false
           :: else -> skip fi
#endif
    };
    await_grid = !(LAST(old, add, before))
}

/* B3: the wait that the token asks for. */
inline grid_wait() {
    if
    :: await_grid -> AWAIT(((counter ^ before) & TOP) != 0)
    :: else -> skip
    fi
}

/* Tree arrival (B2): add 1 to the cluster's word (acq_rel: releasing the
 * store). The last of the cluster (FLAT: after zeroing the cluster's
 * count) arrives at the grid counter with the counter scheme among
 * clusters. */
inline tree_arrive(me, n, e) {
    atomic {
        /* (private to the group) */
        cl = me / FANIN;
        ncl = (n + FANIN - 1) / FANIN;
        members = (n - cl * FANIN < FANIN -> n - cl * FANIN : FANIN);
        before = (((e - 1) & 1) == 1 -> TOP : 0) ^ base;
        seen = sub[cl];
        sub[cl] = (sub[cl] + 1) % 256;
#if !RELAXED
        if :: pending[me] -> data[slot[me]] = buffered[me]; pending[me] = false
           :: else -> skip fi
#endif
    };
    last_member = (seen & (TOP - 1)) == members - 1;
    await_grid = false;
    if
    :: last_member ->
#if FLAT && !NO_RESET
        sub[cl] = 0;
#elif !FLAT
        sub[cl] = seen & TOP; /* the count back to 0, the top bit kept */
#endif
        atomic {
            add = (cl == 0 -> TOP - (ncl - 1) : 1);
            old = counter;
            counter = (counter + add) % 256
        };
        await_grid = !(LAST(old, add, before))
    :: else -> skip
    fi
}

/* Tree wait (B3, B4): a member that is not the last waits for the word's
 * top bit to differ from the one its add returned, or, with FLAT, for the
 * grid counter's flip. The last waits for the grid as the counter does,
 * and without FLAT then wakes its cluster with one add of TOP, which
 * flips the top bit (its arrival brought the count back to 0); if its
 * grid wait failed, it wakes nobody. */
inline tree_wait() {
    if
    :: !last_member ->
#if FLAT
        AWAIT(((counter ^ before) & TOP) != 0)
#else
        AWAIT(((sub[cl] ^ seen) & TOP) != 0)
#endif
    :: else ->
        grid_wait();
#if !FLAT
        if
        :: !wf -> sub[cl] = (sub[cl] + TOP) % 256
        :: else -> skip
        fi
#endif
    fi
}

#if BARRIER == 2
#define ARRIVE(me, n, e) counter_arrive(me, n, e)
#define WAIT() grid_wait()
#elif BARRIER == 3
#define ARRIVE(me, n, e) tree_arrive(me, n, e)
#define WAIT() tree_wait()
#endif

inline barrier(me, n, e) {
#if BARRIER == 2 || BARRIER == 3
#if NONBLOCKING
    /* xwg_reduce_OP_T_arrive(): the partial is buffered (above) and the
     * arrival publishes it; the other groups run at will before this
     * group's wait; then xwg_reduce_OP_T_wait(token): the wait, and the
     * reads after the barrier (below). EARLY_READ: KNOWN-BAD, the reads
     * made between the arrive and the wait. */
    ARRIVE(me, n, e);
#if EARLY_READ
    read_partials(n, e);
#endif
    WAIT()
#elif SPLIT
    /* xwg_barrier_arrive(); the group's own work, which stores the next
     * episode's value early (a store after the arrival, which this
     * barrier does not order); xwg_barrier_wait(token). */
    ARRIVE(me, n, e);
    atomic { buffered[me] = e + 1; pending[me] = true };
#if !NO_WAIT
    WAIT()
#endif
#else
    ARRIVE(me, n, e);
    WAIT()
#endif
#elif BARRIER == 1
    /* XF: slaves raise their flag (B2) and wait for the master to lower it
     * (B4); the master waits for every flag (B3), and after its exit
     * barrier (B5) lowers them all, unless a wait of its group has failed
     * (in this barrier or an earlier one: xwg_failed() is sticky). */
    if
    :: me == 0 ->
        i = 1;
        do
        :: i < n && !wf -> AWAIT(flag[i]); i++
        :: else -> break
        od;
        if
        :: !wf && !gfail ->
#if !RELAXED
            if :: pending[0] -> data[slot[0]] = buffered[0]; pending[0] = false
               :: else -> skip fi;
#endif
            i = 1;
            do
            :: i < n -> flag[i] = false; i++
            :: else -> break
            od
        :: else -> skip
        fi
    :: else ->
        atomic {
            flag[me] = true;
#if !RELAXED
            if :: pending[me] -> data[slot[me]] = buffered[me]; pending[me] = false
               :: else -> skip fi
#endif
        };
        AWAIT(!flag[me])
    fi
#elif BARRIER == 9
    /* KNOWN-BAD: a barrier that does not wait. */
    skip
#endif
}

/* ---- the all-reduce's reads (COLLECTIVE) ------------------------------------ */

/* C3: the n partials of episode e, one read at a time; each must be the
 * episode's own (a later value is a group of a later collective that
 * wrote over the bank, an earlier one a partial not yet published). */
inline read_partials(n, e) {
    i = 0;
    do
    :: i < n -> assert(failed || data[BANK(e) * N + i] == e); i++
    :: else -> break
    od
}

/* ---- a group ---------------------------------------------------------------- */

proctype group(byte g)
{
    byte me = NONE, n = 0, e = 1, other, i;
    byte before, old, add, seen, cl, ncl, members; /* an arrival's token */
    byte base = 0; /* the grid counter's top bit at the launch's start */
    bool await_grid, last_member;
    bool wf = false;    /* a wait of this barrier failed */
    bool gfail = false; /* a wait of an earlier barrier failed (sticky) */

    /* Occupancy-bound scheduling: a group starts only in a free slot. */
    atomic { free_slots > 0 -> free_slots-- };

    discover(g, me, n);
    if
    :: me == NONE -> goto leave
    :: else -> skip
    fi;
#if !ASSUME_CLEAR
    base = counter & TOP;
#endif

    /* Discovery's specification: ids distinct and dense, one count, and
     * no more participants than slots (all were resident together). */
    atomic {
        assert(me < n && n <= N);
        assert(!id_taken[me]);
        id_taken[me] = true;
        participants_total++;
#if PROTOCOL != 0
        /* (Skipping discovery promises no such thing.) */
        assert(n <= K)
#endif
    };

    do
    :: e <= EPISODES ->
        /* A plain store of this episode's value (buffered); COLLECTIVE:
         * the episode's partial, in its bank. */
        atomic {
#if COLLECTIVE
            slot[me] = BANK(e) * N + me;
#else
            slot[me] = me;
#endif
            buffered[me] = e; pending[me] = true; gfail = gfail || wf;
            wf = false };
        reached[e]++;
#if COLLECTIVE && EARLY_READ && !NONBLOCKING
        read_partials(n, e);
#endif
        barrier(me, n, e);
        /* The barrier's specification: nobody passes instance e before
         * every participant has reached it, and what each stored before
         * it is visible after it (values only grow, so a value below e is
         * a stale read; a later one is a store of a group already past).
         * COLLECTIVE: every partial of the episode, exactly. */
        if
        :: failed -> skip
        :: else ->
            assert(reached[e] == n);
#if COLLECTIVE
#if !EARLY_READ
            read_partials(n, e)
#endif
#else
            other = (me + 1) % n;
            assert(data[other] >= e)
#endif
        fi;
        e++
    :: else -> break
    od;
    if
    :: !failed -> completed++
    :: else -> skip
    fi;

leave:
    atomic { free_slots++; finished++ };
progress_end:
    skip
}

/* A memory system that writes buffered stores back at any time (a store
 * may become visible early; only a release forces it). */
#define WRITE_BACK(i) \
    :: atomic { i < N && pending[i] -> data[slot[i]] = buffered[i]; pending[i] = false }

active proctype memory()
{
end_memory:
    do
    WRITE_BACK(0)
    WRITE_BACK(1)
    WRITE_BACK(2)
    WRITE_BACK(3)
    od
}

init {
    byte g;
    atomic {
#if START_SET == 1
        counter = TOP;
#elif START_SET == 2
        if :: counter = 0 :: counter = TOP fi;
#endif
        for (g : 0 .. N - 1) {
            run group(g)
        }
    };
    (finished == N);
    /* Every run ends; under the watchdog, a barrier that could not
     * complete has marked the launch failed. */
    assert(failed || completed == participants_total)
}
