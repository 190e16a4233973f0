/*
 * collective_misuse.cl - the misuses of the split barrier and the
 * collectives, embedded at build time as collective_misuse_source
 * (collective_checks.c runs them).
 *
 * The misuses the kernel can see, one kernel each; every one must end in
 * XWG_ERROR_BARRIER_MISUSE, not in a hang or a success.
 */

__kernel void arrive_twice(XWG_STATE) {
    XWG_DISCOVER();
    xwg_token a = xwg_barrier_arrive();
    xwg_token b = xwg_barrier_arrive();
    xwg_barrier_wait(b);
    (void)a;
}
__kernel void wait_without_arrive(XWG_STATE) {
    XWG_DISCOVER();
    xwg_barrier_wait(0u);
}
__kernel void barrier_while_arrived(XWG_STATE) {
    XWG_DISCOVER();
    xwg_token t = xwg_barrier_arrive();
    xwg_barrier();
    xwg_barrier_wait(t);
}
__kernel void reduce_wait_mismatch(__global uint *out, XWG_STATE) {
    XWG_DISCOVER();
    xwg_reduce_token t = xwg_reduce_add_uint_arrive(1u);
    uint x = xwg_reduce_max_uint_wait(t);
    if (xwg_global_id() == 0) out[0] = x;
}
__kernel void collective_while_reducing(__global uint *out, XWG_STATE) {
    XWG_DISCOVER();
    xwg_reduce_token t = xwg_reduce_add_uint_arrive(1u);
    uint y = xwg_reduce_add_uint(1u);
    uint x = xwg_reduce_add_uint_wait(t);
    if (xwg_global_id() == 0) out[0] = x + y;
}
__kernel void reduce_wait_mismatch_float2(__global uint *out, XWG_STATE) {
    XWG_DISCOVER();
    xwg_reduce_token t = xwg_reduce_add_float_arrive(1.0f);
    float2 x = xwg_reduce_add_float2_wait(t);
    if (xwg_global_id() == 0) out[0] = as_uint(x.x);
}
__kernel void broadcast_from_nobody(__global uint *out, XWG_STATE) {
    XWG_DISCOVER();
    uint x = xwg_broadcast_uint(1u, xwg_num_groups());
    if (xwg_global_id() == 0) out[0] = x;
}
