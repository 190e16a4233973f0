/*
 * barrier_discover_only.cl - a kernel of test_barrier.c, embedded at build
 * time as discover_only_source (tests/kernels/CMakeLists.txt).
 *
 * A kernel that discovers and does nothing else.
 */

__kernel void discover_only(XWG_STATE)
{
    XWG_DISCOVER();
}
