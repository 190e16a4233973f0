// Seeded bug: a race that only one group count exposes. Group g reads the
// slot of group g ^ 2 with no barrier between, which exists only when
// three or more groups run: two groups never race (racecheck: groups>=3).
// Fixed: -DXWG_FIXED.
__kernel void seeded(__global uint *a, __global uint *b, uint n, uint steps,
                     XWG_STATE)
{
    XWG_DISCOVER();
    const uint g = xwg_group_id(), groups = xwg_num_groups();
    if (get_local_id(0) == 0)
        b[g] = g + 1u; // RACE
#ifdef XWG_FIXED
    xwg_barrier();
#endif
    if (get_local_id(0) == 0 && (g ^ 2u) < groups)
        a[g] = b[g ^ 2u]; // RACE
}
