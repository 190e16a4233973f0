/*
 * discovery_window.cl - a kernel of test_discovery.c, embedded at build
 * time as window_source (tests/kernels/CMakeLists.txt).
 *
 * The stable window's own contract, which recall rests on: it closes only
 * after `window` polls in which the arrivals word did not change, however
 * long the changes go on. Group 1's work-item 0 makes `changes` adds to a
 * word of the test's, as arriving groups would; group 0's waits (bounded)
 * for the first, then runs the library's window (xwg__wait_stable, tests
 * only) on that word and writes what it read when the window closed.
 */

__kernel void window(__global uint *out, volatile XWG__GLOBAL_WORD *w,
                     uint window, uint changes, XWG_STATE)
{
    XWG_DISCOVER();
    if (get_local_id(0) != 0)
        return;
    if (xwg_group_id() == 1) {
        for (uint i = 0; i < changes; i++)
            xwg__add_relaxed(&w[0], 1u);
        return;
    }
    ulong polls = 0u;
    uint seen;
    while ((seen = xwg__load_relaxed(&w[0])) == 0u &&
           !xwg__wait_expired(&w[1], &polls, 0xffffffffu))
        ;
    xwg__wait_stable(&w[0], seen, window, XWG__NO_LIMIT);
    out[0] = xwg__load_relaxed(&w[0]);
}
