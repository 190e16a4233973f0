/*
 * program.c - building user source with the kernel-side library in front.
 *
 * The source handed to OpenCL is:
 *     #define XWG_PATH_CL20 1        (or XWG_PATH_CL12)
 *     <the embedded kernel-side library>
 *     #line 1
 *     <the user's source>
 * so user code needs no #include, and build-log line numbers are the
 * user's own. The options gain -DXWG_BARRIERS=<set>, the barrier
 * algorithms the program compiles (kernels/xwg_barrier.cl): the context's,
 * where it fixes one, else the set that calibrate.c timed fastest on the
 * device (counter and tree, among which each launch chooses, or one of
 * them). Fewer is faster: the code of the others costs time even where
 * it never runs. A launch reads the set back from the name of the kernel's
 * XWG_STATE parameter (kernel_args.c), which XWG_BARRIERS completes.
 * A caller's own -DXWG_BARRIERS wins (the bench measures all three so).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

const char *xwg_kernel_library_source(void) { return xwg__kernel_library; }

/* The whole build log of program for device, NUL-terminated, or NULL. */
static char *fetch_build_log(cl_program program, cl_device_id device)
{
    size_t bytes = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL,
                              &bytes) != CL_SUCCESS)
        return NULL;
    char *log = malloc(bytes + 1);
    if (log == NULL)
        return NULL;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, bytes,
                              log, NULL) != CL_SUCCESS)
        bytes = 0;
    log[bytes] = '\0';
    return log;
}

static char *concat(const char *a, const char *b, const char *c,
                    const char *d)
{
    size_t la = strlen(a), lb = strlen(b), lc = strlen(c), ld = strlen(d);
    char *s = malloc(la + lb + lc + ld + 1);
    if (s == NULL)
        return NULL;
    memcpy(s, a, la);
    memcpy(s + la, b, lb);
    memcpy(s + la + lb, c, lc);
    memcpy(s + la + lb + lc, d, ld + 1);
    return s;
}

#define XWG__SET_DEFINE "XWG_BARRIERS="

int xwg__parse_barrier_set(const char *value, unsigned *set)
{
    char *end;
    unsigned long v = strtoul(value, &end, 0);
    while (*end == 'u' || *end == 'U')
        end++;
    if (end == value || (*end != '\0' && *end != ' ') || v == 0 ||
        (v & ~(unsigned long)XWG__ALL_BARRIERS) != 0)
        return -1;
    *set = (unsigned)v;
    return 1;
}

/* The barrier set that build options define: 0 where they define none,
 * else xwg__parse_barrier_set's answer for the value. The last definition
 * counts, as it does for the compiler, whether written -DXWG_BARRIERS= or
 * -D XWG_BARRIERS=. */
static int parse_barrier_set(const char *options, unsigned *set)
{
    const char *at = NULL;
    for (const char *p = options; p && (p = strstr(p, XWG__SET_DEFINE));
         p++)
        at = p;
    if (at == NULL)
        return 0;
    return xwg__parse_barrier_set(at + strlen(XWG__SET_DEFINE), set);
}

int xwg_program_build(xwg_context *ctx, const char *source,
                      const char *options, cl_program *out, char **log)
{
    xwg__clear_last_error();
    return xwg__program_build(ctx, source, options, 1, out, log);
}

/* The source that goes before the user's: the path's defines, the
 * collectives' scratch size, the kernel-side library and "#line 1";
 * malloc'd, or NULL when out of memory. The defines live here alone, not
 * also in build_options(): the library that needs them comes with them,
 * and a program built elsewhere takes both texts (include/xwg_barrier.h). */
static char *source_prefix(const xwg_context *ctx, const char *options)
{
    const char *path_define =
        ctx->info.atomics_path == XWG_ATOMICS_PTX
            ? "#define XWG_PATH_CL20 1\n#define XWG_PATH_PTX 1\n"
        : ctx->info.atomics_path != XWG_ATOMICS_CL12
            ? "#define XWG_PATH_CL20 1\n"
            : "#define XWG_PATH_CL12 1\n";
    /* The collectives' local scratch: one word per work-item of the
     * device's largest group, but at most 1024 (kernels/
     * xwg_collectives.cl): every word doubles the work-group trees' last
     * level, which every group pays for, and CPU devices, which allow
     * 4096, would pay two levels for groups that few kernels use. A
     * caller's -DXWG__SCRATCH_WORDS wins. */
    char defines[192];
    size_t scratch = ctx->info.max_work_group_size;
    snprintf(defines, sizeof defines, "%s#define XWG__SCRATCH_WORDS %zuu\n",
             path_define, scratch < 1 ? 1 : scratch > 1024 ? 1024 : scratch);
    if (options != NULL && strstr(options, "XWG__SCRATCH_WORDS") != NULL)
        snprintf(defines, sizeof defines, "%s", path_define);
    /* Intel's CPU runtime keeps functions with work-group barriers out of
     * line, and pays for it (XWG_TUNE_FORCE_INLINE, xwg_tuning.h). A
     * caller's own -DXWG_TUNE_FORCE_INLINE wins. */
    if (strstr(ctx->info.platform_name, "Intel(R) OpenCL") != NULL &&
        (ctx->info.device_type & CL_DEVICE_TYPE_CPU) &&
        (options == NULL || strstr(options, "XWG_TUNE_FORCE_INLINE") == NULL))
        snprintf(defines + strlen(defines), sizeof defines - strlen(defines),
                 "#define XWG_TUNE_FORCE_INLINE 1\n");
    /* Env XWG_CHECK_DIVERGENCE=1 checks that every work-item of a group
     * makes each barrier call (kernels/xwg_barrier.cl), as the build
     * option -DXWG_CHECK_DIVERGENCE does, without a change of code. */
    const char *check = getenv("XWG_CHECK_DIVERGENCE");
    if (check != NULL && strcmp(check, "1") == 0 &&
        (options == NULL || strstr(options, "XWG_CHECK_DIVERGENCE") == NULL))
        snprintf(defines + strlen(defines), sizeof defines - strlen(defines),
                 "#define XWG_CHECK_DIVERGENCE 1\n");
    return concat(defines, xwg__kernel_library, "\n#line 1\n", "");
}

/* The options to build with: the OpenCL C standard that the path needs,
 * -cl-kernel-arg-info, the caller's options, and (specialize, where the
 * caller defines none) the barrier set. malloc'd into *out (NULL when out
 * of memory); XWG_ERROR_INVALID_ARGUMENT for a set that a launch could
 * not read back (fn: the public call, for the message). */
static int build_options(xwg_context *ctx, const char *fn,
                         const char *options, int specialize, char **out)
{
    *out = NULL;
    int cl20 = ctx->info.atomics_path != XWG_ATOMICS_CL12;
    /* cl20 needs the C11 atomics of OpenCL C 2.0 or 3.0; cl12 builds as
     * OpenCL C 1.2, which every device accepts. */
    const char *std = !cl20                         ? "-cl-std=CL1.2"
                      : ctx->info.opencl_c_max >= 300 ? "-cl-std=CL3.0"
                                                      : "-cl-std=CL2.0";
    /* The caller's own set wins, if it can be read back at launch. */
    unsigned callers_set;
    int callers = parse_barrier_set(options, &callers_set);
    if (callers < 0)
        return XWG__INVALID("%s: options define "
                            "XWG_BARRIERS as other than a plain number, a "
                            "set of bits 1 (xf), 2 (counter) and 3 (tree)",
                            fn);
    char barriers_option[64] = "";
    if (specialize && callers == 0)
        snprintf(barriers_option, sizeof barriers_option,
                 " -D" XWG__SET_DEFINE "%uu",
                 ctx->info.barrier != XWG_BARRIER_DEFAULT
                     ? 1u << ctx->info.barrier
                     : xwg__default_barrier_set(ctx));
    *out = concat(std, " -cl-kernel-arg-info ", options != NULL ? options : "",
                  barriers_option);
    return *out != NULL ? XWG_SUCCESS : XWG_ERROR_OUT_OF_HOST_MEMORY;
}

/* Copies text (freeing it) into the caller's buffer for public call fn:
 * *needed gets its size with the NUL; a buffer too small (or NULL, to ask
 * for the size) gets nothing and XWG_ERROR_INVALID_ARGUMENT, unless it is
 * NULL with size 0 and needed is given. */
static int hand_out(const char *fn, char *text, char *buf, size_t size,
                    size_t *needed)
{
    if (text == NULL)
        return XWG_ERROR_OUT_OF_HOST_MEMORY;
    size_t bytes = strlen(text) + 1;
    if (needed != NULL)
        *needed = bytes;
    int err = XWG_SUCCESS;
    if (buf == NULL && size == 0 && needed != NULL)
        err = XWG_SUCCESS; /* a query of the size */
    else if (buf == NULL)
        err = XWG__INVALID("%s: buf is NULL", fn);
    else if (size < bytes)
        err = XWG__INVALID("%s: size is %zu, %zu needed", fn, size, bytes);
    else
        memcpy(buf, text, bytes);
    free(text);
    return err;
}

int xwg_program_source_prefix(xwg_context *ctx, const char *options,
                              char *buf, size_t size, size_t *needed)
{
    xwg__clear_last_error();
    if (ctx == NULL)
        return XWG__INVALID("xwg_program_source_prefix: ctx is NULL");
    return hand_out("xwg_program_source_prefix", source_prefix(ctx, options),
                    buf, size, needed);
}

int xwg_program_options(xwg_context *ctx, const char *options, char *buf,
                        size_t size, size_t *needed)
{
    xwg__clear_last_error();
    if (ctx == NULL)
        return XWG__INVALID("xwg_program_options: ctx is NULL");
    char *text;
    int err = build_options(ctx, "xwg_program_options", options, 1, &text);
    if (err != XWG_SUCCESS)
        return err;
    return hand_out("xwg_program_options", text, buf, size, needed);
}

int xwg__program_build(xwg_context *ctx, const char *source,
                       const char *options, int specialize, cl_program *out,
                       char **log)
{
    if (log != NULL)
        *log = NULL;
    if (out == NULL)
        return XWG__INVALID("xwg_program_build: out is NULL");
    *out = NULL;
    if (ctx == NULL || source == NULL)
        return XWG__INVALID("xwg_program_build: %s is NULL",
                            ctx == NULL ? "ctx" : "source");
    char *full_options;
    int err = build_options(ctx, "xwg_program_build", options, specialize,
                            &full_options);
    if (err != XWG_SUCCESS)
        return err;
    char *prefix = source_prefix(ctx, options);
    char *full_source = prefix ? concat(prefix, source, "", "") : NULL;
    free(prefix);
    if (full_source == NULL) {
        free(full_options);
        return XWG_ERROR_OUT_OF_HOST_MEMORY;
    }

    /* XWG_PROGRAM_CACHE (program_cache.c): a build that this process or
     * an earlier one stored, else the compile, then stored. */
    cl_program program = xwg__cache_load(ctx, full_source, full_options);
    if (program != NULL) {
        free(full_source);
        free(full_options);
        *out = program;
        return XWG_SUCCESS;
    }
    const char *sources[] = {full_source};
    program = clCreateProgramWithSource(ctx->cl, 1, sources, NULL, &err);
    if (program == NULL) {
        free(full_source);
        free(full_options);
        return err;
    }
    err = clBuildProgram(program, 1, &ctx->device, full_options, NULL, NULL);
    XWG__TRACE("clBuildProgram(%s): %s", full_options, xwg_status_name(err));
    if (err == CL_SUCCESS)
        xwg__cache_store(ctx, full_source, full_options, program);
    free(full_source);
    free(full_options);
    if (err != CL_SUCCESS) {
        char *text = fetch_build_log(program, ctx->device);
        XWG__TRACE("build log: %.2000s", text != NULL ? text : "(none)");
        if (log != NULL)
            *log = text;
        else
            free(text);
        clReleaseProgram(program);
        /* A compile error is the user's; other errors (out of resources,
         * bad options) pass through as OpenCL reported them. */
        return err == CL_BUILD_PROGRAM_FAILURE ? XWG_ERROR_BUILD_FAILED : err;
    }
    *out = program;
    return XWG_SUCCESS;
}
