/*
 * device_barrier.cl - the kernels of xwg-intel-barrier
 * (device_barrier.c): Intel's own device barrier timed, a work-group
 * barrier loop, its check and an empty kernel, embedded at build time
 * as intel_barrier_source, so that the installed tool needs no file.
 *
 * The runtime's compiler knows the builtins but its headers declare
 * neither (a use is an "undeclared identifier"), so the source declares
 * them as the spec spells them; memory_scope needs -cl-std=CL2.0. Where
 * the spec leaves the barrier undefined (not valid), the kernels run none
 * and the check's sums of zero show it. The check runs rounds because the
 * timing loop reuses the barrier: a round's second barrier keeps the next
 * round's writes behind its reads. `barriers` 0 is the known-bad check.
 */

void __attribute__((overloadable))
    intel_device_barrier(cl_mem_fence_flags, memory_scope);
bool __attribute__((overloadable)) intel_is_device_barrier_valid(void);
#define BARRIER() \
    intel_device_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device)
kernel void syncs(uint count)
{
    for (uint i = 0; i < count && intel_is_device_barrier_valid(); i++)
        BARRIER();
}
kernel void work_group_barriers(uint count, volatile global uint *word)
{
    uint seen = 0;
    for (uint i = 0; i < count; i++) {
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        if (get_local_id(0) == 0)
            seen += *word;
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
    if (get_local_id(0) == 0 && seen == 1u)
        *word = seen;
}
kernel void check(uint rounds, uint barriers, global uint *slots,
                  global uint *sums)
{
    const uint g = get_group_id(0), n = get_num_groups(0);
    const bool leader = get_local_id(0) == 0;
    uint sum = 0;
    const bool valid = intel_is_device_barrier_valid();
    for (uint r = 0; r < rounds && valid; r++) {
        if (leader)
            slots[g] = r * n + g + 1;
        if (barriers)
            BARRIER();
        for (uint i = 0; leader && i < n; i++)
            sum += slots[i];
        if (barriers)
            BARRIER();
    }
    if (leader)
        sums[g] = sum;
}
kernel void empty(global uint *sink)
{
    if (get_global_id(0) == 0)
        sink[0] += 1;
}
