/*
 * watchdog_sizes.cl - a kernel of test_watchdog.c, embedded at build time
 * as sizes_source (tests/kernels/CMakeLists.txt).
 *
 * Each participant writes how many groups the hardware launched and its
 * participants; group 0 also the first.
 */

__kernel void sizes(__global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    if (get_local_id(0) == 0 && xwg_group_id() == 0) {
        out[0] = get_num_groups(0);
        out[1] = xwg_num_groups();
    }
}
