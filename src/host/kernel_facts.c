/*
 * kernel_facts.c - what a launch needs to know of a kernel and cannot
 * change while the kernel exists: the index of its XWG_STATE parameter
 * and the barriers its program compiled. Both take an OpenCL query per
 * parameter name (kernel_args.c), which a launch would otherwise repeat
 * every time.
 *
 * Kept per context, under ctx->lock, from the first launch of the kernel
 * that succeeds: the entry retains the kernel, so that its handle cannot
 * be freed and reused for another kernel while the entry exists, and the
 * context's release gives the reference back (as the discovery cache
 * does). A launch that is refused keeps nothing.
 */
#include "internal.h"

#include <stdlib.h>

struct xwg__kernel_facts {
    cl_kernel kernel; /* retained */
    cl_uint state_arg;
    unsigned barriers; /* xwg__find_state_arg's set */
};

/* The entry of kernel, or NULL; ctx->lock held. */
static xwg__kernel_facts *entry_of(xwg_context *ctx, cl_kernel kernel)
{
    for (size_t i = 0; i < ctx->facts_len; i++)
        if (ctx->facts[i].kernel == kernel)
            return &ctx->facts[i];
    return NULL;
}

int xwg__kernel_facts_find(xwg_context *ctx, cl_kernel kernel,
                           cl_uint *state_arg, unsigned *barriers)
{
    pthread_mutex_lock(&ctx->lock);
    const xwg__kernel_facts *e = entry_of(ctx, kernel);
    if (e != NULL) {
        *state_arg = e->state_arg;
        *barriers = e->barriers;
    }
    pthread_mutex_unlock(&ctx->lock);
    return e != NULL;
}

void xwg__kernel_facts_keep(xwg_context *ctx, cl_kernel kernel,
                            cl_uint state_arg, unsigned barriers)
{
    /* Looked up and added under one hold of the lock, so that two threads
     * launching the same kernel for the first time keep one entry. */
    pthread_mutex_lock(&ctx->lock);
    if (entry_of(ctx, kernel) != NULL) {
        pthread_mutex_unlock(&ctx->lock);
        return;
    }
    if (ctx->facts_len == ctx->facts_cap) {
        size_t cap = ctx->facts_cap ? 2 * ctx->facts_cap : 8;
        xwg__kernel_facts *grown = realloc(ctx->facts, cap * sizeof *grown);
        if (grown == NULL) { /* not kept: the next launch asks again */
            pthread_mutex_unlock(&ctx->lock);
            return;
        }
        ctx->facts = grown;
        ctx->facts_cap = cap;
    }
    clRetainKernel(kernel);
    ctx->facts[ctx->facts_len++] =
        (xwg__kernel_facts){kernel, state_arg, barriers};
    pthread_mutex_unlock(&ctx->lock);
}

void xwg__kernel_facts_forget(xwg_context *ctx, cl_kernel kernel)
{
    pthread_mutex_lock(&ctx->lock);
    for (size_t i = 0; i < ctx->facts_len;) {
        if (ctx->facts[i].kernel == kernel) {
            clReleaseKernel(kernel);
            ctx->facts[i] = ctx->facts[--ctx->facts_len];
        } else {
            i++;
        }
    }
    pthread_mutex_unlock(&ctx->lock);
}

void xwg__kernel_facts_release(xwg_context *ctx)
{
    for (size_t i = 0; i < ctx->facts_len; i++)
        clReleaseKernel(ctx->facts[i].kernel);
    free(ctx->facts);
    ctx->facts = NULL;
    ctx->facts_len = ctx->facts_cap = 0;
}
