/*
 * barrier_known_bad.cl - a kernel with faults that Oclgrind must report,
 * embedded at build time as known_bad_source (tests/barrier_kernels.h says
 * who runs it).
 *
 * known_bad: a real race inside one group (every work-item writes one
 * word) and a read of uninitialised local memory. Under Oclgrind both must
 * be told apart from the expected reports between groups.
 */

__kernel void known_bad(__global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    __local uint scratch[4];
    out[xwg_group_id()] = get_local_id(0);
    out[64 + xwg_global_id()] = scratch[get_local_id(0) % 4];
    xwg_barrier();
}
