// Seeded bug: a missing barrier between phases. Each step reads its
// neighbours' a and writes b, then copies b back into a; without the
// barrier after the copy-back, the next step's reads race with other
// groups' (and work-items') copy-back. Fixed: -DXWG_FIXED.
__kernel void seeded(__global uint *a, __global uint *b, uint n, uint steps,
                     XWG_STATE)
{
    XWG_DISCOVER();
    for (uint s = 0; s < steps; s++) {
        for (uint i = xwg_global_id(); i < n; i += xwg_global_size())
            b[i] = a[(i + n - 1) % n] + a[(i + 1) % n]; // RACE
        xwg_barrier();
        for (uint i = xwg_global_id(); i < n; i += xwg_global_size())
            a[i] = b[i] / 2u; // RACE
#ifdef XWG_FIXED
        xwg_barrier();
#endif
    }
}
