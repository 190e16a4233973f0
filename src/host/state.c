/*
 * state.c - the state buffers that XWG_STATE points to: their header
 * words, a pool of buffers for launches, and reading words back.
 *
 * Each launch in flight owns one buffer from the context's pool, so two
 * launches in flight on different queues never share state. Discovery
 * uses the context's own buffer under the context's lock.
 */
#include "internal.h"

#include <string.h>

void xwg__state_header(const xwg_context *ctx, cl_uint mode,
                       cl_uint window_polls, cl_uint barrier,
                       cl_uint watchdog_polls,
                       cl_uint header[XWG__STATE_WORDS])
{
    memset(header, 0, XWG__STATE_WORDS * sizeof(cl_uint));
    header[XWG__W_MODE] = mode;
    header[XWG__W_PROTOCOL] = (cl_uint)ctx->info.discovery;
    header[XWG__W_WINDOW] = window_polls;
    header[XWG__W_BARRIER_ALGO] = barrier;
    header[XWG__W_WATCHDOG] = watchdog_polls;
    header[XWG__W_POLL_OPEN] = 1; /* the ticket lock's poll starts open */
}

int xwg__read_state(const xwg_context *ctx, cl_mem state, cl_uint first,
                    cl_uint count, cl_uint *values)
{
    return clEnqueueReadBuffer(ctx->copy_queue, state, CL_TRUE,
                               first * sizeof(cl_uint), count * sizeof(cl_uint),
                               values, 0, NULL, NULL);
}

int xwg__state_acquire(xwg_context *ctx, size_t words, xwg__state_buffer *out)
{
    pthread_mutex_lock(&ctx->lock);
    for (size_t i = 0; i < ctx->pool_len; i++) {
        if (ctx->pool[i].words >= words) {
            *out = ctx->pool[i];
            ctx->pool[i] = ctx->pool[--ctx->pool_len];
            pthread_mutex_unlock(&ctx->lock);
            return XWG_SUCCESS;
        }
    }
    pthread_mutex_unlock(&ctx->lock);
    int err;
    out->words = words;
    out->clean = 0;
    out->mem = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE,
                              words * sizeof(cl_uint), NULL, &err);
    return out->mem != NULL ? XWG_SUCCESS : err;
}

void xwg__state_return(xwg_context *ctx, xwg__state_buffer buf)
{
    pthread_mutex_lock(&ctx->lock);
    if (ctx->pool_len < XWG__POOL_MAX) {
        ctx->pool[ctx->pool_len++] = buf;
        buf.mem = NULL;
    }
    pthread_mutex_unlock(&ctx->lock);
    if (buf.mem != NULL)
        clReleaseMemObject(buf.mem);
}
