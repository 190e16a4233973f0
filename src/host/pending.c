/*
 * pending.c - launch records (pending.h): kept when their launch ends, for
 * the next launch, so that a chain of launches allocates none after its
 * first round.
 */
#include "pending.h"

#include <stdlib.h>

/* Records kept for reuse, at most: a chain of this many launches,
 * finished in turn, allocates no record after its first round. */
#define XWG__SPARE_PENDINGS_MAX 64

xwg_pending *xwg__pending_take_locked(xwg_context *ctx)
{
    xwg_pending *p = ctx->spare_pendings;
    if (p != NULL) {
        ctx->spare_pendings = p->link.next;
        ctx->spare_len--;
    }
    return p;
}

void xwg__pendings_release(xwg_context *ctx)
{
    while (ctx->spare_pendings != NULL) {
        xwg_pending *p = ctx->spare_pendings;
        ctx->spare_pendings = p->link.next;
        free(p);
    }
    ctx->spare_len = 0;
}

void xwg__pending_free(xwg_pending *p)
{
    xwg_context *ctx = p->ctx;
    /* A chained launch whose status was read has left the unread list
     * already (chain.c; this thread saw it read, under the lock). */
    if (p->chained && p->link.read != XWG__READ)
        xwg__chain_remove(ctx, p);
    if (p->read)
        clReleaseEvent(p->read);
    if (p->setup)
        clReleaseEvent(p->setup);
    if (p->kernel)
        clReleaseEvent(p->kernel);
    free(p->image);
    /* The state buffer and the record back, in one hold of the lock
     * (each hold costs a launch about as much as the work under it). */
    const xwg__state_buffer state = p->state; /* p may be reused at once */
    pthread_mutex_lock(&ctx->lock);
    const int state_kept =
        state.mem == NULL || xwg__state_keep_locked(ctx, &state);
    const int kept = ctx->spare_len < XWG__SPARE_PENDINGS_MAX;
    if (kept) {
        p->link.next = ctx->spare_pendings;
        ctx->spare_pendings = p;
        ctx->spare_len++;
    }
    pthread_mutex_unlock(&ctx->lock);
    if (!state_kept)
        xwg__state_release(ctx, state);
    if (!kept)
        free(p);
}
