/*
 * xwg_cg.c - the xwg-cg command: Conjugate Gradient on a sparse symmetric
 * positive definite matrix, as one persistent xwg kernel per solve, as a
 * pipelined persistent kernel with one grid-wide synchronisation an
 * iteration (apps/cg/cg_pipelined.cl), and as a multi-kernel OpenCL
 * program of four launches an iteration (apps/cg/cg_kernels.cl, which says
 * why), each run checked on the host.
 *
 * Usage: xwg-cg [--platform-name S] [--matrix tridiag:N|laplace:WxH|file:PATH]
 *          [--variant persistent|pipelined|multi|all] [--tol T]
 *          [--max-iter N]
 *          [--stop relative|absolute]
 *          [--local-size N] [--multi-groups N] [--check-every N]
 *          [--timing-iters N] [--groups N] [--watchdog-ms N] [--repeat N]
 *          [--options S] [--csv FILE] [--label TEXT] [--broken NAME]
 * The right-hand side is all ones and x starts at 0, as in CUDA's CG
 * sample. A solve stops when ||r|| <= tol ||b|| (the recurrence's r), or
 * with --stop absolute when ||r|| <= tol, as CUDA's sample does (its
 * tridiag:1048576 takes 8 iterations to tol 1e-5 so).
 * Every run is checked:
 *   - it converged (its recurrence's residual under tol) within
 *     --max-iter iterations;
 *   - x against the host's own solve in double (to tol / 1000): where
 *     Gershgorin's bounds give a condition number kappa, the relative
 *     difference must be within kappa times the two true residuals
 *     ||b - A x|| / ||b|| (computed in double); elsewhere within 1e-3.
 * The true residual is printed, not held to tol: in float it cannot fall
 * far below what float can hold of x (on the 1024 x 1024 Laplacian the
 * host's own x, rounded to float, leaves 5e-3), while x itself is right
 * to a few parts in a million there.
 * --timing-iters N adds, per run, a solve of exactly N iterations (no
 * convergence test), timed, from which the time per iteration comes.
 * The multi-kernel version launches one work-item per row (at most
 * --multi-groups groups) and reads its state back every --check-every
 * iterations; its kernels do nothing once the solve has converged.
 * --groups N launches the persistent kernels on N groups with discovery
 * skipped (for tests, on a device that holds N at once; the watchdog,
 * --watchdog-ms, ends a launch whose groups cannot all run).
 * --broken NAME builds the persistent kernels on a test-only known-bad
 * variant (tests/known_bad.md: BARRIER_NOOP, NONBLOCKING_READ_EARLY, ...,
 * in any case), which the checks must catch; --options
 * passes more build options to them.
 * Prints one line per run; --csv appends rows: label, device, matrix,
 * variant, n, nnz, groups, local, iterations, solve_ms, timing_iters,
 * ms_per_iter, residual, host_difference, verified.
 * Exits 1 if any run fails its checks, 2 on bad arguments or input.
 */
#define _POSIX_C_SOURCE 200809L
#include "cg_matrix.h"
#include "known_bad.h"
#include "cg_source.h" /* cg_kernels.cl and cg_pipelined.cl, embedded */
#include "xwg_barrier.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct settings {
    const char *platform, *spec, *variant, *csv, *label;
    double tol;
    cl_uint max_iter, multi_groups, check_every, timing_iters;
    cl_uint groups, watchdog_ms; /* persistent: 0, 0 for the defaults */
    size_t local;
    int repeat;
    const char *options; /* more build options, for the persistent kernel */
    char broken[64]; /* --broken: the known-bad variant's define, or "" */
    int absolute; /* --stop absolute: ||r|| <= tol, not tol ||b|| */
} settings;

typedef struct cg_env {
    cl_context cl;
    cl_device_id device;
    cl_command_queue queue;
    xwg_context *xc;
    cl_program persistent, multi;
    xwg_device_info info;
    size_t local;
} cg_env;

/* The matrix and the vectors of one solve, on the device. */
typedef struct cg_buffers {
    cl_mem row, col, val, x, r, p, q, ap, part, scalars; /* q: p's other buffer */
    /* The pipelined version's: b, r's other buffer, w = A r and s = A p
     * in two buffers each, and the products A r, A w, A s (3 n). */
    cl_mem rhs, r_next, w[2], s[2], products;
    double a_norm, b_norm; /* a bound on ||A|| (Gershgorin's), and ||b|| */
    cl_uint parts;
    const float *b, *zeros; /* on the host: the right-hand side, and 0s */
} cg_buffers;

typedef struct solve_result {
    double ms;
    cl_uint groups, iterations;
    float rr;
    int err;
} solve_result;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static cl_mem device_buffer(cg_env *E, size_t bytes, const void *data)
{
    int err;
    cl_mem m = clCreateBuffer(
        E->cl, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), bytes,
        (void *)data, &err);
    if (m == NULL) {
        fprintf(stderr, "xwg-cg: a buffer of %zu bytes: %s\n", bytes,
                xwg_status_string(err));
        exit(1);
    }
    return m;
}

static void upload_matrix(cg_env *E, const csr_matrix *a, const float *b,
                          cl_uint parts, cg_buffers *d)
{
    d->row = device_buffer(E, ((size_t)a->n + 1) * sizeof(cl_uint), a->row);
    d->col = device_buffer(E, (size_t)a->nnz * sizeof(cl_uint), a->col);
    d->val = device_buffer(E, (size_t)a->nnz * sizeof(float), a->val);
    const size_t vec = (size_t)a->n * sizeof(float);
    d->x = device_buffer(E, vec, NULL);
    d->r = device_buffer(E, vec, NULL);
    d->p = device_buffer(E, vec, NULL);
    d->q = device_buffer(E, vec, NULL);
    d->ap = device_buffer(E, vec, NULL);
    d->rhs = device_buffer(E, vec, b);
    d->r_next = device_buffer(E, vec, NULL);
    for (int i = 0; i < 2; i++) {
        d->w[i] = device_buffer(E, vec, NULL);
        d->s[i] = device_buffer(E, vec, NULL);
    }
    d->products = device_buffer(E, 3 * vec, NULL);
    d->parts = parts;
    d->part = device_buffer(E, parts * sizeof(float), NULL);
    d->scalars = device_buffer(E, 8 * sizeof(float), NULL);
}

static void release_buffers(cg_buffers *d)
{
    cl_mem all[] = {d->row,    d->col,  d->val,    d->x,      d->r,
                    d->p,      d->q,    d->ap,     d->part,   d->rhs,
                    d->r_next, d->w[0], d->w[1],   d->s[0],   d->s[1],
                    d->products, d->scalars};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        clReleaseMemObject(all[i]);
}

/* x = 0, r = p = b, and the pipelined version's s = 0, written from the
 * host (Oclgrind's --uninitialized checker does not count a fill as a
 * write). */
static int reset_vectors(cg_env *E, const csr_matrix *a, cg_buffers *d)
{
    const size_t vec = (size_t)a->n * sizeof(float);
    int err = clEnqueueWriteBuffer(E->queue, d->x, CL_FALSE, 0, vec, d->zeros,
                                   0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(E->queue, d->r, CL_FALSE, 0, vec, d->b, 0,
                                   NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(E->queue, d->p, CL_FALSE, 0, vec, d->b, 0,
                                   NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(E->queue, d->s[0], CL_FALSE, 0, vec,
                                   d->zeros, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(E->queue);
    return err;
}

/* Sets arguments from `first` on: each is a cl_mem, a cl_uint or a float,
 * by the letter in `kinds` ('m', 'u', 'f'). */
static int set_args(cl_kernel k, cl_uint first, const char *kinds, ...)
{
    va_list ap;
    va_start(ap, kinds);
    int err = CL_SUCCESS;
    for (cl_uint i = 0; kinds[i] && err == CL_SUCCESS; i++) {
        if (kinds[i] == 'm') {
            cl_mem m = va_arg(ap, cl_mem);
            err = clSetKernelArg(k, first + i, sizeof m, &m);
        } else if (kinds[i] == 'u') {
            cl_uint u = va_arg(ap, cl_uint);
            err = clSetKernelArg(k, first + i, sizeof u, &u);
        } else {
            float f = (float)va_arg(ap, double);
            err = clSetKernelArg(k, first + i, sizeof f, &f);
        }
    }
    va_end(ap);
    return err;
}

/* ---- the persistent versions ---------------------------------------------- */

/* cg_persistent, or with `pipelined` cg_pipelined, as one xwg launch. */
static int solve_persistent(cg_env *E, const csr_matrix *a, cg_buffers *d,
                            int pipelined, float stop, cl_uint max_iter,
                            cl_uint fixed, const settings *S,
                            solve_result *out)
{
    int err = reset_vectors(E, a, d);
    if (err != CL_SUCCESS)
        return err;
    cl_kernel k = clCreateKernel(
        E->persistent, pipelined ? "cg_pipelined" : "cg_persistent", &err);
    if (k == NULL)
        return err;
    if (pipelined)
        err = set_args(k, 0, "ummmmmmmmmmmmmfffuum", a->n, d->row, d->col,
                       d->val, d->rhs, d->x, d->p, d->r, d->r_next, d->w[0],
                       d->w[1], d->s[0], d->s[1], d->products, (double)stop,
                       d->a_norm, d->b_norm, max_iter, fixed, d->scalars);
    else
        err = set_args(k, 0, "ummmmmmmmfuum", a->n, d->row, d->col, d->val,
                       d->x, d->r, d->p, d->q, d->ap, (double)stop, max_iter,
                       fixed, d->scalars);
    double t0 = now_ms();
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
    opts.groups = S->groups;
    opts.skip_discovery = S->groups != 0;
    opts.watchdog_ms = S->watchdog_ms;
    if (err == CL_SUCCESS)
        err = xwg_launch_ex(E->xc, E->queue, k, E->local, &opts, &info);
    float result[2] = {0, 0};
    int read = clEnqueueReadBuffer(E->queue, d->scalars, CL_TRUE, 0,
                                   sizeof result, result, 0, NULL, NULL);
    out->ms = now_ms() - t0;
    out->groups = info.groups;
    memcpy(&out->iterations, &result[0], sizeof out->iterations);
    out->rr = result[1];
    clReleaseKernel(k);
    return err != XWG_SUCCESS ? err : read;
}

/* ---- the multi-kernel version ------------------------------------------------ */

enum { K_START, K_FIRST_RR, K_SPMV_DOT, K_ALPHA, K_UPDATE_XR, K_BETA,
       KERNELS };
static const char *kernel_names[KERNELS] = {
    "cg_start", "cg_first_rr", "cg_spmv_dot", "cg_alpha", "cg_update_xr",
    "cg_beta"};

static int enqueue(cg_env *E, cl_kernel k, size_t groups)
{
    size_t global = groups * E->local;
    return clEnqueueNDRangeKernel(E->queue, k, 1, NULL, &global, &E->local, 0,
                                  NULL, NULL);
}

static int solve_multi(cg_env *E, const csr_matrix *a, cg_buffers *d,
                       float stop, cl_uint max_iter, cl_uint fixed,
                       cl_uint check_every, solve_result *out)
{
    int err = reset_vectors(E, a, d);
    cl_kernel k[KERNELS] = {0};
    for (int i = 0; i < KERNELS && err == CL_SUCCESS; i++)
        k[i] = clCreateKernel(E->multi, kernel_names[i], &err);
    const size_t scratch = E->local * sizeof(float);
    const cl_uint g = d->parts;
    /* Each kernel's last argument is its __local scratch. */
    static const cl_uint scratch_arg[KERNELS] = {3, 3, 10, 3, 7, 3};
    if (err == CL_SUCCESS) {
        /* Arguments 5 and 6 of A p' (the old p and p'), and 3 of the
         * update (p'), swap every iteration, below. */
        const int set[] = {
            set_args(k[K_START], 0, "umm", a->n, d->r, d->part),
            set_args(k[K_FIRST_RR], 0, "mum", d->part, g, d->scalars),
            set_args(k[K_SPMV_DOT], 0, "ummmmmmmmm", a->n, d->row, d->col,
                     d->val, d->r, d->p, d->q, d->ap, d->part, d->scalars),
            set_args(k[K_ALPHA], 0, "mum", d->part, g, d->scalars),
            set_args(k[K_UPDATE_XR], 0, "ummmmmm", a->n, d->x, d->r, d->q,
                     d->ap, d->part, d->scalars),
            set_args(k[K_BETA], 0, "mum", d->part, g, d->scalars)};
        for (int i = 0; i < KERNELS && err == CL_SUCCESS; i++)
            err = set[i] != CL_SUCCESS
                      ? set[i]
                      : clSetKernelArg(k[i], scratch_arg[i], scratch, NULL);
    }
    /* The settings that every kernel reads (CG_SETTINGS). */
    float settings[8] = {0, 0, 0, 0, stop, 0, 0, 0};
    memcpy(&settings[5], &max_iter, sizeof max_iter);
    memcpy(&settings[6], &fixed, sizeof fixed);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(E->queue, d->scalars, CL_TRUE, 0,
                                   sizeof settings, settings, 0, NULL, NULL);
    double t0 = now_ms();
    if (err == CL_SUCCESS)
        err = enqueue(E, k[K_START], g);
    if (err == CL_SUCCESS)
        err = enqueue(E, k[K_FIRST_RR], 1);
    float s[8] = {0};
    cl_uint done = 0, iterations = 0;
    while (err == CL_SUCCESS) {
        for (cl_uint i = 0; i < check_every && err == CL_SUCCESS; i++) {
            /* Iteration done + i reads p from one buffer and writes p' to
             * the other (as in cg_persistent, p first). */
            cl_mem old = (done + i) % 2 ? d->q : d->p,
                   next = (done + i) % 2 ? d->p : d->q;
            err = set_args(k[K_SPMV_DOT], 5, "mm", old, next);
            err = err ? err : set_args(k[K_UPDATE_XR], 3, "m", next);
            err = err ? err : enqueue(E, k[K_SPMV_DOT], g);
            err = err ? err : enqueue(E, k[K_ALPHA], 1);
            err = err ? err : enqueue(E, k[K_UPDATE_XR], g);
            err = err ? err : enqueue(E, k[K_BETA], 1);
        }
        done += check_every;
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(E->queue, d->scalars, CL_TRUE, 0,
                                      sizeof s, s, 0, NULL, NULL);
        memcpy(&iterations, &s[3], sizeof iterations);
        /* Converged, or the iteration bound reached. */
        if (iterations < done || iterations >= max_iter)
            break;
    }
    out->ms = now_ms() - t0;
    out->groups = g;
    out->iterations = iterations;
    out->rr = s[0];
    for (int i = 0; i < KERNELS; i++)
        if (k[i])
            clReleaseKernel(k[i]);
    return err;
}

/* ---- checks and reports ------------------------------------------------------- */

typedef struct reference {
    double *x, residual, lo, hi; /* the host's solve; Gershgorin's bounds */
    int iterations;
} reference;

typedef struct verdict {
    double residual, difference;
    int verified;
    char why[160];
} verdict;

/* The most a converged solve's true relative residual may be where the
 * condition number is bounded (Gershgorin's lo > 0): the device stops on
 * its recurrence's residual, which float rounding lets drift from the
 * true one by a few times the tolerance and by about kappa float
 * epsilons. (Without the bound, a difference within kappa times the
 * measured residuals holds for any x, even 0; where kappa is unbounded the
 * difference bound's three digits serve instead.) */
static double residual_allowed(const reference *ref, const settings *S)
{
    return 10 * S->tol + 100 * (ref->hi / ref->lo) * FLT_EPSILON;
}

static verdict check_solve(const csr_matrix *a, const float *b,
                           const float *x, const solve_result *r,
                           const reference *ref, const settings *S)
{
    verdict v = {0};
    v.residual = csr_relative_residual(a, b, x);
    v.difference = csr_relative_difference(a, x, ref->x);
    const double bound =
        csr_difference_bound(ref->lo, ref->hi, v.residual, ref->residual);
    if (r->err != XWG_SUCCESS)
        snprintf(v.why, sizeof v.why, "%s", xwg_status_name(r->err));
    else if (r->iterations >= S->max_iter)
        snprintf(v.why, sizeof v.why, "not converged in %u iterations",
                 S->max_iter);
    else if (ref->lo > 0 && !(v.residual <= residual_allowed(ref, S)))
        snprintf(v.why, sizeof v.why,
                 "true residual %.3g above the tolerance's %.3g", v.residual,
                 residual_allowed(ref, S));
    else if (!(v.difference <= bound))
        snprintf(v.why, sizeof v.why,
                 "differs from the host's solve by %.3g > %.3g", v.difference,
                 bound);
    else
        v.verified = 1;
    return v;
}

/* CG_ROWS (cg_kernels.cl) and CG_PIPELINED_ROWS (cg_pipelined.cl): the
 * rows per work-item of which a persistent kernel may keep `words` words
 * in local memory (cg_persistent: A p'; cg_pipelined: A r, A w, A s), at
 * most CG_ROWS_MAX, in what the device's local memory holds beside xwg's
 * scratch (a word per work-item of the largest group) and a margin for
 * the rest; 0 where it holds none. CG_ROWS_MAX: 2^20 rows at the H200's
 * full occupancy are 7.8 a work-item. */
#define CG_ROWS_MAX 8u
static unsigned kept_rows(const cg_env *E, unsigned words)
{
    cl_ulong local_mem = 0;
    if (clGetDeviceInfo(E->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem,
                        &local_mem, NULL) != CL_SUCCESS)
        return 0;
    const cl_ulong taken =
        E->info.max_work_group_size * sizeof(cl_uint) + 1024;
    if (local_mem <= taken)
        return 0;
    const cl_ulong rows =
        (local_mem - taken) / (E->local * words * sizeof(float));
    return rows < CG_ROWS_MAX ? (unsigned)rows : CG_ROWS_MAX;
}

static int setup(cg_env *E, const settings *S)
{
    cl_platform_id platform;
    int err = xwg_find_device(S->platform, &platform, &E->device);
    if (err != XWG_SUCCESS)
        return err;
    E->cl = clCreateContext(NULL, 1, &E->device, NULL, NULL, &err);
    if (E->cl == NULL)
        return err;
    E->queue =
        clCreateCommandQueueWithProperties(E->cl, E->device, NULL, &err);
    if (E->queue == NULL)
        return err;
    if ((err = xwg_context_create(E->cl, E->device, NULL, &E->xc)))
        return err;
    E->info.size = sizeof E->info;
    xwg_context_query(E->xc, &E->info);
    E->local = S->local < E->info.max_work_group_size
                   ? S->local
                   : E->info.max_work_group_size;
    char options[512];
    snprintf(options, sizeof options,
             "-DCG_LOCAL=%zu -DCG_ROWS=%u -DCG_PIPELINED_ROWS=%u %s %s",
             E->local, kept_rows(E, 1), kept_rows(E, 3), S->broken,
             S->options ? S->options : "");
    char *log = NULL;
    err = xwg_program_build(E->xc, cg_source, options, &E->persistent, &log);
    if (err == XWG_SUCCESS) {
        const char *sources[] = {cg_source};
        E->multi = clCreateProgramWithSource(E->cl, 1, sources, NULL, &err);
        if (E->multi != NULL)
            err = clBuildProgram(E->multi, 1, &E->device, "", NULL, NULL);
    }
    if (err != XWG_SUCCESS && log != NULL)
        fprintf(stderr, "%s\n", log);
    free(log);
    return err;
}

static void teardown(cg_env *E)
{
    if (E->multi)
        clReleaseProgram(E->multi);
    if (E->persistent)
        clReleaseProgram(E->persistent);
    xwg_context_release(E->xc);
    if (E->queue)
        clReleaseCommandQueue(E->queue);
    if (E->cl)
        clReleaseContext(E->cl);
}

enum { V_PERSISTENT, V_PIPELINED, V_MULTI, VARIANTS };
static const char *variant_names[VARIANTS] = {"persistent", "pipelined",
                                              "multi"};

/* The variant called `name`, or -1. */
static int variant_of(const char *name)
{
    for (int v = 0; v < VARIANTS; v++)
        if (!strcmp(name, variant_names[v]))
            return v;
    return -1;
}

static int parse(int argc, char **argv, settings *S)
{
    *S = (settings){.spec = "tridiag:65536", .variant = "all", .label = "",
                    .tol = 1e-5, .max_iter = 10000, .local = 256,
                    .multi_groups = 65536, .check_every = 10, .repeat = 1};
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *o = argv[i], *v = argv[i + 1];
        if (!strcmp(o, "--platform-name")) S->platform = v;
        else if (!strcmp(o, "--matrix")) S->spec = v;
        else if (!strcmp(o, "--variant")) S->variant = v;
        else if (!strcmp(o, "--tol")) S->tol = atof(v);
        else if (!strcmp(o, "--max-iter")) S->max_iter = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--local-size")) S->local = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--multi-groups"))
            S->multi_groups = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--check-every"))
            S->check_every = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--timing-iters"))
            S->timing_iters = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--groups")) S->groups = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--watchdog-ms"))
            S->watchdog_ms = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--repeat")) S->repeat = atoi(v);
        else if (!strcmp(o, "--csv")) S->csv = v;
        else if (!strcmp(o, "--label")) S->label = v;
        else if (!strcmp(o, "--options")) S->options = v;
        else if (!strcmp(o, "--broken")) {
            if (xwg_known_bad_option("xwg-cg", v, S->broken,
                                     sizeof S->broken))
                return -1;
        }
        else if (!strcmp(o, "--stop") &&
                 (!strcmp(v, "absolute") || !strcmp(v, "relative")))
            S->absolute = !strcmp(v, "absolute");
        else {
            fprintf(stderr, "xwg-cg: unknown option %s\n", o);
            return -1;
        }
    }
    if (argc % 2 == 0 || S->repeat < 1 || S->local == 0 ||
        !(S->tol > 0 && S->tol < 1) || S->max_iter == 0 ||
        S->multi_groups == 0 || S->check_every == 0 ||
        (strcmp(S->variant, "all") && variant_of(S->variant) < 0)) {
        fprintf(stderr, "xwg-cg: bad arguments (see the comment at the top "
                        "of apps/cg/xwg_cg.c)\n");
        return -1;
    }
    return 0;
}

/* One solve of `variant` to `stop`, or with `fixed` of exactly max_iter
 * iterations. */
static int solve(cg_env *E, const csr_matrix *a, cg_buffers *d, int variant,
                 float stop, cl_uint max_iter, cl_uint fixed,
                 const settings *S, solve_result *out)
{
    if (variant == V_MULTI)
        return solve_multi(E, a, d, stop, max_iter, fixed, S->check_every,
                           out);
    return solve_persistent(E, a, d, variant == V_PIPELINED, stop, max_iter,
                            fixed, S, out);
}

/* One solve of a variant, its check, its line and its CSV row. Returns 1
 * when verified. */
static int run_variant(cg_env *E, const csr_matrix *a, cg_buffers *d,
                       int variant, const float *b, float *x,
                       const reference *ref, const settings *S, FILE *csv)
{
    /* (b, b) = n */
    const float stop = (float)(S->tol * S->tol * (S->absolute ? 1 : a->n));
    solve_result r = {0}, timed = {0};
    r.err = solve(E, a, d, variant, stop, S->max_iter, 0, S, &r);
    clEnqueueReadBuffer(E->queue, d->x, CL_TRUE, 0, a->n * sizeof *x, x, 0,
                        NULL, NULL);
    verdict v = check_solve(a, b, x, &r, ref, S);
    double per_iter = 0;
    if (S->timing_iters > 0 && v.verified) {
        timed.err =
            solve(E, a, d, variant, stop, S->timing_iters, 1, S, &timed);
        if (timed.err == XWG_SUCCESS && timed.iterations == S->timing_iters)
            per_iter = timed.ms / S->timing_iters;
    }
    const char *name = variant_names[variant];
    printf("%-14s %-10s %9.3f ms  %5u groups  %5u iterations  %8.4f "
           "ms/iteration  residual %.2e  host %.2e  %s%s%s\n",
           a->name, name, r.ms, r.groups, r.iterations, per_iter, v.residual,
           v.difference, v.verified ? "verified" : "FAIL", v.why[0] ? ": " : "",
           v.why);
    if (csv) {
        fprintf(csv, "%s,\"%s\",%s,%s,%u,%u,%u,%zu,%u,%.3f,%u,%.5f,%.3e,%.3e,%d\n",
                S->label, E->info.device_name, a->name, name, a->n, a->nnz,
                r.groups, E->local, r.iterations, r.ms, S->timing_iters,
                per_iter, v.residual, v.difference, v.verified);
        fflush(csv);
    }
    return v.verified;
}

int main(int argc, char **argv)
{
    settings S;
    if (parse(argc, argv, &S))
        return 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    csr_matrix a;
    char msg[256];
    if (csr_from_spec(&a, S.spec, msg, sizeof msg)) {
        fprintf(stderr, "xwg-cg: %s\n", msg);
        return 2;
    }
    float *b = malloc(a.n * sizeof *b), *x = malloc(a.n * sizeof *x);
    reference ref = {.x = malloc(a.n * sizeof *ref.x)};
    if (b == NULL || x == NULL || ref.x == NULL) {
        fprintf(stderr, "xwg-cg: out of memory\n");
        return 2;
    }
    for (uint32_t i = 0; i < a.n; i++)
        b[i] = 1.0f;
    double t0 = now_ms();
    ref.iterations = csr_host_cg(&a, b, S.tol / 1000, 100 * S.max_iter, ref.x);
    if (ref.iterations < 0) {
        fprintf(stderr, "xwg-cg: out of memory for the host's solve\n");
        return 2;
    }
    float *xf = x; /* the host's x, as float, for its residual */
    for (uint32_t i = 0; i < a.n; i++)
        xf[i] = (float)ref.x[i];
    ref.residual = csr_relative_residual(&a, b, xf);
    csr_gershgorin(&a, &ref.lo, &ref.hi);
    fprintf(stderr,
            "xwg-cg: %s: %u rows, %u entries; host solve %d iterations in "
            "%.0f ms, residual %.2e; Gershgorin [%.3g, %.3g]\n",
            a.name, a.n, a.nnz, ref.iterations, now_ms() - t0, ref.residual,
            ref.lo, ref.hi);

    cg_env E = {0};
    int err = setup(&E, &S);
    if (err != XWG_SUCCESS) {
        fprintf(stderr, "xwg-cg: %s\n", xwg_status_string(err));
        teardown(&E);
        return 1;
    }
    cl_uint rows_groups = (cl_uint)((a.n + E.local - 1) / E.local);
    cg_buffers d;
    upload_matrix(&E, &a, b,
                  rows_groups < S.multi_groups ? rows_groups : S.multi_groups,
                  &d);
    float *zeros = calloc(a.n, sizeof *zeros);
    if (zeros == NULL) {
        fprintf(stderr, "xwg-cg: out of memory\n");
        return 2;
    }
    d.b = b;
    d.zeros = zeros;
    d.a_norm = ref.hi;
    d.b_norm = 0;
    for (uint32_t i = 0; i < a.n; i++)
        d.b_norm += (double)b[i] * b[i];
    d.b_norm = sqrt(d.b_norm);
    FILE *csv = S.csv ? fopen(S.csv, "a") : NULL;
    int runs = 0, passed = 0;
    for (int v = 0; v < VARIANTS; v++) {
        if (strcmp(S.variant, "all") && v != variant_of(S.variant))
            continue;
        for (int rep = 0; rep < S.repeat; rep++) {
            passed += run_variant(&E, &a, &d, v, b, x, &ref, &S, csv);
            runs++;
        }
    }
    if (csv)
        fclose(csv);
    printf("%d of %d runs verified\n", passed, runs);
    release_buffers(&d);
    free(zeros);
    teardown(&E);
    free(b);
    free(x);
    free(ref.x);
    csr_free(&a);
    return passed == runs ? 0 : 1;
}
