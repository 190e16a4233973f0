/*
 * discovery.c - xwg_discover(): how many groups of a kernel are co-resident.
 *
 * The user's own kernel is launched in discovery-only mode (a word of the
 * state buffer says so): XWG_DISCOVER() runs the protocol and then every
 * group returns, so the kernel body never runs. This is honest about
 * occupancy because it is the very binary that xwg_launch() will run, with
 * the same registers and the same static and dynamic local memory. Each
 * participant stays resident until it has seen the poll closed, so all of
 * them were resident together at the moment of closing.
 *
 * A launch can only find as many groups as it has. If every launched group
 * joined, the launch may have been too small: discovery doubles it and runs
 * again, until some group arrives after the poll closed.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "internal.h"

#include <stdlib.h>
#include <time.h>

/* Launch no more than this many work-items, whatever the doubling says. */
#define XWG__MAX_DISCOVERY_ITEMS ((size_t)1 << 30)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The first launch: twice as many groups as 2048 work-items per compute
 * unit allow (today's GPUs hold at most 2048 to 2560), at least 4 per
 * compute unit. Too few only costs another, doubled, launch. */
static size_t first_launch_groups(const xwg_context *ctx, size_t local_size)
{
    size_t per_unit = 4096 / local_size;
    if (per_unit < 4)
        per_unit = 4;
    return (size_t)ctx->info.compute_units * per_unit;
}

/* This process's CPU time, in ms: on a CPU device the kernel's work-items
 * run in this process's threads. */
static double process_cpu_ms(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0)
        return 0;
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* One launch of `groups` groups in `mode`, waited for; its device time,
 * and the CPU time this process spent from the enqueue to the end. */
static int run_mode(xwg_context *ctx, cl_kernel kernel, cl_uint state_arg,
                    size_t local_size, size_t groups, cl_uint mode,
                    cl_uint window_polls, double *kernel_ms, double *cpu_ms)
{
    cl_uint header[XWG__STATE_WORDS];
    /* The protocol's spins get the default watchdog (calibration mode has
     * none, and runs before there is a calibration to convert it). */
    cl_uint watchdog =
        mode == XWG__MODE_CALIBRATE ? 0 : xwg__watchdog_word(ctx, 0);
    cl_uint words[XWG__HEADER_WORDS];
    xwg__header_words(ctx, mode, window_polls, 0, watchdog, words);
    xwg__state_header(words, header);
    /* On the kernel's queue: a blocking write only promises that the
     * header has been copied, not that the write has run, so on another
     * queue the kernel could start before it. */
    int err = clEnqueueWriteBuffer(ctx->queue, ctx->state, CL_TRUE, 0,
                                   sizeof header, header, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return err;
    err = clSetKernelArg(kernel, state_arg, sizeof(cl_mem), &ctx->state);
    if (err != CL_SUCCESS)
        return err;
    size_t global = groups * local_size;
    cl_event done = NULL;
    const double cpu_start = process_cpu_ms();
    err = clEnqueueNDRangeKernel(ctx->queue, kernel, 1, NULL, &global,
                                 &local_size, 0, NULL, &done);
    if (err != CL_SUCCESS)
        return err;
    err = clWaitForEvents(1, &done);
    if (cpu_ms != NULL)
        *cpu_ms = process_cpu_ms() - cpu_start;
    cl_ulong start = 0, end = 0;
    if (err == CL_SUCCESS &&
        clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START, sizeof start,
                                &start, NULL) == CL_SUCCESS &&
        clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof end,
                                &end, NULL) == CL_SUCCESS)
        *kernel_ms = (double)(end - start) / 1e6;
    clReleaseEvent(done);
    return err;
}

/* XWG_ERROR_KERNEL_NOT_RUN, with the reason for xwg_last_error(): the
 * launch just run never reached XWG_DISCOVER() (the run count that its
 * group 0 adds to stayed 0). Nothing else it wrote can be trusted, and a
 * calibration or a count taken from it would be wrong. */
static int not_run(const xwg_context *ctx, size_t groups, size_t local_size)
{
    xwg__set_last_error(
        "discovery of %zu groups of %zu on %s: the kernel did not run "
        "XWG_DISCOVER() (it has an XWG_STATE parameter; XWG_DISCOVER(); "
        "must be its first statement)", groups, local_size,
        ctx->info.device_name);
    XWG__TRACE("%s", xwg_last_error());
    return XWG_ERROR_KERNEL_NOT_RUN;
}

/* 1 if the last launch on ctx->state ran XWG_DISCOVER(), else 0; or an
 * OpenCL error (negative) from the read. */
static int reached_discover(const xwg_context *ctx)
{
    cl_uint runs = 0;
    int err = xwg__read_state(ctx, ctx->state, XWG__W_RUNS, 1, &runs);
    return err != CL_SUCCESS ? err : runs != 0;
}

/* Times the window's polling loop on the device, once per context, and
 * turns the window in microseconds into polls. OpenCL C has no clock, so
 * this is how a window (and later the watchdog) gets a time. The
 * difference of two launches (n and 2n polls) cancels the launch cost.
 * The caller holds ctx->lock. */
int xwg__ensure_calibrated(xwg_context *ctx, cl_kernel kernel,
                           cl_uint state_arg, size_t local_size)
{
    if (ctx->info.poll_ns != 0)
        return XWG_SUCCESS;
    double ns = 0;
    int repeats = 0;
    /* A busy machine makes polls look slow, and a window or watchdog
     * computed from slow polls is too short once the machine is quiet: a
     * watchdog that fires early fails a good launch. So on a CPU device,
     * where the polling work-item is a thread of this process, the time
     * of a poll is also taken from the CPU time the process spent, which
     * leaves out the time the thread waited for a core, and the smaller
     * of the two counts. And in any case the fastest of three. */
    const int cpu_device = !xwg__is_plain_gpu(ctx->info.device_type);
    for (cl_uint polls = 1024; polls <= (1u << 28) && repeats < 3;) {
        double t1 = 0, t2 = 0, c1 = 0, c2 = 0;
        int err = run_mode(ctx, kernel, state_arg, local_size, 1,
                           XWG__MODE_CALIBRATE, polls, &t1, &c1);
        if (err == CL_SUCCESS)
            err = run_mode(ctx, kernel, state_arg, local_size, 1,
                           XWG__MODE_CALIBRATE, 2 * polls, &t2, &c2);
        if (err != CL_SUCCESS)
            return err;
        /* A kernel without XWG_DISCOVER() returns at once whatever the
         * polls: checked once, before its times could set the context's
         * calibration. */
        if (repeats == 0 && polls == 1024) {
            err = reached_discover(ctx);
            if (err < 0)
                return err;
            if (err == 0)
                return not_run(ctx, 1, local_size);
        }
        /* A millisecond of difference is well above timer noise. */
        if (t2 - t1 < 1.0 && repeats == 0) {
            polls *= 4;
            continue;
        }
        double this_ns = (t2 - t1) * 1e6 / polls;
        if (cpu_device && c2 - c1 > 0 && (c2 - c1) * 1e6 / polls < this_ns)
            this_ns = (c2 - c1) * 1e6 / polls;
        if (this_ns > 0 && (ns == 0 || this_ns < ns))
            ns = this_ns;
        repeats++;
    }
    if (ns <= 0)
        ns = 1; /* a timer that cannot see the loop: assume it is fast */
    double polls = ctx->info.discovery_window_us * 1e3 / ns;
    ctx->info.poll_ns = ns;
    ctx->info.discovery_window_polls =
        polls < 16 ? 16 : polls > 0x7fffffff ? 0x7fffffff : (cl_uint)polls;
    XWG__TRACE("calibration: %.2f ns a poll; window %u us = %u polls", ns,
               ctx->info.discovery_window_us, ctx->info.discovery_window_polls);
    return XWG_SUCCESS;
}

static const xwg__cache_entry *cache_find(const xwg_context *ctx,
                                          cl_kernel kernel, size_t local_size,
                                          cl_ulong local_mem)
{
    for (size_t i = 0; i < ctx->cache_len; i++) {
        const xwg__cache_entry *e = &ctx->cache[i];
        if (e->kernel == kernel && e->local_size == local_size &&
            e->local_mem == local_mem)
            return e;
    }
    return NULL;
}

static int cache_store(xwg_context *ctx, cl_kernel kernel,
                       const xwg_occupancy *result)
{
    xwg__cache_entry *e = (xwg__cache_entry *)cache_find(
        ctx, kernel, result->local_size, result->local_mem);
    if (e == NULL) {
        if (ctx->cache_len == ctx->cache_cap) {
            size_t cap = ctx->cache_cap ? 2 * ctx->cache_cap : 8;
            xwg__cache_entry *grown =
                realloc(ctx->cache, cap * sizeof *grown);
            if (grown == NULL)
                return XWG_ERROR_OUT_OF_HOST_MEMORY;
            ctx->cache = grown;
            ctx->cache_cap = cap;
        }
        e = &ctx->cache[ctx->cache_len++];
        /* Retained, so that the handle cannot be freed and reused for
         * another kernel while the entry exists. */
        clRetainKernel(kernel);
        e->kernel = kernel;
        e->local_size = result->local_size;
        e->local_mem = result->local_mem;
    }
    e->result = *result;
    return XWG_SUCCESS;
}

void xwg__forget_kernel(xwg_context *ctx, cl_kernel kernel)
{
    pthread_mutex_lock(&ctx->lock);
    for (size_t i = 0; i < ctx->cache_len;) {
        if (ctx->cache[i].kernel == kernel) {
            clReleaseKernel(kernel);
            ctx->cache[i] = ctx->cache[--ctx->cache_len];
        } else {
            i++;
        }
    }
    pthread_mutex_unlock(&ctx->lock);
}

/* The protocol itself, under ctx->lock. */
static int discover_locked(xwg_context *ctx, cl_kernel kernel,
                           cl_uint state_arg, size_t local_size,
                           xwg_occupancy *found)
{
    double start = now_ms();
    if (ctx->info.poll_ns == 0) {
        int err = xwg__ensure_calibrated(ctx, kernel, state_arg, local_size);
        if (err != XWG_SUCCESS)
            return err;
        start = now_ms(); /* calibration is the context's, not this kernel's */
    }
    size_t groups = first_launch_groups(ctx, local_size);
    for (;;) {
        cl_uint count = 0;
        double kernel_ms = 0;
        int err = run_mode(ctx, kernel, state_arg, local_size, groups,
                           XWG__MODE_DISCOVERY_ONLY,
                           ctx->info.discovery_window_polls, &kernel_ms, NULL);
        /* The count, the failed flag and the run count, in one read. */
        cl_uint words[XWG__W_RUNS - XWG__W_COUNT + 1];
        if (err == XWG_SUCCESS)
            err = xwg__read_state(ctx, ctx->state, XWG__W_COUNT,
                                  XWG__W_RUNS - XWG__W_COUNT + 1, words);
        if (err != XWG_SUCCESS)
            return err;
        if (words[XWG__W_RUNS - XWG__W_COUNT] == 0)
            return not_run(ctx, groups, local_size);
        count = words[0];
        if (words[XWG__W_FAILED - XWG__W_COUNT] != 0) {
            xwg__set_last_error(
                "discovery of %zu groups of %zu on %s: a spin of the "
                "protocol timed out (a group never saw another group's "
                "store)", groups, local_size, ctx->info.device_name);
            XWG__TRACE("%s", xwg_last_error());
            return XWG_ERROR_DISCOVERY_FAILED;
        }
        XWG__TRACE("discovery: %u of %zu groups of %zu (%.3f ms)", count,
                   groups, local_size, kernel_ms);
        if (count == 0 || count > groups) {
            xwg__set_last_error(
                "discovery of %zu groups of %zu on %s: %u participants, "
                "which no run of the protocol can give", groups, local_size,
                ctx->info.device_name, count);
            XWG__TRACE("%s", xwg_last_error());
            return XWG_ERROR_DISCOVERY_FAILED;
        }
        found->groups = count;
        found->groups_launched = (cl_uint)groups;
        found->kernel_ms = kernel_ms;
        /* A group that came too late proves the launch was big enough. */
        if (count < groups || 2 * groups * local_size > XWG__MAX_DISCOVERY_ITEMS)
            break;
        groups *= 2;
    }
    found->time_ms = now_ms() - start;
    found->from_cache = 0;
    return XWG_SUCCESS;
}

static int discover(xwg_context *ctx, cl_kernel kernel, size_t local_size,
                    xwg_occupancy *out, int use_cache)
{
    const char *fn = use_cache ? "xwg_discover" : "xwg_discover_uncached";
    const char *null = ctx == NULL      ? "ctx"
                       : kernel == NULL ? "kernel"
                       : out == NULL    ? "out"
                                        : NULL;
    if (null != NULL)
        return XWG__INVALID("%s: %s is NULL", fn, null);
    int err = XWG__CHECK_SIZE(fn, out, sizeof(size_t), "XWG_OCCUPANCY_INIT");
    if (err != XWG_SUCCESS)
        return err;
    cl_uint state_arg = 0;
    cl_ulong local_mem = 0;
    err = xwg__find_state_arg(kernel, &state_arg, NULL);
    if (err == XWG_SUCCESS)
        err = xwg__check_local_size(fn, ctx, kernel, local_size, &local_mem);
    if (err != XWG_SUCCESS)
        return err;

    xwg_occupancy found = XWG_OCCUPANCY_INIT;
    found.local_size = local_size;
    found.local_mem = local_mem;
    pthread_mutex_lock(&ctx->lock);
    const xwg__cache_entry *hit =
        use_cache ? cache_find(ctx, kernel, local_size, local_mem) : NULL;
    if (hit != NULL) {
        found = hit->result;
        found.from_cache = 1;
    } else {
        err = discover_locked(ctx, kernel, state_arg, local_size, &found);
        if (err == XWG_SUCCESS)
            err = cache_store(ctx, kernel, &found);
    }
    pthread_mutex_unlock(&ctx->lock);
    if (err == XWG_SUCCESS)
        xwg__copy_versioned(out, &found, sizeof found);
    return err;
}

int xwg_discover(xwg_context *ctx, cl_kernel kernel, size_t local_size,
                 xwg_occupancy *out)
{
    xwg__clear_last_error();
    return discover(ctx, kernel, local_size, out, 1);
}

int xwg_discover_uncached(xwg_context *ctx, cl_kernel kernel,
                          size_t local_size, xwg_occupancy *out)
{
    xwg__clear_last_error();
    return discover(ctx, kernel, local_size, out, 0);
}
