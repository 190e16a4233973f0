/*
 * xwg_barrier.h - the public API of xwg, a portable inter-workgroup barrier
 * for OpenCL kernels. xwg finds how many work-groups of a kernel are really
 * co-resident (occupancy discovery, Sorensen et al., OOPSLA 2016), launches
 * no more than that, and gives the kernel a global barrier that cannot hang:
 *
 *     xwg_context *xc;
 *     xwg_context_create(cl_ctx, dev, NULL, &xc);       // probe, self-test
 *     cl_program prog; char *log = NULL;
 *     xwg_program_build(xc, source, "", &prog, &log);   // no #include needed
 *     cl_kernel k = clCreateKernel(prog, "my_kernel", &err);
 *     // ... set the user's own arguments; xwg owns the XWG_STATE argument ...
 *     xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
 *     xwg_launch(xc, queue, k, 256, &info);             // info.groups ran
 *     // kernel: __kernel void my_kernel(__global float *d, XWG_STATE)
 *     //         { XWG_DISCOVER(); ... xwg_barrier(); ... }
 *
 * Contracts are here; the reference is docs/host-api.md (host calls, errors,
 * threads), docs/kernel-api.md (the kernel side) and docs/guide.md. Calls
 * return an int status: 0 on success, OpenCL's CL_* codes passed through,
 * xwg's own below; xwg_last_error() says why, XWG_TRACE=1 traces to stderr.
 * Structs that begin with size grow by it: initialise them with _INIT.
 * Threads: a context serves several at once; a cl_kernel, one at a time.
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

/* The version of the library linked, as XWG_VERSION_HEX and "M.m.p". */
XWG_EXPORT unsigned xwg_version(void);
XWG_EXPORT const char *xwg_version_string(void);

/* ---- Status codes: xwg's own, in [-20099, -20000] ----------------------
 * One X-macro table makes the enum, the messages and the names, so a code
 * cannot be half-added. OpenCL's codes pass through as their CL_* values. */
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
/* A message and the symbolic name ("CL_INVALID_VALUE") for any status:
 * xwg's, OpenCL's or unknown. Static strings, never NULL. */
XWG_EXPORT const char *xwg_status_string(int status);
XWG_EXPORT const char *xwg_status_name(int status);
/* Why this thread's last call failed, where its status says less ("" after
 * a success: every call empties it). Never NULL; the thread's own string. */
XWG_EXPORT const char *xwg_last_error(void);

/* ---- Options (each value: docs/host-api.md#options) ------------------- */
/* Which atomics the kernel-side library is built on. */
typedef enum xwg_atomics_path {
    XWG_ATOMICS_AUTO = 0, /* choose from what the device promises */
    XWG_ATOMICS_CL20 = 1, /* C11 atomics, explicit order, device scope */
    XWG_ATOMICS_CL12 = 2, /* OpenCL 1.x atomic_* built-ins, volatile, fences */
    XWG_ATOMICS_PTX = 3   /* NVIDIA: cl20's orders as PTX instructions */
} xwg_atomics_path;
/* "auto", "cl20", "cl12" or "ptx" (XWG_ATOMICS's words), else "?"; static.
 * ptx has cl20's semantics: ask "C11 atomics?" as != XWG_ATOMICS_CL12. */
XWG_EXPORT const char *xwg_atomics_path_name(xwg_atomics_path path);

/* Which occupancy discovery protocol XWG_DISCOVER() runs. */
typedef enum xwg_discovery_protocol {
    XWG_DISCOVERY_DEFAULT = 0,
    XWG_DISCOVERY_TICKET_LOCK = 1,  /* the paper's: a fair ticket lock */
    XWG_DISCOVERY_STABLE_WINDOW = 2 /* xwg's: one lock-free arrival word */
} xwg_discovery_protocol;

/* Which global barrier xwg_barrier() runs. */
typedef enum xwg_barrier_algo {
    XWG_BARRIER_DEFAULT = 0, /* by size: the tree or the counter */
    XWG_BARRIER_XF = 1,      /* master/slave, where the context fixes it */
    XWG_BARRIER_COUNTER = 2, /* one counter, no reset (grid.sync() shape) */
    XWG_BARRIER_TREE = 3     /* a counter per cluster of 96 groups */
} xwg_barrier_algo;
/* "default", "xf", "counter" or "tree" (XWG_BARRIER's words), else "?";
 * static. */
XWG_EXPORT const char *xwg_barrier_algo_name(xwg_barrier_algo algo);

/* The barrier self-test that xwg_context_create() runs on the device. */
typedef enum xwg_self_test_mode {
    XWG_SELF_TEST_REQUIRE = 0, /* refuse a device whose barrier read wrong */
    XWG_SELF_TEST_REPORT = 1,  /* run it, accept the device whatever it says */
    XWG_SELF_TEST_SKIP = 2     /* do not run it */
} xwg_self_test_mode;

/* What the self-test found (xwg_device_info.self_test_detail: why). */
typedef enum xwg_self_test_result {
    XWG_SELF_TEST_NOT_RUN = 0,
    XWG_SELF_TEST_PASSED = 1,   /* >= 2 groups each launch, no wrong read */
    XWG_SELF_TEST_FAILED = 2,   /* a wrong read, or a GPU barrier stuck */
    XWG_SELF_TEST_UNTESTED = 3, /* a busy CPU device: undecided, accepted */
    XWG_SELF_TEST_ONE_GROUP = 4 /* one group resident: trivially safe */
} xwg_self_test_result;
/* "not run", "passed", "failed", "untested", "one group", else "?"; static. */
XWG_EXPORT const char *xwg_self_test_result_name(xwg_self_test_result result);

/* The self-test on one atomics path: xwg_device_info.self_test_run. */
typedef struct xwg_self_test_run {
    xwg_atomics_path path;
    xwg_self_test_result result;
    int status;     /* XWG_SUCCESS, or why the test could not finish */
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
    cl_uint discovery_window_us;      /* the closing window; 0: the device's */
    xwg_barrier_algo barrier;         /* DEFAULT; env XWG_BARRIER too */
    xwg_self_test_mode self_test;     /* REQUIRE; env XWG_SELF_TEST too */
} xwg_options;
#define XWG_OPTIONS_INIT {sizeof(xwg_options), XWG_ATOMICS_AUTO, \
                          XWG_DISCOVERY_DEFAULT, 0, XWG_BARRIER_DEFAULT, \
                          XWG_SELF_TEST_REQUIRE}
/* Fills opts with the defaults (and its size). */
XWG_EXPORT void xwg_options_init(xwg_options *opts);

/* ---- Context --------------------------------------------------------- */
typedef struct xwg_context xwg_context;
/* Creates a context for one device of an OpenCL context (retained): probes
 * it, picks the atomics path and, unless opts->self_test says otherwise,
 * refuses a device that fails a barrier self-test. opts may be NULL. Errors
 * XWG_ERROR_INVALID_ARGUMENT, _UNSUPPORTED_DEVICE, _OUT_OF_HOST_MEMORY or
 * OpenCL's; then *out is NULL and nothing is left allocated or retained. */
XWG_EXPORT int xwg_context_create(cl_context context, cl_device_id device,
                                  const xwg_options *opts, xwg_context **out);

/* Releases everything the context holds; NULL is ignored. Pending launches
 * must be finished first, and no other call on ctx may race with it. */
XWG_EXPORT void xwg_context_release(xwg_context *ctx);

/* What the probe found and what was chosen (docs/host-api.md). */
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
    cl_bitfield atomic_memory_capabilities; /* 0 before OpenCL 3.0 */
    cl_bitfield atomic_fence_capabilities;  /* 0 before OpenCL 3.0 */
    int has_c11_atomics_feature; /* __opencl_c_atomic_order_acq_rel etc. */
    xwg_atomics_path atomics_path;      /* the path chosen */
    char atomics_reason[256];           /* why, in one sentence */
    xwg_discovery_protocol discovery;   /* the protocol chosen */
    cl_uint discovery_window_us;        /* its window, in microseconds */
    double poll_ns;                     /* one poll; 0 until a discovery */
    cl_uint discovery_window_polls;     /* the window in polls; 0 until then */
    xwg_barrier_algo barrier;           /* the context's barrier */
    xwg_self_test_result self_test;     /* the self-test's result, */
    cl_uint self_test_errors;           /* the wrong values it read, */
    cl_uint self_test_groups;           /* its participating groups */
    cl_uint self_test_episodes;         /* and the episodes it ran */
    char self_test_detail[256];         /* the result in a sentence */
    cl_uint self_test_runs;             /* paths tested, the chosen last */
    xwg_self_test_run self_test_run[3]; /* each, in the order tried */
    cl_uint default_barriers; /* bit a: algo a compiled by default builds */
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
/* Builds source with xwg's kernel library in front ("#line 1" keeps the
 * user's line numbers), adding the path's build options to options (may be
 * NULL). On success the caller releases *out; on failure *out is NULL and
 * *log (if log) the whole build log, to free(), or NULL. Errors:
 * XWG_ERROR_BUILD_FAILED, XWG_ERROR_INVALID_ARGUMENT (NULL, bad option).
 * XWG_PROGRAM_CACHE=DIR keeps built programs on disk (docs/host-api.md). */
XWG_EXPORT int xwg_program_build(xwg_context *ctx, const char *source,
                                 const char *options, cl_program *out,
                                 char **log);

/* The kernel-side library's source, as embedded. Static; never NULL. */
XWG_EXPORT const char *xwg_kernel_library_source(void);

/* For programs built elsewhere: the source prefix and the build options
 * that xwg_program_build() would use (such a program needs both, for the
 * same options). Each writes its text, NUL-terminated, into buf and that
 * size into *needed (may be NULL); buf NULL and size 0 ask the size. Errors:
 * XWG_ERROR_INVALID_ARGUMENT (buf too small), XWG_ERROR_OUT_OF_HOST_MEMORY. */
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

/* Counts the co-resident groups of kernel (its own arguments set) with the
 * discovery protocol, cached per kernel, local size and local memory (the
 * cache keeps a kernel reference till release); _uncached skips the cache.
 * Errors: XWG_ERROR_INVALID_ARGUMENT, _NO_STATE_ARG, _KERNEL_NOT_RUN,
 * _DISCOVERY_FAILED (xwg_last_error() says why), OpenCL's. */
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
    cl_uint groups;     /* launch this many groups (0: as discovered) */
    int skip_discovery; /* every launched group participates, unchecked */
    cl_uint watchdog_ms; /* one barrier wait's bound (0: 1000 ms) */
    xwg_barrier_algo barrier; /* DEFAULT: the kernel's or the context's */
    cl_uint min_groups; /* fewer participants: XWG_ERROR_TOO_FEW_GROUPS */
} xwg_launch_options;
#define XWG_LAUNCH_OPTIONS_INIT {sizeof(xwg_launch_options), 0, 0, 0, \
                                 XWG_BARRIER_DEFAULT, 0}

/* Discovers the occupancy (cached), launches that many groups of
 * local_size on queue and waits; _ex takes options. info and opts may be
 * NULL. Errors: XWG_ERROR_BARRIER_TIMEOUT, _BARRIER_MISUSE, _KERNEL_NOT_RUN,
 * _TOO_FEW_GROUPS, _INVALID_ARGUMENT (nothing launched), xwg_discover()'s,
 * OpenCL's. One cl_kernel must not launch from two threads at once. */
XWG_EXPORT int xwg_launch(xwg_context *ctx, cl_command_queue queue,
                          cl_kernel kernel, size_t local_size,
                          xwg_launch_info *info);
XWG_EXPORT int xwg_launch_ex(xwg_context *ctx, cl_command_queue queue,
                             cl_kernel kernel, size_t local_size,
                             const xwg_launch_options *opts,
                             xwg_launch_info *info);

/* A launch in flight, with a state buffer of its own. */
typedef struct xwg_pending xwg_pending;
/* Enqueues the launch and returns: pass *pending to xwg_launch_finish()
 * exactly once, keeping queue until then. If event is not NULL, *event is
 * the kernel's, for the caller to release. Errors as xwg_launch_ex(), and
 * then *pending and *event are NULL. */
XWG_EXPORT int xwg_launch_async(xwg_context *ctx, cl_command_queue queue,
                                cl_kernel kernel, size_t local_size,
                                const xwg_launch_options *opts,
                                xwg_pending **pending, cl_event *event);
/* Waits for the launch, reads its status into info (may be NULL) and frees
 * pending; returns as xwg_launch(). An info not initialised (the launch is
 * still waited for and freed), or a NULL pending, is _INVALID_ARGUMENT. */
XWG_EXPORT int xwg_launch_finish(xwg_pending *pending,
                                 xwg_launch_info *info);

/* ---- Conveniences ------------------------------------------------------ */
/* 1 if a platform's name contains part, ignoring ASCII case (or part is
 * NULL or empty), else 0; _matches tests the platform's name and vendor
 * ("pocl" is in PoCL's vendor only), as xwg_find_device() does. */
XWG_EXPORT int xwg_platform_name_matches(const char *name, const char *part);
XWG_EXPORT int xwg_platform_matches(cl_platform_id platform,
                                    const char *part);

/* The first device (GPUs first) of the first platform with devices whose
 * name or vendor contains name_part (the first, if NULL or empty). Errors:
 * XWG_ERROR_INVALID_ARGUMENT, XWG_ERROR_NO_DEVICE (xwg_last_error() lists
 * the platforms found), XWG_ERROR_OUT_OF_HOST_MEMORY. */
XWG_EXPORT int xwg_find_device(const char *name_part,
                               cl_platform_id *platform,
                               cl_device_id *device);

#ifdef __cplusplus
}
#endif
#endif /* XWG_BARRIER_H */
