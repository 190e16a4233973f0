/*
 * collective_split.cl - the split barrier's check, embedded at build time
 * as split_source (collective_checks.c runs it).
 *
 * split: the stress kernel's check (tests/barrier_kernels.h) through the
 * split barrier: every work-item stores, arrives, does work that touches
 * no shared data, waits, and reads another group's values, a different
 * group each episode. The next episode's stores are kept after those
 * reads by an xwg_barrier(), so that the two kinds of call also mix.
 */

inline uint expected(uint e, uint slot) { return e * 0x9E3779B9u ^ slot; }
__kernel void split(__global uint *data, __global uint *errors,
                    __global uint *work, uint episodes, XWG_STATE)
{
    XWG_DISCOVER();
    const uint g = xwg_group_id(), n = xwg_num_groups();
    const uint l = get_local_id(0), size = get_local_size(0);
    uint bad = 0, overlap = 0;
    for (uint e = 1; e <= episodes && !xwg_failed(); e++) {
        data[g * size + l] = expected(e, g * size + l);
        xwg_token t = xwg_barrier_arrive();
        for (uint k = 0; k < 16u; k++)   /* work between the two */
            overlap = overlap * 31u + expected(e, k ^ l);
        xwg_barrier_wait(t);
        uint h = n > 1 ? (g + 1 + e % (n - 1)) % n : g;
        if (data[h * size + l] != expected(e, h * size + l))
            bad++;
        xwg_barrier();
    }
    work[g * size + l] = overlap; /* keeps the work */
    if (bad)
        atomic_add(errors, min(bad, 1000u));
}
