/* empty_xwg.cl - an xwg kernel that does nothing (clcost_reads.c). */
__kernel void e(XWG_STATE) { }
