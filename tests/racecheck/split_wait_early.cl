// Seeded bug: a read moved between the split barrier's arrive and its
// wait, before the wait that must order it after the other groups' writes
// (made before their arrive). Fixed: -DXWG_FIXED (the read after the wait).
__kernel void seeded(__global uint *a, __global uint *b, uint n, uint steps,
                     XWG_STATE)
{
    XWG_DISCOVER();
    const uint g = xwg_group_id(), groups = xwg_num_groups();
    const uint lid = get_local_id(0), size = get_local_size(0);
    a[g * size + lid] = 3u * g + lid; // RACE
    xwg_token t = xwg_barrier_arrive();
    uint mine = lid * lid; // work that overlaps the barrier
#ifndef XWG_FIXED
    mine += a[((g + 1) % groups) * size + lid]; // RACE
#endif
    xwg_barrier_wait(t);
#ifdef XWG_FIXED
    mine += a[((g + 1) % groups) * size + lid];
#endif
    b[g * size + lid] = mine;
}
