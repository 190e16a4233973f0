/* carriers_global.cl - carriers.cl's count with the state in a
 * program-scope variable (clcost_carriers.c): one per program, so a
 * launch in flight on another queue would share it. Its body is
 * CARRIER_BODY (carrier_body.h, embedded in front). */
__global uint xwg_probe_state[64];
__kernel void glob(__global uint *p)
CARRIER_BODY(xwg_probe_state[1])
