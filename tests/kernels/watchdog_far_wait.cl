/*
 * watchdog_far_wait.cl - a kernel of test_watchdog.c, embedded at build
 * time as far_wait_source (tests/kernels/CMakeLists.txt).
 *
 * Group 0's work-item 0 counts polls with the library's own watchdog
 * step (xwg__wait_expired, tests only) under a bound of 2^32 - 1 polls,
 * and says when it is 128 polls in; group 1's then makes a wait of 1024
 * polls on a word that never changes, which runs out and marks the launch
 * failed. Group 0 must stop within XWG_TUNE_FLAG_EVERY polls of that
 * mark, long before its own bound: every interval of a wait reads the
 * flag, not only its first (a wait that read it once, at poll 64, would
 * count to 2^32 - 1 here).
 */

__kernel void far_wait(__global uint *out,
                       volatile XWG__GLOBAL_WORD *words, XWG_STATE)
{
    XWG_DISCOVER();
    if (get_local_id(0) != 0)
        return;
    ulong polls = 0u;
    if (xwg_group_id() == 0) {
        while (!xwg__wait_expired(xwg__state, &polls, 0xffffffffu))
            if (polls == 128u)
                xwg__store_relaxed(&words[0], 1u); /* 128 in */
        out[0] = (uint)polls;
    } else {
        while (xwg__load_relaxed(&words[0]) == 0u &&
               !xwg__wait_expired(&words[2], &polls, 0xffffffffu))
            ;
        out[1] = xwg__await_change(&words[1], 0u, 0xffffffffu,
                                   xwg__state, 1024u);
    }
}
