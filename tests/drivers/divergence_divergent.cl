/*
 * divergence_divergent.cl - a kernel of divergence_checks.c, embedded at
 * build time as divergent_source (tests/drivers/CMakeLists.txt).
 *
 * Barriers and an all-reduce made by one work-item or half of a group
 * only, each of which must end in XWG_ERROR_BARRIER_MISUSE where the
 * device lets them pass; by_all makes the same calls in every work-item
 * and must succeed with the right sum.
 */

__kernel void barrier_by_one(__global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    if (get_local_id(0) == 0)
        xwg_barrier();
    out[xwg_global_id()] = 1u;
}
__kernel void barrier_by_half(__global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    if (get_local_id(0) < get_local_size(0) / 2)
        xwg_barrier();
    out[xwg_global_id()] = 1u;
}
__kernel void sum_by_one(__global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    if (get_local_id(0) == 0)
        out[xwg_group_id()] = xwg_reduce_add_uint(1u);
}
__kernel void sum_by_half(__global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    uint sum = 0u;
    if (get_local_id(0) < get_local_size(0) / 2)
        sum = xwg_reduce_add_uint(1u);
    if (get_local_id(0) == 0)
        out[xwg_group_id()] = sum;
}
__kernel void by_all(__global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    xwg_barrier();
    const xwg_token t = xwg_barrier_arrive();
    xwg_barrier_wait(t);
    const uint sum = xwg_reduce_add_uint(1u);
    if (xwg_global_id() == 0)
        out[0] = sum;
}
