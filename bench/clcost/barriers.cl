/* barriers.cl - xwg-clcost's xwg kernel (clcost.c): `count` barriers. */
__kernel void k(uint count, XWG_STATE)
{ XWG_DISCOVER(); for (uint i = 0; i < count; i++) xwg_barrier(); }
