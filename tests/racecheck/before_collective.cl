// Seeded bug: a value read before the collective that publishes it. Each
// group writes its partial to b and reads group 0's, expecting the
// all-reduce to have ordered the two; the read comes first.
// Fixed: -DXWG_FIXED (the read after the all-reduce).
__kernel void seeded(__global uint *a, __global uint *b, uint n, uint steps,
                     XWG_STATE)
{
    XWG_DISCOVER();
    const uint g = xwg_group_id(), lid = get_local_id(0);
    if (lid == 0)
        b[g] = 10u + g; // RACE
    uint first = 0u;
#ifndef XWG_FIXED
    first = b[0]; // RACE
#endif
    const uint total = xwg_reduce_add_uint(a[xwg_global_id() % n]);
#ifdef XWG_FIXED
    first = b[0];
#endif
    if (lid == 0)
        a[n - 1u - g] = total + first;
}
