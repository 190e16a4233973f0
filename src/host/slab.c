/*
 * slab.c - launch state buffers cut from shared parents, so that the
 * status words of many launches can be read back in one read.
 *
 * A slab is one buffer of XWG__SLAB_SLOTS slots of equal size; a launch
 * state buffer is a sub-buffer over one slot. A chain of launches on one
 * queue takes the lowest free slots, so their status words lie one slot
 * apart in one parent, and one rectangular read fetches them all
 * (chain.c). While any slot of a slab serves a launch in flight, the
 * slab serves launches of that launch's queue alone: OpenCL leaves a read
 * of the parent undefined while another command writes one of its
 * sub-buffers, and only commands of one in-order queue are ordered with
 * the read. Sub-buffer origins must be multiples of the device's base
 * address alignment: every slot's size is. Slabs live until the context
 * is released, and the pool keeps their sub-buffers.
 */
#include "internal.h"

#include <string.h>

/* Slots start on 4 KiB, a multiple of every base alignment we know of
 * (CL_DEVICE_MEM_BASE_ADDR_ALIGN: 4096 bits at most on the H200, PoCL
 * and rusticl); larger alignments are asked for. */
#define XWG__SLOT_ALIGN_BYTES 4096u

static size_t slot_bytes_for(const xwg_context *ctx, size_t words)
{
    cl_uint align_bits = 0;
    clGetDeviceInfo(ctx->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                    sizeof align_bits, &align_bits, NULL);
    size_t align = align_bits / 8 > XWG__SLOT_ALIGN_BYTES
                       ? align_bits / 8
                       : XWG__SLOT_ALIGN_BYTES;
    /* Rounded up to a power of two, so that launches of nearby sizes
     * share a slab. */
    size_t bytes = align;
    while (bytes < words * sizeof(cl_uint))
        bytes *= 2;
    return bytes;
}

/* Whether slab s may serve a launch on queue: none of its slots serves a
 * launch in flight, or those that do serve launches on queue. */
static int may_serve(const xwg__slab *s, cl_command_queue queue)
{
    return s->busy == 0 || s->owner == queue;
}

/* The slots of s whose buffers are kept idle: made, and serving no
 * launch in flight. */
static cl_ulong idle_slots(const xwg__slab *s)
{
    return s->used & ~s->busy;
}

/* Marks buf, a slab's, as serving a launch on queue. Under ctx->lock. */
static void claim(xwg_context *ctx, const xwg__state_buffer *buf,
                  cl_command_queue queue)
{
    xwg__slab *s = &ctx->slabs[buf->slab];
    s->busy |= (cl_ulong)1 << buf->slot;
    s->owner = queue;
}

int xwg__slab_reuse(xwg_context *ctx, size_t words, cl_command_queue queue,
                    xwg__state_buffer *out)
{
    for (size_t i = 0; i < ctx->slabs_len; i++) {
        const xwg__slab *s = &ctx->slabs[i];
        const cl_ulong idle = idle_slots(s);
        if (idle == 0 || s->slot_words < words || !may_serve(s, queue))
            continue;
        *out = s->idle[__builtin_ctzll(idle)]; /* the lowest idle slot */
        claim(ctx, out, queue);
        return 1;
    }
    return 0;
}

void xwg__slab_keep(xwg_context *ctx, const xwg__state_buffer *buf)
{
    xwg__slab *s = &ctx->slabs[buf->slab];
    s->idle[buf->slot] = *buf;
    s->busy &= ~((cl_ulong)1 << buf->slot); /* its launch has ended */
}

/* The slab's pinned status rows (xwg__slab.rows), where the driver makes
 * them; else none, and chain reads use malloc'd rows. */
static void pin_rows(xwg_context *ctx, xwg__slab *s)
{
    const size_t bytes =
        (size_t)XWG__SLAB_SLOTS * XWG__STATUS_WORDS * sizeof(cl_uint);
    cl_int err;
    s->rows_buffer =
        clCreateBuffer(ctx->cl, CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
    if (s->rows_buffer != NULL)
        s->rows = clEnqueueMapBuffer(ctx->copy_queue, s->rows_buffer, CL_TRUE,
                                     CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                     NULL, NULL, &err);
    if (s->rows == NULL && s->rows_buffer != NULL) {
        clReleaseMemObject(s->rows_buffer);
        s->rows_buffer = NULL;
    }
    XWG__TRACE("slab %zu: pinned status rows: %s", ctx->slabs_len,
               xwg_status_name(err));
}

/* The slab, under ctx->lock, with a free slot of at least `words` words
 * that may serve a launch on queue: the one with the smallest slots, else
 * a new one; -1 where none can be had (a slab that could not be made is
 * not asked for again). */
static int slab_with_room(xwg_context *ctx, size_t words,
                          cl_command_queue queue)
{
    int best = -1;
    for (size_t i = 0; i < ctx->slabs_len; i++) {
        const xwg__slab *s = &ctx->slabs[i];
        const cl_ulong all = ((cl_ulong)1 << XWG__SLAB_SLOTS) - 1u;
        if (s->slot_words >= words && (s->used & all) != all &&
            may_serve(s, queue) &&
            (best < 0 || s->slot_words < ctx->slabs[best].slot_words))
            best = (int)i;
    }
    if (best >= 0 || ctx->slabs_len == XWG__SLABS_MAX || ctx->slabs_refused)
        return best;
    xwg__slab *s = &ctx->slabs[ctx->slabs_len];
    memset(s, 0, sizeof *s);
    s->slot_bytes = slot_bytes_for(ctx, words);
    s->slot_words = s->slot_bytes / sizeof(cl_uint);
    cl_int err;
    s->parent = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE,
                               s->slot_bytes * XWG__SLAB_SLOTS, NULL, &err);
    XWG__TRACE("slab %zu: %d slots of %zu bytes: %s", ctx->slabs_len,
               XWG__SLAB_SLOTS, s->slot_bytes, xwg_status_name(err));
    if (s->parent == NULL) {
        ctx->slabs_refused = 1;
        return -1;
    }
    pin_rows(ctx, s);
    return (int)ctx->slabs_len++;
}

int xwg__slab_take(xwg_context *ctx, size_t words, cl_command_queue queue,
                   xwg__state_buffer *out)
{
    memset(out, 0, sizeof *out);
    out->slab = -1;
    pthread_mutex_lock(&ctx->lock);
    const int i = slab_with_room(ctx, words, queue);
    unsigned slot = 0;
    if (i >= 0) {
        xwg__slab *s = &ctx->slabs[i];
        while ((s->used >> slot) & 1u)
            slot++;
        cl_buffer_region region = {slot * s->slot_bytes, s->slot_bytes};
        cl_int err;
        out->mem = clCreateSubBuffer(s->parent, CL_MEM_READ_WRITE,
                                     CL_BUFFER_CREATE_TYPE_REGION, &region,
                                     &err);
        if (out->mem == NULL)
            XWG__TRACE("slab %d: slot %u: no sub-buffer: %s", i, slot,
                       xwg_status_name(err));
        if (out->mem != NULL) {
            s->used |= (cl_ulong)1 << slot;
            out->slab = i;
            out->slot = slot;
            out->words = s->slot_words;
            claim(ctx, out, queue);
        }
    }
    pthread_mutex_unlock(&ctx->lock);
    if (out->mem != NULL)
        return XWG_SUCCESS;
    /* No slab: a buffer of its own, whose status is read alone. */
    cl_int err;
    out->words = words;
    out->mem = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE,
                              words * sizeof(cl_uint), NULL, &err);
    return out->mem != NULL ? XWG_SUCCESS : err;
}

void xwg__slab_give_back(xwg_context *ctx, const xwg__state_buffer *buf)
{
    if (buf->slab < 0)
        return;
    pthread_mutex_lock(&ctx->lock);
    ctx->slabs[buf->slab].used &= ~((cl_ulong)1 << buf->slot);
    pthread_mutex_unlock(&ctx->lock);
}

void xwg__slabs_release(xwg_context *ctx)
{
    for (size_t i = 0; i < ctx->slabs_len; i++) {
        xwg__slab *s = &ctx->slabs[i];
        /* The idle slots' buffers, which the slab keeps (a busy slot's
         * is its launch's: every launch has ended by the caller's
         * promise, and a launch left unfinished keeps its own). */
        const cl_ulong idle = idle_slots(s);
        for (unsigned slot = 0; slot < XWG__SLAB_SLOTS; slot++)
            if ((idle >> slot) & 1u)
                xwg__state_release(ctx, s->idle[slot]);
        if (s->rows_buffer != NULL) {
            clEnqueueUnmapMemObject(ctx->copy_queue, s->rows_buffer, s->rows,
                                    0, NULL, NULL);
            clReleaseMemObject(s->rows_buffer);
        }
        clReleaseMemObject(s->parent);
    }
    ctx->slabs_len = 0;
}
