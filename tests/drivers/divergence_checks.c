/*
 * divergence_checks.c - barrier_driver's `divergence` run: kernels built
 * with -DXWG_CHECK_DIVERGENCE in which a barrier or a collective is made
 * by some work-items of a group only. Each must end in
 * XWG_ERROR_BARRIER_MISUSE on a device whose work-group barrier lets the
 * work-items that reach it pass without the others; the same calls made
 * by every work-item must succeed, with the right sum, on every device.
 *
 * Whether the device lets them pass is measured first, with plain
 * OpenCL (partial_barrier_passes). On PoCL's and Intel's CPU runtimes it
 * does not: PoCL runs such a branch in every work-item, and on Intel's a
 * work-item that waits at a barrier the others skip never resumes. There
 * only the correct kernel runs, and the rows say why the others did not.
 * A split arrive made by some work-items is left out: on NVIDIA the
 * others' wait meets it in the hardware barrier, which hangs before any
 * of xwg's code runs (docs/guide.md, "At run time").
 */
#include "driver.h"
#include "divergent_source.h" /* divergence_divergent.cl */
#include "partial_source.h" /* divergence_partial.cl */

#include <stdlib.h>
#include <string.h>

/* divergent_source: tests/drivers/divergence_divergent.cl, embedded at
 * build time. */

/* partial_source: tests/drivers/divergence_partial.cl, embedded at
 * build time. */

/* Nonzero when the device lets work-item 0 pass a work-group barrier that
 * the group's other work-items skip; *why says what it saw. */
static int partial_barrier_passes(driver *d, char *why, size_t size)
{
    int err;
    const char *src = partial_source;
    cl_program prog = clCreateProgramWithSource(d->cl, 1, &src, NULL, &err);
    if (prog == NULL ||
        clBuildProgram(prog, 1, &d->device, "", NULL, NULL) != CL_SUCCESS) {
        snprintf(why, size, "the probe did not build");
        clReleaseProgram(prog);
        return 0;
    }
    cl_kernel k = clCreateKernel(prog, "partial", &err);
    cl_mem out = buffer(d, 2 * sizeof(cl_uint));
    clSetKernelArg(k, 0, sizeof out, &out);
    const size_t local = d->local < 2 ? 2 : d->local;
    cl_uint got[2] = {0, 0};
    err = clEnqueueNDRangeKernel(d->queue, k, 1, NULL, &local, &local, 0,
                                 NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(d->queue, out, CL_TRUE, 0, sizeof got, got,
                                  0, NULL, NULL);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    snprintf(why, size,
             "%u of %zu work-items entered a branch of work-item 0, which "
             "%s", got[0], local,
             got[1] == 0 ? "never came back from its barrier"
                         : "came back from its barrier");
    return err == CL_SUCCESS && got[0] == 1u && got[1] == 2u;
}

/* One launch of kernel `name` from `prog`; returns its status, and the
 * groups that took part in *groups. */
static int launch_one(driver *d, cl_program prog, const char *name,
                      cl_mem out, xwg_barrier_algo algo, cl_uint *groups)
{
    int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    clSetKernelArg(k, 0, sizeof out, &out);
    xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
    opts.barrier = algo;
    opts.groups = d->groups;
    opts.skip_discovery = d->groups != 0;
    opts.watchdog_ms = d->watchdog_ms;
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    err = xwg_launch_ex(d->xc, d->queue, k, d->local, &opts, &info);
    *groups = info.groups;
    clReleaseKernel(k);
    return err;
}

void run_divergence(driver *d, xwg_barrier_algo algo)
{
    char options[sizeof d->options + 64], note[400], variant[64];
    snprintf(options, sizeof options, "%s -DXWG_CHECK_DIVERGENCE",
             d->options);
    cl_program prog = NULL;
    char *log = NULL;
    if (xwg_program_build(d->xc, divergent_source, options, &prog, &log) !=
        XWG_SUCCESS) {
        fprintf(stderr, "build failed:\n%s\n", log ? log : xwg_last_error());
        exit(2);
    }
    free(log);
    /* One word per work-item of the largest launch xwg might make. */
    cl_mem out = buffer(d, (size_t)1 << 25);
    char why[200];
    const int detectable = partial_barrier_passes(d, why, sizeof why);
    static const char *divergent[] = {"barrier_by_one", "barrier_by_half",
                                      "sum_by_one", "sum_by_half"};
    for (size_t i = 0; i < sizeof divergent / sizeof *divergent; i++) {
        snprintf(variant, sizeof variant, "%s/%s", divergent[i],
                 xwg_barrier_algo_name(algo));
        if (!detectable) {
            /* Not a pass: nothing was checked. Printed, not counted. */
            printf("divergence %s: not run: %s\n", variant, why);
            continue;
        }
        cl_uint groups = 0;
        double start = now_s();
        int err = launch_one(d, prog, divergent[i], out, algo, &groups);
        snprintf(note, sizeof note, "%s: %s", xwg_status_name(err),
                 xwg_last_error());
        report(d, "divergence", variant, groups, 0, 0, now_s() - start,
               err == XWG_ERROR_BARRIER_MISUSE &&
                   strstr(xwg_last_error(), "only some work-items") != NULL,
               note);
    }
    /* No false report: every work-item makes every call. */
    cl_uint groups = 0, sum = 0;
    double start = now_s();
    int err = launch_one(d, prog, "by_all", out, algo, &groups);
    clEnqueueReadBuffer(d->queue, out, CL_TRUE, 0, sizeof sum, &sum, 0, NULL,
                        NULL);
    snprintf(variant, sizeof variant, "by_all/%s", xwg_barrier_algo_name(algo));
    snprintf(note, sizeof note, "%s: sum %u of %u", xwg_status_name(err), sum,
             groups * (cl_uint)d->local);
    report(d, "divergence", variant, groups, 0, 0, now_s() - start,
           err == XWG_SUCCESS && sum == groups * (cl_uint)d->local, note);
    clReleaseMemObject(out);
    clReleaseProgram(prog);
}
