/*
 * placed.c - how much of a barrier's latency is where its words happen to
 * sit in memory? With --placements N, the library's own counter and tree
 * barriers run with their words (counters, cluster words, failed flag)
 * moved to N places in a buffer of the bench's, 64 KiB + 128 B apart as
 * the floor's are, zeroed before every launch: rows
 * barrier/<algo>@min/median/max-of-N at full occupancy. (On the H200 the
 * spread was a few per cent: placement is no lever.) With --prototypes,
 * four prototype kernels of the tree's flat wake run in the same buffer
 * (rows barrier/proto_*): cluster counts that grow or reset, and the
 * episode count in a register or in local memory. This file held two
 * prototypes in commit 5bfaae4 (--stripes: a striped counter, and the
 * flat wake without its reset on the arrival path); in the library's
 * barrier (commit d10551a) neither kept its gain (docs/performance.md).
 */
#include "bench.h"
#include "xwg_state_layout.h" /* where the failed flag sits */

#include <math.h>

/* The buffer for n placements of the words (PLACEMENT_WORDS, bench.h, the
 * floor's spacing; each region is far below 64 KiB). */
#define PLACED_BYTES(n) (4u * PLACEMENT_WORDS(n) + 65536u)
#define PLACED_REGION_BYTES 65536u

/* Device time (us) of one launch of `count` barriers at `groups` groups,
 * their words at word `at` of `words` and zeroed first; median of 5. NAN
 * when a barrier wait timed out. */
static double launch_us(bench *b, cl_kernel k, size_t local, cl_uint groups,
                        xwg_barrier_algo algo, cl_mem words, cl_uint at,
                        cl_uint count)
{
    double t[5];
    const cl_uint zero = 0;
    clSetKernelArg(k, 0, sizeof count, &count);
    clSetKernelArg(k, 1, sizeof words, &words);
    clSetKernelArg(k, 2, sizeof at, &at);
    for (int i = 0; i < 5; i++) {
        clEnqueueFillBuffer(b->queue, words, &zero, sizeof zero, 4u * at,
                            PLACED_REGION_BYTES, 0, NULL, NULL);
        xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
        lo.groups = groups;
        lo.barrier = algo;
        xwg_pending *p;
        cl_event ev = NULL;
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        int err = xwg_launch_async(b->xc, b->queue, k, local, &lo, &p, &ev);
        if (err == XWG_SUCCESS)
            err = xwg_launch_finish(p, &info);
        cl_uint failed = 0;
        if (err == XWG_SUCCESS)
            clEnqueueReadBuffer(b->queue, words, CL_TRUE,
                                4u * (at + XWG__W_FAILED), sizeof failed,
                                &failed, 0, NULL, NULL);
        if (err != XWG_SUCCESS || failed) {
            fprintf(stderr, "xwg-bench: barriers_placed: %s\n",
                    failed ? "a moved barrier timed out"
                           : xwg_status_name(err));
            if (ev != NULL)
                clReleaseEvent(ev);
            return NAN;
        }
        t[i] = event_us(ev);
    }
    return median_us(t, 5);
}

static double per_barrier_us(bench *b, cl_kernel k, size_t local,
                             cl_uint groups, xwg_barrier_algo algo,
                             cl_mem words, cl_uint at)
{
    double t1 = launch_us(b, k, local, groups, algo, words, at, b->e1);
    double t2 = launch_us(b, k, local, groups, algo, words, at, b->e2);
    return per_barrier(b, t1, t2);
}

/* Rows barrier/ALGO@min/median/max-of-N. */
static void placed_sweep(bench *b, cl_kernel k, cl_mem words, size_t local,
                         cl_uint groups, xwg_barrier_algo algo)
{
    double us[64];
    unsigned ran = 0;
    for (unsigned i = 0; i < b->placements; i++) {
        double t = per_barrier_us(b, k, local, groups, algo, words,
                                  PLACEMENT_WORDS(i));
        if (t >= 0)
            us[ran++] = t;
    }
    char what[64];
    snprintf(what, sizeof what, "barrier/%s", xwg_barrier_algo_name(algo));
    spread_rows(b, what, us, ran, local, "full", groups);
}

void measure_placed(bench *b, size_t local, cl_uint groups)
{
    int err;
    cl_mem words = clCreateBuffer(b->cl, CL_MEM_READ_WRITE,
                                  PLACED_BYTES(b->placements), NULL, &err);
    cl_kernel placed = clCreateKernel(b->prog, "barriers_placed", &err);
    static const xwg_barrier_algo swept[] = {XWG_BARRIER_COUNTER,
                                             XWG_BARRIER_TREE};
    for (int a = 0; a < 2; a++)
        if (bench_measures(b, swept[a]))
            placed_sweep(b, placed, words, local, groups, swept[a]);
    static const char *protos[] = {"proto_mono", "proto_reset",
                                   "proto_mono_localep",
                                   "proto_reset_localep"};
    for (int i = 0; b->prototypes && i < 4; i++) {
        cl_kernel k = clCreateKernel(b->prog, protos[i], &err);
        if (k == NULL) {
            fprintf(stderr, "xwg-bench: %s: %s\n", protos[i],
                    xwg_status_name(err));
            continue;
        }
        double us = per_barrier_us(b, k, local, groups, XWG_BARRIER_DEFAULT,
                                   words, 0);
        char name[96];
        row_name(b, name, sizeof name, "barrier/%s", protos[i]);
        if (!isnan(us))
            row(b, name, local, "full", groups, us);
        clReleaseKernel(k);
    }
    clReleaseKernel(placed);
    clReleaseMemObject(words);
}
