/* count.cl - xwg-clcost's plain kernel (clcost_kernels.c, clcost_reads.c):
 * its first work-item counts its launches in p[0]. */
__kernel void e(__global uint *p)
{ if (get_global_id(0) == 0) p[0]++; }
