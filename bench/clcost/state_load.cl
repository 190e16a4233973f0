/* state_load.cl - an xwg kernel whose groups load a word of the state,
 * and store one only on a value that never comes (clcost_reads.c). */
__kernel void e(XWG_STATE) { if (get_local_id(0) == 0 &&
    xwg__load_relaxed(&xwg__state[1]) == 12345u)
    xwg__store_relaxed(&xwg__state[200], 1u); }
