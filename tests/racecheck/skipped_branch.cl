// Seeded bug: a barrier skipped in one branch. Every group takes the same
// branch (s is uniform), so nothing deadlocks, but without it an
// odd step's accesses are not separated from the next even step's.
// Fixed: -DXWG_FIXED.
__kernel void seeded(__global uint *a, __global uint *b, uint n, uint steps,
                     XWG_STATE)
{
    XWG_DISCOVER();
    for (uint s = 0; s < 2u * steps; s++) {
        const uint i = xwg_global_id() % n;
        if (s % 2u == 0u) {
            a[i] = b[(i + 1) % n] + 1u; // RACE
            xwg_barrier();
        } else {
            b[i] = a[(i + 1) % n]; // RACE
#ifdef XWG_FIXED
            xwg_barrier();
#endif
        }
    }
}
