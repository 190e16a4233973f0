/*
 * visibility.cl - a kernel of visibility_driver.c, embedded at build time
 * as visibility_source (tests/drivers/CMakeLists.txt).
 *
 * STORE_KIND, LOAD_KIND: 0 plain, 1 volatile, 2 atomic (relaxed, device
 * scope on cl20; atomic_xchg / atomic_or(p, 0) on cl12). FENCE_KIND: 0
 * none, 1 a device-scope acq_rel fence (mem_fence on cl12) before and
 * after each barrier, 2 a work-group barrier with device memory scope
 * there (cl20 only).
 */

#if STORE_KIND == 2 && defined(XWG_PATH_CL20)
#define STORE(p, v) atomic_store_explicit((volatile __global atomic_uint *)(p), (v), memory_order_relaxed, memory_scope_device)
#elif STORE_KIND == 2
#define STORE(p, v) atomic_xchg((p), (v))
#elif STORE_KIND == 1
#define STORE(p, v) (*(volatile __global uint *)(p) = (v))
#else
#define STORE(p, v) (*(p) = (v))
#endif
#if LOAD_KIND == 2 && defined(XWG_PATH_CL20)
#define LOAD(p) atomic_load_explicit((volatile __global atomic_uint *)(p), memory_order_relaxed, memory_scope_device)
#elif LOAD_KIND == 2
#define LOAD(p) atomic_or((p), 0u)
#elif LOAD_KIND == 1
#define LOAD(p) (*(volatile __global uint *)(p))
#else
#define LOAD(p) (*(p))
#endif
#if FENCE_KIND == 2 && defined(XWG_PATH_CL20)
#define FENCE() work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device)
#elif FENCE_KIND == 1 && defined(XWG_PATH_CL20)
#define FENCE() atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_device)
#elif FENCE_KIND >= 1
#define FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#else
#define FENCE()
#endif
__kernel void exchange(__global uint *data, __global uint *counts,
                       __global uint *ids, uint episodes, XWG_STATE)
{
    XWG_DISCOVER();
    const uint g = xwg_group_id(), n = xwg_num_groups();
    const uint l = get_local_id(0), size = get_local_size(0);
    if (l == 0)
        atomic_inc(&ids[g < n ? g : n]);
    uint stale = 0, zero = 0, other = 0;
    for (uint e = 1; e <= episodes && !xwg_failed(); e++) {
        STORE(&data[g * size + l], e * n + g);
        FENCE();
        xwg_barrier();
        FENCE();
        uint o = (g + 1 + e % (n > 1 ? n - 1 : 1)) % n;
        uint v = LOAD(&data[o * size + l]);
        if (v != e * n + o) {
            if (v == 0) zero++;
            else if (v % n == o && v / n < e) stale++;
            else other++;
        }
        FENCE();
        xwg_barrier();
        FENCE();
    }
    if (stale) atomic_add(&counts[0], min(stale, 1000u));
    if (zero) atomic_add(&counts[1], min(zero, 1000u));
    if (other) atomic_add(&counts[2], min(other, 1000u));
}
