/*
 * api_good.cl - a kernel of test_api.c, embedded at build time as
 * good_source (tests/kernels/CMakeLists.txt).
 *
 * Three kernels that build: k (XWG_STATE second, records the group
 * count), with_local (a __local argument before XWG_STATE) and no_state
 * (no xwg at all), which the API tests launch, query and misuse.
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
