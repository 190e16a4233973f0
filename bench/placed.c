/*
 * placed.c - the barrier away from the state buffer, for two questions
 * that the shipped rows cannot answer:
 *   --placements N: how much of a barrier's latency is where its words
 *     happen to sit in memory? The library's own counter and tree
 *     barriers run with their words (counter, cluster words, failed flag)
 *     moved to N places, 64 KiB + 128 B apart, as the floor's are: rows
 *     barrier/<algo>@min/median/max-of-N at full occupancy.
 *   --stripes K,...: a prototype (not shipped): K counters instead of
 *     one. Group g arrives at counter g % K; work-items 0..K-1 of every
 *     group each wait until one counter has all its arrivals for this
 *     episode, and the exit work-group barrier joins them: rows
 *     barrier/striped-K. Each counter only grows (no top bit to flip), so
 *     a counter that moves on to the next episode before a slow poller
 *     looks still satisfies it.
 * Both kernels' words sit in a buffer of the bench's, zeroed before every
 * launch.
 */
#include "bench.h"
#include "xwg_state_layout.h" /* where the failed flag sits */

#include <math.h>
#include <stdlib.h>

const char placed_source[] =
    /* The library's barrier, with its words `base` words into `words`
     * instead of in the state buffer. */
    "__kernel void barriers_placed(uint count, volatile __global xwg_word\n"
    "                              *words, uint base, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    xwg_self placed = XWG_SELF;\n"
    "    placed.state = words + base;\n"
    "    for (uint i = 0; i < count && !xwg_failed_of(placed); i++)\n"
    "        xwg_barrier_of(placed);\n"
    "}\n"
    /* The striped prototype. Counter j (on its own line) takes the
     * arrivals of groups j, j + K, ...: `members` of them, so after
     * episode e it holds at least e * members. */
    "__kernel void barriers_striped(uint count, volatile __global xwg_word\n"
    "                               *words, uint stripes, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    __local uint failed;\n"
    "    const uint g = xwg_group_id(), n = xwg_num_groups();\n"
    "    const uint k = min(stripes, n), l = get_local_id(0);\n"
    "    /* Work-item 0 waits on its own group's counter. */\n"
    "    const uint j = (g + l) % k;\n"
    "    /* Lines 8 on: the failed flag's line (6) stays clear. */\n"
    "    volatile __global xwg_word *c = &words[(8u + j) * 32u];\n"
    "    const uint members = (n - j + k - 1u) / k;\n"
    "    const uint bound = XWG_SELF.watchdog;\n"
    "    if (l == 0) failed = 0u;\n"
    "    for (uint e = 1; e <= count; e++) {\n"
    "        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n"
    "        if (l < k) {\n"
    "            const uint target = e * members;\n"
    "            uint last = 0u;\n"
    "            if (l == 0u) /* arrive: release ours, acquire if last */\n"
    "                last = xwg__fetch_add_acq_rel(c, 1u) + 1u == target;\n"
    "            uint polls = 0u;\n"
    "            while (!last && (int)(xwg__poll(c) - target) < 0)\n"
    "                if (xwg__wait_expired(XWG_SELF.state, &polls, bound)) {\n"
    "                    atomic_or(&failed, 1u);\n"
    "                    break;\n"
    "                }\n"
    "            if (!last)\n"
    "                xwg__collected(c);\n"
    "        }\n"
    "        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n"
    "        if (failed)\n"
    "            return;\n"
    "    }\n"
    "}\n"
    /* The tree's flat wake without its reset: cluster counts only grow,
     * and the last of cluster c in episode e is the arrival that brings
     * it to e * members. The grid counter flips its top bit as the
     * shipped one does. */
    "__kernel void barriers_monotree(uint count, volatile __global xwg_word\n"
    "                                *words, uint fanin, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    __local uint failed;\n"
    "    const uint g = xwg_group_id(), n = xwg_num_groups();\n"
    "    const uint cluster = g / fanin, clusters = (n + fanin - 1u) / fanin;\n"
    "    const uint members = min(fanin, n - cluster * fanin);\n"
    "    volatile __global xwg_word *top = &words[8u * 32u];\n"
    "    volatile __global xwg_word *sub = &words[(9u + cluster) * 32u];\n"
    "    const uint add = cluster == 0u ? 0x80000000u - (clusters - 1u) : 1u;\n"
    "    const uint bound = XWG_SELF.watchdog;\n"
    "    if (get_local_id(0) == 0) failed = 0u;\n"
    "    for (uint e = 1; e <= count; e++) {\n"
    "        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n"
    "        if (get_local_id(0) == 0) {\n"
    "            const uint before = (e - 1u) & 1u ? 0x80000000u : 0u;\n"
    "            uint last = 0u;\n"
    "            if (xwg__fetch_add_acq_rel(sub, 1u) + 1u == e * members)\n"
    "                last = (((xwg__fetch_add_acq_rel(top, add) + add) ^\n"
    "                         before) & 0x80000000u) != 0u;\n"
    "            if (!last &&\n"
    "                xwg__await_change(top, before, 0x80000000u,\n"
    "                                  XWG_SELF.state, bound))\n"
    "                failed = 1u;\n"
    "        }\n"
    "        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n"
    "        if (failed)\n"
    "            return;\n"
    "    }\n"
    "}\n";

/* Where placement i's words start, in words (the floor's spacing), and the
 * buffer for n placements (each region is far below 64 KiB). */
#define PLACED_AT(i) ((i) * (16384u + 32u))
#define PLACED_BYTES(n) (4u * PLACED_AT(n) + 65536u)
#define PLACED_REGION_BYTES 65536u

/* Device time (us) of one launch of kernel k (args: count, words, base or
 * stripes) at `groups` groups, its words zeroed first; median of 5. NAN
 * when a barrier wait timed out. */
static double launch_us(bench *b, cl_kernel k, size_t local, cl_uint groups,
                        xwg_barrier_algo algo, cl_mem words, cl_uint at,
                        cl_uint third, cl_uint count)
{
    double t[5];
    const cl_uint zero = 0;
    clSetKernelArg(k, 0, sizeof count, &count);
    clSetKernelArg(k, 1, sizeof words, &words);
    clSetKernelArg(k, 2, sizeof third, &third);
    for (int i = 0; i < 5; i++) {
        clEnqueueFillBuffer(b->queue, words, &zero, sizeof zero, 4u * at,
                            PLACED_REGION_BYTES, 0, NULL, NULL);
        xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
        lo.groups = groups;
        lo.barrier = algo;
        xwg_pending *p;
        cl_event ev;
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
            fprintf(stderr, "xwg-bench: placed/striped launch: %s\n",
                    failed ? "a moved barrier timed out"
                           : xwg_status_name(err));
            if (err == XWG_SUCCESS)
                clReleaseEvent(ev);
            return NAN;
        }
        t[i] = event_us(ev);
    }
    qsort(t, 5, sizeof *t, cmp_double);
    return t[2];
}

static double per_barrier_us(bench *b, cl_kernel k, size_t local,
                             cl_uint groups, xwg_barrier_algo algo,
                             cl_mem words, cl_uint at, cl_uint third)
{
    double t1 = launch_us(b, k, local, groups, algo, words, at, third, b->e1);
    double t2 = launch_us(b, k, local, groups, algo, words, at, third, b->e2);
    return (t2 - t1) / (b->e2 - b->e1);
}

static void placed_sweep(bench *b, cl_kernel k, cl_mem words, size_t local,
                         cl_uint groups, xwg_barrier_algo algo,
                         const char *name)
{
    double us[64];
    unsigned ran = 0;
    for (unsigned i = 0; i < b->placements; i++) {
        double t = per_barrier_us(b, k, local, groups, algo, words,
                                  PLACED_AT(i), PLACED_AT(i));
        if (t >= 0)
            us[ran++] = t;
    }
    if (ran == 0)
        return;
    qsort(us, ran, sizeof *us, cmp_double);
    const double pick[3] = {us[0], us[ran / 2], us[ran - 1]};
    const char *what[3] = {"min", "median", "max"};
    for (int j = 0; j < 3; j++) {
        char row_name[96];
        snprintf(row_name, sizeof row_name, "barrier/%s@%s-of-%u%s%s", name,
                 what[j], ran, *b->tag ? "+" : "", b->tag);
        row(b, row_name, local, "full", groups, pick[j]);
    }
}

void measure_placed(bench *b, size_t local, cl_uint groups)
{
    int err;
    unsigned places = b->placements ? b->placements : 1;
    cl_mem words = clCreateBuffer(b->cl, CL_MEM_READ_WRITE,
                                  PLACED_BYTES(places), NULL, &err);
    cl_kernel placed = clCreateKernel(b->prog, "barriers_placed", &err);
    cl_kernel striped = clCreateKernel(b->prog, "barriers_striped", &err);
    if (b->placements) {
        placed_sweep(b, placed, words, local, groups, XWG_BARRIER_COUNTER,
                     "counter");
        placed_sweep(b, placed, words, local, groups, XWG_BARRIER_TREE,
                     "tree");
    }
    for (unsigned i = 0; i < b->nstripes; i++) {
        cl_uint k = b->stripes[i];
        if (k > local)
            continue; /* one waiting work-item per counter */
        double us = per_barrier_us(b, striped, local, groups,
                                   XWG_BARRIER_COUNTER, words, 0, k);
        char row_name[96];
        snprintf(row_name, sizeof row_name, "barrier/striped-%u%s%s", k,
                 *b->tag ? "+" : "", b->tag);
        if (!isnan(us))
            row(b, row_name, local, "full", groups, us);
    }
    cl_kernel mono = clCreateKernel(b->prog, "barriers_monotree", &err);
    for (cl_uint fanin = 32; b->nstripes && fanin <= 128; fanin *= 2) {
        double us = per_barrier_us(b, mono, local, groups,
                                   XWG_BARRIER_COUNTER, words, 0, fanin);
        char row_name[96];
        snprintf(row_name, sizeof row_name, "barrier/monotree-%u%s%s", fanin,
                 *b->tag ? "+" : "", b->tag);
        if (!isnan(us))
            row(b, row_name, local, "full", groups, us);
    }
    clReleaseKernel(mono);
    clReleaseKernel(striped);
    clReleaseKernel(placed);
    clReleaseMemObject(words);
}
