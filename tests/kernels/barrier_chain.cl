/*
 * barrier_chain.cl - a kernel of test_barrier.c, embedded at build time as
 * chain_source (tests/kernels/CMakeLists.txt).
 *
 * A kernel with XWG_STATE that never runs XWG_DISCOVER(): its launches
 * cannot be told from launches that never ran. And one that arrives at the
 * split barrier twice: XWG_ERROR_BARRIER_MISUSE.
 */

__kernel void undiscovered(__global uint *out, XWG_STATE)
{
    if (get_global_id(0) == 0)
        out[0] = 7u;
}
__kernel void arrive_twice(__global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    xwg_token t = xwg_barrier_arrive();
    t = xwg_barrier_arrive();
    xwg_barrier_wait(t);
}
