/*
 * barrier_stress.cl - the barrier tests' stress kernel, embedded at build
 * time as stress_source (tests/barrier_kernels.h says who runs it).
 *
 * stress: in every episode each work-item stores a value with a plain
 * store; after the barrier it reads the value of the same work-item in
 * another group, a different group each episode, and counts wrong ones
 * (at most 1000 per work-item, so that the 32-bit total cannot wrap).
 * A second barrier keeps the next episode's stores after every read,
 * called through a helper that takes xwg_self by value, as users' helpers
 * do: both call sites must count the same episodes. A barrier that lets
 * any group pass early shows as wrong values.
 */

inline uint expected(uint e, uint slot) { return e * 0x9E3779B9u ^ slot; }
inline void settle(xwg_self self) { xwg_barrier_of(self); }
__kernel void stress(__global uint *data, __global uint *errors,
                     uint episodes, XWG_STATE)
{
    XWG_DISCOVER();
    const uint g = xwg_group_id(), n = xwg_num_groups();
    const uint l = get_local_id(0), size = get_local_size(0);
    uint bad = 0;
    for (uint e = 1; e <= episodes && !xwg_failed(); e++) {
        data[g * size + l] = expected(e, g * size + l);
        xwg_barrier();
        uint h = n > 1 ? (g + 1 + e % (n - 1)) % n : g;
        if (data[h * size + l] != expected(e, h * size + l))
            bad++;
        settle(XWG_SELF);
    }
    if (bad) /* a 32-bit sum of counts could wrap; saturate */
        atomic_add(errors, min(bad, 1000u));
}
