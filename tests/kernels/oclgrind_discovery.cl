/*
 * oclgrind_discovery.cl - the kernel that oclgrind_discovery.c discovers
 * with, embedded at build time as oclgrind_discovery_source
 * (tests/kernels/CMakeLists.txt): discovery and nothing else.
 */

__kernel void k(XWG_STATE)
{
    XWG_DISCOVER();
}
