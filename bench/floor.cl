/*
 * floor.cl - the floor's kernels (floor.c), embedded at build time into
 * xwg-bench's one program, bench_source, after xwg_bench.cl.
 *
 * pingpong_rounds hands a flag between two groups; pingpong runs it in an
 * xwg kernel, pingpong_bare in a plain one.
 */

/* Two groups hand a flag back and forth through memory: a release
 * store, and polls that acquire as the barriers' waits do
 * (XWG_TUNE_COLLECT). With `relaxed` set, every access is relaxed:
 * the hardware's round trip without any ordering. A wait gives up
 * after 2^24 polls (the two groups are not running together) and
 * says so in flags[64], so that the bench reports it, not hangs. */
inline void pingpong_rounds(volatile __global xwg_word *flags,
                            uint rounds, uint relaxed, uint g)
{
    volatile __global xwg_word *mine = &flags[g * 32u];
    volatile __global xwg_word *theirs = &flags[(1u - g) * 32u];
    for (uint r = 1; r <= rounds; r++) {
        if (g == 0u) {
            if (relaxed) xwg__store_relaxed(mine, r);
            else xwg__store_release(mine, r);
        }
        uint polls = 0u;
        while ((relaxed ? xwg__load_relaxed(theirs) : xwg__poll(theirs))
               != r)
            if (++polls == (1u << 24)) {
                xwg__store_relaxed(&flags[64], 1u);
                return;
            }
        if (!relaxed)
            xwg__collected(theirs);
        if (g == 1u) {
            if (relaxed) xwg__store_relaxed(mine, r);
            else xwg__store_release(mine, r);
        }
    }
}
__kernel void pingpong(volatile __global xwg_word *flags, uint rounds,
                       uint relaxed, uint base, XWG_STATE)
{
    XWG_DISCOVER();
    if (get_local_id(0) == 0 && xwg_group_id() < 2)
        pingpong_rounds(flags + base, rounds, relaxed, xwg_group_id());
}
/* The same in a kernel that is no xwg kernel at all: no state
 * argument, no discovery, no local memory, launched directly. Where
 * its floor is lower, the cost is in what an xwg kernel carries. */
__kernel void pingpong_bare(volatile __global xwg_word *flags,
                            uint rounds, uint relaxed, uint base)
{
    if (get_local_id(0) == 0 && get_group_id(0) < 2)
        pingpong_rounds(flags + base, rounds, relaxed, get_group_id(0));
}
