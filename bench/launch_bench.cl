/*
 * launch_bench.cl - the kernels that xwg-launch-bench launches
 * (launch_bench.c): empty ones, plain and xwg, one that touches local
 * memory, and a request of 10 barriers (BARRIERS_PER_REQ there). The
 * build embeds them as launch_bench_source.
 */

__kernel void empty(__global uint *sink)
{
    if (get_global_id(0) == 0)
        sink[0] += 1;
}
__kernel void empty_2args(__global uint *sink, __global uint *unused)
{
    if (get_global_id(0) == 0)
        sink[0] += 1;
}
__kernel void xwg_empty(__global uint *sink, XWG_STATE)
{
    XWG_DISCOVER();
    if (xwg_global_id() == 0)
        sink[0] += 1;
}
__kernel void touch(__global uint *sink)
{
    __local uint seen;
    if (get_local_id(0) == 0)
        seen = sink[1];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_global_id(0) == 0)
        sink[0] += seen + 1u;
}
__kernel void xwg_touch(__global uint *sink, XWG_STATE)
{
    XWG_DISCOVER();
    __local uint seen;
    if (get_local_id(0) == 0)
        seen = sink[1];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (xwg_global_id() == 0)
        sink[0] += seen + 1u;
}
__kernel void request(__global uint *sink, XWG_STATE)
{
    XWG_DISCOVER();
    for (uint i = 0; i < 10u && !xwg_failed(); i++)
        xwg_barrier();
    if (xwg_global_id() == 0)
        sink[0] += 1;
}
