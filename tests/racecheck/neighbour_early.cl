// Seeded bug: a neighbour's output read before the barrier. Each group
// publishes one value per work-item and adds its right-hand neighbour
// group's, but reads it before the barrier that orders the two.
// Fixed: -DXWG_FIXED.
__kernel void seeded(__global uint *a, __global uint *b, uint n, uint steps,
                     XWG_STATE)
{
    XWG_DISCOVER();
    const uint g = xwg_group_id(), groups = xwg_num_groups();
    const uint lid = get_local_id(0), size = get_local_size(0);
    a[g * size + lid] = g + lid; // RACE
#ifdef XWG_FIXED
    xwg_barrier();
#endif
    const uint right = a[((g + 1) % groups) * size + lid]; // RACE
#ifndef XWG_FIXED
    xwg_barrier();
#endif
    b[g * size + lid] = right;
}
