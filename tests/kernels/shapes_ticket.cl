/*
 * shapes_ticket.cl - a kernel of test_shapes.c, embedded at build time as
 * ticket_source (tests/kernels/CMakeLists.txt).
 *
 * Each participant records its id and count per hardware group, stores a
 * value per work-item (salted per launch, so that a stale one from an
 * earlier launch is wrong), and after one barrier checks the value of the
 * next group's work-item.
 */

__kernel void ticket(__global uint *ids, __global uint *counts,
                     __global uint *data, __global uint *bad,
                     uint salt, XWG_STATE)
{
    XWG_DISCOVER();
    const uint g = xwg_group_id(), n = xwg_num_groups();
    if (get_local_id(0) == 0) {
        ids[get_group_id(0)] = g;
        counts[get_group_id(0)] = n;
    }
    data[xwg_global_id()] = xwg_global_id() * 0x9E3779B9u ^ salt;
    xwg_barrier();
    const uint j = ((g + 1) % n) * get_local_size(0) + get_local_id(0);
    if (data[j] != (j * 0x9E3779B9u ^ salt))
        atomic_inc(bad);
}
