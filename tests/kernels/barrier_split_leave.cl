/*
 * barrier_split_leave.cl - a kernel of test_barrier.c, embedded at build
 * time as split_leave_source (tests/kernels/CMakeLists.txt).
 *
 * A misuse the kernel cannot see: group 0 arrives at the split barrier
 * and returns, with no wait, while no other group arrives. Its arrival
 * stays counted (the grid counter's count, or its tree cluster's). The
 * kernel makes the arrival as xwg_barrier_arrive() does, without the
 * arrive's work-group barrier: PoCL miscompiles one in a branch.
 */

__kernel void split_leave(XWG_STATE)
{
    XWG_DISCOVER();
    if (xwg_group_id() == 0 && get_local_id(0) == 0) {
        if (xwg__self.barrier_algo == XWG__BARRIER_TREE) {
            xwg__split_mark(xwg__self);
            (void)xwg__tree_arrive(xwg__self, xwg__tree_flat(xwg__self));
        } else
            (void)xwg__counter_arrive(xwg__self);
    }
}
