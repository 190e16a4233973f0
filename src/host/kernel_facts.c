/*
 * kernel_facts.c - what a launch needs to know of a kernel and cannot
 * change while the kernel exists: the index of its XWG_STATE parameter
 * and the barriers its program compiled. Each is a few OpenCL queries
 * (one per parameter name, and the program's build options, copied and
 * parsed), which a launch would otherwise repeat every time.
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
    unsigned barriers; /* xwg__kernel_barriers' set */
};

int xwg__kernel_facts_find(xwg_context *ctx, cl_kernel kernel,
                           cl_uint *state_arg, unsigned *barriers)
{
    pthread_mutex_lock(&ctx->lock);
    for (size_t i = 0; i < ctx->facts_len; i++) {
        if (ctx->facts[i].kernel == kernel) {
            *state_arg = ctx->facts[i].state_arg;
            *barriers = ctx->facts[i].barriers;
            pthread_mutex_unlock(&ctx->lock);
            return 1;
        }
    }
    pthread_mutex_unlock(&ctx->lock);
    return 0;
}

void xwg__kernel_facts_keep(xwg_context *ctx, cl_kernel kernel,
                            cl_uint state_arg, unsigned barriers)
{
    cl_uint known_arg;
    unsigned known_set;
    if (xwg__kernel_facts_find(ctx, kernel, &known_arg, &known_set))
        return;
    pthread_mutex_lock(&ctx->lock);
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
