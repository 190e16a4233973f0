/*
 * barrier_arrivals.cl - a kernel of test_barrier.c, embedded at build time
 * as arrivals_source (tests/kernels/CMakeLists.txt).
 *
 * arrivals: `count` barriers; before each, work-item 0 of every group
 * counts its arrival (atomically, in arrived[b]), the last group after a
 * delay; after it, work-item 0 must see all n arrivals, or counts a wrong
 * read. A barrier that lets a group through before every group arrived
 * shows here, the delay making the early reads certain.
 */

__kernel void arrivals(__global uint *arrived, __global uint *wrong,
                       uint count, XWG_STATE)
{
    XWG_DISCOVER();
    const uint n = xwg_num_groups();
    for (uint b = 0; b < count && !xwg_failed(); b++) {
        if (get_local_id(0) == 0) {
            volatile uint spin = 0;
            if (xwg_group_id() == n - 1)
                for (uint i = 0; i < 200000u; i++) spin += i;
            atomic_inc(&arrived[b]);
        }
        xwg_barrier();
        if (get_local_id(0) == 0 && atomic_add(&arrived[b], 0u) != n)
            atomic_inc(wrong);
    }
}
