/* spin.cl - a plain kernel whose first work-item spins `spins` times on a
 * volatile word, then counts its launches in p[0] (clcost_waits.c). */
__kernel void e(volatile __global uint *p, uint spins)
{ if (get_global_id(0) == 0) {
    for (uint i = 0; i < spins; i++) p[1] += i;
    p[0]++; } }
