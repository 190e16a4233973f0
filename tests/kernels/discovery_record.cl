/*
 * discovery_record.cl - a kernel of test_discovery.c, embedded at build
 * time as record_source (tests/kernels/CMakeLists.txt).
 *
 * Each group's work-item 0 records its xwg group id and the group count
 * that discovery gave it, by hardware group id.
 */

__kernel void record(__global uint *ids, __global uint *counts,
                     XWG_STATE)
{
    XWG_DISCOVER();
    if (get_local_id(0) == 0) {
        ids[get_group_id(0)] = xwg_group_id();
        counts[get_group_id(0)] = xwg_num_groups();
    }
}
