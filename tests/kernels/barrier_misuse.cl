/*
 * barrier_misuse.cl - the barrier misuses that the watchdog must end,
 * embedded at build time as misuse_source (tests/barrier_kernels.h says who
 * runs them).
 *
 * The misuses the watchdog must turn into XWG_ERROR_BARRIER_TIMEOUT. Each
 * runs 50 barriers, so a watchdog that did not make later barriers return
 * at once would take 50 bounds. out[g] records xwg_failed() at the end.
 */

/* The last group returns without calling the barrier. */
__kernel void early_return(__global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    if (xwg_group_id() == xwg_num_groups() - 1)
        return;
    for (int i = 0; i < 50; i++)
        xwg_barrier();
    if (get_local_id(0) == 0)
        out[xwg_group_id()] = xwg_failed();
}
/* A barrier inside a branch that only the even groups take. */
__kernel void divergent(__global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    if (xwg_group_id() % 2 == 0)
        xwg_barrier();
    for (int i = 0; i < 50; i++)
        xwg_barrier();
    if (get_local_id(0) == 0)
        out[xwg_group_id()] = xwg_failed();
}
/* Correct code; launched past the occupancy with discovery skipped. */
__kernel void plain(__global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    for (int i = 0; i < 50; i++)
        xwg_barrier();
    if (get_local_id(0) == 0)
        out[xwg_group_id()] = xwg_failed();
}
