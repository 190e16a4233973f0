/*
 * self_test.cl - the self-test's kernel (self_test.c), embedded into the
 * library at build time as xwg__self_test_source (CMakeLists.txt).
 *
 * wrong[0]: values of an earlier episode (slot o only ever holds e * n + o
 * for the episodes e so far, so a smaller value is an older one; no
 * division, whose `freeze` Oclgrind's checker cannot run); wrong[1]: the
 * buffer's 0; wrong[2]: anything else (a later episode's value). Each
 * work-item counts at most `episodes` of each, so the sums cannot wrap
 * below 2^26 work-items.
 */

__kernel void xwg_self_test(__global uint *data, __global uint *wrong,
                            uint episodes, XWG_STATE)
{
    XWG_DISCOVER();
    const uint g = xwg_group_id(), n = xwg_num_groups();
    const uint l = get_local_id(0), size = get_local_size(0);
    uint stale = 0, unwritten = 0, other = 0;
    for (uint e = 1; e <= episodes && !xwg_failed(); e++) {
        data[g * size + l] = e * n + g; /* plain stores */
        xwg_barrier();
        uint o = (g + 1 + e % (n > 1 ? n - 1 : 1)) % n;
        uint v = data[o * size + l]; /* a plain load */
        if (v != e * n + o) {
            if (v == 0)
                unwritten++;
            else if (v < e * n + o)
                stale++;
            else
                other++;
        }
        xwg_barrier();
    }
    if (stale)
        atomic_add(&wrong[0], stale);
    if (unwritten)
        atomic_add(&wrong[1], unwritten);
    if (other)
        atomic_add(&wrong[2], other);
}
