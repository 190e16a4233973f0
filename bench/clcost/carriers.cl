/*
 * carriers.cl - the kernels of xwg-clcost's carriers mode
 * (clcost_carriers.c), one per way a launch's state could reach its
 * kernel: a second buffer, a scalar index, an address in a ulong; their
 * body is CARRIER_BODY (carrier_body.h, embedded in front).
 */
__kernel void one(__global uint *p) CARRIER_BODY(p[1])
__kernel void two(__global uint *p, __global uint *s)
CARRIER_BODY(s[1])
__kernel void scalar(__global uint *p, ulong s)
CARRIER_BODY(p[(uint)s])
__kernel void address(__global uint *p, ulong s)
CARRIER_BODY(((__global uint *)s)[1])
__kernel void store(__global uint *p, ulong s)
{ if (get_global_id(0) == 0) ((__global uint *)s)[1] = 42u; }
