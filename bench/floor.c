/*
 * floor.c - the floor under every barrier: a flag handed between two
 * groups and back, per round trip (pingpong: release store, polls that
 * acquire as the barriers' waits do; pingpong/relaxed: every access
 * relaxed), in an xwg kernel and in a plain one (pingpong/bare), and
 * optionally with the flags at several places in memory (--placements).
 */
#include "bench.h"

#include <math.h>

/* The pingpong buffer for n placements of the flags (PLACEMENT_WORDS,
 * bench.h): each pair's flags and give-up word lie in its first 4 KiB. */
#define PINGPONG_BYTES(n) (4u * PLACEMENT_WORDS(n) + 4096u)

/* Device time (us) of one run of a pingpong kernel: `rounds` round trips,
 * its flags at word `base` of the buffer; the xwg kernel goes through
 * xwg_launch, the bare one through clEnqueueNDRangeKernel. NAN when the
 * run failed or its two groups did not run together (a wait gave up). */
static double pingpong_run_us(bench *b, cl_kernel k, int bare, cl_mem flags,
                              cl_uint relaxed, cl_uint base, cl_uint rounds)
{
    const cl_uint zero = 0;
    cl_uint gave_up = 0;
    double us;
    clEnqueueFillBuffer(b->queue, flags, &zero, sizeof zero, 4 * base, 4096,
                        0, NULL, NULL);
    clSetKernelArg(k, 0, sizeof flags, &flags);
    clSetKernelArg(k, 1, sizeof rounds, &rounds);
    clSetKernelArg(k, 2, sizeof relaxed, &relaxed);
    clSetKernelArg(k, 3, sizeof base, &base);
    if (bare) {
        size_t global = 128, local = 64;
        cl_event ev;
        int err = clEnqueueNDRangeKernel(b->queue, k, 1, NULL, &global,
                                         &local, 0, NULL, &ev);
        if (err == CL_SUCCESS)
            err = clWaitForEvents(1, &ev);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "xwg-bench: pingpong_bare: %s\n",
                    xwg_status_name(err));
            return NAN;
        }
        us = event_us(ev);
    } else {
        xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
        lo.groups = 2;
        lo.skip_discovery = 1;
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        us = timed_launch_us(b, k, 64, &lo, "pingpong", &info);
    }
    clEnqueueReadBuffer(b->queue, flags, CL_TRUE, 4 * (base + 64),
                        sizeof gave_up, &gave_up, 0, NULL, NULL);
    if (gave_up) {
        fprintf(stderr, "xwg-bench: pingpong%s%s at word %u: the two groups "
                        "did not run together\n", bare ? "/bare" : "",
                relaxed ? " (relaxed)" : "", base);
        return NAN;
    }
    return us;
}

/* Per round trip: the difference of runs of 1000 and 21000 round trips,
 * so that launch costs cancel; the median of 3 such pairs, so that one
 * group starting late in one run does not decide it. NAN as above. */
static double pingpong_us(bench *b, cl_kernel k, int bare, cl_mem flags,
                          cl_uint relaxed, cl_uint base)
{
    double d[3];
    for (int i = 0; i < 3; i++) {
        double t1 = pingpong_run_us(b, k, bare, flags, relaxed, base, 1000);
        double t2 = isnan(t1) ? NAN /* no second run to give up again */
                              : pingpong_run_us(b, k, bare, flags, relaxed,
                                                base, 21000);
        if (isnan(t2))
            return NAN;
        d[i] = (t2 - t1) / 20000;
    }
    return median_us(d, 3);
}

/* A floor row named `what` plus the variant's tag, unless its runs
 * failed; a negative one (timing noise that even the median did not
 * absorb) is said, not recorded. */
static void floor_row(bench *b, const char *what, double us)
{
    char name[96];
    row_name(b, name, sizeof name, "%s", what);
    if (isnan(us))
        return;
    if (us < 0) {
        fprintf(stderr, "xwg-bench: %s: %.3f us, timing noise: not recorded\n",
                name, us);
        return;
    }
    row(b, name, 64, "2 groups", 2, us);
}

/* The floor at b->placements places in memory: the fastest, median and
 * slowest, for each order. Whether CUDA's faster floor is a matter of
 * where its flags happen to sit (bench/cuda/gridsync.cu does the same). */
static void measure_placements(bench *b, cl_kernel k, cl_mem flags)
{
    for (cl_uint relaxed = 0; relaxed < 2; relaxed++) {
        double us[64];
        unsigned ran = 0;
        for (unsigned i = 0; i < b->placements; i++) {
            double t = pingpong_us(b, k, 0, flags, relaxed, PLACEMENT_WORDS(i));
            if (t >= 0) /* not failed (NAN) nor noise */
                us[ran++] = t;
        }
        spread_rows(b, relaxed ? "pingpong/relaxed" : "pingpong", us, ran,
                    64, "2 groups", 2);
    }
}

void measure_floor(bench *b)
{
    int err;
    cl_kernel k = clCreateKernel(b->prog, "pingpong", &err);
    cl_mem flags = clCreateBuffer(b->cl, CL_MEM_READ_WRITE,
                                  PINGPONG_BYTES(b->placements), NULL, &err);
    floor_row(b, "pingpong", pingpong_us(b, k, 0, flags, 0, 0));
    floor_row(b, "pingpong/relaxed", pingpong_us(b, k, 0, flags, 1, 0));
    cl_kernel bare = clCreateKernel(b->prog, "pingpong_bare", &err);
    if (bare == NULL) {
        fprintf(stderr, "xwg-bench: pingpong_bare: %s\n",
                xwg_status_name(err));
    } else {
        floor_row(b, "pingpong/bare", pingpong_us(b, bare, 1, flags, 0, 0));
        floor_row(b, "pingpong/bare-relaxed",
                  pingpong_us(b, bare, 1, flags, 1, 0));
        clReleaseKernel(bare);
    }
    if (b->placements)
        measure_placements(b, k, flags);
    clReleaseMemObject(flags);
    clReleaseKernel(k);
}
