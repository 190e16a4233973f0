/*
 * launch.c - xwg_launch(): a kernel launched with no more groups than are
 * co-resident, its state buffer, its watchdog, and its status.
 *
 * A launch enqueues a write of the state buffer and the kernel on the
 * caller's queue, then reads the kernel's status words back. The write
 * covers the header (mode, protocol, window, barrier, watchdog) and, when
 * the buffer is new or its last launch failed, the barrier flags too (a
 * completed launch leaves them as the barriers start from: see
 * xwg_state_layout.h). A launch that skips discovery, on a buffer whose
 * last launch completed with the same header, needs no write at all
 * (state_ready). Oclgrind forgets that memory was initialised when a
 * later write covers only part of a buffer, so there every write covers
 * the whole buffer. On an in-order queue the write and the kernel follow
 * each other with no event between them; on an out-of-order queue the
 * kernel waits for the write's event.
 *
 * The status: xwg_launch() and xwg_launch_ex(), which wait at once, read
 * the status words right behind the kernel on the caller's queue, into
 * staged host memory; a launch finished later (xwg_launch_async(), then
 * xwg_launch_finish()) has them read with the other unread launches of
 * its queue (chain.c), or, where it has an event, waits for the event and
 * reads them on xwg's own queue (enqueue() says which when). Where no
 * event says that the kernel ran, the run count in its status does.
 */
#include "internal.h"
#include "pending.h"

#include <stdlib.h>
#include <string.h>

/* The status words a launch reads back, in one read (internal.h): the
 * participants (where the kernel ran discovery), the failed flag, the
 * misuse word, the split mark (the clusters whose words the next launch
 * writes again), the run count (that the kernel ran), and the grid
 * counter, whose count must be back at 0 for the next launch to start
 * from it. */
_Static_assert(XWG__STATUS_FIRST == XWG__W_COUNT &&
                   XWG__W_FAILED == XWG__W_COUNT + 1 &&
                   XWG__W_MISUSE == XWG__W_FAILED + 1 &&
                   XWG__W_SPLIT == XWG__W_MISUSE + 1 &&
                   XWG__W_RUNS == XWG__W_SPLIT + 1 &&
                   XWG__W_COUNTER == XWG__W_RUNS + 1,
               "one read of six words covers them all");

static int compiled(unsigned set, xwg_barrier_algo algo)
{
    return (set >> algo) & 1u;
}

/* The barrier of a launch that asked for none, among those its kernel
 * compiled (set: xwg__find_state_arg): the context's, else the faster of
 * counter and tree for the groups expected to take part, else the first
 * that the kernel compiled. */
static xwg_barrier_algo barrier_for(const xwg_context *ctx, unsigned set,
                                    cl_uint groups)
{
    if (ctx->info.barrier != XWG_BARRIER_DEFAULT &&
        compiled(set, ctx->info.barrier))
        return ctx->info.barrier;
    xwg_barrier_algo by_size =
        groups > XWG_TUNE_TREE_ABOVE_GROUPS_PER_CU * ctx->info.compute_units
            ? XWG_BARRIER_TREE
            : XWG_BARRIER_COUNTER;
    if (compiled(set, by_size))
        return by_size;
    for (int a = XWG_BARRIER_XF; a <= XWG_BARRIER_TREE; a++)
        if (compiled(set, (xwg_barrier_algo)a))
            return (xwg_barrier_algo)a;
    return XWG_BARRIER_COUNTER; /* unreachable: sets are never empty */
}

/* Copies the caller's options over the defaults, by the caller's size
 * (fn: the public call, for the trace). */
static int read_options(const char *fn, const xwg_launch_options *opts,
                        xwg_launch_options *out)
{
    const xwg_launch_options defaults = XWG_LAUNCH_OPTIONS_INIT;
    *out = defaults;
    if (opts == NULL)
        return XWG_SUCCESS;
    int err = XWG__CHECK_SIZE(fn, opts, sizeof(size_t),
                              "XWG_LAUNCH_OPTIONS_INIT");
    if (err != XWG_SUCCESS)
        return err;
    size_t n = opts->size < sizeof *out ? opts->size : sizeof *out;
    memcpy(out, opts, n);
    out->size = sizeof *out;
    if ((unsigned)out->barrier > XWG_BARRIER_TREE)
        return XWG__INVALID("%s: opts->barrier is %d, not an "
                            "xwg_barrier_algo",
                            fn, (int)out->barrier);
    if (out->groups != 0 && out->groups < out->min_groups)
        return XWG__INVALID("%s: opts->groups is %u, below opts->min_groups "
                            "(%u): no launch could meet both",
                            fn, out->groups, out->min_groups);
    return XWG_SUCCESS;
}

/* XWG_ERROR_TOO_FEW_GROUPS, with the groups found and required for
 * xwg_last_error() (`by`: who found them). */
static int too_few(const char *fn, const xwg_context *ctx, const char *by,
                   cl_uint found, cl_uint required)
{
    xwg__set_last_error("%s: %s %u co-resident groups on %s, fewer than "
                        "opts->min_groups (%u); a busy machine gives a CPU "
                        "device fewer: retry when it is idle, or lower "
                        "min_groups",
                        fn, by, found, ctx->info.device_name, required);
    XWG__TRACE("%s", xwg_last_error());
    return XWG_ERROR_TOO_FEW_GROUPS;
}

/* How many groups to launch: forced, or discovered (which also checks
 * the state argument and the local size, and calibrates). */
static int size_launch(const char *fn, xwg_context *ctx, cl_kernel kernel,
                       size_t local_size, const xwg_launch_options *o,
                       cl_uint *groups, cl_uint *participants)
{
    *groups = *participants = o->groups;
    if (*groups == 0 || !o->skip_discovery) {
        xwg_occupancy occ = XWG_OCCUPANCY_INIT;
        int err = xwg_discover(ctx, kernel, local_size, &occ);
        /* A count cached on a busier machine may be below what fits now. */
        if (err == XWG_SUCCESS && occ.groups < o->min_groups && occ.from_cache)
            err = xwg_discover_uncached(ctx, kernel, local_size, &occ);
        if (err != XWG_SUCCESS)
            return err;
        if (occ.groups < o->min_groups)
            return too_few(fn, ctx, "discovery found", occ.groups,
                           o->min_groups);
        if (*groups == 0)
            *groups = occ.groups;
        /* The in-kernel protocol admits no more than discovery found. */
        *participants = *groups < occ.groups ? *groups : occ.groups;
    }
    return XWG_SUCCESS;
}

/* Whether the buffer's flags are as the barriers start from for this
 * launch's groups: its last launch completed with at least as many (past
 * its own groups lie its collectives' partials, where a larger launch's
 * flags are). */
static int flags_clean(const xwg_pending *p)
{
    return p->state.clean && p->groups <= p->state.clean_groups;
}

/* Whether the state buffer is ready for this launch as its last launch
 * left it, so that the launch needs no write: that launch completed every
 * barrier and left the grid counter's count at 0 (xwg_state_layout.h)
 * with at least this launch's groups (flags_clean), its run count is
 * known, and this one skips discovery (whose words need a fresh
 * start) and has the same header (mode, protocol, window, barrier,
 * watchdog). Never on Oclgrind, which needs every buffer written whole. */
static int state_ready(const xwg_pending *p)
{
    return flags_clean(p) && p->state.runs_known && p->skip_discovery &&
           p->state.rewrite == 0 &&
           !p->ctx->full_state_writes &&
           !memcmp(p->state.header, p->header, sizeof p->state.header);
}

/* The commands of a launch: the write where the state buffer needs one,
 * and the kernel. How the launch will learn its status decides the rest:
 *   - xwg_launch_ex() (read_now) on an in-order queue: the kernel with no
 *     event, then a blocking read of the status words right behind it,
 *     into the buffer's staged host memory: one wait, and no event;
 *   - xwg_launch_async() with no event asked for, on an in-order queue:
 *     the kernel with no event, and the launch joins the queue's unread
 *     launches, whose statuses its finish reads together (chain.c);
 *   - otherwise the kernel's event (p->kernel), which the caller may have
 *     asked for; on an out-of-order queue the kernel waits for the
 *     write's event (p->setup), and xwg_launch_ex() reads the status
 *     behind the kernel's event (p->read).
 * On NVIDIA's driver an event costs about as much as the enqueue itself
 * (docs/performance.md, "Launch cost"). Where there is no event, the
 * kernel's run count (XWG__W_RUNS) says that it ran: p->runs_expected. */
static int enqueue(xwg_pending *p, cl_command_queue queue, cl_kernel kernel,
                   cl_uint state_arg, size_t local_size, int read_now,
                   int want_event)
{
    cl_command_queue_properties props = 0;
    int err = clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props,
                                    &props, NULL);
    if (err != CL_SUCCESS)
        return err;
    const int ordered = !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    if (!state_ready(p)) {
        /* A buffer whose flags are clean for this launch's groups needs
         * its header alone; any other, every word those groups use
         * (Oclgrind: the whole buffer). */
        size_t words = p->ctx->full_state_writes ? p->state.words
                       : flags_clean(p) ? XWG__STATE_WORDS
                           : XWG__STATE_WORDS_FOR((size_t)p->groups);
        if (words < p->state.rewrite)
            words = p->state.rewrite;
        p->image = calloc(words, sizeof(cl_uint)); /* flags and runs: 0 */
        if (p->image == NULL)
            return XWG_ERROR_OUT_OF_HOST_MEMORY;
        xwg__state_header(p->header, p->image); /* words >= its words */
        XWG__TRACE_LAUNCH(p->ctx,
                          "launch: the state's first %zu words written",
                          words);
        err = clEnqueueWriteBuffer(queue, p->state.mem, CL_FALSE, 0,
                                   words * sizeof(cl_uint), p->image, 0, NULL,
                                   ordered ? NULL : &p->setup);
        if (err != CL_SUCCESS)
            return err;
        memcpy(p->state.header, p->header, sizeof p->state.header);
        p->state.rewrite = 0;
        p->runs_expected = 1u;
    } else {
        p->runs_expected = p->state.runs + 1u; /* state_ready: runs_known */
    }
    err = clSetKernelArg(kernel, state_arg, sizeof(cl_mem), &p->state.mem);
    if (err != CL_SUCCESS)
        return err;
    size_t global = (size_t)p->groups * local_size;
    const int after_setup = !ordered && p->setup != NULL;
    const int no_event = ordered && (read_now || !want_event);
    p->status_first = p->skip_discovery ? XWG__W_FAILED : XWG__W_COUNT;
    err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global,
                                 &local_size, after_setup,
                                 after_setup ? &p->setup : NULL,
                                 no_event ? NULL : &p->kernel);
    if (err != CL_SUCCESS)
        return err;
    if (no_event && !read_now) {
        p->chained = 1;
        p->link.queue = queue;
        xwg__chain_add(p->ctx, p);
        return CL_SUCCESS;
    }
    if (!read_now)
        return CL_SUCCESS;
    cl_uint *staged = xwg__state_staged(p->ctx, &p->state, &err);
    if (staged == NULL)
        return err;
    const cl_uint count = XWG__STATUS_LAST - p->status_first + 1;
    if (ordered) {
        p->read_blocked = 1;
        p->read_err = clEnqueueReadBuffer(
            queue, p->state.mem, CL_TRUE, p->status_first * sizeof(cl_uint),
            count * sizeof(cl_uint), staged, 0, NULL, NULL);
        if (p->read_err != CL_SUCCESS)
            clFinish(queue); /* the kernel, before its buffer goes back */
        return CL_SUCCESS;
    }
    return clEnqueueReadBuffer(queue, p->state.mem, CL_FALSE,
                               p->status_first * sizeof(cl_uint),
                               count * sizeof(cl_uint), staged, 1, &p->kernel,
                               &p->read);
}

/* xwg_launch_async() for public call fn (xwg_launch, xwg_launch_ex or
 * xwg_launch_async), which the traces of bad arguments name. */
static int launch_async(const char *fn, xwg_context *ctx,
                        cl_command_queue queue, cl_kernel kernel,
                        size_t local_size, const xwg_launch_options *opts,
                        int read_now, xwg_pending **pending, cl_event *event)
{
    if (pending != NULL)
        *pending = NULL;
    if (event != NULL)
        *event = NULL;
    const char *null = ctx == NULL       ? "ctx"
                       : queue == NULL   ? "queue"
                       : kernel == NULL  ? "kernel"
                       : pending == NULL ? "pending"
                                         : NULL;
    if (null != NULL)
        return XWG__INVALID("%s: %s is NULL", fn, null);
    xwg_launch_options o;
    int err = read_options(fn, opts, &o);
    cl_uint state_arg = 0, groups = 0, expected = 0; /* expected: participants */
    unsigned set = 0;
    const int known = err == XWG_SUCCESS &&
                      xwg__kernel_facts_find(ctx, kernel, &state_arg, &set);
    if (err == XWG_SUCCESS && !known)
        err = xwg__find_state_arg(kernel, &state_arg, &set);
    if (err == XWG_SUCCESS && o.barrier != XWG_BARRIER_DEFAULT &&
        !compiled(set, o.barrier))
        err = XWG__INVALID("%s: opts->barrier is %s, which the kernel's "
                           "program did not compile (set 0x%x; xf only on "
                           "a context that fixes it)",
                           fn, xwg_barrier_algo_name(o.barrier), set);
    if (err == XWG_SUCCESS)
        err = xwg__check_local_size(fn, ctx, kernel, local_size, NULL);
    if (err == XWG_SUCCESS)
        err = size_launch(fn, ctx, kernel, local_size, &o, &groups,
                          &expected);
    /* Kernel-side ids are 32-bit: a larger grid would wrap them. */
    if (err == XWG_SUCCESS && (size_t)groups * local_size > 0xffffffffu)
        err = XWG__INVALID("%s: %u groups (opts->groups) of %zu "
                           "(local_size) are more work-items than the "
                           "kernel's 32-bit ids can number",
                           fn, groups, local_size);
    const size_t words = XWG__STATE_WORDS_FOR((size_t)groups);
    xwg_pending *p = NULL;
    xwg__state_buffer state;
    int have_state = 0;
    if (err == XWG_SUCCESS) {
        /* One hold of the lock for the calibration (a launch with
         * discovery skipped may come before any discovery: the watchdog
         * still needs it), a kept record and an idle state buffer. */
        pthread_mutex_lock(&ctx->lock);
        err = xwg__ensure_calibrated(ctx, kernel, state_arg, local_size);
        if (err == XWG_SUCCESS) {
            p = xwg__pending_take_locked(ctx);
            have_state = xwg__state_reuse_locked(ctx, words, queue, &state);
        }
        pthread_mutex_unlock(&ctx->lock);
    }
    if (err != XWG_SUCCESS)
        return err;
    const xwg_barrier_algo algo = o.barrier != XWG_BARRIER_DEFAULT
                                      ? o.barrier
                                      : barrier_for(ctx, set, expected);

    if (p != NULL)
        memset(p, 0, sizeof *p);
    else
        p = calloc(1, sizeof *p);
    if (p == NULL) {
        if (have_state)
            xwg__state_return(ctx, state);
        return XWG_ERROR_OUT_OF_HOST_MEMORY;
    }
    p->ctx = ctx;
    p->groups = groups;
    p->min_groups = o.min_groups;
    p->skip_discovery = o.skip_discovery;
    p->barrier = algo;
    xwg__header_words(ctx, o.skip_discovery ? XWG__MODE_SKIP : XWG__MODE_RUN,
                      ctx->info.discovery_window_polls, (cl_uint)algo,
                      xwg__watchdog_word(ctx, o.watchdog_ms), p->header);
    if (have_state)
        p->state = state;
    else
        err = xwg__slab_take(ctx, words, queue, &p->state);
    if (err == XWG_SUCCESS)
        err = enqueue(p, queue, kernel, state_arg, local_size, read_now,
                      event != NULL);
    if (err != XWG_SUCCESS) {
        /* Commands already enqueued still use the buffer: wait for them
         * before it goes back to the pool, which no longer knows what
         * they left in it. */
        clFinish(queue);
        p->state.clean = 0;
        p->state.runs_known = 0;
        xwg__pending_free(p);
        return err;
    }
    if (!known)
        xwg__kernel_facts_keep(ctx, kernel, state_arg, set);
    XWG__TRACE_LAUNCH(ctx, "launch: %u groups of %zu, barrier %s, watchdog "
                      "%u x %u polls", groups, local_size,
                      xwg_barrier_algo_name(algo), p->header[XWG__W_WATCHDOG],
                      XWG__WATCHDOG_UNIT);
    if (event != NULL) { /* then the kernel has one (enqueue) */
        clRetainEvent(p->kernel);
        *event = p->kernel;
    }
    *pending = p;
    return XWG_SUCCESS;
}

int xwg_launch_async(xwg_context *ctx, cl_command_queue queue,
                     cl_kernel kernel, size_t local_size,
                     const xwg_launch_options *opts, xwg_pending **pending,
                     cl_event *event)
{
    xwg__clear_last_error();
    return launch_async("xwg_launch_async", ctx, queue, kernel, local_size,
                        opts, 0, pending, event);
}

/* Waits for the kernel and reads its status words into status, by the
 * way enqueue() chose: from the staged memory, which a blocking read has
 * filled; through chain.c, for a launch with no event; else once the
 * kernel's event has completed, from the staged memory where a read
 * followed that event, or by a read on xwg's own queue. A kernel whose
 * event says it failed fails the launch. */
static int wait_and_read(xwg_pending *p, cl_uint status[XWG__STATUS_WORDS])
{
    const cl_uint first = p->status_first;
    const cl_uint count = XWG__STATUS_LAST - first + 1;
    if (p->read_blocked || p->chained) {
        const cl_int err =
            p->read_blocked ? p->read_err : xwg__chain_read(p->ctx, p);
        if (err != CL_SUCCESS)
            return err; /* no status to trust */
        memcpy(status,
               p->read_blocked ? p->state.staged
                               : p->link.words + (first - XWG__STATUS_FIRST),
               count * sizeof(cl_uint));
        return CL_SUCCESS;
    }
    int kernel_err = clWaitForEvents(1, p->read != NULL ? &p->read
                                                        : &p->kernel);
    cl_int kernel_status = CL_COMPLETE;
    if (kernel_err == CL_SUCCESS ||
        kernel_err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        kernel_err = clGetEventInfo(p->kernel,
                                    CL_EVENT_COMMAND_EXECUTION_STATUS,
                                    sizeof kernel_status, &kernel_status,
                                    NULL);
    if (kernel_err != CL_SUCCESS)
        return kernel_err;
    if (kernel_status < 0)
        return kernel_status; /* the kernel itself failed */
    if (p->read != NULL) {
        cl_int read_status = CL_COMPLETE;
        int err = clGetEventInfo(p->read, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                 sizeof read_status, &read_status, NULL);
        if (err != CL_SUCCESS)
            return err;
        if (read_status < 0)
            return read_status; /* the read failed: no status to trust */
        memcpy(status, p->state.staged, count * sizeof(cl_uint));
        return CL_SUCCESS;
    }
    return xwg__read_state(p->ctx, p->state.mem, first, count, status);
}

int xwg_launch_finish(xwg_pending *p, xwg_launch_info *info)
{
    xwg__clear_last_error();
    if (p == NULL)
        return XWG__INVALID("xwg_launch_finish: pending is NULL");
    /* An info too small to hold even its size is refused, as
     * xwg_launch_ex() refuses it. The launch is enqueued already, so it
     * is still waited for and freed: the handle is used up, as on every
     * other return, and nothing leaks. */
    const int bad_info =
        info != NULL ? XWG__CHECK_SIZE("xwg_launch_finish", info,
                                       sizeof(size_t), "XWG_LAUNCH_INFO_INIT")
                     : XWG_SUCCESS;
    if (bad_info != XWG_SUCCESS)
        info = NULL;
    cl_uint status[XWG__STATUS_WORDS];
    int err = wait_and_read(p, status);
    /* No event may have said that the kernel ran: its run count says. */
    const cl_uint runs =
        err == CL_SUCCESS ? status[XWG__W_RUNS - p->status_first] : 0u;
    if (err == CL_SUCCESS && runs != p->runs_expected) {
        xwg__set_last_error("xwg_launch_finish: the kernel's run count is "
                            "%u, not %u: it did not run, or did not begin "
                            "with XWG_DISCOVER()",
                            runs, p->runs_expected);
        err = XWG_ERROR_KERNEL_NOT_RUN;
    }
    p->state.runs = runs;
    p->state.runs_known = err == CL_SUCCESS;
    cl_uint participants = p->groups, failed = 0, misuse = 0;
    if (err == CL_SUCCESS) {
        if (!p->skip_discovery)
            participants = status[0];
        failed = status[XWG__W_FAILED - p->status_first];
        misuse = status[XWG__W_MISUSE - p->status_first];
    }
    xwg_launch_info result = {sizeof result, participants, p->groups,
                              failed != 0, p->barrier};
    /* Only a launch whose barriers all completed leaves the flags and the
     * counter as the barriers start from (xwg_state_layout.h). A count
     * left in the counter (groups that arrived and returned, while others
     * never arrived) would make the next launch's episodes end early. */
    const cl_uint counter = err == CL_SUCCESS
                                ? status[XWG__W_COUNTER - p->status_first]
                                : 1u;
    p->state.clean = err == CL_SUCCESS && !failed &&
                     (counter & ~(cl_uint)XWG__SENSE) == 0u;
    p->state.clean_groups = p->groups;
    /* A tree split arrive whose wait never came (the kernel returned
     * first: no wait times out, so nothing fails) leaves a count in its
     * cluster's word, which the next launch would take for an arrival. */
    const cl_uint clusters =
        err == CL_SUCCESS ? status[XWG__W_SPLIT - p->status_first] : 0u;
    if (clusters != 0u && clusters <= p->groups)
        p->state.rewrite = XWG__W_FLAGS + (size_t)clusters * XWG__LINE_WORDS;
    else if (clusters != 0u)
        p->state.clean = 0; /* not a count the kernel could give */
    const xwg_context *ctx = p->ctx;
    const cl_uint min_groups = p->min_groups;
    xwg__pending_free(p);
    if (bad_info != XWG_SUCCESS)
        return bad_info;
    if (err != CL_SUCCESS)
        return err;
    if (participants == 0 || participants > result.groups_launched)
        return XWG_ERROR_DISCOVERY_FAILED;
    if (info != NULL)
        xwg__copy_versioned(info, &result, sizeof result);
    if (misuse != 0)
        return xwg__misuse_error(misuse);
    /* The in-kernel protocol can admit fewer than discovery found. */
    if (!failed && participants < min_groups)
        return too_few("launch", ctx,
                       "the kernel's protocol admitted", participants,
                       min_groups);
    return failed ? XWG_ERROR_BARRIER_TIMEOUT : XWG_SUCCESS;
}

/* xwg_launch_ex() for public call fn (xwg_launch or xwg_launch_ex). */
static int launch_ex(const char *fn, xwg_context *ctx, cl_command_queue queue,
                     cl_kernel kernel, size_t local_size,
                     const xwg_launch_options *opts, xwg_launch_info *info)
{
    /* Before the launch: once it is enqueued, only finishing it is left. */
    if (info != NULL) {
        int err = XWG__CHECK_SIZE(fn, info, sizeof(size_t),
                                  "XWG_LAUNCH_INFO_INIT");
        if (err != XWG_SUCCESS)
            return err;
    }
    xwg_pending *p = NULL;
    int err = launch_async(fn, ctx, queue, kernel, local_size, opts, 1, &p,
                           NULL);
    if (err != XWG_SUCCESS)
        return err;
    return xwg_launch_finish(p, info);
}

int xwg_launch_ex(xwg_context *ctx, cl_command_queue queue, cl_kernel kernel,
                  size_t local_size, const xwg_launch_options *opts,
                  xwg_launch_info *info)
{
    xwg__clear_last_error();
    return launch_ex("xwg_launch_ex", ctx, queue, kernel, local_size, opts,
                     info);
}

int xwg_launch(xwg_context *ctx, cl_command_queue queue, cl_kernel kernel,
               size_t local_size, xwg_launch_info *info)
{
    xwg__clear_last_error();
    return launch_ex("xwg_launch", ctx, queue, kernel, local_size, NULL, info);
}
