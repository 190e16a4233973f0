/*
 * api_good.cl - a kernel of test_api.c, embedded at build time as
 * good_source (tests/kernels/CMakeLists.txt).
 */

__kernel void k(__global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    if (get_local_id(0) == 0)
        out[xwg_group_id()] = xwg_num_groups();
}
__kernel void with_local(__local uint *scratch, XWG_STATE)
{
    XWG_DISCOVER();
    scratch[get_local_id(0)] = 0;
}
__kernel void no_state(__global uint *out)
{
    out[get_global_id(0)] = 1;
}
