/*
 * watchdog_propagation.cl - a kernel of test_watchdog.c, embedded at build
 * time as propagation_source (tests/kernels/CMakeLists.txt).
 *
 * The last group does not arrive; its work-item 0 makes one wait of its
 * own, with the library's wait and a bound of 1024 polls, on a word that
 * never changes: that wait runs out and marks the launch failed, as any
 * timed-out barrier wait does. The other groups run BARRIERS barriers
 * under the launch's own bound, which the test makes as long as the host
 * allows (2^42 polls, minutes each): they can only leave in
 * time because every wait reads the failed mark every
 * XWG_TUNE_FLAG_EVERY polls. A watchdog that did not spread a failure
 * would run out each of those bounds in turn, for far longer than the
 * Check timeout. Reads of the failed mark are the library's own
 * (xwg__await_change, tests only).
 */

/* The barriers the other groups run (test_watchdog.c prints it). */
#define PROPAGATION_BARRIERS 100
__kernel void one_times_out(__global uint *out,
                            volatile XWG__GLOBAL_WORD *never, XWG_STATE)
{
    XWG_DISCOVER();
    if (xwg_group_id() == xwg_num_groups() - 1) {
        if (get_local_id(0) == 0)
            out[63] = xwg__await_change(never, 0u, 0xffffffffu,
                                        xwg__state, 1024u);
        return;
    }
    for (int i = 0; i < PROPAGATION_BARRIERS; i++)
        xwg_barrier();
    if (get_local_id(0) == 0)
        out[xwg_group_id()] = xwg_failed();
}
