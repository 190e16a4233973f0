/* state_store.cl - an xwg kernel whose first work-item counts its
 * launches in a word of the state (clcost_reads.c). */
__kernel void e(XWG_STATE) { if (get_global_id(0) == 0)
    xwg__store_relaxed(&xwg__state[200],
                       xwg__load_relaxed(&xwg__state[200]) + 1u); }
