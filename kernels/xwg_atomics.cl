/*
 * xwg_atomics.cl - the atomic operations the rest of the kernel-side library
 * is written in, for each of the two atomics paths, and the layout of the
 * state buffer that XWG_STATE carries.
 *
 * The host puts exactly one of these in front of this file:
 *   #define XWG_PATH_CL20 1   C11 atomics with explicit order and scope
 *                             (OpenCL C 2.0 / 3.0 with acq_rel and device
 *                             scope promised by the device);
 *   #define XWG_PATH_CL12 1   OpenCL 1.x atomic_* built-ins on volatile
 *                             words, ordered by mem_fence.
 * and, on NVIDIA devices, may add to XWG_PATH_CL20:
 *   #define XWG_PATH_PTX 1    the same C11 orders at device scope, each
 *                             written as the PTX instruction that has
 *                             exactly that order and scope (ld.acquire.gpu,
 *                             atom.release.gpu, ...). NVIDIA's OpenCL
 *                             compiler builds every C11 acquire or release
 *                             from a volatile access and a full fence
 *                             (membar.gl); the PTX forms are what CUDA
 *                             uses, and cost less on the H200
 *                             (docs/performance.md, tuning-h200, +cl20).
 *
 * Every function names the memory order it gives. On the cl12 path a
 * "release" is a global fence followed by the store, and an "acquire" is
 * the load followed by a global fence: OpenCL 1.x has no ordered atomics,
 * and this is the strongest ordering it can express. The proof of the
 * protocols and barriers covers the cl20 path; the cl12 path rests on tests.
 */

#if defined(XWG_PATH_CL20) && defined(XWG_PATH_PTX)

/* The C11 mapping to PTX of Lustig et al. (ASPLOS 2019), which is how
 * CUDA's own atomics compile: each function below has the order and the
 * scope (.gpu: device) of its namesake on the plain cl20 path. Every asm is
 * volatile with a "memory" clobber, so the compiler neither drops a poll
 * nor moves other memory accesses across it. */
typedef atomic_uint xwg_word;
#define XWG__GLOBAL_WORD __global xwg_word
/* A __global pointer as the 64-bit address that .global instructions take
 * (NVVM's global addresses are also the generic ones). */
#define XWG__PTX_ADDR(p) ((ulong)(p))

/* One function per instruction: a load, a store, an add without its
 * result (`red`: nothing waits for a reply from L2), or a
 * read-modify-write that returns the old value. */
#define XWG__PTX_LOAD(name, insn)                                              \
    inline uint name(volatile XWG__GLOBAL_WORD *p)                             \
    {                                                                          \
        uint v;                                                                \
        asm volatile(insn " %0, [%1];"                                         \
                     : "=r"(v) : "l"(XWG__PTX_ADDR(p)) : "memory");            \
        return v;                                                              \
    }
#define XWG__PTX_STORE(name, insn)                                             \
    inline void name(volatile XWG__GLOBAL_WORD *p, uint v)                     \
    {                                                                          \
        asm volatile(insn " [%0], %1;"                                         \
                     : : "l"(XWG__PTX_ADDR(p)), "r"(v) : "memory");            \
    }
/* red has a store's operands: an address and a value, no result. */
#define XWG__PTX_RED(name, insn) XWG__PTX_STORE(name, insn)
#define XWG__PTX_RMW(name, insn)                                               \
    inline uint name(volatile XWG__GLOBAL_WORD *p, uint v)                     \
    {                                                                          \
        uint old;                                                              \
        asm volatile(insn " %0, [%1], %2;"                                     \
                     : "=r"(old) : "l"(XWG__PTX_ADDR(p)), "r"(v) : "memory");  \
        return old;                                                            \
    }

XWG__PTX_LOAD(xwg__load_relaxed, "ld.relaxed.gpu.global.u32")
XWG__PTX_LOAD(xwg__load_acquire, "ld.acquire.gpu.global.u32")
XWG__PTX_STORE(xwg__store_release, "st.release.gpu.global.u32")
XWG__PTX_STORE(xwg__store_relaxed, "st.relaxed.gpu.global.u32")
XWG__PTX_RED(xwg__add_release, "red.release.gpu.global.add.u32")
XWG__PTX_RED(xwg__add_relaxed, "red.relaxed.gpu.global.add.u32")
XWG__PTX_RMW(xwg__fetch_add_acq_rel, "atom.acq_rel.gpu.global.add.u32")
XWG__PTX_RMW(xwg__fetch_or_acq_rel, "atom.acq_rel.gpu.global.or.b32")
XWG__PTX_RMW(xwg__fetch_add_relaxed, "atom.relaxed.gpu.global.add.u32")

/* PTX has no acquire-only fence; acq_rel is the weakest that acquires. */
inline void xwg__fence_acquire(void)
{
    asm volatile("fence.acq_rel.gpu;" : : : "memory");
}

#elif defined(XWG_PATH_CL20)

/* A word of xwg state. The state buffer is a plain array of 32-bit words;
 * atomic_uint has the same size and representation. */
typedef atomic_uint xwg_word;
#define XWG__GLOBAL_WORD __global xwg_word

/* A load that orders nothing; used where only the value matters (spinning
 * until something changes; the ordering comes from a later acquire). */
inline uint xwg__load_relaxed(volatile XWG__GLOBAL_WORD *p)
{
    return atomic_load_explicit(p, memory_order_relaxed, memory_scope_device);
}

/* A load whose value, once seen, makes visible everything the writer did
 * before its matching release (device scope: any group on this device). */
inline uint xwg__load_acquire(volatile XWG__GLOBAL_WORD *p)
{
    return atomic_load_explicit(p, memory_order_acquire, memory_scope_device);
}

/* A store that publishes everything this work-item did before it to any
 * group that acquires the value (device scope). */
inline void xwg__store_release(volatile XWG__GLOBAL_WORD *p, uint v)
{
    atomic_store_explicit(p, v, memory_order_release, memory_scope_device);
}

inline void xwg__store_relaxed(volatile XWG__GLOBAL_WORD *p, uint v)
{
    atomic_store_explicit(p, v, memory_order_relaxed, memory_scope_device);
}

/* Read-modify-writes that both acquire (see earlier releases) and release
 * (publish this work-item's earlier writes). */
inline uint xwg__fetch_add_acq_rel(volatile XWG__GLOBAL_WORD *p, uint v)
{
    return atomic_fetch_add_explicit(p, v, memory_order_acq_rel,
                                     memory_scope_device);
}

inline uint xwg__fetch_or_acq_rel(volatile XWG__GLOBAL_WORD *p, uint v)
{
    return atomic_fetch_or_explicit(p, v, memory_order_acq_rel,
                                    memory_scope_device);
}

/* An add that publishes this work-item's earlier writes (an arrival whose
 * waiter acquires later); it returns nothing, so nothing waits for it. */
inline void xwg__add_release(volatile XWG__GLOBAL_WORD *p, uint v)
{
    (void)atomic_fetch_add_explicit(p, v, memory_order_release,
                                    memory_scope_device);
}

inline void xwg__add_relaxed(volatile XWG__GLOBAL_WORD *p, uint v)
{
    (void)atomic_fetch_add_explicit(p, v, memory_order_relaxed,
                                    memory_scope_device);
}

/* A read-modify-write that orders nothing (taking a ticket: the lock it
 * queues for gives the ordering). */
inline uint xwg__fetch_add_relaxed(volatile XWG__GLOBAL_WORD *p, uint v)
{
    return atomic_fetch_add_explicit(p, v, memory_order_relaxed,
                                     memory_scope_device);
}

/* After relaxed loads that read values written by releases: makes what
 * those writers did before their releases visible (device scope). */
inline void xwg__fence_acquire(void)
{
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire,
                           memory_scope_device);
}

#elif defined(XWG_PATH_CL12)

typedef uint xwg_word;
#define XWG__GLOBAL_WORD __global xwg_word

/* volatile: every poll goes to memory (on GPUs past the non-coherent L1). */
inline uint xwg__load_relaxed(volatile XWG__GLOBAL_WORD *p)
{
    return *p;
}

/* The load, then a global fence, so that no later access of this
 * work-item is performed before the value was read. */
inline uint xwg__load_acquire(volatile XWG__GLOBAL_WORD *p)
{
    uint v = *p;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    return v;
}

/* A global fence, then an atomic exchange, so that every earlier write of
 * this work-item is performed before the new value can be seen. */
inline void xwg__store_release(volatile XWG__GLOBAL_WORD *p, uint v)
{
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg(p, v);
}

inline void xwg__store_relaxed(volatile XWG__GLOBAL_WORD *p, uint v)
{
    atomic_xchg(p, v);
}

/* Fences on both sides make the 1.x read-modify-write act as acq_rel. */
inline uint xwg__fetch_add_acq_rel(volatile XWG__GLOBAL_WORD *p, uint v)
{
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    uint old = atomic_add(p, v);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    return old;
}

inline uint xwg__fetch_or_acq_rel(volatile XWG__GLOBAL_WORD *p, uint v)
{
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    uint old = atomic_or(p, v);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    return old;
}

/* The fence before the 1.x add makes it act as a release. */
inline void xwg__add_release(volatile XWG__GLOBAL_WORD *p, uint v)
{
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    (void)atomic_add(p, v);
}

inline void xwg__add_relaxed(volatile XWG__GLOBAL_WORD *p, uint v)
{
    (void)atomic_add(p, v);
}

inline uint xwg__fetch_add_relaxed(volatile XWG__GLOBAL_WORD *p, uint v)
{
    return atomic_add(p, v);
}

/* No later access of this work-item is performed before the loads that
 * came before the fence. */
inline void xwg__fence_acquire(void)
{
    mem_fence(CLK_GLOBAL_MEM_FENCE);
}

#else
#error "xwg: XWG_PATH_CL20 or XWG_PATH_CL12 undefined: build with xwg_program_build(), or put xwg_program_source_prefix() before the source and build with xwg_program_options()"
#endif

/* The kernel parameter that carries xwg's state. Any position in the
 * parameter list; the host finds it by its name, XWG__STATE_PARAM followed
 * by the barrier set (xwg_state_layout.h), which xwg__state stands for in
 * the library's own code. XWG_BARRIERS is a plain number where it is
 * defined (xwg_program_options() refuses anything else), so the pasted
 * name is one identifier. */
#define XWG__PASTE_(a, b) a##b
#define XWG__PASTE(a, b) XWG__PASTE_(a, b) /* a and b expanded first */
#if defined(XWG_BARRIERS)
#define xwg__state XWG__PASTE(XWG__STATE_PARAM, XWG_BARRIERS)
#else /* all three: 0xe, written as a number, which no macro can be */
#define xwg__state XWG__PASTE(XWG__STATE_PARAM, 14u)
#endif
#define XWG_STATE volatile XWG__GLOBAL_WORD *xwg__state
