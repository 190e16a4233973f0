/*
 * xwg_collectives.cl - grid-wide collectives on the global barrier:
 * all-reduce, broadcast, and an exclusive scan across groups.
 *
 * Contract (docs/spec.md, "Collectives"): every work-item of every
 * participant calls each collective, the same ones in the same order, as
 * it calls xwg_barrier(), with the same uniform arguments (the group to
 * broadcast from). Each collective is also a barrier: everything done
 * before it happens-before everything done after it, in every group.
 *
 * How each works, in three steps:
 *   C1 group part:  the group's work-items combine their values in local
 *                   memory (C1 of a broadcast or a scan: work-item 0's
 *                   value alone);
 *   C2 publish:     work-item 0 stores the group's partial in its slot of
 *                   the current bank (relaxed), then every group runs
 *                   xwg_barrier_of(), whose B1/B2 release the store and
 *                   whose B3/B5 acquire every group's;
 *   C3 combine:     every work-item reads the partials it needs and the
 *                   group combines them, in the same fixed order in every
 *                   group, so every work-item of every group gets the same
 *                   bits.
 * Banks: two, used in turn (xwg_self.collectives counts the calls). A
 * group that is done with collective k and races into k+1 writes the
 * other bank; it cannot reach k+2, which writes this one again, before
 * every group has arrived at k+1's barrier, so after every group has
 * finished reading k's partials.
 *
 * Order, for floats (deterministic: it depends only on the values, the
 * local size and the participants, never on timing):
 *   - a tree over `count` values v[0 .. count-1] (v[j] work-item j's):
 *     in each run of 32 (v[32k .. 32k+31]), for h = 16, 8, 4, 2, 1, the
 *     value j of the run, for every j < h with 32k + j + h < count, becomes
 *     v[32k+j] op v[32k+j+h]; the run's result is its first value. If
 *     there was more than one run, the same tree runs over the runs'
 *     results, in the runs' order, and so on until one value is left;
 *   (for count <= 32 that is the binary tree whose level h combines j and
 *   j+h, h = 16 .. 1.)
 *   - C1 is that tree over the group's values (count: the local size);
 *   - C3: work-item l folds the partials l, l+size, l+2*size, ... left
 *     to right, and the group runs the tree over those folds (count:
 *     min(local size, participants)).
 * tests/collectives_driver.c recomputes exactly this order on the host
 * and compares bits. int and uint results are exact in any order (add
 * wraps modulo 2^32); where the device has OpenCL 2.x work-group
 * functions, C1 and C3 use them for int and uint. Not for float: their
 * order is the implementation's, and not promised to be the same from
 * run to run. float min and max are fmin and fmax (a NaN loses to a
 * number).
 */

/* ---- Known-bad collectives, for the tests (never shipped) ------------------
 * XWG_TEST_BROKEN_SPLIT_WAIT_SKIPPED and XWG_TEST_BROKEN_DIVERGENCE_UNCHECKED
 * in xwg_barrier.cl, XWG_TEST_BROKEN_PARTIALS_READ_EARLY and
 * XWG_TEST_BROKEN_NONBLOCKING_READ_EARLY below; what each breaks and the
 * test that catches it: tests/known_bad.md. */

/* ---- The combining operators ----------------------------------------------- */
inline uint xwg__op_add_uint(uint a, uint b) { return a + b; }
inline uint xwg__op_min_uint(uint a, uint b) { return min(a, b); }
inline uint xwg__op_max_uint(uint a, uint b) { return max(a, b); }
/* Through uint: signed overflow would be undefined; this wraps. */
inline int xwg__op_add_int(int a, int b)
{
    return as_int(as_uint(a) + as_uint(b));
}
inline int xwg__op_min_int(int a, int b) { return min(a, b); }
inline int xwg__op_max_int(int a, int b) { return max(a, b); }
inline float xwg__op_add_float(float a, float b) { return a + b; }
inline float xwg__op_min_float(float a, float b) { return fmin(a, b); }
inline float xwg__op_max_float(float a, float b) { return fmax(a, b); }

/* Identities, for work-items whose value does not count (integer work-group
 * functions only: the float tree never combines one). */
#define XWG__IDENTITY_add_uint 0u
#define XWG__IDENTITY_min_uint 0xffffffffu
#define XWG__IDENTITY_max_uint 0u
#define XWG__IDENTITY_add_int 0
#define XWG__IDENTITY_min_int 0x7fffffff
#define XWG__IDENTITY_max_int (-0x7fffffff - 1)

/* ---- C1 and C3's group part -------------------------------------------------
 * xwg__group_tree_OP_T(scratch, v, count): the tree over the values v of
 * work-items 0 .. count-1 (uniform; 1 <= count <= local size), returned
 * to every work-item, in the order of this file's header: runs of 32
 * values, each combined by the levels h = 16, 8, 4, 2, 1, then the same
 * over the runs' results (runs of 32 runs), and so on. Every work-item of
 * the group calls it. Runs of 32 because that is a warp on NVIDIA GPUs:
 * on the ptx path a run is one warp's values and its levels are shuffles,
 * with no work-group barrier between them; elsewhere a run is one
 * work-item's loop over local memory. Both give the same bits, with three
 * or four work-group barriers a tree (PoCL's compiler takes minutes over
 * many, and fails on barriers inside branches). The first barrier keeps
 * the previous call's readers of slot 0 before this call's writers. F, in
 * the level macros: the combining function's name, pasted whole (an
 * operator passed on alone would be expanded, and min and max are macros
 * in some implementations' headers). */
#if XWG__SCRATCH_WORDS > 4096
#error "xwg: XWG__SCRATCH_WORDS must be at most 4096"
#endif

#if defined(XWG_PATH_PTX)
/* Lane l's value after the levels h = 16 .. 1 of its warp's run: lane l
 * takes in lane l+h's where l < h and work-item g + h < count (g: the
 * work-item's index among the values; the source lane then exists). All
 * lanes of the warp run each shuffle; `lanes` has a bit for each lane the
 * warp has. Lane 0 ends with the run's result. */
inline uint xwg__warp_shuffle_down(uint v, uint h, uint lanes)
{
    uint r;
    asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, %3;"
                 : "=r"(r) : "r"(v), "r"(h), "r"(lanes));
    return r;
}
#define XWG__WARP_LEVEL(F, T, h)                                              \
    {                                                                          \
        const uint o = xwg__warp_shuffle_down(x, (h), lanes);                  \
        if (lane < (h) && g + (h) < n)                                         \
            x = as_uint(F(as_##T(x), as_##T(o)));                              \
    }
#define XWG__WARP_RUN(F, T)                                                    \
    XWG__WARP_LEVEL(F, T, 16u) XWG__WARP_LEVEL(F, T, 8u)                      \
    XWG__WARP_LEVEL(F, T, 4u) XWG__WARP_LEVEL(F, T, 2u)                       \
    XWG__WARP_LEVEL(F, T, 1u)

#if XWG__SCRATCH_WORDS > 1024
#error "xwg: on the ptx path XWG__SCRATCH_WORDS must be at most 1024"
#endif
#define XWG__DEFINE_GROUP_TREE(OP, T)                                          \
    inline T xwg__group_tree_##OP##_##T(__local uint *s, T v, uint count)     \
    {                                                                          \
        const uint l = (uint)get_local_id(0);                                  \
        const uint size = (uint)get_local_size(0);                             \
        const uint lane = l & 31u, warp = l >> 5;                              \
        const uint have = min(32u, size - (warp << 5));                        \
        const uint lanes = have == 32u ? 0xffffffffu : (1u << have) - 1u;     \
        count = min(count, (uint)(XWG__SCRATCH_WORDS));                        \
        /* The runs: each warp's, into s[warp]. */                             \
        uint x = as_uint(v), g = l, n = count;                                 \
        XWG__WARP_RUN(xwg__op_##OP##_##T, T)                                   \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        if (lane == 0u)                                                        \
            s[warp] = x;                                                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        /* The runs' results, one run of at most 32, in warp 0. */             \
        if (warp == 0u) {                                                      \
            n = (count + 31u) >> 5;                                            \
            x = lane < n ? s[lane] : 0u;                                       \
            g = lane;                                                          \
            XWG__WARP_RUN(xwg__op_##OP##_##T, T)                               \
            if (lane == 0u)                                                    \
                s[0] = x;                                                      \
        }                                                                      \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        return as_##T(s[0]);                                                   \
    }

#else /* local memory */
/* The tree over the m values b[0], b[S], ..., b[(m-1)*S] (m <= 32), in
 * place, into b[0]: one work-item's loop, with no work-group barrier in
 * it (PoCL's compiler takes minutes over barriers between levels). */
#define XWG__RUN_TREE(F, T, b, S, m)                                           \
    for (uint h = 16u; h > 0u; h >>= 1)                                        \
        for (uint j = 0u; j < h && j + h < (m); j++)                           \
            (b)[j * (S)] = as_uint(F(as_##T((b)[j * (S)]),                     \
                                     as_##T((b)[(j + h) * (S)])));

/* Work-item k < runs takes run k of the values, then work-item 0 the
 * runs' results, 32 at a time, until one is left. */
#define XWG__DEFINE_GROUP_TREE(OP, T)                                          \
    inline T xwg__group_tree_##OP##_##T(__local uint *s, T v, uint count)     \
    {                                                                          \
        const uint l = (uint)get_local_id(0);                                  \
        /* (A group larger than the scratch is refused, xwg__next_bank.) */   \
        count = min(count, (uint)(XWG__SCRATCH_WORDS));                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        if (l < (XWG__SCRATCH_WORDS))                                          \
            s[l] = as_uint(v);                                                 \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        uint runs = (count + 31u) / 32u;                                       \
        if (l < runs) {                                                        \
            __local uint *b = s + 32u * l;                                     \
            XWG__RUN_TREE(xwg__op_##OP##_##T, T, b, 1u, min(32u, count - 32u * l)) \
        }                                                                      \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        if (l == 0u) {                                                         \
            for (uint S = 32u; runs > 1u; S *= 32u) {                          \
                for (uint k = 0u; k * 32u < runs; k++) {                       \
                    __local uint *b = s + 32u * S * k;                         \
                    XWG__RUN_TREE(xwg__op_##OP##_##T, T, b, S,                 \
                                  min(32u, runs - 32u * k))                    \
                }                                                              \
                runs = (runs + 31u) / 32u;                                     \
            }                                                                  \
        }                                                                      \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        return as_##T(s[0]);                                                   \
    }
#endif

#if defined(XWG_PATH_CL20) && __OPENCL_C_VERSION__ >= 200 &&                  \
    (__OPENCL_C_VERSION__ < 300 ||                                             \
     defined(__opencl_c_work_group_collective_functions))
#define XWG__HAS_WORK_GROUP_FUNCTIONS 1
#endif

/* The trees, for every type and operator; where the device has work-group
 * functions, int and uint use those instead (below). (Every macro here
 * pastes its operator, add, min or max, and passes it on to no other
 * macro: an argument passed on would be expanded, and min and max are
 * macros in some implementations' headers.) */
XWG__DEFINE_GROUP_TREE(add, uint)
XWG__DEFINE_GROUP_TREE(min, uint)
XWG__DEFINE_GROUP_TREE(max, uint)
XWG__DEFINE_GROUP_TREE(add, int)
XWG__DEFINE_GROUP_TREE(min, int)
XWG__DEFINE_GROUP_TREE(max, int)
XWG__DEFINE_GROUP_TREE(add, float)
XWG__DEFINE_GROUP_TREE(min, float)
XWG__DEFINE_GROUP_TREE(max, float)

#if defined(XWG__HAS_WORK_GROUP_FUNCTIONS)
/* int and uint, through the device's work-group functions: the result is
 * exact, so their order does not matter. */
#define XWG__DEFINE_GROUP_PART(OP, T)                                          \
    inline T xwg__group_##OP##_##T(__local uint *s, T v, uint count)          \
    {                                                                          \
        return work_group_reduce_##OP(                                         \
            (uint)get_local_id(0) < count ? v : XWG__IDENTITY_##OP##_##T);    \
    }
#else
#define XWG__DEFINE_GROUP_PART(OP, T)                                          \
    inline T xwg__group_##OP##_##T(__local uint *s, T v, uint count)          \
    {                                                                          \
        return xwg__group_tree_##OP##_##T(s, v, count);                        \
    }
#endif
#define XWG__DEFINE_GROUP_PART_FLOAT(OP)                                       \
    inline float xwg__group_##OP##_float(__local uint *s, float v,            \
                                         uint count)                           \
    {                                                                          \
        return xwg__group_tree_##OP##_float(s, v, count);                      \
    }

XWG__DEFINE_GROUP_PART(add, uint)
XWG__DEFINE_GROUP_PART(min, uint)
XWG__DEFINE_GROUP_PART(max, uint)
XWG__DEFINE_GROUP_PART(add, int)
XWG__DEFINE_GROUP_PART(min, int)
XWG__DEFINE_GROUP_PART(max, int)
XWG__DEFINE_GROUP_PART_FLOAT(add)
XWG__DEFINE_GROUP_PART_FLOAT(min)
XWG__DEFINE_GROUP_PART_FLOAT(max)

/* ---- C1 with one work-group barrier (ptx path) ------------------------------
 * xwg__part_to0_OP_T(s, v, count): the all-reduce's C1, the tree over the
 * values of work-items 0 .. count-1 in the header's order, to work-item 0
 * alone (it alone publishes), with one work-group barrier where the tree
 * above has three: the warps' results pass through s[32 .. 63], which no
 * other collective uses (the trees use s[0 .. 31]), and warp 0 combines
 * them. One barrier is enough: a call's writes to those words and the
 * previous call's reads of them are separated by the previous call's C2
 * barrier (xwg_barrier_of()'s B1). Where the local size is not a multiple of 32,
 * the scratch has fewer than 64 words, or XWG_TUNE_WARP_COMBINE is 0, the
 * tree above serves. (C3 keeps the tree: the same one-barrier form there,
 * every warp combining the warps' results, made the CG solver slower;
 * docs/performance.md, "Tried and left out".) */
#if defined(XWG_PATH_PTX) && XWG_TUNE_WARP_COMBINE && XWG__SCRATCH_WORDS >= 64
#define XWG__DEFINE_PART_TO0(OP, T)                                            \
    inline T xwg__part_to0_##OP##_##T(__local uint *s, T v, uint count)       \
    {                                                                          \
        const uint l = (uint)get_local_id(0);                                  \
        const uint size = (uint)get_local_size(0);                             \
        if ((size & 31u) != 0u) /* uniform */                                  \
            return xwg__group_tree_##OP##_##T(s, v, count);                    \
        const uint lane = l & 31u, warp = l >> 5, lanes = 0xffffffffu;         \
        count = min(count, (uint)(XWG__SCRATCH_WORDS));                        \
        uint x = as_uint(v), g = l, n = count;                                 \
        XWG__WARP_RUN(xwg__op_##OP##_##T, T)                                   \
        if (lane == 0u)                                                        \
            s[32u + warp] = x;                                                 \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        if (warp == 0u) {                                                      \
            n = (count + 31u) >> 5;                                            \
            x = lane < n ? s[32u + lane] : 0u;                                 \
            g = lane;                                                          \
            XWG__WARP_RUN(xwg__op_##OP##_##T, T)                               \
        }                                                                      \
        return as_##T(x); /* work-item 0's is the result */                    \
    }
#else
#define XWG__DEFINE_PART_TO0(OP, T)                                            \
    inline T xwg__part_to0_##OP##_##T(__local uint *s, T v, uint count)       \
    {                                                                          \
        return xwg__group_##OP##_##T(s, v, count);                             \
    }
#endif

XWG__DEFINE_PART_TO0(add, uint)
XWG__DEFINE_PART_TO0(min, uint)
XWG__DEFINE_PART_TO0(max, uint)
XWG__DEFINE_PART_TO0(add, int)
XWG__DEFINE_PART_TO0(min, int)
XWG__DEFINE_PART_TO0(max, int)
XWG__DEFINE_PART_TO0(add, float)
XWG__DEFINE_PART_TO0(min, float)
XWG__DEFINE_PART_TO0(max, float)

/* ---- The banks ------------------------------------------------------------- */

/* This call's bank: two words per launched group (participant g's slots
 * are words g and launched + g; every collective but the two-sum
 * all-reduce uses the first alone), the two banks in turn. Every
 * work-item counts its own calls.
 * Every collective starts here, so here a group larger than the scratch
 * (a program built without xwg_program_build()'s define) is refused, the
 * limit with the rule, for the host's message. */
inline volatile XWG__GLOBAL_WORD *xwg__next_bank(xwg_self self)
{
    if (get_local_id(0) == 0 && get_local_size(0) > (XWG__SCRATCH_WORDS))
        xwg__misuse(self, XWG__MISUSE_GROUP_TOO_LARGE |
                              ((uint)(XWG__SCRATCH_WORDS)
                               << XWG__MISUSE_DETAIL_SHIFT));
    const uint launched = (uint)get_num_groups(0);
    const uint bank = (*self.collectives)++ & 1u;
    return &self.state[XWG__PARTIALS_AT(launched) + bank * 2u * launched];
}

/* C2's barrier, and where known-bad PARTIALS_READ_EARLY moves it (after
 * C3's reads). */
#if defined(XWG_TEST_BROKEN_PARTIALS_READ_EARLY)
#define XWG__PUBLISH(self) ((void)0)
#define XWG__AFTER_READS(self) xwg_barrier_of(self)
#else
#define XWG__PUBLISH(self) xwg_barrier_of(self)
#define XWG__AFTER_READS(self) ((void)0)
#endif

/* ---- C3's fold ---------------------------------------------------------------
 * xwg__fold_OP_T(bank, i, n, step, fold): fold combined, left to right,
 * with the partials i, i + step, ... below n. XWG_TUNE_FOLD_LOADS loads
 * at a time, all issued before the first is combined: one after another,
 * each load would wait for the combination before it, and a work-item
 * folding tens of partials (64 work-items, thousands of groups) would pay
 * a round trip to memory for each. The order of combination is the
 * header's whatever the count (each partial in turn), so the count
 * changes the speed, never the bits. */
#define XWG__DEFINE_FOLD(OP, T)                                                \
    inline T xwg__fold_##OP##_##T(volatile XWG__GLOBAL_WORD *bank, uint i,    \
                                  uint n, uint step, T fold)                   \
    {                                                                          \
        const uint loads = XWG_TUNE_FOLD_LOADS;                                \
        for (; i + (loads - 1u) * step < n; i += loads * step) {               \
            T v[XWG_TUNE_FOLD_LOADS];                                          \
            for (uint k = 0u; k < loads; k++)                                  \
                v[k] = as_##T(xwg__load_relaxed(&bank[i + k * step]));         \
            for (uint k = 0u; k < loads; k++)                                  \
                fold = xwg__op_##OP##_##T(fold, v[k]);                         \
        }                                                                      \
        for (; i < n; i += step)                                               \
            fold = xwg__op_##OP##_##T(fold,                                    \
                                      as_##T(xwg__load_relaxed(&bank[i])));    \
        return fold;                                                           \
    }

XWG__DEFINE_FOLD(add, uint)
XWG__DEFINE_FOLD(min, uint)
XWG__DEFINE_FOLD(max, uint)
XWG__DEFINE_FOLD(add, int)
XWG__DEFINE_FOLD(min, int)
XWG__DEFINE_FOLD(max, int)
XWG__DEFINE_FOLD(add, float)
XWG__DEFINE_FOLD(min, float)
XWG__DEFINE_FOLD(max, float)

/* ---- All-reduce ------------------------------------------------------------
 * xwg_reduce_OP_T(v): OP (add, min, max) over the v of every work-item of
 * every participant, to every work-item; T is int, uint or float. */
#define XWG__DEFINE_REDUCE(OP, T)                                              \
    inline T xwg_reduce_##OP##_##T##_of(xwg_self self, T v)                   \
    {                                                                          \
        const uint l = (uint)get_local_id(0);                                  \
        const uint size = (uint)get_local_size(0);                             \
        const uint n = self.num_groups;                                        \
        volatile XWG__GLOBAL_WORD *bank = xwg__next_bank(self);                \
        /* C1, C2 */                                                           \
        const T part = xwg__part_to0_##OP##_##T(self.scratch, v, size);       \
        if (l == 0u)                                                           \
            xwg__store_relaxed(&bank[self.group_id], as_uint(part));           \
        XWG__PUBLISH(self);                                                    \
        /* C3: work-items past the participants keep `part`; the tree         \
         * leaves them out. */                                                 \
        T fold = part;                                                         \
        if (l < n)                                                             \
            fold = xwg__fold_##OP##_##T(                                       \
                bank, l + size, n, size,                                       \
                as_##T(xwg__load_relaxed(&bank[l])));                          \
        XWG__AFTER_READS(self);                                                \
        return xwg__group_##OP##_##T(self.scratch, fold, min(size, n));       \
    }

XWG__DEFINE_REDUCE(add, uint)
XWG__DEFINE_REDUCE(min, uint)
XWG__DEFINE_REDUCE(max, uint)
XWG__DEFINE_REDUCE(add, int)
XWG__DEFINE_REDUCE(min, int)
XWG__DEFINE_REDUCE(max, int)
XWG__DEFINE_REDUCE(add, float)
XWG__DEFINE_REDUCE(min, float)
XWG__DEFINE_REDUCE(max, float)

/* ---- Nonblocking all-reduce -------------------------------------------------
 * t = xwg_reduce_OP_T_arrive(v), then r = xwg_reduce_OP_T_wait(t): the
 * all-reduce above in two halves, around the split barrier. The arrive
 * runs C1 and publishes the group's partial (C2's store, then the split
 * arrive's B1/B2 release it); the wait runs the split wait (B3-B5, with
 * the watchdog) and C3. Work between the two overlaps the reduction. The
 * result has the same bits as xwg_reduce_OP_T(v) (the same C1, fold and
 * C3), and the pair is a barrier as the split barrier is: what is done
 * before the arrive happens-before what is done after the wait.
 * The split barrier's rules hold: one arrive at a time, and no barrier
 * or collective between it and its wait (XWG_ERROR_BARRIER_MISUSE). The
 * wait must name the arrive's operator and type: its token says which
 * (rule 7 otherwise). Banks: the arrive takes the call's bank, and its
 * wait reads it before the group's next arrive, so the two-bank argument
 * above holds unchanged. */
typedef struct {
    /* The call's bank, as the arrive's pointer: where the wait computed
     * the same address again from the bank's index, PoCL 3.1 read a
     * partial before the arrive had stored it (wrong sums, one group). */
    volatile XWG__GLOBAL_WORD *bank;
    xwg_token barrier; /* the split arrive's token (work-item 0's) */
    uint reduction;    /* XWG__OP_ID_OP | XWG__TYPE_ID_T: the wait's own */
} xwg_reduce_token;

#define XWG__OP_ID_add 1u
#define XWG__OP_ID_min 2u
#define XWG__OP_ID_max 3u
#define XWG__TYPE_ID_uint 0u
#define XWG__TYPE_ID_int 4u
#define XWG__TYPE_ID_float 8u

/* Known-bad NONBLOCKING_READ_EARLY (tests only): the wait reads the
 * partials before its split wait, as PARTIALS_READ_EARLY reads them before
 * the barrier. */
#if defined(XWG_TEST_BROKEN_NONBLOCKING_READ_EARLY)
#define XWG__READS_BEFORE_WAIT 1
#else
#define XWG__READS_BEFORE_WAIT 0
#endif

/* Misuse rule 7: a wait of another operator or type than its arrive. */
inline void xwg__check_reduction(xwg_self self, xwg_reduce_token t,
                                 uint reduction)
{
    if (get_local_id(0) == 0u && t.reduction != reduction)
        xwg__misuse(self, XWG__MISUSE_REDUCE_MISMATCH);
}

#define XWG__DEFINE_REDUCE_SPLIT(OP, T)                                        \
    inline xwg_reduce_token xwg_reduce_##OP##_##T##_arrive_of(xwg_self self,  \
                                                              T v)             \
    {                                                                          \
        xwg_reduce_token t;                                                    \
        volatile XWG__GLOBAL_WORD *bank = xwg__next_bank(self);                \
        t.bank = bank;                                                         \
        t.reduction = XWG__OP_ID_##OP | XWG__TYPE_ID_##T;                      \
        /* C1, and C2's store: before the arrive's B1, so released by B2. */  \
        const T part = xwg__part_to0_##OP##_##T(self.scratch, v,              \
                                                (uint)get_local_size(0));     \
        if (get_local_id(0) == 0u)                                             \
            xwg__store_relaxed(&bank[self.group_id], as_uint(part));           \
        t.barrier = xwg_barrier_arrive_of(self);                               \
        return t;                                                              \
    }                                                                          \
    inline T xwg_reduce_##OP##_##T##_wait_of(xwg_self self,                   \
                                             xwg_reduce_token t)               \
    {                                                                          \
        const uint l = (uint)get_local_id(0);                                  \
        const uint size = (uint)get_local_size(0);                             \
        const uint n = self.num_groups;                                        \
        volatile XWG__GLOBAL_WORD *bank = t.bank;                              \
        xwg__check_reduction(self, t, XWG__OP_ID_##OP | XWG__TYPE_ID_##T);    \
        T fold = (T)0; /* work-items past the participants: left out */       \
        if (!XWG__READS_BEFORE_WAIT)                                           \
            xwg_barrier_wait_of(self, t.barrier);                              \
        /* C3, as in the blocking all-reduce: the wait's B5 acquired every   \
         * participant's partial for every work-item. */                       \
        if (l < n)                                                             \
            fold = xwg__fold_##OP##_##T(                                       \
                bank, l + size, n, size,                                       \
                as_##T(xwg__load_relaxed(&bank[l])));                          \
        if (XWG__READS_BEFORE_WAIT)                                            \
            xwg_barrier_wait_of(self, t.barrier);                              \
        return xwg__group_##OP##_##T(self.scratch, fold, min(size, n));       \
    }

XWG__DEFINE_REDUCE_SPLIT(add, uint)
XWG__DEFINE_REDUCE_SPLIT(min, uint)
XWG__DEFINE_REDUCE_SPLIT(max, uint)
XWG__DEFINE_REDUCE_SPLIT(add, int)
XWG__DEFINE_REDUCE_SPLIT(min, int)
XWG__DEFINE_REDUCE_SPLIT(max, int)
XWG__DEFINE_REDUCE_SPLIT(add, float)
XWG__DEFINE_REDUCE_SPLIT(min, float)
XWG__DEFINE_REDUCE_SPLIT(max, float)

/* ---- Two sums at once -------------------------------------------------------
 * xwg_reduce_add_float2(v): the sums of v.x and of v.y over every
 * work-item of every participant, to every work-item, at the cost of one
 * barrier: two dot products at one synchronisation (apps/cg's pipelined
 * solver). Each component is summed in exactly the float all-reduce's
 * order, so .x has the bits of xwg_reduce_add_float(v.x) and .y those of
 * xwg_reduce_add_float(v.y). Nonblocking, as the others:
 * xwg_reduce_add_float2_arrive(v) and xwg_reduce_add_float2_wait(t).
 * Participant g's partials go to words g (x) and launched + g (y) of the
 * call's bank; both are stored before the barrier's B1, so B2 releases
 * them, and read after B5. */
/* C1 twice; between the two, a work-group barrier: on the ptx path warp 0
 * reads the warps' results from s[32 ..] after the first tree, and the
 * second tree's warps would otherwise overwrite them first. */
inline float2 xwg__part_to0_add_float2(__local uint *s, float2 v)
{
    const uint size = (uint)get_local_size(0);
    float2 part;
    part.x = xwg__part_to0_add_float(s, v.x, size);
    barrier(CLK_LOCAL_MEM_FENCE);
    part.y = xwg__part_to0_add_float(s, v.y, size);
    return part;
}

/* C3 twice: each component's fold and tree, as the float all-reduce's.
 * Work-items past the participants fold nothing (the trees leave them
 * out). The second tree's first barrier keeps the first tree's readers
 * of s[0] before its writers. */
inline float2 xwg__combine_add_float2(xwg_self self,
                                      volatile XWG__GLOBAL_WORD *bank)
{
    const uint l = (uint)get_local_id(0);
    const uint size = (uint)get_local_size(0);
    const uint n = self.num_groups, launched = (uint)get_num_groups(0);
    float2 fold = (float2)(0.0f, 0.0f);
    if (l < n) {
        fold.x = xwg__fold_add_float(bank, l + size, n, size,
                                     as_float(xwg__load_relaxed(&bank[l])));
        fold.y = xwg__fold_add_float(
            bank + launched, l + size, n, size,
            as_float(xwg__load_relaxed(&bank[launched + l])));
    }
    float2 r;
    r.x = xwg__group_add_float(self.scratch, fold.x, min(size, n));
    r.y = xwg__group_add_float(self.scratch, fold.y, min(size, n));
    return r;
}

inline void xwg__store_part_add_float2(xwg_self self,
                                       volatile XWG__GLOBAL_WORD *bank,
                                       float2 part)
{
    if (get_local_id(0) == 0u) {
        xwg__store_relaxed(&bank[self.group_id], as_uint(part.x));
        xwg__store_relaxed(&bank[get_num_groups(0) + self.group_id],
                           as_uint(part.y));
    }
}

inline float2 xwg_reduce_add_float2_of(xwg_self self, float2 v)
{
    volatile XWG__GLOBAL_WORD *bank = xwg__next_bank(self);
    xwg__store_part_add_float2(self, bank,
                               xwg__part_to0_add_float2(self.scratch, v));
    XWG__PUBLISH(self);
    const float2 r = xwg__combine_add_float2(self, bank);
    XWG__AFTER_READS(self);
    return r;
}

#define XWG__TYPE_ID_float2 12u

inline xwg_reduce_token xwg_reduce_add_float2_arrive_of(xwg_self self,
                                                        float2 v)
{
    xwg_reduce_token t;
    t.bank = xwg__next_bank(self);
    t.reduction = XWG__OP_ID_add | XWG__TYPE_ID_float2;
    xwg__store_part_add_float2(self, t.bank,
                               xwg__part_to0_add_float2(self.scratch, v));
    t.barrier = xwg_barrier_arrive_of(self);
    return t;
}

inline float2 xwg_reduce_add_float2_wait_of(xwg_self self,
                                            xwg_reduce_token t)
{
    xwg__check_reduction(self, t, XWG__OP_ID_add | XWG__TYPE_ID_float2);
    float2 r = (float2)(0.0f, 0.0f);
    if (XWG__READS_BEFORE_WAIT) /* known-bad NONBLOCKING_READ_EARLY */
        r = xwg__combine_add_float2(self, t.bank);
    xwg_barrier_wait_of(self, t.barrier);
    if (!XWG__READS_BEFORE_WAIT)
        r = xwg__combine_add_float2(self, t.bank);
    return r;
}

/* ---- Broadcast -------------------------------------------------------------
 * xwg_broadcast_T(v, from): work-item 0's v in participant `from`, to
 * every work-item. `from` must be the same everywhere and below
 * xwg_num_groups(); a group that sees it is not fails the launch with
 * XWG_ERROR_BARRIER_MISUSE (the result is then undefined). */
#define XWG__DEFINE_BROADCAST(T)                                               \
    inline T xwg_broadcast_##T##_of(xwg_self self, T v, uint from)            \
    {                                                                          \
        volatile XWG__GLOBAL_WORD *bank = xwg__next_bank(self);                \
        if (get_local_id(0) == 0) {                                            \
            if (from >= self.num_groups)                                       \
                xwg__misuse(self, XWG__MISUSE_BROADCAST_GROUP);                \
            else if (self.group_id == from)                                    \
                xwg__store_relaxed(&bank[0], as_uint(v));                      \
        }                                                                      \
        XWG__PUBLISH(self);                                                    \
        const T x = as_##T(xwg__load_relaxed(&bank[0]));                       \
        XWG__AFTER_READS(self);                                                \
        return x;                                                              \
    }

XWG__DEFINE_BROADCAST(uint)
XWG__DEFINE_BROADCAST(int)
XWG__DEFINE_BROADCAST(float)

/* ---- Exclusive scan across groups --------------------------------------------
 * xwg_scan_groups_exclusive_add_T(v, &total): with v the group's value
 * (work-item 0's counts; pass the same in every work-item), returns the
 * sum of the values of participants 0 .. g-1 to every work-item of
 * participant g (0
 * in participant 0), and stores the sum over all participants in *total.
 * For stream compaction: v = the group's count, the result its first
 * output index, *total the output's length. */
#define XWG__DEFINE_SCAN(T)                                                    \
    inline T xwg_scan_groups_exclusive_add_##T##_of(xwg_self self, T v,       \
                                                    __private T *total)        \
    {                                                                          \
        const uint l = (uint)get_local_id(0);                                  \
        const uint size = (uint)get_local_size(0);                             \
        const uint n = self.num_groups, g = self.group_id;                     \
        volatile XWG__GLOBAL_WORD *bank = xwg__next_bank(self);                \
        if (l == 0u)                                                           \
            xwg__store_relaxed(&bank[g], as_uint(v));                          \
        XWG__PUBLISH(self);                                                    \
        /* C3, twice: the earlier groups' values, and all of them. In         \
         * participant 0 work-item 0's `before` stays 0, the result. */       \
        T all = (T)0, before = (T)0;                                           \
        for (uint i = l; i < n; i += size) {                                   \
            const T x = as_##T(xwg__load_relaxed(&bank[i]));                   \
            all = i == l ? x : xwg__op_add_##T(all, x);                        \
            if (i < g)                                                         \
                before = i == l ? x : xwg__op_add_##T(before, x);              \
        }                                                                      \
        XWG__AFTER_READS(self);                                                \
        *total = xwg__group_add_##T(self.scratch, all, min(size, n));         \
        return xwg__group_add_##T(self.scratch, before,                        \
                                  clamp(g, 1u, size));                         \
    }

XWG__DEFINE_SCAN(uint)
XWG__DEFINE_SCAN(int)
XWG__DEFINE_SCAN(float)

/* ---- Exclusive scan across the grid, one value per work-item ---------------
 * xwg_scan_exclusive_add_T(v, &total): every work-item's v, in
 * participant order (participant 0's work-items 0, 1, ..., then
 * participant 1's, ...): returns to each the sum of the values before
 * its own (0 to the first), and stores the sum of all in *total. For
 * stream compaction: v = 1 for an element kept, the result its output
 * index, *total the output's length.
 * Order (floats; int and uint are exact): the group's values in runs of
 * 32 work-items; E = the sum of the values before the work-item's in its
 * run, left to right from 0; T_k = run k's sum, left to right from 0;
 * O = the runs before its run, summed left to right from 0; the group's
 * sum S = the same over all its runs. Participant g's offset G is the
 * groups' scan above of the S's (0 in participant 0), and the result is
 * G + (O + E). Three work-group barriers and one global barrier. */
#define XWG__DEFINE_ITEM_SCAN(T)                                               \
    inline T xwg_scan_exclusive_add_##T##_of(xwg_self self, T v,              \
                                             __private T *total)               \
    {                                                                          \
        __local uint *s = self.scratch;                                        \
        const uint l = (uint)get_local_id(0);                                  \
        const uint size = (uint)get_local_size(0);                             \
        const uint run = l >> 5, runs = (size + 31u) >> 5;                     \
        /* (A group larger than the scratch is refused, xwg__next_bank.) */   \
        barrier(CLK_LOCAL_MEM_FENCE); /* the last call's readers first */     \
        if (l < (XWG__SCRATCH_WORDS))                                          \
            s[l] = as_uint(v);                                                 \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        /* E, and the run's sum in the run's first work-item. */              \
        T e = (T)0, sum = (T)0;                                                \
        const uint end = min(size, min((run + 1u) << 5,                        \
                                       (uint)(XWG__SCRATCH_WORDS)));           \
        for (uint j = run << 5; j < end; j++) {                                \
            if (j == l)                                                        \
                e = sum;                                                       \
            sum = xwg__op_add_##T(sum, as_##T(s[j]));                          \
        }                                                                      \
        barrier(CLK_LOCAL_MEM_FENCE); /* every read of the values done */     \
        if ((l & 31u) == 0u)                                                   \
            s[run] = as_uint(sum);                                             \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        /* O, and the group's sum S. */                                        \
        T before = (T)0, group = (T)0;                                         \
        for (uint k = 0u; k < runs; k++) {                                     \
            if (k == run)                                                      \
                before = group;                                                \
            group = xwg__op_add_##T(group, as_##T(s[k]));                      \
        }                                                                      \
        /* G: the groups' scan (its barrier's B1 keeps the reads of s above \
         * before its trees' writes). */                                       \
        const T offset = xwg_scan_groups_exclusive_add_##T##_of(self, group,  \
                                                                 total);       \
        return xwg__op_add_##T(offset, xwg__op_add_##T(before, e));            \
    }

XWG__DEFINE_ITEM_SCAN(uint)
XWG__DEFINE_ITEM_SCAN(int)
XWG__DEFINE_ITEM_SCAN(float)

/* ---- The calls kernels make ------------------------------------------------- */
#define xwg_reduce_add_uint(v) xwg_reduce_add_uint_of(xwg__self, (v))
#define xwg_reduce_min_uint(v) xwg_reduce_min_uint_of(xwg__self, (v))
#define xwg_reduce_max_uint(v) xwg_reduce_max_uint_of(xwg__self, (v))
#define xwg_reduce_add_int(v) xwg_reduce_add_int_of(xwg__self, (v))
#define xwg_reduce_min_int(v) xwg_reduce_min_int_of(xwg__self, (v))
#define xwg_reduce_max_int(v) xwg_reduce_max_int_of(xwg__self, (v))
#define xwg_reduce_add_float(v) xwg_reduce_add_float_of(xwg__self, (v))
#define xwg_reduce_min_float(v) xwg_reduce_min_float_of(xwg__self, (v))
#define xwg_reduce_max_float(v) xwg_reduce_max_float_of(xwg__self, (v))
#define xwg_reduce_add_uint_arrive(v)                                          \
    xwg_reduce_add_uint_arrive_of(xwg__self, (v))
#define xwg_reduce_add_uint_wait(t) xwg_reduce_add_uint_wait_of(xwg__self, (t))
#define xwg_reduce_add_int_arrive(v)                                           \
    xwg_reduce_add_int_arrive_of(xwg__self, (v))
#define xwg_reduce_add_int_wait(t) xwg_reduce_add_int_wait_of(xwg__self, (t))
#define xwg_reduce_add_float_arrive(v)                                         \
    xwg_reduce_add_float_arrive_of(xwg__self, (v))
#define xwg_reduce_add_float_wait(t)                                           \
    xwg_reduce_add_float_wait_of(xwg__self, (t))
#define xwg_reduce_min_uint_arrive(v)                                          \
    xwg_reduce_min_uint_arrive_of(xwg__self, (v))
#define xwg_reduce_min_uint_wait(t) xwg_reduce_min_uint_wait_of(xwg__self, (t))
#define xwg_reduce_min_int_arrive(v)                                           \
    xwg_reduce_min_int_arrive_of(xwg__self, (v))
#define xwg_reduce_min_int_wait(t) xwg_reduce_min_int_wait_of(xwg__self, (t))
#define xwg_reduce_min_float_arrive(v)                                         \
    xwg_reduce_min_float_arrive_of(xwg__self, (v))
#define xwg_reduce_min_float_wait(t)                                           \
    xwg_reduce_min_float_wait_of(xwg__self, (t))
#define xwg_reduce_max_uint_arrive(v)                                          \
    xwg_reduce_max_uint_arrive_of(xwg__self, (v))
#define xwg_reduce_max_uint_wait(t) xwg_reduce_max_uint_wait_of(xwg__self, (t))
#define xwg_reduce_max_int_arrive(v)                                           \
    xwg_reduce_max_int_arrive_of(xwg__self, (v))
#define xwg_reduce_max_int_wait(t) xwg_reduce_max_int_wait_of(xwg__self, (t))
#define xwg_reduce_max_float_arrive(v)                                         \
    xwg_reduce_max_float_arrive_of(xwg__self, (v))
#define xwg_reduce_max_float_wait(t)                                           \
    xwg_reduce_max_float_wait_of(xwg__self, (t))
#define xwg_reduce_add_float2(v) xwg_reduce_add_float2_of(xwg__self, (v))
#define xwg_reduce_add_float2_arrive(v)                                        \
    xwg_reduce_add_float2_arrive_of(xwg__self, (v))
#define xwg_reduce_add_float2_wait(t)                                          \
    xwg_reduce_add_float2_wait_of(xwg__self, (t))
#define xwg_broadcast_uint(v, from) xwg_broadcast_uint_of(xwg__self, (v), (from))
#define xwg_broadcast_int(v, from) xwg_broadcast_int_of(xwg__self, (v), (from))
#define xwg_broadcast_float(v, from)                                           \
    xwg_broadcast_float_of(xwg__self, (v), (from))
#define xwg_scan_groups_exclusive_add_uint(v, total)                           \
    xwg_scan_groups_exclusive_add_uint_of(xwg__self, (v), (total))
#define xwg_scan_groups_exclusive_add_int(v, total)                            \
    xwg_scan_groups_exclusive_add_int_of(xwg__self, (v), (total))
#define xwg_scan_groups_exclusive_add_float(v, total)                          \
    xwg_scan_groups_exclusive_add_float_of(xwg__self, (v), (total))
#define xwg_scan_exclusive_add_uint(v, total)                                  \
    xwg_scan_exclusive_add_uint_of(xwg__self, (v), (total))
#define xwg_scan_exclusive_add_int(v, total)                                   \
    xwg_scan_exclusive_add_int_of(xwg__self, (v), (total))
#define xwg_scan_exclusive_add_float(v, total)                                 \
    xwg_scan_exclusive_add_float_of(xwg__self, (v), (total))
