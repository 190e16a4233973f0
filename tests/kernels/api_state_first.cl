/*
 * api_state_first.cl - a kernel of test_api.c, embedded at build time as
 * state_first_source (tests/kernels/CMakeLists.txt).
 *
 * A kernel with XWG_STATE as its first argument, where good_source's k
 * has it second: a launch must learn each kernel's own index.
 */

__kernel void state_first(XWG_STATE, __global uint *out)
{
    XWG_DISCOVER();
    if (get_local_id(0) == 0)
        out[xwg_group_id()] = 7u + xwg_num_groups();
}
