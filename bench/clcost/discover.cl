/* discover.cl - an xwg kernel that only discovers (clcost_reads.c). */
__kernel void e(XWG_STATE) { XWG_DISCOVER(); }
