/*
 * litmus_kernel.cl - the OpenCL kernel of xwg-litmus (xwg_litmus.c),
 * embedded into the program at build time as litmus_source
 * (CMakeLists.txt, xwg_embed_cl): the classic litmus tests, many instances
 * per launch, with stressing threads around them.
 *
 * Every work-item of every participating group has a role (from the host,
 * which places the testing threads at random each iteration): -1 only
 * stresses scratch memory; otherwise role = instance * 2 + thread (thread 0
 * or 1 of that instance). Everyone stresses first, then meets at a global
 * barrier, so that the testing threads start together. x and y of an
 * instance lie on different 128-byte lines (LINE words apart, the host's
 * LITMUS_LINE).
 * All test accesses are relaxed atomics (volatile accesses on the cl12
 * path), so every outcome is a behaviour of the memory model, not a data
 * race; the fence between the two accesses of each thread is the variant.
 *
 * Tests (weak outcome in brackets):
 *   MP   t0: x = 1; F; y = 1        t1: r0 = y; F; r1 = x   [r0=1, r1=0]
 *   SB   t0: x = 1; F; r0 = y       t1: y = 1; F; r1 = x   [r0=0, r1=0]
 *   LB   t0: r0 = x; F; y = 1       t1: r1 = y; F; x = 1   [r0=1, r1=1]
 *   CoRR t0: x = 1                  t1: r0 = x; F; r1 = x  [r0=1, r1=0]
 *   MP+plain: MP with x a plain (non-atomic) location: what user data is.
 *        A GPU may serve the plain load from a non-coherent cache.
 * The registers go to out[instance * 2 + 0] (r0) and [+ 1] (r1).
 */

#define LINE 32u
inline void fence(uint which)
{
    if (which == 1u) xwg_fence_work_group();
    else if (which == 2u) xwg_fence_device();
    else if (which == 3u) xwg_fence_system();
}
__kernel void litmus(volatile __global xwg_word *mem,
                     __global uint *out, __global const int *role,
                     __global uint *scratch, uint scratch_words,
                     uint test, uint which_fence, uint stress,
                     uint phase, XWG_STATE)
{
    XWG_DISCOVER();
    const uint gid = xwg_global_id();
    const int r = role[gid];
    /* Stress: plain read-modify-writes of scratch words, by everyone. */
    for (uint k = 0; k < stress; k++) {
        uint a = (gid * 7919u + k * 104729u) % scratch_words;
        scratch[a] = scratch[a] + 1u;
    }
    /* Every group leaves this barrier at about the same time, so that the
     * testing threads of different groups overlap (on a CPU device the
     * work-items of a group run one after another from here). */
    xwg_barrier();
    /* No early return after the barrier: PoCL 3.1's compiled kernel
     * crashes on one here. Phase 1: only thread 0 acts; phase 2: only
     * thread 1 (the known-bad harness whose threads never overlap). */
    uint inst = (uint)r >> 1, t = (uint)r & 1u;
    if (r < 0 || (phase == 1u && t != 0u) || (phase == 2u && t != 1u))
        t = 2u; /* nothing to do */
    volatile __global xwg_word *x = &mem[inst * 2u * LINE];
    volatile __global xwg_word *y = &mem[inst * 2u * LINE + LINE];
    uint r0 = 0u, r1 = 0u;
    if (test == 0u) { /* MP */
        if (t == 0u) { xwg__store_relaxed(x, 1u); fence(which_fence);
                       xwg__store_relaxed(y, 1u); }
        else if (t == 1u) { r0 = xwg__load_relaxed(y);
               fence(which_fence); r1 = xwg__load_relaxed(x);
               out[inst * 2u] = r0; out[inst * 2u + 1u] = r1; }
    } else if (test == 1u) { /* SB */
        if (t == 0u) { xwg__store_relaxed(x, 1u); fence(which_fence);
                       out[inst * 2u] = xwg__load_relaxed(y); }
        else if (t == 1u) { xwg__store_relaxed(y, 1u);
               fence(which_fence);
               out[inst * 2u + 1u] = xwg__load_relaxed(x); }
    } else if (test == 2u) { /* LB */
        if (t == 0u) { out[inst * 2u] = xwg__load_relaxed(x);
                       fence(which_fence); xwg__store_relaxed(y, 1u); }
        else if (t == 1u) { out[inst * 2u + 1u] = xwg__load_relaxed(y);
               fence(which_fence); xwg__store_relaxed(x, 1u); }
    } else if (test == 4u) { /* MP with plain data */
        __global uint *data = (__global uint *)x;
        if (t == 0u) { *data = 1u; fence(which_fence);
                       xwg__store_relaxed(y, 1u); }
        else if (t == 1u) { r0 = xwg__load_relaxed(y);
               fence(which_fence); r1 = *data;
               out[inst * 2u] = r0; out[inst * 2u + 1u] = r1; }
    } else if (test == 3u) { /* CoRR */
        if (t == 0u) { xwg__store_relaxed(x, 1u); }
        else if (t == 1u) { r0 = xwg__load_relaxed(x);
               fence(which_fence); r1 = xwg__load_relaxed(x);
               out[inst * 2u] = r0; out[inst * 2u + 1u] = r1; }
    }
}
