// Seeded bug: a barrier called by some work-items of a group only. The
// others do not wait, so their write of b races with the reads after it.
// Fixed: -DXWG_FIXED (every work-item calls it).
__kernel void seeded(__global uint *a, __global uint *b, uint n, uint steps,
                     XWG_STATE)
{
    XWG_DISCOVER();
    b[xwg_global_id() % n] = 1u; // RACE
#ifdef XWG_FIXED
    xwg_barrier();
#else
    if (get_local_id(0) == 0)
        xwg_barrier(); // DIVERGENT
#endif
    a[xwg_global_id() % n] = b[(xwg_global_id() + 1u) % n]; // RACE
}
