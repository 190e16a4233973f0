/*
 * barrier_fence.cl - a kernel of test_barrier.c, embedded at build time as
 * fence_source (tests/kernels/CMakeLists.txt).
 *
 * Message passing inside one group with each fence: the writer stores
 * the data, fences, raises the flag; the reader sees the flag after a
 * work-group barrier, fences, reads. Checks that the helpers exist on
 * both paths and keep a simple ordering; what each forbids between
 * groups is the litmus suite's job.
 */

__kernel void fences(__global uint *data, __global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    if (get_local_id(0) == 0) {
        data[0] = 10; xwg_fence_work_group();
        data[1] = 20; xwg_fence_device();
        data[2] = 30; xwg_fence_system();
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (get_local_id(0) == 1 && xwg_group_id() == 0)
        out[0] = data[0] + data[1] + data[2];
}
