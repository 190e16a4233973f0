/*
 * state.c - the state buffers that XWG_STATE points to: their header
 * words (the watchdog's among them), a pool of buffers for launches, and
 * reading words back.
 *
 * Each launch in flight owns one buffer, so two launches in flight never
 * share state. Most are cut from slabs (slab.c), which keep them while
 * idle; the context's pool keeps idle buffers of their own. Discovery
 * uses the context's own buffer under the context's lock.
 */
#include "internal.h"

#include <string.h>

/* The watchdog a launch gets where it asks for none (xwg_launch_options),
 * and the one discovery's protocol always gets. */
#define XWG__WATCHDOG_MS_DEFAULT 1000u

void xwg__header_words(const xwg_context *ctx, cl_uint mode,
                       cl_uint window_polls, cl_uint barrier,
                       cl_uint watchdog_word,
                       cl_uint words[XWG__HEADER_WORDS])
{
    words[XWG__W_MODE] = mode;
    words[XWG__W_PROTOCOL] = (cl_uint)ctx->info.discovery;
    words[XWG__W_WINDOW] = window_polls;
    words[XWG__W_BARRIER_ALGO] = barrier;
    words[XWG__W_WATCHDOG] = watchdog_word;
}

cl_uint xwg__watchdog_word(const xwg_context *ctx, cl_uint ms)
{
    double polls = (ms ? ms : XWG__WATCHDOG_MS_DEFAULT) * 1e6 /
                   ctx->info.poll_ns;
    /* Rounded up: a wait takes at least the polls asked for. Their time
     * is the calibrated loop's, which a wait's own loop matches only
     * roughly (docs/host-api.md, watchdog_ms). */
    double units = polls / XWG__WATCHDOG_UNIT;
    if (units > 0xffffffffu)
        return 0xffffffffu;
    cl_uint whole = (cl_uint)units;
    return whole < units || whole == 0 ? whole + 1u : whole;
}

void xwg__state_header(const cl_uint words[XWG__HEADER_WORDS],
                       cl_uint header[XWG__STATE_WORDS])
{
    memset(header, 0, XWG__STATE_WORDS * sizeof(cl_uint));
    memcpy(header, words, XWG__HEADER_WORDS * sizeof(cl_uint));
    header[XWG__W_POLL_OPEN] = 1; /* the ticket lock's poll starts open */
}

int xwg__read_state(const xwg_context *ctx, cl_mem state, cl_uint first,
                    cl_uint count, cl_uint *values)
{
    return clEnqueueReadBuffer(ctx->copy_queue, state, CL_TRUE,
                               first * sizeof(cl_uint), count * sizeof(cl_uint),
                               values, 0, NULL, NULL);
}

int xwg__state_reuse_locked(xwg_context *ctx, size_t words,
                            cl_command_queue queue, xwg__state_buffer *out)
{
    /* Of the idle buffers that fit, the lowest slot of the first slab
     * that may serve queue, else the first buffer of its own: a chain of
     * launches then takes consecutive slots, whose statuses one read
     * fetches (chain.c). */
    if (xwg__slab_reuse(ctx, words, queue, out))
        return 1;
    for (size_t i = 0; i < ctx->pool_len; i++) {
        if (ctx->pool[i].words >= words) {
            *out = ctx->pool[i];
            ctx->pool[i] = ctx->pool[--ctx->pool_len];
            return 1;
        }
    }
    return 0;
}

cl_uint *xwg__state_staged(xwg_context *ctx, xwg__state_buffer *buf,
                           int *err)
{
    *err = CL_SUCCESS;
    if (buf->staged != NULL)
        return buf->staged;
    const size_t bytes = XWG__STATE_WORDS * sizeof(cl_uint);
    buf->staging = clCreateBuffer(ctx->cl, CL_MEM_ALLOC_HOST_PTR, bytes, NULL,
                                  err);
    if (buf->staging == NULL)
        return NULL;
    buf->staged = clEnqueueMapBuffer(ctx->copy_queue, buf->staging, CL_TRUE,
                                     CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                     NULL, NULL, err);
    if (buf->staged == NULL) {
        clReleaseMemObject(buf->staging);
        buf->staging = NULL;
    }
    return buf->staged;
}

void xwg__state_release(xwg_context *ctx, xwg__state_buffer buf)
{
    if (buf.staging != NULL) {
        clEnqueueUnmapMemObject(ctx->copy_queue, buf.staging, buf.staged, 0,
                                NULL, NULL);
        clReleaseMemObject(buf.staging);
    }
    if (buf.mem != NULL) {
        clReleaseMemObject(buf.mem);
        xwg__slab_give_back(ctx, &buf);
    }
}

int xwg__state_keep_locked(xwg_context *ctx, const xwg__state_buffer *buf)
{
    if (buf->slab >= 0) {
        xwg__slab_keep(ctx, buf);
        return 1;
    }
    if (ctx->pool_len == XWG__POOL_MAX)
        return 0;
    ctx->pool[ctx->pool_len++] = *buf;
    return 1;
}

void xwg__state_return(xwg_context *ctx, xwg__state_buffer buf)
{
    pthread_mutex_lock(&ctx->lock);
    const int kept = xwg__state_keep_locked(ctx, &buf);
    pthread_mutex_unlock(&ctx->lock);
    if (!kept)
        xwg__state_release(ctx, buf);
}
