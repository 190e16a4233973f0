/*
 * shapes_ids.cl - a kernel of test_shapes.c, embedded at build time as
 * ids_source (tests/kernels/CMakeLists.txt).
 *
 * Each participant writes, per hardware group, its xwg group id and
 * count, and per work-item its xwg global id and size, through the
 * macros and through the _of(XWG_SELF) forms of a helper. Hardware group
 * 0 first waits (work-item 0, bounded) until the poll has closed, so it
 * never participates: participants' hardware ids are then never their
 * xwg ids. held[0] says whether the wait ended by the close. The wait
 * reads the protocol's own words (tests only), and only in a launch's
 * run mode: discovery-only launches and the calibration must run as
 * they do for users.
 */

inline void hold_group_0(volatile XWG__GLOBAL_WORD *state,
                         __global uint *held)
{
    if (get_group_id(0) != 0 || get_local_id(0) != 0 ||
        xwg__load_relaxed(&state[XWG__W_MODE]) != XWG__MODE_RUN)
        return;
    const int ticket = xwg__load_relaxed(&state[XWG__W_PROTOCOL]) == 1u;
    for (uint i = 0; i < 0x7fffffffu; i++) {
        uint closed = ticket
            ? xwg__load_relaxed(&state[XWG__W_POLL_OPEN]) == 0u
            : (xwg__load_relaxed(&state[XWG__W_ARRIVALS]) & XWG__CLOSED);
        if (closed) {
            held[0] = 1u;
            return;
        }
    }
}
inline void record_of(xwg_self self, __global uint *alt)
{
    const uint w = get_group_id(0) * get_local_size(0) + get_local_id(0);
    alt[4 * w + 0] = xwg_group_id_of(self);
    alt[4 * w + 1] = xwg_num_groups_of(self);
    alt[4 * w + 2] = xwg_global_id_of(self);
    alt[4 * w + 3] = xwg_global_size_of(self);
}
__kernel void ids(__global uint *held, __global uint *group_ids,
                  __global uint *counts, __global uint *gids,
                  __global uint *gsizes, __global uint *alt, XWG_STATE)
{
    hold_group_0(xwg__state, held);
    XWG_DISCOVER();
    const uint hw = get_group_id(0), l = get_local_id(0);
    const uint w = hw * get_local_size(0) + l;
    if (l == 0) {
        group_ids[hw] = xwg_group_id();
        counts[hw] = xwg_num_groups();
    }
    gids[w] = xwg_global_id();
    gsizes[w] = xwg_global_size();
    record_of(XWG_SELF, alt);
}
