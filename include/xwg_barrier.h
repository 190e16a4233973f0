/*
 * xwg_barrier.h - the public API of xwg, a portable inter-workgroup barrier
 * for OpenCL kernels.
 *
 * xwg finds, at run time and for the kernel at hand, how many workgroups are
 * really co-resident on a device (the occupancy discovery protocol of
 * Sorensen et al., OOPSLA 2016), launches the kernel with no more groups
 * than that, gives the kernel ids relative to the participating groups, and
 * a global barrier among them that cannot hang.
 *
 * Typical use:
 *
 *     xwg_context *xc;
 *     xwg_context_create(cl_ctx, dev, NULL, &xc);       // probe, self-test
 *     cl_program prog; char *log = NULL;
 *     xwg_program_build(xc, source, "", &prog, &log);   // no #include needed
 *     cl_kernel k = clCreateKernel(prog, "my_kernel", &err);
 *     // ... set the user's own arguments; xwg owns the XWG_STATE argument ...
 *     xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
 *     xwg_launch(xc, queue, k, 256, &info);             // info.groups ran
 *
 * and in the kernel source:
 *
 *     __kernel void my_kernel(__global float *data, uint n, XWG_STATE) {
 *         XWG_DISCOVER();                 // non-participating groups return
 *         for (uint i = xwg_global_id(); i < n; i += xwg_global_size()) ...
 *         xwg_barrier();                  // every group is past the loop
 *         ...
 *     }
 *
 * Kernel side (every program built by xwg_program_build() has it; each
 * call's prototype and contract, and helper functions: docs/kernel-api.md):
 *
 *   XWG_STATE          the parameter that carries xwg's state; any position.
 *   XWG_DISCOVER();    the kernel's first statement: runs the discovery
 *                      protocol; groups that do not participate return.
 *   xwg_group_id(), xwg_num_groups(), xwg_global_id(), xwg_global_size()
 *                      ids among the participants, for grid-stride loops;
 *                      xwg_*_of(XWG_SELF) in helper functions.
 *   Helper functions: every call below without _of works only in the
 *   kernel that ran XWG_DISCOVER() (it reads what that macro declared).
 *   A helper takes an `xwg_self self` parameter, the kernel passes
 *   XWG_SELF, and the helper calls the _of form with self as first
 *   argument: xwg_barrier_of(self), xwg_failed_of(self),
 *   xwg_reduce_add_float_of(self, v), ... Calling a plain form elsewhere
 *   is a compile error naming
 *   xwg__needs_XWG_DISCOVER_in_this_kernel_or_pass_XWG_SELF_to_helpers_...
 *
 *       void step(xwg_self self) { xwg_barrier_of(self); }
 *       ... XWG_DISCOVER(); ... step(XWG_SELF); ...
 *   xwg_barrier();     a global barrier among the participants. Every
 *                      work-item of every participant must call it the same
 *                      number of times (as with __syncthreads(), not inside
 *                      a branch that only some take). Everything any
 *                      work-item did before barrier instance i
 *                      happens-before everything any work-item does after
 *                      it. A wait longer than the watchdog bound (about a
 *                      second; xwg_launch_options.watchdog_ms) marks the
 *                      launch failed: every wait then ends within 64
 *                      polls, a group whose wait ended so sees
 *                      xwg_failed() turn true after that barrier, and
 *                      xwg_launch() returns XWG_ERROR_BARRIER_TIMEOUT
 *                      instead of hanging. After a failure, barriers order
 *                      nothing: only the host's status is authoritative.
 *                      Built with -DXWG_CHECK_DIVERGENCE (or env
 *                      XWG_CHECK_DIVERGENCE=1), a barrier, arrive or
 *                      collective that only some work-items of a group
 *                      call ends in XWG_ERROR_BARRIER_MISUSE where the
 *                      device lets those pass (docs/guide.md).
 *   xwg_failed()       nonzero once a barrier wait of this group failed
 *                      (timed out, or saw the launch marked failed); the
 *                      same for all work-items of a group between
 *                      barriers. Sticky for the rest of the launch.
 *   xwg_token t = xwg_barrier_arrive();  ...  xwg_barrier_wait(t);
 *                      the split-phase barrier, like CUDA's
 *                      barrier_arrive()/barrier_wait(): everything any
 *                      work-item of any participant did before an arrive
 *                      happens-before everything any work-item of another
 *                      participant does after the matching wait; the work
 *                      between the two overlaps the barrier (it must not
 *                      touch what other groups write before their
 *                      arrive). Every work-item calls both, with its own
 *                      token, as many times as every other. An arrive
 *                      after an arrive, a wait with no arrive, and a
 *                      barrier or collective between an arrive and its
 *                      wait end the launch with XWG_ERROR_BARRIER_MISUSE;
 *                      the watchdog covers the wait. A last arrive that
 *                      no group waits for before the kernel returns is
 *                      harmless; so is an arrive of some groups only,
 *                      none of which waits (the kernel cannot see it):
 *                      no launch after it on the same state is wrong.
 *   Collectives: called like xwg_barrier() (every work-item of every
 *   participant, the same calls in the same order), each also a barrier,
 *   each on the cl20, ptx and cl12 paths; T is uint, int or float:
 *     xwg_reduce_add_T(v), xwg_reduce_min_T(v), xwg_reduce_max_T(v)
 *                      all-reduce: every work-item's v combined, the
 *                      result to every work-item (int adds wrap; float
 *                      min and max are fmin and fmax);
 *     xwg_reduce_token t = xwg_reduce_OP_T_arrive(v); ...;
 *     xwg_reduce_OP_T_wait(t)
 *                      the same all-reduce, nonblocking: work between the
 *                      two overlaps it; the same bits; the split
 *                      barrier's rules, and the wait must match the
 *                      arrive's OP and T (else XWG_ERROR_BARRIER_MISUSE);
 *     xwg_reduce_add_float2(v), and its _arrive and _wait
 *                      two sums at one barrier: .x and .y each with the
 *                      bits of xwg_reduce_add_float of that component;
 *     xwg_broadcast_T(v, from)
 *                      work-item 0's v in participant `from` (the same in
 *                      every group, below xwg_num_groups(), else
 *                      XWG_ERROR_BARRIER_MISUSE), to every work-item;
 *     xwg_scan_exclusive_add_T(v, &total)
 *                      every work-item's v, in participant order: the sum
 *                      of the values before its own to each, the sum of
 *                      all in *total: an element's output index and the
 *                      output's length, for stream compaction
 *                      (examples/compact.c);
 *     xwg_scan_groups_exclusive_add_T(v, &total)
 *                      the same over one value per group (work-item 0's
 *                      counts): participants 0 .. g-1's to participant g.
 *                      Float results are bit-identical from run to run
 *                      for the same values, device, local size and
 *                      participants: the order of summation is fixed
 *                      (kernels/xwg_collectives.cl states it), never the
 *                      atomics' order. Groups of at most 1024
 *                      work-items (or the device's largest, if smaller;
 *                      a larger one ends in XWG_ERROR_BARRIER_MISUSE,
 *                      and xwg_last_error() names the limit).
 *                      A kernel that calls one uses that many words of
 *                      local memory. Collectives cost registers: a kernel
 *                      that runs them in large groups should declare its
 *                      size, __attribute__((reqd_work_group_size(L, 1,
 *                      1))), so that the compiler fits its registers to
 *                      L (NVIDIA's does; without it a group of 1024 may
 *                      not fit: CL_OUT_OF_RESOURCES).
 *   xwg_fence_work_group(), xwg_fence_device(), xwg_fence_system()
 *                      sequentially consistent fences at each scope, like
 *                      CUDA's __threadfence_block(), __threadfence() and
 *                      __threadfence_system(). On the cl20 path:
 *                      atomic_work_item_fence(..., memory_order_seq_cst,
 *                      scope) with memory_scope_work_group, _device and
 *                      _all_svm_devices (device scope where the device
 *                      lacks all-devices scope; acq_rel where it lacks
 *                      seq_cst fences). On cl12: mem_fence(global|local),
 *                      the strongest 1.x has, for all three.
 *
 *   Message passing, the example the scopes are about. X starts at 1 and Y
 *   at 2 (relaxed atomics); the writer and reader are in different groups:
 *
 *       writer:  X = 10;  xwg_fence_device();  Y = 20;
 *       reader:  B = Y;   xwg_fence_device();  A = X;
 *
 *   Without the fences the reader may see B = 20 and A = 1. With
 *   device-scope fences on both sides that outcome is forbidden for a
 *   reader on the same device. xwg_fence_work_group() would forbid it only
 *   for a reader in the writer's own group; xwg_fence_system() also for a
 *   reader on another device or the host (where the scope exists).
 *
 * What is proven and what is tested: the barrier's proof (Sorensen et al.,
 * OOPSLA 2016; docs in kernels/xwg_barrier.cl) covers the cl20 path, on
 * devices that promise acquire/release at device scope. Every other device
 * rests on tests: xwg_context_create() runs a barrier self-test and
 * refuses a device that fails it (Mesa rusticl); docs/performance.md holds
 * the stress evidence per device.
 *
 * Error handling: every function returns an int status. 0 is success, the
 * negative CL_* values of OpenCL pass through unchanged, and xwg's own codes
 * lie in [-20099, -20000], clear of OpenCL's core and extension ranges.
 * With XWG_TRACE=1 in the environment xwg traces to stderr, with file and
 * line: the probe, builds, calibration and discovery, and, for every
 * XWG_ERROR_INVALID_ARGUMENT, which public function refused which argument
 * and why ("xwg_launch_ex: info->size is 0 (at least 8 needed): initialise
 * it with XWG_LAUNCH_INFO_INIT").
 *
 * Thread safety: xwg_status_string(), xwg_status_name(), xwg_last_error(),
 * xwg_version*() and xwg_options_init() may be called from any thread at
 * any time. One
 * xwg_context may be used from several threads at once: discovery runs
 * under a mutex inside the context, and every launch has a state buffer of
 * its own, so launches in flight on different queues never share state.
 * A cl_kernel's arguments are shared (as in OpenCL itself): do not launch
 * or discover the same cl_kernel from two threads at once.
 * xwg_context_release() must not race with any other call on the same
 * context, and pending launches must be finished first.
 */
#ifndef XWG_BARRIER_H
#define XWG_BARRIER_H

#include <stddef.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define XWG_EXPORT
#elif defined(__GNUC__)
#define XWG_EXPORT __attribute__((visibility("default")))
#else
#define XWG_EXPORT
#endif

/* ---- Version -------------------------------------------------------- */

#define XWG_VERSION_MAJOR 0
#define XWG_VERSION_MINOR 2
#define XWG_VERSION_PATCH 0
#define XWG_VERSION_HEX \
    ((XWG_VERSION_MAJOR << 16) | (XWG_VERSION_MINOR << 8) | XWG_VERSION_PATCH)

/* The version of the library actually linked, as XWG_VERSION_HEX. */
XWG_EXPORT unsigned xwg_version(void);
/* The same as "MAJOR.MINOR.PATCH". */
XWG_EXPORT const char *xwg_version_string(void);

/* ---- Status codes ----------------------------------------------------
 * One X-macro table makes the enum, the messages and the names, so a code
 * cannot be half-added. OpenCL's own codes are not listed here: they pass
 * through as their negative CL_* values and xwg_status_string() knows them.
 */
#define XWG_STATUS_MAP(X)                                                     \
    X(SUCCESS, 0, "success")                                                  \
    X(ERROR_INVALID_ARGUMENT, -20000,                                         \
      "invalid argument (NULL handle, bad size or bad option)")               \
    X(ERROR_UNSUPPORTED_DEVICE, -20001,                                       \
      "the device cannot support the requested xwg path")                     \
    X(ERROR_BUILD_FAILED, -20002,                                             \
      "the OpenCL program failed to build (see the build log)")               \
    X(ERROR_NO_STATE_ARG, -20003,                                             \
      "the kernel has no XWG_STATE parameter")                                \
    X(ERROR_BARRIER_TIMEOUT, -20004,                                          \
      "a global barrier wait exceeded its watchdog bound")                    \
    X(ERROR_OUT_OF_HOST_MEMORY, -20005, "out of host memory")                 \
    X(ERROR_DISCOVERY_FAILED, -20006,                                         \
      "the discovery protocol returned an inconsistent result")               \
    X(ERROR_NO_DEVICE, -20007, "no OpenCL device was found")                 \
    X(ERROR_BARRIER_MISUSE, -20008,                                           \
      "the kernel broke a rule of the split barrier or of a collective")      \
    X(ERROR_KERNEL_NOT_RUN, -20009,                                           \
      "the launched kernel did not run its XWG_DISCOVER()")                   \
    X(ERROR_TOO_FEW_GROUPS, -20010,                                           \
      "fewer groups were co-resident than xwg_launch_options.min_groups")

typedef enum xwg_status {
#define XWG__STATUS_ENUM(name, value, message) XWG_##name = (value),
    XWG_STATUS_MAP(XWG__STATUS_ENUM)
#undef XWG__STATUS_ENUM
} xwg_status;

/* A message for any status: xwg's own, OpenCL's (CL_INVALID_VALUE, ...) or
 * an unknown one. Never NULL; the string is static. */
XWG_EXPORT const char *xwg_status_string(int status);
/* The symbolic name ("XWG_ERROR_NO_STATE_ARG", "CL_INVALID_VALUE"). */
XWG_EXPORT const char *xwg_status_name(int status);
/* The reason of the last failure on this thread that had more to say
 * than its status, in a sentence: which argument an
 * XWG_ERROR_INVALID_ARGUMENT refused and why (what XWG_TRACE=1 prints),
 * or what the self-test saw on a refused device. It describes the last
 * call only: every call that returns a status empties it first, so after
 * a success, or a failure with nothing more to say than its status, it is
 * "". Never NULL. The string belongs to the thread. */
XWG_EXPORT const char *xwg_last_error(void);

/* ---- Options ----------------------------------------------------------- */

/* Which atomics the kernel-side library is built on. */
typedef enum xwg_atomics_path {
    XWG_ATOMICS_AUTO = 0, /* choose from what the device promises */
    XWG_ATOMICS_CL20 = 1, /* C11 atomics, explicit order, device scope */
    XWG_ATOMICS_CL12 = 2, /* OpenCL 1.x atomic_* built-ins, volatile, fences */
    /* NVIDIA only: cl20's orders and scopes, each written as the PTX
     * instruction that has it (ld.acquire.gpu, atom.release.gpu, ...),
     * as CUDA compiles them; NVIDIA's OpenCL compiler makes every C11
     * acquire or release a full fence. Tried first on NVIDIA devices. */
    XWG_ATOMICS_PTX = 3
} xwg_atomics_path;

/* "auto", "cl20", "cl12" or "ptx" (the words XWG_ATOMICS takes); "?" for
 * any other value. Never NULL; the string is static. Note: `ptx` has the
 * cl20 path's semantics (C11 orders at device scope), so code that asks
 * "are C11 atomics in use?" should test `!= XWG_ATOMICS_CL12`. */
XWG_EXPORT const char *xwg_atomics_path_name(xwg_atomics_path path);

/* Which occupancy discovery protocol XWG_DISCOVER() runs. */
typedef enum xwg_discovery_protocol {
    XWG_DISCOVERY_DEFAULT = 0,
    /* The paper's: a fair ticket lock around polling and closing. Full
     * recall, but every launched group takes the lock twice, one after
     * another, so its time grows with the launch. */
    XWG_DISCOVERY_TICKET_LOCK = 1,
    /* xwg's own: one lock-free arrival word; a participant joins with one
     * fetch-add, and the poll closes once the count has stayed unchanged for
     * window of time. Late groups leave after a single atomic. */
    XWG_DISCOVERY_STABLE_WINDOW = 2
} xwg_discovery_protocol;

/* Which global barrier xwg_barrier() runs. */
typedef enum xwg_barrier_algo {
    /* By the launch's size: the tree above 4 groups per compute unit,
     * the counter below (the faster of the two there on the H200). */
    XWG_BARRIER_DEFAULT = 0,
    /* Master/slave (Xiao and Feng; the paper's). Compiled only into the
     * programs of a context that fixes it (xwg_options.barrier): the
     * default's programs hold the counter, the tree or both, as the
     * device runs fastest (see xwg_program_build). */
    XWG_BARRIER_XF = 1,
    XWG_BARRIER_COUNTER = 2, /* one counter, no reset (grid.sync() shape) */
    /* A counter per cluster of 96 groups; the last arrival of each cluster
     * arrives at the counter barrier for the whole grid. Up to 2048 groups
     * every group then polls the grid counter; above, the last arrival
     * wakes its cluster, so that one word no longer takes every poll. */
    XWG_BARRIER_TREE = 3
} xwg_barrier_algo;

/* "default", "xf", "counter" or "tree" (the words XWG_BARRIER takes); "?"
 * for any other value. Never NULL; the string is static. */
XWG_EXPORT const char *xwg_barrier_algo_name(xwg_barrier_algo algo);

/* The barrier self-test that xwg_context_create() runs on the device. */
typedef enum xwg_self_test_mode {
    /* Run it; refuse the device (XWG_ERROR_UNSUPPORTED_DEVICE) if the
     * barrier gave a wrong answer. */
    XWG_SELF_TEST_REQUIRE = 0,
    /* Run it and record the result, but accept the device whatever it
     * says: the caller forces the device (or needs discovery only). */
    XWG_SELF_TEST_REPORT = 1,
    /* Do not run it. */
    XWG_SELF_TEST_SKIP = 2
} xwg_self_test_mode;

/* What the self-test found; xwg_device_info.self_test_detail says it in a
 * sentence. */
typedef enum xwg_self_test_result {
    XWG_SELF_TEST_NOT_RUN = 0,
    /* Every launch (each algorithm at 2 groups, a quarter of the
     * co-resident groups and all of them) ran on two groups or more, and
     * read no wrong value. */
    XWG_SELF_TEST_PASSED = 1,
    /* A launch read a value that the barrier should have made visible, or
     * (on a GPU) co-resident groups could not complete a barrier. The
     * device is refused unless the mode is XWG_SELF_TEST_REPORT. */
    XWG_SELF_TEST_FAILED = 2,
    /* Could not decide: on a CPU device its launches kept timing out, or
     * discovery kept finding one group where the device has more compute
     * units, with no wrong read. A busy machine does this: it slows a
     * CPU device's groups, never makes them read wrong values. The device
     * is accepted, and the next context tests it again. */
    XWG_SELF_TEST_UNTESTED = 3,
    /* One group can be resident at a time (one compute unit, and
     * discovery never found two): every launch has one participant, and
     * its barrier is trivially safe. */
    XWG_SELF_TEST_ONE_GROUP = 4
} xwg_self_test_result;

/* "not run", "passed", "failed", "untested" or "one group"; "?" for any
 * other value. Never NULL; the string is static. */
XWG_EXPORT const char *xwg_self_test_result_name(xwg_self_test_result result);

/* The self-test on one atomics path: xwg_device_info.self_test_run. */
typedef struct xwg_self_test_run {
    xwg_atomics_path path;
    xwg_self_test_result result;
    /* XWG_SUCCESS, or why the test could not finish on this path: it did
     * not build (XWG_ERROR_BUILD_FAILED), or a launch failed or timed out
     * (XWG_ERROR_DISCOVERY_TIMEOUT, XWG_ERROR_BARRIER_TIMEOUT, ...). */
    int status;
    cl_uint errors; /* wrong values read */
    cl_uint groups; /* participants of its largest launch */
} xwg_self_test_run;

/* Options of a context. Always initialise with xwg_options_init() or
 * XWG_OPTIONS_INIT: the size field lets the struct grow without breaking
 * programs built against an older header. */
typedef struct xwg_options {
    size_t size;                      /* sizeof(xwg_options) */
    xwg_atomics_path atomics;         /* AUTO; env XWG_ATOMICS overrides */
    xwg_discovery_protocol discovery; /* DEFAULT; env XWG_DISCOVERY too */
    /* Microseconds of the closing window (stable-window protocol: the
     * count must stay unchanged this long) or of the delay before closing
     * (ticket lock). OpenCL C has no clock: xwg times its polling loop on
     * the device once per context and converts. 0: the device's default,
     * see xwg_device_info.discovery_window_us. */
    cl_uint discovery_window_us;
    /* The barrier of launches on this context (env
     * XWG_BARRIER=xf|counter|tree|default overrides). Programs that
     * xwg_program_build builds on a context that fixes one compile it
     * alone (faster), and a launch of their kernels cannot pick another
     * (a kernel that compiled one runs it on any context). DEFAULT:
     * programs compile the counter and the tree (each launch choosing
     * between them by its size, or by its option), or the one of them
     * that the device runs faster: timed at the first build
     * (xwg_device_info.default_barriers). */
    xwg_barrier_algo barrier;
    /* env XWG_SELF_TEST=require|report|skip overrides. */
    xwg_self_test_mode self_test;
} xwg_options;

#define XWG_OPTIONS_INIT {sizeof(xwg_options), XWG_ATOMICS_AUTO, \
                          XWG_DISCOVERY_DEFAULT, 0, XWG_BARRIER_DEFAULT, \
                          XWG_SELF_TEST_REQUIRE}

/* Fills opts with the defaults (and its size). */
XWG_EXPORT void xwg_options_init(xwg_options *opts);

/* ---- Context --------------------------------------------------------- */

typedef struct xwg_context xwg_context;

/* Creates an xwg context for one device of an OpenCL context. It probes the
 * device (OpenCL C versions and features, atomic capabilities, compute
 * units, work-group size, local memory) and chooses the atomics path.
 * The OpenCL context is retained, not copied; opts may be NULL.
 * Unless opts->self_test says otherwise, it then runs a barrier
 * self-test on the device: a stress kernel whose groups check each
 * other's plain stores across barriers, for each algorithm at 2 groups,
 * a quarter of the co-resident groups and all of them (as discovery
 * counts them, never the compute units). Devices whose plain loads miss
 * stores made before a barrier (Mesa rusticl on llvmpipe and on Zink) read
 * stale data there; such a device is refused rather than allowed to give
 * wrong answers, and xwg_last_error() says what was seen. A launch that
 * cannot decide (it times out, or admits one group where more fit) is
 * run again with a longer watchdog, three times at most; on a CPU device
 * that still cannot decide the result is XWG_SELF_TEST_UNTESTED and the
 * device is accepted (see xwg_self_test_result).
 * Errors: XWG_ERROR_INVALID_ARGUMENT (NULL handle, device not in the
 * context, opts->size too small to reach opts->atomics (initialise opts
 * with xwg_options_init()), bad option or XWG_ATOMICS value),
 * XWG_ERROR_UNSUPPORTED_DEVICE (a forced path the device cannot compile,
 * or a failed self-test),
 * XWG_ERROR_OUT_OF_HOST_MEMORY, or an OpenCL error. On error *out is NULL
 * and nothing is left allocated or retained. */
XWG_EXPORT int xwg_context_create(cl_context context, cl_device_id device,
                                  const xwg_options *opts, xwg_context **out);

/* Releases everything the context holds. NULL is accepted and ignored. */
XWG_EXPORT void xwg_context_release(xwg_context *ctx);

/* What the probe found and what was chosen. */
typedef struct xwg_device_info {
    size_t size; /* set by the caller: sizeof(xwg_device_info) */
    char platform_name[128];
    char device_name[128];
    char driver_version[64];
    char opencl_c_version[64];   /* CL_DEVICE_OPENCL_C_VERSION */
    unsigned opencl_c_max;       /* highest OpenCL C supported, e.g. 300 */
    cl_device_type device_type;
    cl_uint compute_units;
    size_t max_work_group_size;
    cl_ulong local_mem_size;
    /* CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES / _FENCE_CAPABILITIES; 0 where
     * the device predates OpenCL 3.0 and cannot report them. */
    cl_bitfield atomic_memory_capabilities;
    cl_bitfield atomic_fence_capabilities;
    int has_c11_atomics_feature; /* __opencl_c_atomic_order_acq_rel etc. */
    xwg_atomics_path atomics_path;      /* the path chosen */
    char atomics_reason[256];           /* why, in one sentence */
    xwg_discovery_protocol discovery;   /* the protocol chosen */
    cl_uint discovery_window_us;        /* its window, in microseconds */
    /* Filled by the first discovery on the context, 0 until then: the
     * device time of one poll of the window loop, and the window in
     * polls. */
    double poll_ns;
    cl_uint discovery_window_polls;
    /* The context's barrier; XWG_BARRIER_DEFAULT: each launch chooses by
     * its size, the tree above 4 groups per compute unit (where one
     * counter's cache line is the bottleneck), else the counter. */
    xwg_barrier_algo barrier;
    /* The barrier self-test: its result, the wrong values it read, the
     * participating groups and the episodes it ran. Cached per device,
     * driver version and path for the life of the process. */
    xwg_self_test_result self_test;
    cl_uint self_test_errors;
    cl_uint self_test_groups;
    cl_uint self_test_episodes;
    /* The result in a sentence: what was seen, on how many groups. */
    char self_test_detail[256];
    /* Every path the self-test ran on, in the order tried, the path
     * chosen last (at most ptx, cl20, cl12). The fields above describe
     * the last; a device refused on every path shows here what each
     * read, such as the wrong values of a path that was tried first. */
    cl_uint self_test_runs;
    xwg_self_test_run self_test_run[3];
    /* The barriers a build compiles where neither the context nor the
     * caller fixes them (bit a for xwg_barrier_algo a), timed on the
     * device at the context's first such build (0 until then): the
     * counter and the tree, each launch choosing by its size, or the one
     * of them that costs less on this device. XWG_CALIBRATE=0 keeps
     * both untimed. */
    cl_uint default_barriers;
} xwg_device_info;

/* Every field named, so that -Wextra (missing-field-initializers) stays
 * quiet in user code; tests/init_macros.c holds each _INIT to that. */
#define XWG_DEVICE_INFO_INIT {sizeof(xwg_device_info), "", "", "", "", 0, \
    0, 0, 0, 0, 0, 0, 0, XWG_ATOMICS_AUTO, "", XWG_DISCOVERY_DEFAULT, 0,  \
    0.0, 0, XWG_BARRIER_DEFAULT, XWG_SELF_TEST_NOT_RUN, 0, 0, 0, "", 0,    \
    {{XWG_ATOMICS_AUTO, XWG_SELF_TEST_NOT_RUN, 0, 0, 0},                  \
     {XWG_ATOMICS_AUTO, XWG_SELF_TEST_NOT_RUN, 0, 0, 0},                  \
     {XWG_ATOMICS_AUTO, XWG_SELF_TEST_NOT_RUN, 0, 0, 0}}, 0}

/* Copies what was probed and chosen into *info (whose size must be set).
 * Errors: XWG_ERROR_INVALID_ARGUMENT (NULL, or info->size below
 * sizeof(size_t): not initialised with XWG_DEVICE_INFO_INIT). */
XWG_EXPORT int xwg_context_query(const xwg_context *ctx,
                                 xwg_device_info *info);

/* ---- Building programs --------------------------------------------- */

/* Builds user source with xwg's kernel-side library in front: the user
 * needs no #include, and a "#line 1" keeps build-log line numbers equal to
 * the user's own. The chosen path's defines, -cl-kernel-arg-info and the
 * matching -cl-std are added to the caller's options (which may be NULL),
 * and -DXWG_BARRIERS=SET, the barrier algorithms the program compiles:
 * the context's, where it fixes one, else the set that the device runs
 * fastest (xwg_device_info.default_barriers; the first such build on a
 * device times it). The
 * code of an algorithm costs time even where it never runs (measured in
 * docs/performance.md, tuning-h200, +only, +all). A caller's own -DXWG_BARRIERS (bit a for
 * xwg_barrier_algo a; a plain number, else XWG_ERROR_INVALID_ARGUMENT)
 * wins. On success *out holds the program (the caller releases it). On failure
 * *out is NULL; if log is not NULL, *log receives the whole build log
 * (caller frees it with free()) or NULL; the status is
 * XWG_ERROR_BUILD_FAILED for a compile error, XWG_ERROR_INVALID_ARGUMENT
 * for a NULL ctx, source or out (or the -DXWG_BARRIERS above). */
XWG_EXPORT int xwg_program_build(xwg_context *ctx, const char *source,
                                 const char *options, cl_program *out,
                                 char **log);

/* The kernel-side library's source, as embedded (for reading or for users
 * who build programs themselves). Static; never NULL. */
XWG_EXPORT const char *xwg_kernel_library_source(void);

/* For a program built outside xwg_program_build() (PyOpenCL, an offline
 * build): exactly what xwg_program_build() would use on this context.
 * xwg_program_source_prefix() gives the source to put before the user's
 * (the path's defines, the collectives' scratch size, the kernel-side
 * library, "#line 1"); xwg_program_options() the build options (the
 * OpenCL C standard, -cl-kernel-arg-info, which launches need to find the
 * XWG_STATE parameter, the caller's `options`, and the barrier set). Such
 * a program needs both, each given the same `options`: the prefix sets no
 * build option, and the options define no atomics path (the kernel
 * library's #error names both calls where the path is missing).
 * `options` are the caller's own (may be NULL): they can change both.
 * Each writes its text, NUL-terminated, into buf (size bytes) and its
 * size with the NUL into *needed (needed may be NULL). buf NULL with size
 * 0 asks for the size alone. Errors: XWG_ERROR_INVALID_ARGUMENT (ctx
 * NULL, buf NULL or too small: nothing written; options defining a bad
 * XWG_BARRIERS), XWG_ERROR_OUT_OF_HOST_MEMORY. A program built without
 * -cl-kernel-arg-info gets, at launch, XWG_ERROR_NO_STATE_ARG with a
 * message that says what is missing.
 *
 *     size_t n;
 *     xwg_program_options(xc, NULL, NULL, 0, &n);
 *     char *opts = malloc(n);
 *     xwg_program_options(xc, NULL, opts, n, NULL);
 */
XWG_EXPORT int xwg_program_source_prefix(xwg_context *ctx,
                                         const char *options, char *buf,
                                         size_t size, size_t *needed);
XWG_EXPORT int xwg_program_options(xwg_context *ctx, const char *options,
                                   char *buf, size_t size, size_t *needed);

/* ---- Occupancy discovery -------------------------------------------- */

typedef struct xwg_occupancy {
    size_t size;            /* set by the caller: sizeof(xwg_occupancy) */
    cl_uint groups;         /* co-resident groups found (>= 1) */
    size_t local_size;      /* the work-group size discovered for */
    cl_ulong local_mem;     /* CL_KERNEL_LOCAL_MEM_SIZE at discovery */
    cl_uint groups_launched; /* groups the last discovery launch had */
    double time_ms;         /* wall time of the discovery launches */
    double kernel_ms;       /* device time of the last launch (profiling) */
    int from_cache;         /* 1: answered from the cache */
} xwg_occupancy;

/* Every field named, as XWG_DEVICE_INFO_INIT's are. */
#define XWG_OCCUPANCY_INIT {sizeof(xwg_occupancy), 0, 0, 0, 0, 0.0, 0.0, 0}

/* Runs the discovery protocol with the user's own kernel, in a
 * discovery-only mode: the kernel is launched as it is (so with its own
 * registers and local memory), XWG_DISCOVER() runs, and every group returns
 * right after it. Every participant polled before the poll closed and
 * stays resident until it has seen it closed, so all participants were
 * resident together at the moment of closing: the count is a safe bound.
 * The user's arguments must be set (OpenCL needs every argument set to
 * launch); xwg sets the XWG_STATE argument itself. Results are cached per
 * kernel, local size and CL_KERNEL_LOCAL_MEM_SIZE (so a new dynamic __local
 * size is discovered again); xwg_discover_uncached() skips the cache.
 * The cache holds a reference to each kernel it has an entry for until
 * the context is released.
 * Errors: XWG_ERROR_INVALID_ARGUMENT (NULL, out->size below
 * sizeof(size_t), local_size 0 or above the device's maximum),
 * XWG_ERROR_NO_STATE_ARG, XWG_ERROR_KERNEL_NOT_RUN (the kernel has
 * XWG_STATE but did not run XWG_DISCOVER(); xwg_last_error() says so),
 * XWG_ERROR_DISCOVERY_FAILED (a count no protocol run can give, or a
 * spin that timed out; xwg_last_error() says which),
 * or an OpenCL error (CL_INVALID_WORK_GROUP_SIZE where local_size exceeds
 * the kernel's own maximum: the runtime decides, since some drivers report
 * a lower one than they run). */
XWG_EXPORT int xwg_discover(xwg_context *ctx, cl_kernel kernel,
                            size_t local_size, xwg_occupancy *out);
XWG_EXPORT int xwg_discover_uncached(xwg_context *ctx, cl_kernel kernel,
                                     size_t local_size, xwg_occupancy *out);

/* ---- Launching ---------------------------------------------------------- */

typedef struct xwg_launch_info {
    size_t size;             /* set by the caller: sizeof(xwg_launch_info) */
    cl_uint groups;          /* groups that participated */
    cl_uint groups_launched; /* groups the NDRange had */
    int timed_out;           /* 1: a barrier wait hit the watchdog */
    xwg_barrier_algo barrier; /* the barrier algorithm the launch ran */
} xwg_launch_info;

/* Every field named, as XWG_DEVICE_INFO_INIT's are. */
#define XWG_LAUNCH_INFO_INIT {sizeof(xwg_launch_info), 0, 0, 0, \
                              XWG_BARRIER_DEFAULT}

typedef struct xwg_launch_options {
    size_t size;        /* sizeof(xwg_launch_options) */
    /* Launch exactly this many groups instead of the discovered count
     * (0: discovered). The in-kernel protocol still admits only
     * co-resident groups unless skip_discovery is set. */
    cl_uint groups;
    /* Skip discovery: no host discovery and no in-kernel protocol; every
     * launched group participates with its hardware id. Past the
     * occupancy this can only end in XWG_ERROR_BARRIER_TIMEOUT. Without
     * `groups`, the cached discovery (or a new one) still sizes the
     * launch. */
    int skip_discovery;
    /* How long one barrier wait may take before the watchdog ends the
     * launch, in milliseconds (0: 1000). Converted into polls with the
     * context's calibration; contended polls are slower, so real waits
     * run at least this long. At most 2^42 polls: about 40 minutes where
     * a poll takes half a nanosecond (a CPU core). */
    cl_uint watchdog_ms;
    /* DEFAULT: the one the kernel compiled if it compiled one, else the
     * context's, else by size. Asking for one the kernel did not compile
     * (see xwg_options.barrier) is XWG_ERROR_INVALID_ARGUMENT. */
    xwg_barrier_algo barrier;
    /* The fewest participants the caller accepts (0 or 1: any). Where
     * discovery finds fewer (from the cache, it discovers again first),
     * the launch fails before it is enqueued; where the kernel's own
     * protocol admits fewer, it fails after the kernel ran, with info
     * filled. Either way XWG_ERROR_TOO_FEW_GROUPS, and xwg_last_error()
     * names the groups found and required. A busy machine gives a CPU
     * device fewer groups: without this, a launch just runs on them. A
     * nonzero `groups` below it is XWG_ERROR_INVALID_ARGUMENT. */
    cl_uint min_groups;
} xwg_launch_options;

#define XWG_LAUNCH_OPTIONS_INIT {sizeof(xwg_launch_options), 0, 0, 0, \
                                 XWG_BARRIER_DEFAULT, 0}

/* Finds the kernel's XWG_STATE parameter, discovers the occupancy (cached),
 * launches that many groups of local_size on queue and waits for them.
 * info may be NULL. Returns XWG_SUCCESS, XWG_ERROR_BARRIER_TIMEOUT (a
 * barrier was misused, or a forced launch did not fit: info->timed_out is
 * set and the context stays usable), XWG_ERROR_BARRIER_MISUSE (the kernel
 * broke a rule of the split barrier or of a collective that it could see;
 * xwg_last_error() names the rule; info->timed_out is set, as every wait
 * was ended), XWG_ERROR_KERNEL_NOT_RUN (the kernel did not run its
 * XWG_DISCOVER(): see below), XWG_ERROR_TOO_FEW_GROUPS (fewer
 * participants than opts->min_groups: see there), XWG_ERROR_INVALID_ARGUMENT (a NULL
 * handle, info->size below sizeof(size_t), a bad option, or more than
 * 2^32 work-items in all) before the kernel is launched, the errors of
 * xwg_discover(), or an OpenCL error. The same cl_kernel must not be
 * launched from two threads at once (its arguments are shared, as in
 * OpenCL itself). The first launch of a kernel that succeeds keeps its
 * XWG_STATE index and compiled barriers, and a reference to it, until the
 * context is released, as the discovery cache does.
 *
 * What a launch enqueues on queue: a write of its state buffer, the
 * kernel, and a read of the kernel's status words. A launch that skips
 * discovery, with the same options as the last launch that used its state
 * buffer and completed, has no write: the buffer is as that launch left
 * it. On an in-order queue the kernel has no event and the read blocks
 * right behind it; on an out-of-order queue the read waits for the
 * kernel's event. Where no event can say that the kernel ran, its
 * XWG_DISCOVER() says so: a kernel that did not run it (it never ran, or
 * lacks XWG_DISCOVER()) ends the launch in XWG_ERROR_KERNEL_NOT_RUN. */
XWG_EXPORT int xwg_launch(xwg_context *ctx, cl_command_queue queue,
                          cl_kernel kernel, size_t local_size,
                          xwg_launch_info *info);
/* The same with per-launch options (opts may be NULL). */
XWG_EXPORT int xwg_launch_ex(xwg_context *ctx, cl_command_queue queue,
                             cl_kernel kernel, size_t local_size,
                             const xwg_launch_options *opts,
                             xwg_launch_info *info);

/* A launch in flight. Each has a state buffer of its own (the context
 * keeps finished launches' buffers for later ones), so launches in
 * flight, on one queue or several, never share state. */
typedef struct xwg_pending xwg_pending;

/* Enqueues the launch and returns at once. *pending must be passed to
 * xwg_launch_finish() exactly once, and queue kept (not released) until
 * then. If event is not NULL it receives the kernel's event (the caller
 * releases it), to wait on or chain; xwg_launch_finish() then waits for
 * it and reads the status on xwg's own queue. With no event asked for, on
 * an in-order queue, the kernel is enqueued with none (an event costs
 * about as much as the enqueue on some drivers), and xwg_launch_finish()
 * reads the status with a read enqueued on queue: it waits for everything
 * enqueued there before it, and reads the statuses of every launch on
 * queue not finished yet in the same read, so that their own finishes
 * wait for nothing. Errors as xwg_launch_ex() (pending may not be NULL);
 * on error *pending and *event are NULL. */
XWG_EXPORT int xwg_launch_async(xwg_context *ctx, cl_command_queue queue,
                                cl_kernel kernel, size_t local_size,
                                const xwg_launch_options *opts,
                                xwg_pending **pending, cl_event *event);
/* Waits for the launch, reads its status (participants, watchdog) and
 * frees *pending. Returns as xwg_launch(). info may be NULL; one whose
 * size is below sizeof(size_t) (not initialised with XWG_LAUNCH_INFO_INIT)
 * is XWG_ERROR_INVALID_ARGUMENT, as in xwg_launch_ex(), and is not
 * written: the launch is still waited for and *pending freed, but its
 * status is lost. A NULL pending is XWG_ERROR_INVALID_ARGUMENT too. */
XWG_EXPORT int xwg_launch_finish(xwg_pending *pending,
                                 xwg_launch_info *info);

/* ---- Conveniences ------------------------------------------------------ */

/* 1 if a platform's name contains part, ignoring ASCII case (or part is
 * NULL or empty), else 0. */
XWG_EXPORT int xwg_platform_name_matches(const char *name, const char *part);

/* 1 if the platform's CL_PLATFORM_NAME or CL_PLATFORM_VENDOR contains
 * part, as xwg_platform_name_matches() matches, else 0: how
 * xwg_find_device() and xwg-discover's --platform-name choose. Users know
 * PoCL as "pocl", which only its vendor ("The pocl project") holds. */
XWG_EXPORT int xwg_platform_matches(cl_platform_id platform,
                                    const char *part);

/* The first device of the first platform whose name or vendor contains
 * name_part, ignoring case ("pocl" finds PoCL by its vendor, "The pocl
 * project"), or of the first platform if name_part is NULL or empty;
 * platforms without devices are passed over. GPUs are preferred.
 * Errors: XWG_ERROR_INVALID_ARGUMENT (platform or device NULL),
 * XWG_ERROR_NO_DEVICE (xwg_last_error() names every platform found, with
 * its vendor, as xwg-discover --platform-name does, or says there was
 * none), XWG_ERROR_OUT_OF_HOST_MEMORY. */
XWG_EXPORT int xwg_find_device(const char *name_part,
                               cl_platform_id *platform,
                               cl_device_id *device);

#ifdef __cplusplus
}
#endif

#endif /* XWG_BARRIER_H */
