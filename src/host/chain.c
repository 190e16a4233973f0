/*
 * chain.c - the status of launches enqueued without an event, read back
 * together.
 *
 * On an in-order queue, a launch whose caller asks for no event is
 * enqueued with none: on NVIDIA's driver an event costs about as much as
 * the enqueue itself (docs/performance.md, "Launch cost"). Its finish
 * then learns of the kernel from a read enqueued behind it on the same
 * queue, which cannot complete before the kernel has. Such a read comes
 * after everything enqueued on the queue before it, so the finish reads
 * the status words of every launch of that queue that nobody has read yet,
 * not its own alone: a chain of launches finished one after another costs
 * one wait, not one per launch. The state buffers of launches in a row
 * sit in consecutive slots of one slab (slab.c), so one rectangular read
 * fetches a run of them.
 *
 * Whether the kernel ran at all, which an event would have said, the
 * status says instead: XWG__W_RUNS, which every launch's XWG_DISCOVER()
 * advances (launch.c checks it).
 *
 * A slab serves the launches of one queue at a time (slab.c), so a read
 * of its parent never meets another queue's command on one of its
 * sub-buffers, which OpenCL leaves undefined.
 *
 * Locks: ctx->lock guards the unread list and every link's `read` and
 * result, with no OpenCL call under it. A finish takes its queue's unread
 * launches (XWG__READING), reads them outside the lock, and marks them
 * read; a finish that finds its launch taken by another thread's read
 * waits on ctx->chain_done for it. Reads on different queues never wait
 * for each other.
 */
#include "pending.h"

#include <stdlib.h>
#include <string.h>

void xwg__chain_add(xwg_context *ctx, xwg_pending *p)
{
    xwg__chain_link *link = &p->link;
    link->next = NULL;
    pthread_mutex_lock(&ctx->lock);
    if (ctx->unread_last != NULL)
        ctx->unread_last->link.next = p;
    else
        ctx->unread_first = p;
    ctx->unread_last = p;
    pthread_mutex_unlock(&ctx->lock);
}

/* Takes q, whose predecessor in the unread list is prev (NULL: q is the
 * first), out of the list; under ctx->lock. */
static void unlink_unread(xwg_context *ctx, xwg_pending *prev, xwg_pending *q)
{
    xwg_pending *next = q->link.next;
    if (prev != NULL)
        prev->link.next = next;
    else
        ctx->unread_first = next;
    if (ctx->unread_last == q)
        ctx->unread_last = prev;
}

/* Takes p out of the unread list, if it is there; under ctx->lock. */
static void remove_unread(xwg_context *ctx, xwg_pending *p)
{
    xwg_pending *prev = NULL;
    for (xwg_pending *q = ctx->unread_first; q != NULL;
         prev = q, q = q->link.next) {
        if (q == p) {
            unlink_unread(ctx, prev, q);
            return;
        }
    }
}

void xwg__chain_remove(xwg_context *ctx, xwg_pending *p)
{
    pthread_mutex_lock(&ctx->lock);
    remove_unread(ctx, p);
    pthread_mutex_unlock(&ctx->lock);
}

/* Takes every unread launch on queue out of the list, oldest first, into
 * a malloc'd array (*count of them); NULL when out of memory. Under
 * ctx->lock. */
static xwg_pending **take_unread(xwg_context *ctx, cl_command_queue queue,
                                 size_t *count)
{
    size_t n = 0;
    for (xwg_pending *q = ctx->unread_first; q != NULL;
         q = q->link.next)
        n += q->link.queue == queue;
    xwg_pending **taken = malloc((n ? n : 1) * sizeof *taken);
    *count = 0;
    if (taken != NULL) {
        xwg_pending *prev = NULL;
        for (xwg_pending *q = ctx->unread_first; q != NULL;) {
            xwg__chain_link *link = &q->link;
            xwg_pending *next = link->next;
            if (link->queue == queue) {
                taken[(*count)++] = q;
                unlink_unread(ctx, prev, q);
            } else {
                prev = q;
            }
            q = next;
        }
    }
    return taken;
}

/* Slab first, then slot: runs of consecutive slots of one slab become
 * neighbours. Buffers of their own (slab -1) come first, one read each. */
static int by_slot(const void *a, const void *b)
{
    const xwg__state_buffer *x = &(*(xwg_pending *const *)a)->state;
    const xwg__state_buffer *y = &(*(xwg_pending *const *)b)->state;
    if (x->slab != y->slab)
        return x->slab < y->slab ? -1 : 1;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

/* Sorts a batch by_slot. A chain's launches take their slots in order,
 * so a batch is nearly always sorted already: one pass says so, where
 * qsort cost a chain of 32 more than the rest of its read's
 * bookkeeping. */
static void sort_by_slot(xwg_pending **batch, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        if (by_slot(&batch[i - 1], &batch[i]) > 0) {
            qsort(batch, n, sizeof *batch, by_slot);
            return;
        }
    }
}

/* Where launch i of a batch gets its status words: its slot's row of its
 * slab's pinned rows, or, where the slab has none or the buffer is one of
 * its own, row i of `spare`. */
static cl_uint *row_of(const xwg_context *ctx, xwg_pending *const *batch,
                       size_t i, cl_uint *spare)
{
    const xwg__state_buffer *b = &batch[i]->state;
    if (b->slab >= 0 && ctx->slabs[b->slab].rows != NULL)
        return ctx->slabs[b->slab].rows + (size_t)b->slot * XWG__STATUS_WORDS;
    return spare + i * XWG__STATUS_WORDS;
}

/* Reads the status words of the n launches (sorted by_slot) into their
 * links: one read per run of consecutive slots of a slab, one per buffer
 * of its own; only the last blocks, and on an in-order queue its
 * completion is every earlier read's. */
static cl_int read_all(xwg_context *ctx, cl_command_queue queue,
                       xwg_pending **batch, size_t n)
{
    const size_t row = XWG__STATUS_WORDS * sizeof(cl_uint);
    cl_uint *spare = malloc(n * row);
    if (spare == NULL)
        return XWG_ERROR_OUT_OF_HOST_MEMORY;
    cl_int err = CL_SUCCESS;
    int reads = 0;
    for (size_t i = 0, run; i < n && err == CL_SUCCESS; i += run, reads++) {
        const xwg__state_buffer *first = &batch[i]->state;
        run = 1;
        while (first->slab >= 0 && i + run < n &&
               batch[i + run]->state.slab == first->slab &&
               batch[i + run]->state.slot == first->slot + run)
            run++;
        const cl_bool last = i + run == n;
        cl_uint *into = row_of(ctx, batch, i, spare);
        if (first->slab < 0) {
            err = clEnqueueReadBuffer(queue, first->mem, last,
                                      XWG__STATUS_FIRST * sizeof(cl_uint),
                                      row, into, 0, NULL, NULL);
            continue;
        }
        const xwg__slab *slab = &ctx->slabs[first->slab];
        const size_t origin[3] = {XWG__STATUS_FIRST * sizeof(cl_uint),
                                  first->slot, 0};
        const size_t host[3] = {0, 0, 0}, region[3] = {row, run, 1};
        err = clEnqueueReadBufferRect(queue, slab->parent, last, origin, host,
                                      region, slab->slot_bytes, 0, row, 0,
                                      into, 0, NULL, NULL);
    }
    XWG__TRACE_LAUNCH(ctx,
                      "chain: the statuses of %zu launches in %d reads: %s",
                      n, reads, xwg_status_name(err));
    /* A read that failed to enqueue leaves the earlier ones in flight:
     * wait for them before their memory goes. */
    if (err != CL_SUCCESS)
        clFinish(queue);
    for (size_t i = 0; i < n && err == CL_SUCCESS; i++)
        memcpy(batch[i]->link.words,
               row_of(ctx, batch, i, spare), row);
    free(spare);
    return err;
}

int xwg__chain_read(xwg_context *ctx, xwg_pending *p)
{
    xwg__chain_link *link = &p->link;
    pthread_mutex_lock(&ctx->lock);
    while (link->read == XWG__READING)
        pthread_cond_wait(&ctx->chain_done, &ctx->lock);
    if (link->read == XWG__READ) {
        pthread_mutex_unlock(&ctx->lock);
        return link->err;
    }
    size_t n = 0;
    xwg_pending **batch = take_unread(ctx, link->queue, &n);
    if (batch == NULL) { /* out of memory: p alone, with no status */
        remove_unread(ctx, p);
        link->read = XWG__READ;
        link->err = XWG_ERROR_OUT_OF_HOST_MEMORY;
        pthread_mutex_unlock(&ctx->lock);
        clFinish(link->queue); /* the kernel, before its buffer goes back */
        return link->err;
    }
    for (size_t i = 0; i < n; i++)
        batch[i]->link.read = XWG__READING;
    pthread_mutex_unlock(&ctx->lock);

    sort_by_slot(batch, n);
    cl_int err = read_all(ctx, link->queue, batch, n);
    if (err != CL_SUCCESS)
        clFinish(link->queue); /* every kernel, before its buffer goes back */

    pthread_mutex_lock(&ctx->lock);
    for (size_t i = 0; i < n; i++) {
        batch[i]->link.err = err;
        batch[i]->link.read = XWG__READ;
    }
    pthread_cond_broadcast(&ctx->chain_done);
    pthread_mutex_unlock(&ctx->lock);
    free(batch);
    return link->err;
}
