/*
 * barrier_driver.c - the barrier tests as a plain program, for where Check
 * is absent or too slow: the H200 (many groups, 10^6 episodes) and
 * Oclgrind (small sizes, race detection). It runs, on one device:
 *   stress   the data-checked stress kernel at the discovered occupancy,
 *            for each barrier algorithm;
 *   jacobi   the stencil, compared bit for bit with a C reference;
 *   misuse   the three watchdog cases, each of which must time out;
 *   split, collectives, collective_misuse  the split barrier and the
 *            collectives (collective_checks.c);
 *   divergence  barriers and collectives made by some work-items of a
 *            group, with -DXWG_CHECK_DIVERGENCE (divergence_checks.c);
 *   known_bad  (only when asked) a kernel with a race inside a group and
 *            an uninitialised read, for the Oclgrind report classifier.
 * It prints one CSV row per run and "N passed, M failed", and exits
 * non-zero on any failure. Where the context fixes the barrier
 * (XWG_BARRIER=xf|counter|tree), its programs compile that one alone, and
 * the driver runs that one only; otherwise XF runs on a second context
 * that fixes it, as default programs compile the counter and tree only.
 *
 * Usage: barrier_driver --help (the usage[] text below).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "barrier_kernels.h"
#include "driver.h"
#include "known_bad.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* What --help prints (and a bad option points to). */
static const char usage[] =
    "usage: barrier_driver [--platform-name S] [--local-size L]\n"
    "         [--episodes E] [--launches N] [--jacobi-n N] [--jacobi-iters I]\n"
    "         [--only stress|jacobi|misuse|split|collectives|collective_misuse|\n"
    "                 divergence|known_bad] [--csv FILE] [--label TEXT]\n"
    "         [--algo xf|counter|tree]  (that barrier only)\n"
    "         [--broken NAME]  (a test-only known-bad variant, in any\n"
    "                         case: BARRIER_NOOP, RELAXED_RELEASE, ...;\n"
    "                         tests/known_bad.md lists them and the runs\n"
    "                         that must then fail)\n"
    "         [--build-options S]  (a variant of xwg-bench, e.g.\n"
    "                         -DXWG_TUNE_TREE_FANIN=8u: its stress tests)\n"
    "         [--min-groups N]  (a stress run on fewer groups fails: a run\n"
    "                         that discovery gave one group proves nothing)\n"
    "         [--groups N]   (split and collectives: N groups, discovery\n"
    "                         skipped; on PoCL with at least N worker\n"
    "                         threads they are co-resident)\n"
    "         [--watchdog-ms M]  (split and collectives: the launches'\n"
    "                         watchdog; long on a loaded CPU device)\n";

double now_s(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return t.tv_sec + t.tv_nsec / 1e9;
}

void report(driver *d, const char *test, const char *variant,
                   cl_uint groups, unsigned long long episodes,
                   unsigned long long errors, double seconds, int ok,
                   const char *note)
{
    const char *path = xwg_atomics_path_name(d->info.atomics_path);
    printf("%s %s: %s (%u groups of %zu, %llu episodes, %llu errors, "
           "%.2f s)%s%s\n",
           test, variant, ok ? "PASS" : "FAIL", groups, d->local, episodes,
           errors, seconds, note[0] ? ": " : "", note);
    if (d->csv) {
        /* Device names hold commas ("llvmpipe (LLVM 15.0.6, 256 bits)"). */
        fprintf(d->csv, "%s,\"%s\",%s,%s,%s,%zu,%u,%llu,%llu,%.3f,%s,%s\n",
                d->label, d->info.device_name, path, test, variant, d->local,
                groups, episodes, errors, seconds, ok ? "pass" : "fail", note);
        fflush(d->csv); /* a run cut short by its timeout keeps its rows */
    }
    ok ? d->passed++ : d->failed++;
}

void build_kernels(driver *d, const char *source, const char *const *names,
                   size_t count, cl_kernel *kernels)
{
    cl_program prog = NULL;
    char *log = NULL;
    /* XWG_TEST_LOCAL: the local size, which kernels may require (a
     * compiler then fits their registers to it). */
    char options[sizeof d->options + 48];
    snprintf(options, sizeof options, "%s -DXWG_TEST_LOCAL=%zu", d->options,
             d->local);
    int err = xwg_program_build(d->xc, source, options, &prog, &log);
    if (err != XWG_SUCCESS) {
        fprintf(stderr, "build failed: %s\n%s\n", xwg_status_name(err),
                log ? log : "");
        exit(2);
    }
    free(log);
    for (size_t i = 0; i < count; i++)
        kernels[i] = clCreateKernel(prog, names[i], &err);
    clReleaseProgram(prog);
}

cl_kernel build(driver *d, const char *source, const char *name)
{
    cl_kernel k;
    build_kernels(d, source, &name, 1, &k);
    return k;
}

/* A zeroed buffer. Zeroed so that Oclgrind's --uninitialized check,
 * which cannot see that the barrier orders one group's stores before
 * another group's loads, has nothing to report for the data. */
cl_mem buffer(driver *d, size_t bytes)
{
    int err;
    cl_mem m = clCreateBuffer(d->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    void *zeros = calloc(1, bytes);
    if (m == NULL || zeros == NULL) {
        fprintf(stderr, "clCreateBuffer(%zu): %s\n", bytes,
                xwg_status_name(err));
        exit(2);
    }
    clEnqueueWriteBuffer(d->queue, m, CL_TRUE, 0, bytes, zeros, 0, NULL, NULL);
    free(zeros);
    return m;
}

int launch_counting(driver *d, const char *test, cl_kernel k, cl_mem errors,
                    const xwg_launch_options *opts, unsigned episodes,
                    counted *c)
{
    int err = XWG_SUCCESS;
    const int tty = isatty(fileno(stderr));
    for (unsigned i = 0; err == XWG_SUCCESS && i < d->launches; i++) {
        const cl_uint zero = 0;
        clEnqueueWriteBuffer(d->queue, errors, CL_TRUE, 0, sizeof zero, &zero,
                             0, NULL, NULL);
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        err = xwg_launch_ex(d->xc, d->queue, k, d->local, opts, &info);
        cl_uint found = 0;
        clEnqueueReadBuffer(d->queue, errors, CL_TRUE, 0, sizeof found,
                            &found, 0, NULL, NULL);
        c->bad += found;
        c->episodes += episodes;
        c->groups = info.groups;
        /* On a terminal one line, rewritten per launch; anywhere else (a
         * log, xwg-study's pipe) a line per launch, since a carriage
         * return there runs every launch's progress into one line. */
        fprintf(stderr, "%s%s %s: launch %u of %u%s", tty ? "\r" : "", test,
                xwg_barrier_algo_name(opts->barrier), i + 1, d->launches,
                tty ? "" : "\n");
    }
    if (tty && d->launches > 0)
        fprintf(stderr, "\n");
    return err;
}

void report_counted(driver *d, const char *test, xwg_barrier_algo algo,
                    const counted *c, double start, int err)
{
    /* Fewer groups than asked for test less than they claim: one group
     * synchronises with nobody. */
    int enough = c->groups >= d->min_groups;
    report(d, test, xwg_barrier_algo_name(algo), c->groups, c->episodes,
           c->bad, now_s() - start, err == XWG_SUCCESS && c->bad == 0 && enough,
           err != XWG_SUCCESS ? xwg_status_name(err)
           : enough           ? ""
                              : "fewer groups than --min-groups");
}

static void run_stress(driver *d, xwg_barrier_algo algo)
{
    cl_kernel k = build(d, stress_source, "stress");
    cl_mem errors = buffer(d, sizeof(cl_uint));
    cl_uint episodes = d->episodes;
    clSetKernelArg(k, 0, sizeof errors, &errors);
    clSetKernelArg(k, 1, sizeof errors, &errors);
    clSetKernelArg(k, 2, sizeof episodes, &episodes);
    xwg_occupancy occ = XWG_OCCUPANCY_INIT;
    int err = xwg_discover(d->xc, k, d->local, &occ);
    /* At least one group's worth: where discovery failed (no groups), the
     * row then reports its status instead of a buffer of 0 bytes. */
    size_t groups = occ.groups > 0 ? occ.groups : 1;
    cl_mem data = buffer(d, groups * d->local * sizeof(cl_uint));
    clSetKernelArg(k, 0, sizeof data, &data);
    xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
    opts.barrier = algo;
    counted c = {0};
    double start = now_s();
    if (err == XWG_SUCCESS)
        err = launch_counting(d, "stress", k, errors, &opts, episodes, &c);
    report_counted(d, "stress", algo, &c, start, err);
    clReleaseMemObject(data);
    clReleaseMemObject(errors);
    clReleaseKernel(k);
}

static void run_jacobi(driver *d, xwg_barrier_algo algo)
{
    unsigned n = d->jacobi_n;
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b),
          *got = malloc(n * sizeof *got);
    for (unsigned i = 0; i < n; i++)
        a[i] = b[i] = (float)((i * 7919u) % 1000u) / 10.0f;
    cl_kernel k = build(d, jacobi_source, "jacobi");
    cl_mem da = buffer(d, n * sizeof *a), db = buffer(d, n * sizeof *b);
    cl_uint iters = d->jacobi_iters;
    jacobi_setup(d->queue, k, da, db, a, b, n, iters);
    xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
    opts.barrier = algo;
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    double start = now_s();
    int err = xwg_launch_ex(d->xc, d->queue, k, d->local, &opts, &info);
    double seconds = now_s() - start;
    cl_mem result = (iters & 1) ? db : da;
    clEnqueueReadBuffer(d->queue, result, CL_TRUE, 0, n * sizeof *got, got, 0,
                        NULL, NULL);
    jacobi_reference(a, b, n, iters);
    const float *want = (iters & 1) ? b : a;
    unsigned long long mismatches = 0;
    for (unsigned i = 0; i < n; i++)
        mismatches += memcmp(&got[i], &want[i], sizeof(float)) != 0;
    report(d, "jacobi", xwg_barrier_algo_name(algo), info.groups, iters,
           mismatches, seconds, err == XWG_SUCCESS && mismatches == 0,
           err == XWG_SUCCESS ? "" : xwg_status_name(err));
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseKernel(k);
    free(a);
    free(b);
    free(got);
}

/* A misuse must end in XWG_ERROR_BARRIER_TIMEOUT, not a hang. */
static void run_misuse(driver *d, const char *name, cl_uint groups, int skip,
                       xwg_barrier_algo algo)
{
    cl_kernel k = build(d, misuse_source, name);
    cl_mem out = buffer(d, (size_t)(groups ? groups : 1u << 16) * 4);
    clSetKernelArg(k, 0, sizeof out, &out);
    xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
    opts.groups = groups;
    opts.skip_discovery = skip;
    opts.barrier = algo;
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    double start = now_s();
    int err = xwg_launch_ex(d->xc, d->queue, k, d->local, &opts, &info);
    char variant[64];
    snprintf(variant, sizeof variant, "%s/%s", name,
             xwg_barrier_algo_name(algo));
    report(d, "misuse", variant, info.groups, 0, 0, now_s() - start,
           err == XWG_ERROR_BARRIER_TIMEOUT, xwg_status_name(err));
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

static int wants(const driver *d, const char *what)
{
    return d->only == NULL || !strcmp(d->only, what);
}

int main(int argc, char **argv)
{
    /* --algo asks for each algorithm by launch, from programs built with
     * the context's default set: keep that set both (XWG_CALIBRATE=0). */
    setenv("XWG_CALIBRATE", "0", 0);
    driver d = {0};
    const char *platform = NULL, *csv = NULL;
    d.local = 256;
    d.episodes = 10000;
    d.min_groups = 1;
    d.launches = 10;
    d.jacobi_n = 0;
    d.jacobi_iters = 1000;
    d.label = "";
    for (int i = 1; i < argc; i += 2) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        /* Every option takes a value: one without would be ignored, and
         * the run would test what the caller did not ask for. */
        if (v == NULL) {
            fprintf(stderr, "barrier_driver: %s needs a value (--help)\n", o);
            return 2;
        }
        if (!strcmp(o, "--platform-name")) platform = v;
        else if (!strcmp(o, "--local-size")) d.local = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--episodes")) d.episodes = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--launches")) d.launches = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--min-groups")) d.min_groups = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--groups")) d.groups = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--watchdog-ms")) d.watchdog_ms = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--jacobi-n")) d.jacobi_n = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--jacobi-iters")) d.jacobi_iters = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--only")) d.only = v;
        else if (!strcmp(o, "--algo")) d.algo = v;
        else if (!strcmp(o, "--csv")) csv = v;
        else if (!strcmp(o, "--label")) d.label = v;
        else if (!strcmp(o, "--broken")) {
            if (xwg_known_bad_option("barrier_driver", v, d.options,
                                     sizeof d.options))
                return 2;
        }
        else if (!strcmp(o, "--build-options")) {
            size_t used = strlen(d.options);
            int n = snprintf(d.options + used, sizeof d.options - used,
                             " %s", v);
            if (n < 0 || (size_t)n >= sizeof d.options - used) {
                /* Cut short, a variant would run as the shipped barrier. */
                fprintf(stderr, "barrier_driver: build options too long\n");
                return 2;
            }
        }
        else {
            fprintf(stderr, "barrier_driver: unknown option %s (--help)\n",
                    o);
            return 2;
        }
    }
    int known = d.algo == NULL;
    for (int a = XWG_BARRIER_XF; a <= XWG_BARRIER_TREE && !known; a++)
        known = !strcmp(d.algo, xwg_barrier_algo_name((xwg_barrier_algo)a));
    if (!known) {
        fprintf(stderr, "barrier_driver: --algo takes xf, counter or tree\n");
        return 2;
    }
    cl_platform_id p;
    int err = xwg_find_device(platform, &p, &d.device);
    if (err != XWG_SUCCESS) {
        fprintf(stderr, "barrier_driver: no device: %s\n",
                xwg_status_string(err));
        return 2;
    }
    d.cl = clCreateContext(NULL, 1, &d.device, NULL, NULL, &err);
    d.queue = clCreateCommandQueueWithProperties(d.cl, d.device, NULL, &err);
    if (csv != NULL) {
        d.csv = fopen(csv, "a");
        if (d.csv == NULL) {
            perror(csv);
            return 2;
        }
    }
    err = xwg_context_create(d.cl, d.device, NULL, &d.xc);
    if (err != XWG_SUCCESS) {
        /* A refusal is a result too (rusticl's): record it. */
        fprintf(stderr, "barrier_driver: xwg_context_create: %s\n",
                xwg_status_name(err));
        char name[128] = "";
        clGetDeviceInfo(d.device, CL_DEVICE_NAME, sizeof name, name, NULL);
        if (d.csv)
            fprintf(d.csv, "%s,\"%s\",,context,create,%zu,0,0,0,0,refused,%s\n",
                    d.label, name, d.local, xwg_status_name(err));
        return 2;
    }
    d.info.size = sizeof d.info;
    xwg_context_query(d.xc, &d.info);
    fprintf(stderr, "%s: %s, self-test %s\n", d.info.device_name,
            xwg_atomics_path_name(d.info.atomics_path),
            d.info.self_test == XWG_SELF_TEST_PASSED ? "passed" : "not passed");
    for (int a = XWG_BARRIER_XF; a <= XWG_BARRIER_TREE; a++) {
        xwg_barrier_algo algo = (xwg_barrier_algo)a;
        if ((d.info.barrier != XWG_BARRIER_DEFAULT &&
             algo != d.info.barrier) ||
            (d.algo != NULL &&
             strcmp(d.algo, xwg_barrier_algo_name(algo)) != 0))
            continue;
        /* Programs on a default context compile the counter and the tree
         * only: XF runs on a context that fixes it. */
        xwg_context *shared_xc = d.xc;
        if (algo == XWG_BARRIER_XF && d.info.barrier == XWG_BARRIER_DEFAULT) {
            xwg_options xo;
            xwg_options_init(&xo);
            xo.barrier = XWG_BARRIER_XF;
            if ((err = xwg_context_create(d.cl, d.device, &xo, &d.xc)) !=
                XWG_SUCCESS) {
                fprintf(stderr, "barrier_driver: the XF context: %s\n",
                        xwg_status_name(err));
                return 2;
            }
        }
        if (wants(&d, "stress"))
            run_stress(&d, algo);
        if (wants(&d, "jacobi")) {
            if (d.jacobi_n == 0) { /* four points per work-item */
                xwg_occupancy occ = XWG_OCCUPANCY_INIT;
                cl_kernel k = build(&d, jacobi_source, "jacobi");
                cl_mem m = buffer(&d, 4);
                cl_uint z = 0;
                clSetKernelArg(k, 0, sizeof m, &m);
                clSetKernelArg(k, 1, sizeof m, &m);
                clSetKernelArg(k, 2, sizeof z, &z);
                clSetKernelArg(k, 3, sizeof z, &z);
                xwg_discover(d.xc, k, d.local, &occ);
                d.jacobi_n = occ.groups * (unsigned)d.local * 4 - 3;
                clReleaseMemObject(m);
                clReleaseKernel(k);
            }
            run_jacobi(&d, algo);
        }
        if (wants(&d, "misuse")) {
            run_misuse(&d, "early_return", 0, 0, algo);
            run_misuse(&d, "divergent", 0, 0, algo);
            /* Twice the compute units' worth of groups more than fit. */
            xwg_occupancy occ = XWG_OCCUPANCY_INIT;
            cl_kernel k = build(&d, misuse_source, "plain");
            cl_mem m = buffer(&d, 4);
            clSetKernelArg(k, 0, sizeof m, &m);
            xwg_discover(d.xc, k, d.local, &occ);
            clReleaseMemObject(m);
            clReleaseKernel(k);
            run_misuse(&d, "plain", occ.groups + 2 * d.info.compute_units, 1,
                       algo);
        }
        if (wants(&d, "split"))
            run_split(&d, algo);
        if (wants(&d, "collectives"))
            run_collectives(&d, algo);
        if (wants(&d, "collective_misuse"))
            run_collective_misuse(&d, algo);
        if (wants(&d, "divergence"))
            run_divergence(&d, algo);
        if (d.xc != shared_xc) {
            xwg_context_release(d.xc);
            d.xc = shared_xc;
        }
    }
    if (d.only != NULL && !strcmp(d.only, "known_bad")) {
        /* For the Oclgrind classifier: must draw real reports. */
        cl_kernel k = build(&d, known_bad_source, "known_bad");
        cl_mem out = buffer(&d, 4096 * sizeof(cl_uint));
        clSetKernelArg(k, 0, sizeof out, &out);
        err = xwg_launch(d.xc, d.queue, k, d.local, NULL);
        report(&d, "known_bad", "race+uninitialized", 0, 0, 0, 0,
               err == XWG_SUCCESS, xwg_status_name(err));
        clReleaseMemObject(out);
        clReleaseKernel(k);
    }
    if (d.csv)
        fclose(d.csv);
    printf("%d passed, %d failed\n", d.passed, d.failed);
    xwg_context_release(d.xc);
    clReleaseCommandQueue(d.queue);
    clReleaseContext(d.cl);
    /* Nothing run (an --algo that the context does not compile) proves
     * nothing. */
    return d.failed || d.passed == 0 ? 1 : 0;
}
