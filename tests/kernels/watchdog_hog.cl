/*
 * watchdog_hog.cl - a kernel of test_watchdog.c, embedded at build time as
 * hog_source (tests/kernels/CMakeLists.txt).
 *
 * A plain kernel that holds worker threads: each group's work-item
 * counts itself into started, spins until its stop word is set (or a
 * bound that no test reaches, so a failed test cannot leave it spinning
 * for ever), and counts itself out. Fine-grained SVM with atomics, so
 * that the host sees the counts and sets the stop words while it runs.
 */

__kernel void hog(volatile __global atomic_uint *started,
                  volatile __global atomic_uint *stop,
                  volatile __global atomic_uint *left)
{
    atomic_fetch_add(started, 1u);
    for (ulong i = 0; i < (1ul << 40) &&
         atomic_load(&stop[get_group_id(0)]) == 0u; i++) {
    }
    atomic_fetch_add(left, 1u);
}
