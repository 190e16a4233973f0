/* plain_load.cl - state_load.cl's loads from a plain buffer
 * (clcost_reads.c). */
__kernel void e(__global uint *p)
{ if (get_local_id(0) == 0 && p[1] == 12345u) p[2] = 1u; }
