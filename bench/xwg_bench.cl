/*
 * xwg_bench.cl - the kernels that xwg-bench times (xwg_bench.c): barriers,
 * split barriers and all-reduces in a loop, and an empty kernel. The build
 * embeds them, then floor.cl and placed.cl, as one program, bench_source.
 */

__kernel void barriers(uint count, XWG_STATE)
{
    XWG_DISCOVER();
    for (uint i = 0; i < count && !xwg_failed(); i++)
        xwg_barrier();
}
/* The split barrier with nothing between arrive and wait, and the
 * all-reduces: each result feeds the next call, so none is idle. */
__kernel void splits(uint count, __global float *sink, XWG_STATE)
{
    XWG_DISCOVER();
    for (uint i = 0; i < count && !xwg_failed(); i++) {
        xwg_token t = xwg_barrier_arrive();
        xwg_barrier_wait(t);
    }
}
__kernel void reduces_float(uint count, __global float *sink, XWG_STATE)
{
    XWG_DISCOVER();
    float acc = 1.0f;
    for (uint i = 0; i < count && !xwg_failed(); i++)
        acc = xwg_reduce_add_float(acc * 0.5f);
    if (xwg_global_id() == 0) sink[0] = acc;
}
/* The nonblocking all-reduce with nothing between arrive and wait;
 * then the same with work between (WORK dependent FMAs per
 * work-item), against the blocking call followed by that work: the
 * overlap is what the nonblocking call saves. */
#define WORK(w) for (uint k = 0; k < 256u; k++) w = fma(w, 0.999f, 0.5f)
__kernel void reduces_float_nb(uint count, __global float *sink, XWG_STATE)
{
    XWG_DISCOVER();
    float acc = 1.0f;
    for (uint i = 0; i < count && !xwg_failed(); i++) {
        xwg_reduce_token t = xwg_reduce_add_float_arrive(acc * 0.5f);
        acc = xwg_reduce_add_float_wait(t);
    }
    if (xwg_global_id() == 0) sink[0] = acc;
}
__kernel void reduces_float_work(uint count, __global float *sink, XWG_STATE)
{
    XWG_DISCOVER();
    float acc = 1.0f, w = (float)get_local_id(0);
    for (uint i = 0; i < count && !xwg_failed(); i++) {
        acc = xwg_reduce_add_float(acc * 0.5f + w * 1e-30f);
        WORK(w);
    }
    if (xwg_global_id() == 0) sink[0] = acc + w;
}
__kernel void reduces_float_nb_work(uint count, __global float *sink, XWG_STATE)
{
    XWG_DISCOVER();
    float acc = 1.0f, w = (float)get_local_id(0);
    for (uint i = 0; i < count && !xwg_failed(); i++) {
        xwg_reduce_token t = xwg_reduce_add_float_arrive(acc * 0.5f + w * 1e-30f);
        WORK(w);
        acc = xwg_reduce_add_float_wait(t);
    }
    if (xwg_global_id() == 0) sink[0] = acc + w;
}
__kernel void work_only(uint count, __global float *sink, XWG_STATE)
{
    XWG_DISCOVER();
    float w = (float)get_local_id(0);
    for (uint i = 0; i < count && !xwg_failed(); i++)
        WORK(w);
    if (xwg_global_id() == 0) sink[0] = w;
}
__kernel void reduces_uint(uint count, __global float *sink, XWG_STATE)
{
    XWG_DISCOVER();
    uint acc = 1u;
    for (uint i = 0; i < count && !xwg_failed(); i++)
        acc = xwg_reduce_add_uint(acc & 1u);
    if (xwg_global_id() == 0) sink[0] = (float)acc;
}
__kernel void empty(__global uint *sink)
{
    if (get_global_id(0) == 0)
        sink[0] += 1;
}
