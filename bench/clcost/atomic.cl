/* atomic.cl - count.cl with the count an atomic (clcost_reads.c). */
__kernel void e(__global uint *p)
{ if (get_global_id(0) == 0) atomic_inc(p); }
