/*
 * watchdog_bound.cl - a kernel of test_watchdog.c, embedded at build time
 * as bound_source (tests/kernels/CMakeLists.txt).
 *
 * Every group writes the bound its barrier waits use (xwg_self.watchdog,
 * tests only), in polls: 64 bits, as two words, low first. No barrier: a
 * bound of 1 ms may well run out.
 */

__kernel void bound(__global uint *out, XWG_STATE)
{
    XWG_DISCOVER();
    if (get_local_id(0) == 0) {
        out[2 * xwg_group_id()] = (uint)xwg__self.watchdog;
        out[2 * xwg_group_id() + 1] = (uint)(xwg__self.watchdog >> 32);
    }
}
