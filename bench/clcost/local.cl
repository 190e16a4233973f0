/* local.cl - count.cl through local memory and a work-group barrier
 * (clcost_reads.c). */
__kernel void e(__global uint *p) { __local uint s[8];
    if (get_local_id(0) == 0) s[0] = p[1];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_global_id(0) == 0) p[0] += s[0]; }
