/*
 * xwg_discover_probe.cl - the probe kernels of xwg-discover
 * (xwg_discover.c), embedded into the program at build time as
 * probe_source (CMakeLists.txt, xwg_embed_cl), so that an installed
 * xwg-discover needs no file.
 *
 * Two probe kernels: without and with a dynamic __local argument (OpenCL
 * cannot set a __local argument to 0 bytes). Their bodies never run in
 * discovery; they exist so the local memory is really allocated.
 */

__kernel void xwg_probe(XWG_STATE)
{
    XWG_DISCOVER();
}
__kernel void xwg_probe_local(__local uint *scratch, XWG_STATE)
{
    XWG_DISCOVER();
    if (get_local_id(0) == 0)
        scratch[0] = xwg_group_id();
}
