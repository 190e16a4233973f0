/*
 * pending.h - the record of a launch in flight (xwg_pending), private to
 * the three files that use its parts: launch.c, which fills it, chain.c,
 * which reads the status of a chain of them, and pending.c, which keeps
 * and ends it.
 */
#ifndef XWG_PENDING_H
#define XWG_PENDING_H

#include "internal.h"

/* Where a launch enqueued without an event stands in its chain (chain.c):
 * in the unread list, taken by a finish's read, or read. */
enum { XWG__UNREAD, XWG__READING, XWG__READ };
typedef struct xwg__chain_link {
    /* Not retained: a retain and a release cost NVIDIA's driver about
     * 2 us a launch, and the caller keeps the queue until the finish
     * (include/xwg_barrier.h). */
    cl_command_queue queue;
    xwg_pending *next;      /* in the unread list */
    int read; /* XWG__UNREAD, XWG__READING (taken by a read), XWG__READ */
    cl_int err;
    cl_uint words[XWG__STATUS_WORDS]; /* [XWG__STATUS_FIRST, _LAST] */
} xwg__chain_link;

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
    cl_uint min_groups; /* xwg_launch_options.min_groups */
    int skip_discovery;
    xwg_barrier_algo barrier;
};

/* Under ctx->lock: a finished launch's record, not yet zeroed, or NULL
 * where none is kept. */
xwg_pending *xwg__pending_take_locked(xwg_context *ctx);

/* Ends a launch's record: its events and state buffer go back, and the
 * record is kept for the next launch (freed where enough are kept). */
void xwg__pending_free(xwg_pending *p);

/* chain.c: the status of launches enqueued without an event on an
 * in-order queue. A launch joins the unread list when enqueued; its
 * finish reads the status words of every unread launch on its queue in
 * as few reads as their slots allow, and waits once. */
void xwg__chain_add(xwg_context *ctx, xwg_pending *p);
int xwg__chain_read(xwg_context *ctx, xwg_pending *p);
/* Takes p out of the unread list, if it is there (before it is freed). */
void xwg__chain_remove(xwg_context *ctx, xwg_pending *p);

#endif
