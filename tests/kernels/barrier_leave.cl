/*
 * barrier_leave.cl - a kernel of test_barrier.c, embedded at build time as
 * leave_source (tests/kernels/CMakeLists.txt).
 *
 * leave_count: group 0 alone arrives at the grid counter and returns, as a
 * split barrier's arrive in one group and in no other would (misuse the
 * kernel cannot see: nobody waits, so the launch succeeds), and leaves a
 * count in the counter. The arrival is called without the split
 * barrier's work-group barrier, which PoCL cannot compile in a branch.
 */

__kernel void leave_count(XWG_STATE)
{
    XWG_DISCOVER();
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
        (void)xwg__counter_arrive(xwg__self);
}
