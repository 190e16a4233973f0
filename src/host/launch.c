/*
 * launch.c - xwg_launch(): a kernel launched with no more groups than are
 * co-resident, and the state buffer it shares with XWG_DISCOVER().
 *
 * A launch holds the context's lock from writing the state until the
 * kernel has finished: the context has one state buffer, so launches on
 * one context run one at a time, whatever queues they use. Use one context
 * per concurrent stream of launches.
 */
#include "internal.h"

#include <string.h>

int xwg__reset_state(xwg_context *ctx, cl_command_queue queue, cl_uint mode,
                     cl_uint window_polls)
{
    cl_uint words[XWG__STATE_WORDS];
    memset(words, 0, sizeof words);
    words[XWG__W_MODE] = mode;
    words[XWG__W_PROTOCOL] = (cl_uint)ctx->info.discovery;
    words[XWG__W_WINDOW] = window_polls;
    words[XWG__W_POLL_OPEN] = 1; /* the ticket lock's poll starts open */
    return clEnqueueWriteBuffer(queue, ctx->state, CL_TRUE, 0, sizeof words,
                                words, 0, NULL, NULL);
}

int xwg__read_state_word(xwg_context *ctx, cl_command_queue queue,
                         cl_uint word, cl_uint *value)
{
    return clEnqueueReadBuffer(queue, ctx->state, CL_TRUE,
                               word * sizeof(cl_uint), sizeof(cl_uint), value,
                               0, NULL, NULL);
}

/* Enqueues the kernel over `groups` groups and waits for it. */
static int run_locked(xwg_context *ctx, cl_command_queue queue,
                      cl_kernel kernel, cl_uint state_arg, size_t local_size,
                      size_t groups, int skip_discovery, cl_uint *participants)
{
    int err = xwg__reset_state(ctx, queue,
                               skip_discovery ? XWG__MODE_SKIP : XWG__MODE_RUN,
                               ctx->info.discovery_window_polls);
    if (err != CL_SUCCESS)
        return err;
    err = clSetKernelArg(kernel, state_arg, sizeof(cl_mem), &ctx->state);
    if (err != CL_SUCCESS)
        return err;
    size_t global = groups * local_size;
    err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local_size,
                                 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return err;
    if ((err = clFinish(queue)) != CL_SUCCESS)
        return err;
    if (skip_discovery) {
        *participants = (cl_uint)groups;
        return XWG_SUCCESS;
    }
    return xwg__read_state_word(ctx, queue, XWG__W_COUNT, participants);
}

int xwg_launch_ex(xwg_context *ctx, cl_command_queue queue, cl_kernel kernel,
                  size_t local_size, const xwg_launch_options *opts,
                  xwg_launch_info *info)
{
    if (ctx == NULL || queue == NULL || kernel == NULL)
        return XWG_ERROR_INVALID_ARGUMENT;
    if (info != NULL && info->size < sizeof(size_t))
        return XWG_ERROR_INVALID_ARGUMENT;
    xwg_launch_options options = XWG_LAUNCH_OPTIONS_INIT;
    if (opts != NULL) {
        if (opts->size < sizeof(size_t))
            return XWG_ERROR_INVALID_ARGUMENT;
        size_t n = opts->size < sizeof options ? opts->size : sizeof options;
        memcpy(&options, opts, n);
    }

    size_t groups = options.groups;
    if (groups == 0 || !options.skip_discovery) {
        /* Discovery also validates the state argument and local size. */
        xwg_occupancy occ = XWG_OCCUPANCY_INIT;
        int err = xwg_discover(ctx, kernel, local_size, &occ);
        if (err != XWG_SUCCESS)
            return err;
        if (groups == 0)
            groups = occ.groups;
    }
    cl_uint state_arg = 0;
    cl_ulong local_mem = 0;
    int err = xwg__find_state_arg(kernel, &state_arg);
    if (err == XWG_SUCCESS)
        err = xwg__check_local_size(ctx, kernel, local_size, &local_mem);
    if (err != XWG_SUCCESS)
        return err;

    cl_uint participants = 0;
    pthread_mutex_lock(&ctx->lock);
    err = run_locked(ctx, queue, kernel, state_arg, local_size, groups,
                     options.skip_discovery, &participants);
    pthread_mutex_unlock(&ctx->lock);
    if (err != XWG_SUCCESS)
        return err;
    if (participants == 0 || participants > groups)
        return XWG_ERROR_DISCOVERY_FAILED;
    xwg_launch_info result = {sizeof result, participants, (cl_uint)groups};
    if (info != NULL)
        xwg__copy_versioned(info, &result, sizeof result);
    return XWG_SUCCESS;
}

int xwg_launch(xwg_context *ctx, cl_command_queue queue, cl_kernel kernel,
               size_t local_size, xwg_launch_info *info)
{
    return xwg_launch_ex(ctx, queue, kernel, local_size, NULL, info);
}
