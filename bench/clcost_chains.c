/*
 * clcost_chains.c - xwg-clcost's chains mode: chains of launches, and the
 * ways of learning that every launch of a chain ran.
 */
#include "clcost.h"

/* xwg_launch_async() chained as in chains() below: the time in the
 * enqueues, in the chain's first finish, and in the rest. */
static void xwg_chain_parts(xwg_context *xc, cl_command_queue q, cl_kernel xk,
                            int flush)
{
    xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
    lo.groups = 1056;
    lo.skip_discovery = 1;
    double enq = 0, first = 0, rest = 0;
    int failures = 0;
    const int chains = N / CHAIN;
    for (int c = 0; c < chains; c++) {
        xwg_pending *pd[CHAIN];
        double a = now_us();
        for (int j = 0; j < CHAIN; j++)
            if (xwg_launch_async(xc, q, xk, 256, &lo, &pd[j], NULL))
                return;
        if (flush)
            clFlush(q);
        double b = now_us();
        failures += xwg_launch_finish(pd[0], NULL) != XWG_SUCCESS;
        double d = now_us();
        for (int j = 1; j < CHAIN; j++)
            failures += xwg_launch_finish(pd[j], NULL) != XWG_SUCCESS;
        enq += b - a;
        first += d - b;
        rest += now_us() - d;
    }
    const double n = (double)chains * CHAIN;
    printf("xwg chained%s: enqueues %.3f us, first finish %.3f us, the "
           "other finishes %.3f us, %d failed\n", flush ? " (flushed)" : "",
           enq / n, first / n, rest / n, failures);
}

/* "chain": whole chains of 32 launches of 1056 groups of 256, each way of
 * learning that every launch of the chain ran: the status read designs
 * of a launch that keeps its state in one sub-buffer of a shared parent.
 * Mean per launch over N launches, three passes. */
int chains(cl_context cl, cl_device_id dev, cl_command_queue q,
           xwg_context *xc, cl_kernel xk)
{
    cl_int err;
    const size_t slot = 4096; /* bytes: a multiple of every base alignment */
    cl_mem parent = clCreateBuffer(cl, CL_MEM_READ_WRITE, slot * CHAIN, NULL,
                                   &err);
    cl_mem sub[CHAIN];
    for (int j = 0; j < CHAIN; j++) {
        cl_buffer_region r = {j * slot, slot};
        sub[j] = clCreateSubBuffer(parent, CL_MEM_READ_WRITE,
                                   CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
        if (sub[j] == NULL)
            return 8;
    }
    cl_kernel e = counting_kernel(cl, dev, sub[0]);
    size_t g = 1056 * 256, l = 256;
    static cl_uint status[CHAIN][8], word;
    cl_event ev[CHAIN];
    const size_t origin[3] = {0, 0, 0}, region[3] = {32, CHAIN, 1};
#define K(evp) clEnqueueNDRangeKernel(q, e, 1, NULL, &g, &l, 0, NULL, evp)
#define EACH(body)                                                             \
    for (int j = 0; j < CHAIN; j++) {                                          \
        body;                                                                  \
    }
    {
        /* xk bare, on a state buffer of its own in skip mode with no
         * barrier to run (count 0): the pool's buffers keep their run
         * counts. */
        cl_uint header[256];
        cl_mem bare = bare_state(cl, header, &err);
        clSetKernelArg(xk, 1, sizeof bare, &bare);
        printf("%-40s %8.3f us\n", "device time, plain kernel, chained",
               device_us(cl, dev, e, CHAIN));
        printf("%-40s %8.3f us\n", "device time, xwg kernel, chained",
               device_us(cl, dev, xk, CHAIN));
        /* The same header in every slot of 4 KiB (sub) and of 256 KiB
         * (big, cut from a parent as a slab is). */
        cl_mem big_parent = clCreateBuffer(cl, CL_MEM_READ_WRITE,
                                           (size_t)CHAIN << 18, NULL, &err);
        cl_mem big[CHAIN];
        for (int j = 0; j < CHAIN; j++) {
            cl_buffer_region r = {(size_t)j << 18, (size_t)1 << 18};
            big[j] = clCreateSubBuffer(big_parent, CL_MEM_READ_WRITE,
                                       CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
            clEnqueueWriteBuffer(q, big[j], CL_TRUE, 0, sizeof header, header,
                                 0, NULL, NULL);
            clEnqueueWriteBuffer(q, sub[j], CL_TRUE, 0, sizeof header, header,
                                 0, NULL, NULL);
        }
        for (int pass = 0; pass < 3; pass++) {
            TIME("xwg kernel bare, 4 KiB slots; clFinish", { clSetKernelArg(xk, 1, sizeof(cl_mem), &sub[i_ % CHAIN]); clEnqueueNDRangeKernel(q, xk, 1, NULL, &g, &l, 0, NULL, NULL); if (i_ % CHAIN == CHAIN - 1) clFinish(q); });
            TIME("xwg kernel bare, 256 KiB slots; clFinish", { clSetKernelArg(xk, 1, sizeof(cl_mem), &big[i_ % CHAIN]); clEnqueueNDRangeKernel(q, xk, 1, NULL, &g, &l, 0, NULL, NULL); if (i_ % CHAIN == CHAIN - 1) clFinish(q); });
            TIME("xwg kernel bare, 256 KiB slots; rect read", { clSetKernelArg(xk, 1, sizeof(cl_mem), &big[i_ % CHAIN]); clEnqueueNDRangeKernel(q, xk, 1, NULL, &g, &l, 0, NULL, NULL); if (i_ % CHAIN == CHAIN - 1) clEnqueueReadBufferRect(q, big_parent, CL_TRUE, origin, origin, region, (size_t)1 << 18, 0, 32, 0, status, 0, NULL, NULL); });
        }
        clSetKernelArg(xk, 1, sizeof bare, &bare);
        for (int j = 0; j < CHAIN; j++)
            clReleaseMemObject(big[j]);
        clReleaseMemObject(big_parent);
        for (int pass = 0; pass < 3; pass++) {
            TIME("plain kernel chained; clFinish", { K(NULL); if (i_ % CHAIN == CHAIN - 1) clFinish(q); });
            TIME("xwg kernel bare, chained; clFinish", { clEnqueueNDRangeKernel(q, xk, 1, NULL, &g, &l, 0, NULL, NULL); if (i_ % CHAIN == CHAIN - 1) clFinish(q); });
        }
        clReleaseMemObject(bare);
    }
    for (int pass = 0; pass < 3; pass++) {
        printf("pass %d (per launch, chains of %d)\n", pass, CHAIN);
        /* i_ counts launches: one chain per CHAIN of them. */
        TIME("plain: kernels; clFinish", { K(NULL); if (i_ % CHAIN == CHAIN - 1) clFinish(q); });
        TIME("kernels with events; clFinish", { K(&ev[i_ % CHAIN]); if (i_ % CHAIN == CHAIN - 1) { clFinish(q); EACH(clReleaseEvent(ev[j])); } });
        TIME("setarg sub; kernels; clFinish", { clSetKernelArg(e, 0, sizeof(cl_mem), &sub[i_ % CHAIN]); K(NULL); if (i_ % CHAIN == CHAIN - 1) clFinish(q); });
        TIME("setarg sub; kernels; one rect read", { clSetKernelArg(e, 0, sizeof(cl_mem), &sub[i_ % CHAIN]); K(NULL); if (i_ % CHAIN == CHAIN - 1) clEnqueueReadBufferRect(q, parent, CL_TRUE, origin, origin, region, slot, 0, 32, 0, status, 0, NULL, NULL); });
        TIME("setarg sub; kernels; a read each, last waits", { clSetKernelArg(e, 0, sizeof(cl_mem), &sub[i_ % CHAIN]); K(NULL); if (i_ % CHAIN == CHAIN - 1) EACH(clEnqueueReadBuffer(q, sub[j], j == CHAIN - 1, 0, 32, status[j], 0, NULL, NULL)); });
        TIME("kernels (ev); wait each; read each on q", { K(&ev[i_ % CHAIN]); if (i_ % CHAIN == CHAIN - 1) EACH(clWaitForEvents(1, &ev[j]); clEnqueueReadBuffer(q, sub[j], CL_TRUE, 0, 32, status[j], 0, NULL, NULL); clReleaseEvent(ev[j])); });
        TIME("single: kernel; blocking read", { K(NULL); clEnqueueReadBuffer(q, sub[0], CL_TRUE, 0, 4, &word, 0, NULL, NULL); });
        TIME("single: kernel (ev); blocking read; event info", { K(&ev[0]); clEnqueueReadBuffer(q, sub[0], CL_TRUE, 0, 4, &word, 0, NULL, NULL); cl_int st; clGetEventInfo(ev[0], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL); clReleaseEvent(ev[0]); });
        TIME("single: kernel (ev); read (ev); wait", { cl_event r; K(&ev[0]); clEnqueueReadBuffer(q, sub[0], CL_FALSE, 0, 4, &word, 0, NULL, &r); clWaitForEvents(1, &r); clReleaseEvent(r); clReleaseEvent(ev[0]); });
        xwg_chain_parts(xc, q, xk, 0);
        xwg_chain_parts(xc, q, xk, 1);
        TIME("single: setarg; kernel; blocking read 516 B", { clSetKernelArg(e, 0, sizeof(cl_mem), &sub[i_ % CHAIN]); K(NULL); clEnqueueReadBuffer(q, sub[i_ % CHAIN], CL_TRUE, 0, 516, status, 0, NULL, NULL); });
    }
#undef K
    EACH(clReleaseMemObject(sub[j]));
#undef EACH
    clReleaseMemObject(parent);
    clReleaseKernel(e);
    return 0;
}
