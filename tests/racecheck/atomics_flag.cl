// Seeded case: a value passed from group 0 to group 1 through the kernel's
// own flag, fenced, with no xwg barrier. Correct where the fences order
// it, but xwg-racecheck cannot tell a release from a relaxed access, so
// the pair goes to its own class, atomics-only (// ATOMICS), not to the
// races. Fixed: -DXWG_FIXED, an xwg_barrier() instead of the flag.
__kernel void seeded(__global uint *a, __global uint *b, uint n, uint steps,
                     XWG_STATE)
{
    XWG_DISCOVER();
    const bool sender = xwg_group_id() == 0 && get_local_id(0) == 0;
    const bool receiver = xwg_group_id() == 1 && get_local_id(0) == 0;
    if (sender)
        b[0] = 42u; // ATOMICS
#ifdef XWG_FIXED
    if (sender)
        b[1] = 1u; // the flag's value, so that both leave the same b
    xwg_barrier();
#else
    if (sender) {
        xwg_fence_device();
        atomic_xchg(&b[1], 1u);
    }
    if (receiver) { // bounded, like every spin: it never hangs
        for (uint spins = 0;
             atomic_add(&b[1], 0u) == 0u && spins < (1u << 22); spins++)
            ;
        xwg_fence_device();
    }
#endif
    if (receiver)
        a[0] = b[0]; // ATOMICS
}
