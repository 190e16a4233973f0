/*
 * pending.h - the record of a launch in flight (xwg_pending), private to
 * launch.c, which fills it, and pending.c, which keeps and ends it. Other
 * files reach its parts through internal.h's accessors.
 */
#ifndef XWG_PENDING_H
#define XWG_PENDING_H

#include "internal.h"

struct xwg_pending {
    xwg_context *ctx;
    xwg__state_buffer state;
    cl_event setup;  /* the write of the state (out-of-order queues only) */
    cl_event kernel; /* NULL where the launch has no event (chained) */
    cl_event read; /* the status read on the launch's queue, if any */
    /* Where the status read blocked instead (xwg_launch_ex() on an
     * in-order queue): 1 and its result, the status then in
     * state.staged. */
    int read_blocked;
    cl_int read_err;
    /* A launch with no event (xwg_launch_async() on an in-order queue,
     * no event asked for): its status comes through chain.c. */
    int chained;
    xwg__chain_link link;
    cl_uint runs_expected; /* XWG__W_RUNS once the kernel has run */
    cl_uint header[XWG__HEADER_WORDS];
    cl_uint *image; /* what the write copies: must outlive it */
    cl_uint status_first; /* the first status word read back */
    cl_uint groups;
    int skip_discovery;
    xwg_barrier_algo barrier;
};

/* Under ctx->lock: a finished launch's record, not yet zeroed, or NULL
 * where none is kept. */
xwg_pending *xwg__pending_take_locked(xwg_context *ctx);

/* Ends a launch's record: its events and state buffer go back, and the
 * record is kept for the next launch (freed where enough are kept). */
void xwg__pending_free(xwg_pending *p);

#endif
