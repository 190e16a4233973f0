// Seeded bug: the split barrier's arrive moved before the write it must
// publish. A write between the arrive and the wait belongs to both
// intervals, so it races with the other groups' reads after their wait.
// Fixed: -DXWG_FIXED (the write before the arrive).
__kernel void seeded(__global uint *a, __global uint *b, uint n, uint steps,
                     XWG_STATE)
{
    XWG_DISCOVER();
    const uint g = xwg_group_id(), groups = xwg_num_groups();
    const uint lid = get_local_id(0), size = get_local_size(0);
#ifdef XWG_FIXED
    a[g * size + lid] = 5u * g + lid;
#endif
    xwg_token t = xwg_barrier_arrive();
#ifndef XWG_FIXED
    a[g * size + lid] = 5u * g + lid; // RACE
#endif
    xwg_barrier_wait(t);
    b[g * size + lid] = a[((g + 1) % groups) * size + lid]; // RACE
}
