/* count_two.cl - count.cl's kernel with a second buffer argument, unused
 * (clcost_waits.c, finishes). */
__kernel void f(__global uint *p, __global uint *s)
{ if (get_global_id(0) == 0) p[0]++; }
