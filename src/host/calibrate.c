/*
 * calibrate.c - which barrier algorithms a default build compiles, chosen
 * from what they cost on this device.
 *
 * A program compiles the algorithms of its set (XWG_BARRIERS), and every
 * algorithm compiled costs time even where it never runs, by an amount
 * that only the device's compiler decides: on Intel's CPU runtime the
 * pair costs more than the counter alone, while PoCL and the H200 lose
 * nothing by it (docs/performance.md, tables default-intel, default-pocl,
 * default-h200). So the first default build on a device times a
 * loop of barriers built three ways (the counter alone, the tree alone,
 * and both, the launch then choosing by its groups per compute unit:
 * launch.c) at 64, 256 and 1024 work-items where the device allows them,
 * each at the occupancy that discovery finds, and keeps the set whose
 * worst ratio to the fastest of the three, over the sizes, is smallest.
 * The pair is kept unless a single one beats it by more than
 * XWG__CALIBRATE_MARGIN: it lets each launch follow its own occupancy,
 * which a calibration at one occupancy cannot see.
 *
 * The choice is kept per device, driver and atomics path for the life of
 * the process, as the self-test's verdict is. XWG_CALIBRATE=0 skips the
 * timing (the pair, as a context that fixes no barrier had before), and a
 * simulator (Oclgrind) is never timed: its time says nothing of hardware.
 */
#include "internal.h"
#include "xwg__calibrate_source.h" /* calibrate.cl */

#include <stdlib.h>
#include <string.h>

#define XWG__COUNTER_SET (1u << XWG_BARRIER_COUNTER)
#define XWG__TREE_SET (1u << XWG_BARRIER_TREE)
#define XWG__PAIR_SET (XWG__COUNTER_SET | XWG__TREE_SET)
/* A single algorithm replaces the pair only if the pair's worst ratio is
 * this much above its own: timing noise must not flip the choice. */
#define XWG__CALIBRATE_MARGIN 1.05
/* Barriers in the short and the long launch; their difference, over
 * these counts, is one barrier's time, without the launch's. */
#define XWG__CALIBRATE_SHORT 16u
#define XWG__CALIBRATE_LONG 1040u
#define XWG__CALIBRATE_REPEATS 3
/* A barrier slower than this says nothing of the algorithms, only that the
 * groups share cores (PoCL with more threads than cores: each barrier
 * then waits for the operating system's scheduler, milliseconds): the
 * timing stops at once and the pair stays. Every device measured costs
 * under 10 us at full occupancy (docs/performance.md); a launch of the
 * long count at a millisecond a barrier would take a second. */
#define XWG__CALIBRATE_SLOW_US 100.0

/* xwg__calibrate_source: calibrate.cl, embedded at build time. */

/* The device time of one launch of `count` barriers (its kernel's
 * profiling times), in microseconds, or a negative value where it failed.
 * queue has profiling on. */
static double launch_us(xwg_context *ctx, cl_command_queue queue,
                        cl_kernel k, size_t local, cl_uint count)
{
    if (clSetKernelArg(k, 0, sizeof count, &count) != CL_SUCCESS)
        return -1;
    xwg_pending *p = NULL;
    cl_event kernel = NULL;
    int err = xwg_launch_async(ctx, queue, k, local, NULL, &p, &kernel);
    if (err != XWG_SUCCESS)
        return -1;
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    err = xwg_launch_finish(p, &info);
    cl_ulong start = 0, end = 0;
    if (err == XWG_SUCCESS)
        err = clGetEventProfilingInfo(kernel, CL_PROFILING_COMMAND_START,
                                      sizeof start, &start, NULL);
    if (err == XWG_SUCCESS)
        err = clGetEventProfilingInfo(kernel, CL_PROFILING_COMMAND_END,
                                      sizeof end, &end, NULL);
    clReleaseEvent(kernel);
    return err == XWG_SUCCESS ? (double)(end - start) / 1e3 : -1;
}

/* One barrier's time in microseconds in kernel k at `local` work-items:
 * the smallest of a few differences of a long and a short launch (noise
 * only adds). Negative where a launch failed; XWG__CALIBRATE_SLOW where
 * the short launch's barriers already cost XWG__CALIBRATE_SLOW_US each. */
#define XWG__CALIBRATE_SLOW (-2.0)
static double barrier_us(xwg_context *ctx, cl_command_queue queue,
                         cl_kernel k, size_t local)
{
    double best = -1;
    if (launch_us(ctx, queue, k, local, XWG__CALIBRATE_SHORT) < 0)
        return -1; /* the first launch discovers */
    const double first = launch_us(ctx, queue, k, local, XWG__CALIBRATE_SHORT);
    if (first < 0)
        return -1;
    if (first > XWG__CALIBRATE_SLOW_US * XWG__CALIBRATE_SHORT)
        return XWG__CALIBRATE_SLOW;
    for (int r = 0; r < XWG__CALIBRATE_REPEATS; r++) {
        double t1 = launch_us(ctx, queue, k, local, XWG__CALIBRATE_SHORT);
        double t2 = launch_us(ctx, queue, k, local, XWG__CALIBRATE_LONG);
        if (t1 < 0 || t2 < 0)
            return -1;
        double us = (t2 - t1) / (XWG__CALIBRATE_LONG - XWG__CALIBRATE_SHORT);
        if (us > 0 && (best < 0 || us < best))
            best = us;
    }
    return best;
}

enum { SETS = 3, SIZES = 3 };
static const unsigned candidate_sets[SETS] = {XWG__PAIR_SET, XWG__COUNTER_SET,
                                              XWG__TREE_SET};
static const size_t candidate_sizes[SIZES] = {64, 256, 1024};

/* Fills us[set][size] (negative: not measured), launching on a queue of
 * its own, and stops at the first barrier too slow to say anything (all
 * then unmeasured: the pair stays). Returns an OpenCL or xwg status where
 * a build failed. */
static int measure(xwg_context *ctx, double us[SETS][SIZES])
{
    for (int s = 0; s < SETS; s++)
        for (int z = 0; z < SIZES; z++)
            us[s][z] = -1;
    int err;
    cl_command_queue queue = xwg__create_queue(ctx->cl, ctx->device,
                                               CL_QUEUE_PROFILING_ENABLE, &err);
    if (queue == NULL)
        return err;
    int slow = 0;
    for (int s = 0; s < SETS && err == XWG_SUCCESS && !slow; s++) {
        char options[32];
        snprintf(options, sizeof options, "-DXWG_BARRIERS=%uu",
                 candidate_sets[s]);
        cl_program prog = NULL;
        err = xwg__program_build(ctx, xwg__calibrate_source, options, 0, &prog,
                                 NULL);
        cl_kernel k = err == XWG_SUCCESS
                          ? clCreateKernel(prog, "xwg__calibrate", &err)
                          : NULL;
        if (prog != NULL)
            clReleaseProgram(prog);
        if (k == NULL)
            break;
        for (int z = 0; z < SIZES && !slow; z++)
            if (candidate_sizes[z] <= ctx->info.max_work_group_size) {
                us[s][z] = barrier_us(ctx, queue, k, candidate_sizes[z]);
                slow = us[s][z] == XWG__CALIBRATE_SLOW;
            }
        /* The launches kept what they learnt of k: give it back. */
        xwg__kernel_facts_forget(ctx, k);
        xwg__forget_kernel(ctx, k);
        clReleaseKernel(k);
    }
    clReleaseCommandQueue(queue);
    if (slow) {
        XWG__TRACE("calibration of the default barriers stopped: a barrier "
                   "took over %.0f us (groups sharing cores)",
                   XWG__CALIBRATE_SLOW_US);
        for (int s = 0; s < SETS; s++)
            for (int z = 0; z < SIZES; z++)
                us[s][z] = -1;
    }
    return err;
}

/* The set whose worst ratio to the fastest set, over the sizes that all
 * three measured, is smallest, the pair unless a single set beats it by
 * XWG__CALIBRATE_MARGIN; the pair where no size was measured. */
static unsigned choose(double us[SETS][SIZES])
{
    double worst[SETS] = {0};
    int sizes = 0;
    for (int z = 0; z < SIZES; z++) {
        double best = -1;
        int all = 1;
        for (int s = 0; s < SETS; s++) {
            all = all && us[s][z] > 0;
            if (us[s][z] > 0 && (best < 0 || us[s][z] < best))
                best = us[s][z];
        }
        if (!all)
            continue;
        sizes++;
        for (int s = 0; s < SETS; s++)
            if (us[s][z] / best > worst[s])
                worst[s] = us[s][z] / best;
    }
    int chosen = 0; /* the pair */
    for (int s = 1; s < SETS && sizes > 0; s++)
        if (worst[s] * XWG__CALIBRATE_MARGIN < worst[chosen])
            chosen = s;
    return candidate_sets[chosen];
}

/* ---- The process's choices, per device, driver and path ----------------- */

typedef struct chosen_set {
    cl_device_id device;
    char driver[64];
    xwg_atomics_path path;
    unsigned set;
} chosen_set;

static pthread_mutex_t chosen_lock = PTHREAD_MUTEX_INITIALIZER;
static chosen_set chosen[16];
static size_t chosen_len;

static unsigned chosen_find(const xwg_context *ctx)
{
    unsigned set = 0;
    pthread_mutex_lock(&chosen_lock);
    for (size_t i = 0; i < chosen_len && set == 0; i++)
        if (chosen[i].device == ctx->device &&
            chosen[i].path == ctx->info.atomics_path &&
            !strcmp(chosen[i].driver, ctx->info.driver_version))
            set = chosen[i].set;
    pthread_mutex_unlock(&chosen_lock);
    return set;
}

static void chosen_keep(const xwg_context *ctx, unsigned set)
{
    pthread_mutex_lock(&chosen_lock);
    if (chosen_len < sizeof chosen / sizeof chosen[0]) {
        chosen_set *c = &chosen[chosen_len++];
        c->device = ctx->device;
        snprintf(c->driver, sizeof c->driver, "%s", ctx->info.driver_version);
        c->path = ctx->info.atomics_path;
        c->set = set;
    }
    pthread_mutex_unlock(&chosen_lock);
}

static int calibration_wanted(const xwg_context *ctx)
{
    const char *env = getenv("XWG_CALIBRATE");
    if (env != NULL && !strcmp(env, "0"))
        return 0;
    return strstr(ctx->info.platform_name, "Oclgrind") == NULL;
}

unsigned xwg__default_barrier_set(xwg_context *ctx)
{
    pthread_mutex_lock(&ctx->lock);
    unsigned set = ctx->info.default_barriers;
    pthread_mutex_unlock(&ctx->lock);
    if (set != 0)
        return set;
    set = calibration_wanted(ctx) ? chosen_find(ctx) : XWG__PAIR_SET;
    if (set == 0) {
        double us[SETS][SIZES];
        set = measure(ctx, us) == XWG_SUCCESS ? choose(us) : XWG__PAIR_SET;
        XWG__TRACE("calibration of the default barriers: counter and tree "
                   "%.3f/%.3f/%.3f us, counter %.3f/%.3f/%.3f, tree "
                   "%.3f/%.3f/%.3f at 64/256/1024 work-items: set 0x%x",
                   us[0][0], us[0][1], us[0][2], us[1][0], us[1][1], us[1][2],
                   us[2][0], us[2][1], us[2][2], set);
        chosen_keep(ctx, set);
    }
    /* Two threads may both have timed; the first result stays. */
    pthread_mutex_lock(&ctx->lock);
    if (ctx->info.default_barriers == 0)
        ctx->info.default_barriers = set;
    set = ctx->info.default_barriers;
    pthread_mutex_unlock(&ctx->lock);
    return set;
}
