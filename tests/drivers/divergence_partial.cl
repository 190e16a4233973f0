/*
 * divergence_partial.cl - a kernel of divergence_checks.c, embedded at
 * build time as partial_source (tests/drivers/CMakeLists.txt).
 *
 * Plain OpenCL: work-item 0 alone counts itself into a local word and
 * waits at a work-group barrier, then stores the count. The device lets
 * a partial barrier pass when exactly one work-item entered the branch
 * and it came back from the barrier with the count 1.
 */

__kernel void partial(__global uint *out)
{
    __local uint count;
    if (get_local_id(0) == 0)
        count = 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        atomic_inc(&out[0]);
        atomic_inc(&count);
        barrier(CLK_LOCAL_MEM_FENCE);
        out[1] = count + 1u;
    }
}
