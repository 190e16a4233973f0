/*
 * placed.cl - the kernels of placed.c, embedded at build time into
 * xwg-bench's one program, bench_source, after floor.cl.
 *
 * barriers_placed runs the library's barrier with its words in a buffer
 * of the bench's; the proto_* kernels are the tree's flat-wake
 * prototypes.
 */

/* The library's barrier, with its words `base` words into `words`
 * instead of in the state buffer. */
__kernel void barriers_placed(uint count, volatile __global xwg_word
                              *words, uint base, XWG_STATE)
{
    XWG_DISCOVER();
    xwg_self placed = XWG_SELF;
    placed.state = words + base;
    for (uint i = 0; i < count && !xwg_failed_of(placed); i++)
        xwg_barrier_of(placed);
}
/* Prototypes of the tree's flat wake (--prototypes), with clusters of
 * XWG_TUNE_TREE_FANIN as the library's: MONO 1 lets cluster counts grow
 * (the last of cluster c in episode e brings it to e * members), 0
 * resets them as the library does; LOCAL_EPISODES 1 keeps the episode
 * count in local memory as the library does, 0 in a register. */
#define XWG__PROTO_TREE(name, MONO, LOCAL_EPISODES)\
__kernel void name(uint count, volatile __global xwg_word *words,\
                   uint base, XWG_STATE)\
{\
    XWG_DISCOVER();\
    __local uint failed, episodes;\
    const uint g = xwg_group_id(), n = xwg_num_groups();\
    const uint fanin = XWG_TUNE_TREE_FANIN;\
    const uint cluster = g / fanin, clusters = (n + fanin - 1u) / fanin;\
    const uint members = min(fanin, n - cluster * fanin);\
    volatile __global xwg_word *top = &words[base + XWG__W_COUNTER];\
    volatile __global xwg_word *sub =\
        &words[base + XWG__W_FLAGS + cluster * XWG__LINE_WORDS];\
    const uint add = cluster == 0u ? XWG__SENSE - (clusters - 1u) : 1u;\
    const ulong bound = XWG_SELF.watchdog;\
    if (get_local_id(0) == 0) { failed = 0u; episodes = 0u; }\
    for (uint e = 1; e <= count; e++) {\
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\
        if (get_local_id(0) == 0) {\
            const uint ep = LOCAL_EPISODES ? ++episodes : e;\
            const uint before = (ep - 1u) & 1u ? XWG__SENSE : 0u;\
            uint last = 0u;\
            uint old = xwg__fetch_add_acq_rel(sub, 1u);\
            if (MONO ? old + 1u == ep * members : old == members - 1u) {\
                if (!MONO)\
                    xwg__store_relaxed(sub, 0u);\
                last = (((xwg__fetch_add_acq_rel(top, add) + add) ^\
                         before) & XWG__SENSE) != 0u;\
            }\
            if (!last && xwg__await_change(top, before, XWG__SENSE,\
                                           XWG_SELF.state, bound))\
                failed = 1u;\
        }\
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\
        if (failed)\
            return;\
    }\
}
XWG__PROTO_TREE(proto_mono, 1, 0)
XWG__PROTO_TREE(proto_reset, 0, 0)
XWG__PROTO_TREE(proto_mono_localep, 1, 1)
XWG__PROTO_TREE(proto_reset_localep, 0, 1)
