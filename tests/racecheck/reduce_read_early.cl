// Seeded bug: a neighbour's value read between a nonblocking all-reduce's
// arrive and its wait. The neighbour wrote it before its own arrive, but
// only the wait orders that write before this read: an access between
// the two halves belongs to both intervals, so it races with the write.
// Fixed: -DXWG_FIXED (the read after the wait).
__kernel void seeded(__global uint *a, __global uint *b, uint n, uint steps,
                     XWG_STATE)
{
    XWG_DISCOVER();
    const uint g = xwg_group_id(), groups = xwg_num_groups();
    const uint lid = get_local_id(0), size = get_local_size(0);
    a[g * size + lid] = 5u * g + lid; // RACE
    xwg_reduce_token t = xwg_reduce_add_uint_arrive(1u);
#ifndef XWG_FIXED
    b[g * size + lid] = a[((g + 1) % groups) * size + lid]; // RACE
#endif
    const uint total = xwg_reduce_add_uint_wait(t);
#ifdef XWG_FIXED
    b[g * size + lid] = a[((g + 1) % groups) * size + lid];
#endif
    if (total == 0u)
        b[g * size + lid] = 0u;
}
