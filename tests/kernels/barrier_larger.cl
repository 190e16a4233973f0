/*
 * barrier_larger.cl - a kernel of test_barrier.c, embedded at build time as
 * larger_source (tests/kernels/CMakeLists.txt).
 *
 * A launch on fewer groups leaves its collectives' partials where a launch
 * on more groups has flags (xwg_state_layout.h): a larger launch on the
 * same state buffer must not take them for arrivals. With the XF barrier,
 * a one-group launch whose all-reduce publishes 1 leaves group 1's flag
 * at 1. In the two-group launch after it, group 1 arrives late (it spins
 * first) and marks its arrival: a master that took the stale flag for
 * that arrival passes the barrier before the mark.
 */

__kernel void seed(__global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    const uint sum = xwg_reduce_add_uint(get_local_id(0) == 0 ? 1u : 0u);
    if (get_local_id(0) == 0)
        out[0] = sum;
}
__kernel void late(__global volatile uint *mark, uint spin, XWG_STATE)
{
    XWG_DISCOVER();
    const uint g = xwg_group_id();
    if (g != 0u && get_local_id(0) == 0u) {
        uint sink = 0u;
        for (uint i = 0u; i < spin; i++)
            sink += mark[63]; /* volatile: every read happens */
        mark[g] = 1u + (sink & 0u);
    }
    xwg_barrier();
    if (g == 0u && get_local_id(0) == 0u)
        for (uint h = 1u; h < xwg_num_groups(); h++)
            if (mark[h] != 1u)
                mark[0] += 1u; /* arrivals seen before they were made */
}
