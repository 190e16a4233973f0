/*
 * probe.cl - the kernel that a context builds once where the self-test is
 * skipped and the atomics path is forced (context.c, forced_path_builds),
 * so that a path the device cannot compile is refused at once: discovery
 * and one barrier. Embedded into the library at build time as
 * xwg__probe_source (CMakeLists.txt).
 */

__kernel void xwg_probe(XWG_STATE)
{
    XWG_DISCOVER();
    xwg_barrier();
}
