/*
 * calibrate.cl - the kernel that calibrate.c times each barrier with,
 * embedded into the library at build time as xwg__calibrate_source
 * (CMakeLists.txt): `count` barriers.
 */

__kernel void xwg__calibrate(uint count, XWG_STATE)
{
    XWG_DISCOVER();
    for (uint i = 0u; i < count && !xwg_failed(); i++)
        xwg_barrier();
}
