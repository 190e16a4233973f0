/* clcost.c (xwg-clcost) - what each OpenCL call that xwg_launch_async()
 * makes costs on the host, the mean of N calls; the enqueues of a plain
 * kernel, with and without events and a write before it; and
 * xwg_launch_async() itself (8 groups of 64, discovery skipped). A probe
 * for finding where a launch's time goes, beside xwg-launch-bench, which
 * measures whole launches:
 *   build/xwg-clcost PLATFORM-NAME          one line per call, in us
 *   build/xwg-clcost PLATFORM-NAME waits    whole launches instead (waits())
 *   build/xwg-clcost PLATFORM-NAME chains   chains of 32 launches (chains())
 *   build/xwg-clcost PLATFORM-NAME reads    a kernel and a 4-byte read,
 *                                           for kernels that differ in one
 *                                           thing each (reads())
 *   build/xwg-clcost PLATFORM-NAME delays   the same for a plain kernel
 *                                           made longer step by step
 *                                           (delays())
 *   build/xwg-clcost PLATFORM-NAME finishes ways to wait for a kernel and
 *                                           read its status (finishes())
 *   build/xwg-clcost PLATFORM-NAME carriers what else could carry a
 *                                           launch's state to its kernel,
 *                                           where the device has it, and
 *                                           what each costs the enqueue
 *                                           (carriers())
 * It prints; nothing records its output. */
#define CL_TARGET_OPENCL_VERSION 300
#include <xwg_barrier.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

#ifndef N
#define N 2000
#endif
#define TIME(label, body)                                                      \
    do {                                                                       \
        double s = now_us();                                                   \
        for (int i_ = 0; i_ < N; i_++) {                                       \
            body;                                                              \
        }                                                                      \
        printf("%-40s %8.3f us\n", label, (now_us() - s) / N);               \
    } while (0)

/* A plain kernel (no xwg) whose first work-item counts its launches in
 * buf[0]. */
static cl_kernel counting_kernel(cl_context cl, cl_device_id dev, cl_mem buf)
{
    const char *src = "__kernel void e(__global uint *p)"
                      "{ if (get_global_id(0) == 0) p[0]++; }";
    cl_int err;
    cl_program ep = clCreateProgramWithSource(cl, 1, &src, NULL, &err);
    clBuildProgram(ep, 1, &dev, "", NULL, NULL);
    cl_kernel e = clCreateKernel(ep, "e", &err);
    clSetKernelArg(e, 0, sizeof buf, &buf);
    return e;
}

/* "waits": whole launches of 1056 groups of 256 (the relaunch shape at
 * 256 on the H200), each with one way of resetting state before it and of
 * waiting for it after: what xwg_launch() pays for each of its steps.
 * Mean of N launches, three passes over the ways so that drift shows. */
static int waits(cl_context cl, cl_device_id dev, cl_command_queue q,
                 xwg_context *xc, cl_kernel xk)
{
    cl_int err;
    cl_command_queue q2 = clCreateCommandQueueWithProperties(cl, dev, NULL, &err);
    const cl_queue_properties prof[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q3 = clCreateCommandQueueWithProperties(cl, dev, prof, &err);
    cl_mem buf = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_kernel e = counting_kernel(cl, dev, buf);
    size_t g = 1056 * 256, l = 256;
    static cl_uint host[1024], word, words[129];
    const cl_uint zero = 0;
    cl_event ev, w;
#define K(evp, n, wl) clEnqueueNDRangeKernel(q, e, 1, NULL, &g, &l, n, wl, evp)
#define READ(queue, n, wl) clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, 4, &word, n, wl, NULL)
    for (int pass = 0; pass < 3; pass++) {
        printf("pass %d\n", pass);
        TIME("kernel; clFinish", { K(NULL, 0, NULL); clFinish(q); });
        TIME("kernel; read 4 B", { K(NULL, 0, NULL); READ(q, 0, NULL); });
        TIME("kernel; read 516 B", { K(NULL, 0, NULL); clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof words, words, 0, NULL, NULL); });
        TIME("kernel; clWaitForEvents", { K(&ev, 0, NULL); clWaitForEvents(1, &ev); clReleaseEvent(ev); });
        TIME("kernel; poll event status", { K(&ev, 0, NULL); clFlush(q); cl_int st; do clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL); while (st > 0); clReleaseEvent(ev); });
        TIME("kernel; clWaitForEvents; read on q2", { K(&ev, 0, NULL); clWaitForEvents(1, &ev); READ(q2, 0, NULL); clReleaseEvent(ev); });
        TIME("kernel; clWaitForEvents; 2 reads on q2", { K(&ev, 0, NULL); clWaitForEvents(1, &ev); READ(q2, 0, NULL); READ(q2, 0, NULL); clReleaseEvent(ev); });
        TIME("kernel; read on q2 after its event", { K(&ev, 0, NULL); clFlush(q); READ(q2, 1, &ev); clReleaseEvent(ev); });
        TIME("kernel; clFinish; read on q2", { K(NULL, 0, NULL); clFinish(q); READ(q2, 0, NULL); });
        TIME("kernel; read on q after its event", { K(&ev, 0, NULL); READ(q, 1, &ev); clReleaseEvent(ev); });
        TIME("write 1 KiB; kernel; read 4 B", { clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, 1024, host, 0, NULL, NULL); K(NULL, 0, NULL); READ(q, 0, NULL); });
        TIME("write 4 B; kernel; read 4 B", { clEnqueueWriteBuffer(q, buf, CL_FALSE, 4, 4, host, 0, NULL, NULL); K(NULL, 0, NULL); READ(q, 0, NULL); });
        TIME("fill 1 KiB; kernel; read 4 B", { clEnqueueFillBuffer(q, buf, &zero, 4, 1024, 1024, 0, NULL, NULL); K(NULL, 0, NULL); READ(q, 0, NULL); });
        TIME("fill 4 B; kernel; read 4 B", { clEnqueueFillBuffer(q, buf, &zero, 4, 1024, 4, 0, NULL, NULL); K(NULL, 0, NULL); READ(q, 0, NULL); });
        TIME("write 1 KiB (ev); kernel after it; read 4 B", { clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, 1024, host, 0, NULL, &w); K(NULL, 1, &w); READ(q, 0, NULL); clReleaseEvent(w); });
        TIME("write (ev); kernel (ev); wait; read on q2", { clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, 1024, host, 0, NULL, &w); K(&ev, 1, &w); clWaitForEvents(1, &ev); READ(q2, 0, NULL); clReleaseEvent(w); clReleaseEvent(ev); });
        TIME("kernel (ev); wait; read on a profiling q3", { K(&ev, 0, NULL); clWaitForEvents(1, &ev); READ(q3, 0, NULL); clReleaseEvent(ev); });
        {
            xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
            lo.groups = 1056;
            lo.skip_discovery = 1;
            TIME("xwg_launch_ex, discovery skipped", if (xwg_launch_ex(xc, q, xk, 256, &lo, NULL)) return 5);
            /* The state argument still points at the launch's buffer
             * (back in the pool, header intact, no barrier run): the xwg
             * kernel enqueued bare. */
            TIME("xwg's kernel bare; clFinish", { clEnqueueNDRangeKernel(q, xk, 1, NULL, &g, &l, 0, NULL, NULL); clFinish(q); });
            TIME("xwg's kernel bare; read 4 B", { clEnqueueNDRangeKernel(q, xk, 1, NULL, &g, &l, 0, NULL, NULL); READ(q, 0, NULL); });
            double in = 0, fin = 0;
            for (int i = 0; i < N; i++) {
                xwg_pending *pd;
                double a = now_us();
                if (xwg_launch_async(xc, q, xk, 256, &lo, &pd, NULL)) return 6;
                double b = now_us();
                if (xwg_launch_finish(pd, NULL)) return 7;
                in += b - a;
                fin += now_us() - b;
            }
            printf("%-40s %8.3f us\n", "  of which xwg_launch_async", in / N);
            printf("%-40s %8.3f us\n", "  of which xwg_launch_finish", fin / N);
        }
    }
#undef K
#undef READ
    return 0;
}

/* "chain": whole chains of 32 launches of 1056 groups of 256, each way of
 * learning that every launch of the chain ran: the status read designs
 * of a launch that keeps its state in one sub-buffer of a shared parent.
 * Mean per launch over N launches, three passes. */
#define CHAIN 32
/* xwg_launch_async() chained as in the chains above: the time in the
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

/* Device time per launch of kernel k (its arguments set) on a profiling
 * queue, launched in chains of `per`, from the first start to the last
 * end of each: per = CHAIN gives a chain's mean (10 chains), the gaps
 * between launches included; per = 1 each launch alone (500 of them),
 * how much longer one kernel runs than another, which those gaps hide. */
static double device_us(cl_context cl, cl_device_id dev, cl_kernel k,
                        int per)
{
    const cl_queue_properties prof[] = {CL_QUEUE_PROPERTIES,
                                        CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int err;
    cl_command_queue q3 =
        clCreateCommandQueueWithProperties(cl, dev, prof, &err);
    size_t g = 1056 * 256, l = 256;
    cl_event ev[CHAIN];
    const int chains = per == 1 ? 500 : 10;
    double us = 0;
    for (int c = 0; c < chains; c++) {
        for (int j = 0; j < per; j++)
            clEnqueueNDRangeKernel(q3, k, 1, NULL, &g, &l, 0, NULL, &ev[j]);
        clFinish(q3);
        cl_ulong start, end;
        clGetEventProfilingInfo(ev[0], CL_PROFILING_COMMAND_START,
                                sizeof start, &start, NULL);
        clGetEventProfilingInfo(ev[per - 1], CL_PROFILING_COMMAND_END,
                                sizeof end, &end, NULL);
        us += (end - start) / 1e3 / per;
        for (int j = 0; j < per; j++)
            clReleaseEvent(ev[j]);
    }
    clReleaseCommandQueue(q3);
    return us / chains;
}

static int chains(cl_context cl, cl_device_id dev, cl_command_queue q,
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
        cl_uint header[256] = {0};
        header[0] = 2u;          /* XWG__MODE_SKIP */
        header[3] = 2u;          /* counter barrier */
        header[4] = 1u << 20;    /* watchdog: 2^30 polls, in units of 1024 */
        cl_mem bare = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                     sizeof header, header, &err);
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

/* A kernel named `name` from `src`, built with `options` (NULL: through
 * xwg_program_build(), the embedded library and its defines), its
 * argument 0 set to `arg` where it is not NULL. NULL when the build
 * fails. */
static cl_kernel built_kernel(cl_context cl, cl_device_id dev,
                              xwg_context *xc, const char *src,
                              const char *name, const char *options,
                              cl_mem arg)
{
    cl_int err;
    cl_program p = NULL;
    if (options == NULL) {
        if (xwg_program_build(xc, src, "", &p, NULL))
            return NULL;
    } else {
        p = clCreateProgramWithSource(cl, 1, &src, NULL, &err);
        if (clBuildProgram(p, 1, &dev, options, NULL, NULL) != CL_SUCCESS) {
            clReleaseProgram(p);
            return NULL;
        }
    }
    cl_kernel k = clCreateKernel(p, name, &err);
    clReleaseProgram(p);
    if (k != NULL && arg != NULL)
        clSetKernelArg(k, 0, sizeof arg, &arg);
    return k;
}

/* "reads": whole launches of 1056 groups of 256, each a kernel and a
 * blocking 4-byte read of a plain buffer, for kernels that differ from a
 * plain one in one thing each: how it was built, what it does, what its
 * argument is. Why: after xwg's kernel such a read took longer than
 * after a plain kernel, while clFinish did not. Mean of N, three passes. */
static int reads(cl_context cl, cl_device_id dev, cl_command_queue q,
                 xwg_context *xc, cl_program xprog, cl_kernel xk)
{
    cl_int err;
    cl_mem buf = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_mem other = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_mem parent = clCreateBuffer(cl, CL_MEM_READ_WRITE, 1 << 20, NULL, &err);
    cl_buffer_region r = {1 << 18, 1 << 18};
    cl_mem sub = clCreateSubBuffer(parent, CL_MEM_READ_WRITE,
                                   CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    cl_mem pinned = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                                   4096, NULL, &err);
    char xopts[4096] = "";
    clGetProgramBuildInfo(xprog, dev, CL_PROGRAM_BUILD_OPTIONS, sizeof xopts,
                          xopts, NULL);
    const char *count_src = "__kernel void e(__global uint *p)"
                            "{ if (get_global_id(0) == 0) p[0]++; }";
    const char *atomic_src = "__kernel void e(__global uint *p)"
                             "{ if (get_global_id(0) == 0) atomic_inc(p); }";
    const char *empty_xwg_src = "__kernel void e(XWG_STATE) { }";
    const char *discover_src = "__kernel void e(XWG_STATE) { XWG_DISCOVER(); }";
    const char *state_load_src =
        "__kernel void e(XWG_STATE) { if (get_local_id(0) == 0 && "
        "xwg__load_relaxed(&xwg__state[1]) == 12345u) "
        "xwg__store_relaxed(&xwg__state[200], 1u); }";
    const char *state_store_src =
        "__kernel void e(XWG_STATE) { if (get_global_id(0) == 0) "
        "xwg__store_relaxed(&xwg__state[200], "
        "xwg__load_relaxed(&xwg__state[200]) + 1u); }";
    const char *plain_load_src =
        "__kernel void e(__global uint *p)"
        "{ if (get_local_id(0) == 0 && p[1] == 12345u) p[2] = 1u; }";
    const char *local_src =
        "__kernel void e(__global uint *p) { __local uint s[8];"
        " if (get_local_id(0) == 0) s[0] = p[1];"
        " barrier(CLK_LOCAL_MEM_FENCE);"
        " if (get_global_id(0) == 0) p[0] += s[0]; }";
    struct {
        const char *label;
        cl_kernel k;
    } kernels[] = {
        {"plain", built_kernel(cl, dev, xc, count_src, "e", "", buf)},
        {"plain, -cl-std=CL2.0",
         built_kernel(cl, dev, xc, count_src, "e", "-cl-std=CL2.0", buf)},
        {"plain, xwg's build options",
         built_kernel(cl, dev, xc, count_src, "e", xopts, buf)},
        {"plain, through xwg_program_build",
         built_kernel(cl, dev, xc, count_src, "e", NULL, buf)},
        {"atomic_inc", built_kernel(cl, dev, xc, atomic_src, "e", "", buf)},
        {"plain, on another buffer",
         built_kernel(cl, dev, xc, count_src, "e", "", other)},
        {"plain, on a sub-buffer",
         built_kernel(cl, dev, xc, count_src, "e", "", sub)},
        {"plain, on ALLOC_HOST_PTR",
         built_kernel(cl, dev, xc, count_src, "e", "", pinned)},
        {"empty, XWG_STATE, a sub-buffer",
         built_kernel(cl, dev, xc, empty_xwg_src, "e", NULL, sub)},
        {"empty, XWG_STATE, a buffer",
         built_kernel(cl, dev, xc, empty_xwg_src, "e", NULL, other)},
        {"XWG_DISCOVER() alone, skip mode",
         built_kernel(cl, dev, xc, discover_src, "e", NULL, sub)},
        {"a relaxed state load per group",
         built_kernel(cl, dev, xc, state_load_src, "e", NULL, sub)},
        {"a relaxed state increment, group 0",
         built_kernel(cl, dev, xc, state_store_src, "e", NULL, sub)},
        {"a plain load per group",
         built_kernel(cl, dev, xc, plain_load_src, "e", "", buf)},
        {"local memory and a barrier",
         built_kernel(cl, dev, xc, local_src, "e", "", buf)},
    };
    const int count = (int)(sizeof kernels / sizeof kernels[0]);
    printf("xwg's build options: %s\n", xopts);
    /* xk in skip mode with no barrier to run, on a header of its own
     * (plain buffer) and on the same header in a sub-buffer. */
    cl_uint header[256] = {0};
    header[0] = 2u;       /* XWG__MODE_SKIP */
    header[3] = 2u;       /* counter barrier */
    header[4] = 1u << 20; /* watchdog: 2^30 polls, in units of 1024 */
    cl_mem own = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                sizeof header, header, &err);
    clEnqueueWriteBuffer(q, sub, CL_TRUE, 0, sizeof header, header, 0, NULL,
                         NULL);
    /* xk's state: the header in buffers of their own and in sub-buffers,
     * of sizes from one line to a slab's (64 slots of 1056 groups'). */
    enum { STATES = 6 };
    struct {
        const char *label;
        cl_mem mem;
    } states[STATES] = {{"own state, 1 KiB", own},
                        {"sub-buffer at 256 KiB of 1 MiB", sub}};
    cl_mem big = clCreateBuffer(cl, CL_MEM_READ_WRITE, 9u << 20, NULL, &err);
    const cl_buffer_region at0 = {0, 1 << 18}, slot0 = {0, 144 << 10};
    states[2].label = "own state, 144 KiB";
    states[2].mem = clCreateBuffer(cl, CL_MEM_READ_WRITE, 144 << 10, NULL,
                                   &err);
    states[3].label = "own state, 9 MiB";
    states[3].mem = clCreateBuffer(cl, CL_MEM_READ_WRITE, 9u << 20, NULL,
                                   &err);
    states[4].label = "sub-buffer at 0 of 1 MiB";
    states[4].mem = clCreateSubBuffer(parent, CL_MEM_READ_WRITE,
                                      CL_BUFFER_CREATE_TYPE_REGION, &at0,
                                      &err);
    states[5].label = "sub-buffer at 0 of 9 MiB";
    states[5].mem = clCreateSubBuffer(big, CL_MEM_READ_WRITE,
                                      CL_BUFFER_CREATE_TYPE_REGION, &slot0,
                                      &err);
    for (int s = 2; s < STATES; s++)
        clEnqueueWriteBuffer(q, states[s].mem, CL_TRUE, 0, sizeof header,
                             header, 0, NULL, NULL);
    size_t g = 1056 * 256, l = 256;
    cl_uint word;
    for (int i = 0; i < count; i++)
        if (kernels[i].k != NULL)
            printf("device time, %-32s %8.3f us\n", kernels[i].label,
                   device_us(cl, dev, kernels[i].k, CHAIN));
    clSetKernelArg(xk, 1, sizeof(cl_mem), &own);
    printf("device time, %-32s %8.3f us\n", "xwg kernel, own state",
           device_us(cl, dev, xk, CHAIN));
    /* Each launch alone: how much longer a kernel runs, which a chain's
     * launch gaps hide. */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < count; i++)
            if (kernels[i].k != NULL)
                printf("one launch, %-33s %8.3f us\n", kernels[i].label,
                       device_us(cl, dev, kernels[i].k, 1));
        for (int s = 0; s < STATES; s++) {
            clSetKernelArg(xk, 1, sizeof(cl_mem), &states[s].mem);
            printf("one launch, xwg kernel, %-33s %8.3f us\n",
                   states[s].label, device_us(cl, dev, xk, 1));
        }
    }
    for (int pass = 0; pass < 3; pass++) {
        printf("pass %d\n", pass);
        for (int i = 0; i < count; i++) {
            char label[96];
            if (kernels[i].k == NULL) {
                printf("%-40s (did not build)\n", kernels[i].label);
                continue;
            }
            cl_kernel k = kernels[i].k;
            snprintf(label, sizeof label, "%s; clFinish", kernels[i].label);
            TIME(label, { clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL); clFinish(q); });
            snprintf(label, sizeof label, "%s; read 4 B", kernels[i].label);
            TIME(label, { clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL); clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &word, 0, NULL, NULL); });
        }
        for (int s = 0; s < STATES; s++) {
            char label[96];
            clSetKernelArg(xk, 1, sizeof(cl_mem), &states[s].mem);
            snprintf(label, sizeof label, "xwg kernel, %s; clFinish",
                     states[s].label);
            TIME(label, { clEnqueueNDRangeKernel(q, xk, 1, NULL, &g, &l, 0, NULL, NULL); clFinish(q); });
            snprintf(label, sizeof label, "xwg kernel, %s; read 4 B",
                     states[s].label);
            TIME(label, { clEnqueueNDRangeKernel(q, xk, 1, NULL, &g, &l, 0, NULL, NULL); clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &word, 0, NULL, NULL); });
        }
    }
    for (int i = 0; i < count; i++)
        if (kernels[i].k != NULL)
            clReleaseKernel(kernels[i].k);
    for (int s = 2; s < STATES; s++)
        clReleaseMemObject(states[s].mem);
    cl_mem mems[] = {own, sub, parent, big, pinned, other, buf};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++)
        clReleaseMemObject(mems[i]);
    return 0;
}

/* A plain kernel whose first work-item spins `spins` (argument 1) times
 * on a volatile word, then counts its launches in p[0] (argument 0, set
 * to buf). NULL when it does not build. */
static cl_kernel spinning_kernel(cl_context cl, cl_device_id dev, cl_mem buf)
{
    const char *src =
        "__kernel void e(volatile __global uint *p, uint spins)"
        "{ if (get_global_id(0) == 0) {"
        "    for (uint i = 0; i < spins; i++) p[1] += i;"
        "    p[0]++; } }";
    cl_int err;
    cl_program prog = clCreateProgramWithSource(cl, 1, &src, NULL, &err);
    cl_kernel k = NULL;
    if (clBuildProgram(prog, 1, &dev, "", NULL, NULL) == CL_SUCCESS)
        k = clCreateKernel(prog, "e", &err);
    clReleaseProgram(prog); /* the kernel keeps it */
    if (k != NULL)
        clSetKernelArg(k, 0, sizeof buf, &buf);
    return k;
}

/* "delays": a plain kernel of 1056 groups of 256 whose first work-item
 * first spins `spins` times on a volatile word, then clFinish, or a
 * blocking 4-byte read, for spins from 0 up: whether a read after a
 * kernel costs more once the kernel takes longer than some bound (as a
 * wait that spins for a while and then sleeps would); and the read
 * enqueued without blocking then clFinish, or after clFinish. Mean of
 * N. */
static int delays(cl_context cl, cl_device_id dev, cl_command_queue q)
{
    cl_int err;
    cl_mem buf = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_kernel k = spinning_kernel(cl, dev, buf);
    if (k == NULL)
        return 9;
    size_t g = 1056 * 256, l = 256;
    cl_uint word;
    static const cl_uint steps[] = {0, 16, 32, 64, 128, 256};
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
            char label[64];
            clSetKernelArg(k, 1, sizeof steps[i], &steps[i]);
            snprintf(label, sizeof label, "spins %u; clFinish", steps[i]);
            TIME(label, { clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL); clFinish(q); });
            snprintf(label, sizeof label, "spins %u; read 4 B", steps[i]);
            TIME(label, { clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL); clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &word, 0, NULL, NULL); });
            snprintf(label, sizeof label, "spins %u; read, clFinish", steps[i]);
            TIME(label, { clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL); clEnqueueReadBuffer(q, buf, CL_FALSE, 0, 4, &word, 0, NULL, NULL); clFinish(q); });
            snprintf(label, sizeof label, "spins %u; clFinish, read", steps[i]);
            TIME(label, { clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL); clFinish(q); clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &word, 0, NULL, NULL); });
        }
    }
    clReleaseKernel(k);
    clReleaseMemObject(buf);
    return 0;
}

/* "finishes": ways to wait for a kernel and fetch a few words after it,
 * into memory that the driver pinned (a mapped CL_MEM_ALLOC_HOST_PTR
 * buffer, as xwg's staged rows are): after one kernel of the delays()
 * kind, and after a chain of 32 of them (one rectangular read of 32
 * rows, as chain.c's). Why: a blocking read's wait grew by 8 us once the
 * kernel ran 2 us longer, and clFinish's did not. Also the enqueue of a
 * kernel with one buffer argument against one with two (xwg's kernels
 * have the state besides the user's). Mean of N, two passes. */
static int finishes(cl_context cl, cl_device_id dev, cl_command_queue q)
{
    cl_int err;
    cl_mem buf = clCreateBuffer(cl, CL_MEM_READ_WRITE, 1 << 17, NULL, &err);
    cl_mem two = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_mem parent = clCreateBuffer(cl, CL_MEM_READ_WRITE, 1 << 20, NULL, &err);
    const cl_buffer_region region18 = {1 << 18, 1 << 18};
    cl_mem sub = clCreateSubBuffer(parent, CL_MEM_READ_WRITE,
                                   CL_BUFFER_CREATE_TYPE_REGION, &region18,
                                   &err);
    cl_mem pinned = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                                   4096, NULL, &err);
    volatile cl_uint *rows = clEnqueueMapBuffer(
        q, pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 4096, 0, NULL, NULL,
        &err);
    cl_kernel k = spinning_kernel(cl, dev, buf);
    const char *src2 = "__kernel void f(__global uint *p, __global uint *s)"
                       "{ if (get_global_id(0) == 0) p[0]++; }";
    cl_program p2 = clCreateProgramWithSource(cl, 1, &src2, NULL, &err);
    clBuildProgram(p2, 1, &dev, "", NULL, NULL);
    cl_kernel k2 = clCreateKernel(p2, "f", &err);
    clReleaseProgram(p2);
    if (rows == NULL || k == NULL || k2 == NULL)
        return 10;
    clSetKernelArg(k2, 0, sizeof buf, &buf);
    clSetKernelArg(k2, 1, sizeof two, &two);
    size_t g = 1056 * 256, l = 256;
    cl_uint word, words[6], count = 0;
    cl_event ev;
    const size_t origin[3] = {0, 0, 0}, region[3] = {24, CHAIN, 1};
    clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &count, 0, NULL, NULL);
#define K() clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL)
#define PINNED(blocking, evp)                                                  \
    clEnqueueReadBuffer(q, buf, blocking, 0, 24, (cl_uint *)rows, 0, NULL, evp)
    static const cl_uint steps[] = {0, 16, 32};
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
            char label[64];
            const unsigned s = steps[i];
            clSetKernelArg(k, 1, sizeof steps[i], &steps[i]);
            clFinish(q);
            clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &count, 0, NULL, NULL);
            snprintf(label, sizeof label, "spins %u; clFinish", s);
            TIME(label, { K(); clFinish(q); });
            snprintf(label, sizeof label, "spins %u; read 4 B", s);
            TIME(label, { K(); clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &word, 0, NULL, NULL); });
            snprintf(label, sizeof label, "spins %u; read 24 B", s);
            TIME(label, { K(); clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 24, words, 0, NULL, NULL); });
            snprintf(label, sizeof label, "spins %u; read 24 B pinned", s);
            TIME(label, { K(); PINNED(CL_TRUE, NULL); });
            snprintf(label, sizeof label, "spins %u; read 4 B pinned", s);
            TIME(label, { K(); clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, (cl_uint *)rows, 0, NULL, NULL); });
            snprintf(label, sizeof label, "spins %u; map 24 B, unmap", s);
            TIME(label, { K(); cl_uint *m = clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ, 0, 24, 0, NULL, NULL, &err); word = m[0]; clEnqueueUnmapMemObject(q, buf, m, 0, NULL, NULL); });
            snprintf(label, sizeof label, "spins %u; read pinned, clFinish", s);
            TIME(label, { K(); PINNED(CL_FALSE, NULL); clFinish(q); });
            snprintf(label, sizeof label, "spins %u; read pinned (ev), wait", s);
            TIME(label, { K(); PINNED(CL_FALSE, &ev); clWaitForEvents(1, &ev); clReleaseEvent(ev); });
            snprintf(label, sizeof label, "spins %u; read pinned (ev), poll", s);
            TIME(label, { K(); PINNED(CL_FALSE, &ev); clFlush(q); cl_int st; do clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL); while (st > 0); clReleaseEvent(ev); });
            /* The count the kernel leaves, watched in the pinned row:
             * the least a wait could take (no OpenCL call says when). */
            clFinish(q);
            clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &count, 0, NULL, NULL);
            snprintf(label, sizeof label, "spins %u; read pinned, watch row", s);
            TIME(label, { K(); PINNED(CL_FALSE, NULL); clFlush(q); count++; while (rows[0] != count) { } });
            clFinish(q);
        }
        clSetKernelArg(k, 1, sizeof steps[0], &steps[0]);
        /* What xwg's kernel has that a plain one has not: a second
         * buffer argument, and a state that is a sub-buffer. */
        TIME("plain; read 4 B", { K(); clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &word, 0, NULL, NULL); });
        clSetKernelArg(k2, 1, sizeof two, &two);
        TIME("2 buffer args; read 4 B", { clEnqueueNDRangeKernel(q, k2, 1, NULL, &g, &l, 0, NULL, NULL); clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &word, 0, NULL, NULL); });
        clSetKernelArg(k2, 1, sizeof sub, &sub);
        TIME("2 buffer args, a sub-buffer; read 4 B", { clEnqueueNDRangeKernel(q, k2, 1, NULL, &g, &l, 0, NULL, NULL); clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, &word, 0, NULL, NULL); });
        TIME("2 buffer args, a sub-buffer; read it 24 B", { clEnqueueNDRangeKernel(q, k2, 1, NULL, &g, &l, 0, NULL, NULL); clEnqueueReadBuffer(q, sub, CL_TRUE, 0, 24, words, 0, NULL, NULL); });
        clSetKernelArg(k2, 1, sizeof two, &two);
        TIME("chain: kernels; clFinish", { K(); if (i_ % CHAIN == CHAIN - 1) clFinish(q); });
        TIME("chain: kernels; rect read pinned", { K(); if (i_ % CHAIN == CHAIN - 1) clEnqueueReadBufferRect(q, buf, CL_TRUE, origin, origin, region, 4096, 0, 24, 0, (cl_uint *)rows, 0, NULL, NULL); });
        TIME("chain: kernels; rect read pinned, clFinish", { K(); if (i_ % CHAIN == CHAIN - 1) { clEnqueueReadBufferRect(q, buf, CL_FALSE, origin, origin, region, 4096, 0, 24, 0, (cl_uint *)rows, 0, NULL, NULL); clFinish(q); } });
        TIME("chain: 2 buffer args; clFinish", { clEnqueueNDRangeKernel(q, k2, 1, NULL, &g, &l, 0, NULL, NULL); if (i_ % CHAIN == CHAIN - 1) clFinish(q); });
        TIME("chain: 1 buffer arg; clFinish", { K(); if (i_ % CHAIN == CHAIN - 1) clFinish(q); });
    }
#undef K
#undef PINNED
    clEnqueueUnmapMemObject(q, pinned, (void *)rows, 0, NULL, NULL);
    clFinish(q);
    clReleaseKernel(k);
    clReleaseKernel(k2);
    cl_mem mems[] = {buf, two, sub, parent, pinned};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++)
        clReleaseMemObject(mems[i]);
    return 0;
}

/* Prints the device's string `what` (CL_DEVICE_*), or "?". */
static void print_device_string(cl_device_id dev, cl_device_info what,
                                const char *label)
{
    static char text[16384];
    if (clGetDeviceInfo(dev, what, sizeof text, text, NULL) != CL_SUCCESS)
        strcpy(text, "?");
    printf("fact: %-34s %s\n", label, text);
}

/* built_kernel() under the newest OpenCL C that the device takes of 3.0
 * and 2.0 (program-scope variables and SVM need one of them; a device
 * may report 1.2 and still take either), printing which. */
static cl_kernel built_kernel_cl2(cl_context cl, cl_device_id dev,
                                  const char *src, const char *name,
                                  cl_mem arg)
{
    static const char *const stds[] = {"-cl-std=CL3.0", "-cl-std=CL2.0"};
    for (size_t i = 0; i < sizeof stds / sizeof stds[0]; i++) {
        cl_kernel k = built_kernel(cl, dev, NULL, src, name, stds[i], arg);
        if (k != NULL) {
            printf("fact: %-34s %s\n", name, stds[i]);
            return k;
        }
    }
    printf("fact: %-34s builds under neither CL3.0 nor CL2.0\n", name);
    return NULL;
}

/* "carriers": XWG_STATE is a second buffer argument, which every enqueue
 * pays for (docs/performance.md, "Launch cost"). What else could carry a
 * launch's own global memory to its kernel: a program-scope variable
 * (OpenCL 2.0, optional in 3.0), a device address passed by value
 * (cl_ext_buffer_device_address, Intel's unified shared memory), an SVM
 * pointer. Prints what the device reports of each, then the enqueue of
 * chains of 32 empty kernels of 1056 groups of 256 ended by clFinish, per
 * kernel, for each carrier the device has, beside one buffer argument
 * alone. Three passes. */
static int carriers(cl_context cl, cl_device_id dev, cl_command_queue q)
{
    print_device_string(dev, CL_DEVICE_VERSION, "CL_DEVICE_VERSION");
    print_device_string(dev, CL_DEVICE_OPENCL_C_VERSION,
                        "CL_DEVICE_OPENCL_C_VERSION");
    size_t global_bytes = 0;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE,
                    sizeof global_bytes, &global_bytes, NULL);
    printf("fact: %-34s %zu\n", "CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE",
           global_bytes);
    cl_device_svm_capabilities svm = 0;
    clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL);
    printf("fact: %-34s 0x%llx\n", "CL_DEVICE_SVM_CAPABILITIES",
           (unsigned long long)svm);
    static char ext[16384];
    if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL))
        ext[0] = 0;
    printf("fact: %-34s %s\n", "cl_ext_buffer_device_address",
           strstr(ext, "cl_ext_buffer_device_address") ? "yes" : "no");
    printf("fact: %-34s %s\n", "cl_intel_unified_shared_memory",
           strstr(ext, "cl_intel_unified_shared_memory") ? "yes" : "no");
    printf("fact: %-34s %s\n", "CL_DEVICE_EXTENSIONS", ext);

    cl_int err;
    cl_mem buf = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_mem two = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    /* Every kernel does the same: work-item 0 counts the launch, and
     * writes its carrier only on a count that never comes (so that the
     * compiler keeps the carrier, and no launch touches it). */
#define CARRIER_BODY(carrier)                                                  \
    "{ if (get_global_id(0) == 0) { p[0] += 1u; "                            \
    "if (p[0] == 0u) " carrier " = 1u; } }\n"
    const char *plain_src =
        "__kernel void one(__global uint *p)" CARRIER_BODY("p[1]")
        "__kernel void two(__global uint *p, __global uint *s)"
        CARRIER_BODY("s[1]")
        "__kernel void scalar(__global uint *p, ulong s)"
        CARRIER_BODY("p[(uint)s]")
        "__kernel void address(__global uint *p, ulong s)"
        CARRIER_BODY("((__global uint *)s)[1]")
        "__kernel void store(__global uint *p, ulong s)"
        "{ if (get_global_id(0) == 0) ((__global uint *)s)[1] = 42u; }\n";
    /* The state in a program-scope variable: one per program, so a
     * launch in flight on another queue would share it. */
    const char *global_src =
        "__global uint xwg_probe_state[64];\n"
        "__kernel void glob(__global uint *p)"
        CARRIER_BODY("xwg_probe_state[1]");
#undef CARRIER_BODY
    cl_kernel one = built_kernel(cl, dev, NULL, plain_src, "one", "", buf);
    cl_kernel second = built_kernel(cl, dev, NULL, plain_src, "two", "", buf);
    cl_kernel scalar = built_kernel(cl, dev, NULL, plain_src, "scalar", "",
                                    buf);
    cl_kernel global =
        built_kernel_cl2(cl, dev, global_src, "glob", buf);
    printf("fact: %-34s %s\n", "program-scope variable builds",
           global != NULL ? "yes" : "no");
    if (one == NULL || second == NULL || scalar == NULL)
        return 10;
    clSetKernelArg(second, 1, sizeof two, &two);
    const cl_ulong address = 1;
    clSetKernelArg(scalar, 1, sizeof address, &address);
    void *svm_state = (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)
                          ? clSVMAlloc(cl, CL_MEM_READ_WRITE, 4096, 0)
                          : NULL;
    cl_kernel svm_kernel = NULL, address_kernel = NULL;
    if (svm_state != NULL) {
        /* The SVM allocation's address passed by value, and named to the
         * runtime once per kernel (CL_KERNEL_EXEC_INFO_SVM_PTRS) instead of
         * in every enqueue's arguments. First a check that a store through
         * the address lands in the allocation. */
        const cl_ulong at = (cl_ulong)(uintptr_t)svm_state;
        cl_kernel store = built_kernel_cl2(cl, dev, plain_src, "store", buf);
        cl_uint got[2] = {0, 0};
        const size_t one_item = 1;
        int stored =
            store != NULL &&
            clSetKernelArg(store, 1, sizeof at, &at) == CL_SUCCESS &&
            clSetKernelExecInfo(store, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                                sizeof svm_state, &svm_state) == CL_SUCCESS &&
            clEnqueueNDRangeKernel(q, store, 1, NULL, &one_item, &one_item, 0,
                                   NULL, NULL) == CL_SUCCESS &&
            clEnqueueSVMMemcpy(q, CL_TRUE, got, svm_state, sizeof got, 0,
                               NULL, NULL) == CL_SUCCESS &&
            got[1] == 42u;
        printf("fact: %-34s %s\n", "store through an SVM address lands",
               stored ? "yes" : "no");
        if (store != NULL)
            clReleaseKernel(store);
        address_kernel = built_kernel_cl2(cl, dev, plain_src, "address", buf);
        if (address_kernel != NULL &&
            (clSetKernelArg(address_kernel, 1, sizeof at, &at) != CL_SUCCESS ||
             clSetKernelExecInfo(address_kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                                 sizeof svm_state, &svm_state) != CL_SUCCESS)) {
            clReleaseKernel(address_kernel);
            address_kernel = NULL;
        }
        svm_kernel = built_kernel_cl2(cl, dev, plain_src, "two", buf);
        if (svm_kernel != NULL &&
            clSetKernelArgSVMPointer(svm_kernel, 1, svm_state) != CL_SUCCESS) {
            clReleaseKernel(svm_kernel);
            svm_kernel = NULL;
        }
    }
    const struct {
        const char *label;
        cl_kernel kernel;
    } rows[] = {
        {"carrier: none (1 buffer)", one},
        {"carrier: a second buffer (XWG_STATE)", second},
        {"carrier: a ulong (a device address)", scalar},
        {"carrier: a program-scope variable", global},
        {"carrier: an SVM pointer", svm_kernel},
        {"carrier: an SVM address, by value", address_kernel},
    };
    size_t g = 1056 * 256, l = 256;
    for (int pass = 0; pass < 3; pass++) {
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
            cl_kernel k = rows[r].kernel;
            if (k == NULL)
                continue;
            clFinish(q);
            double enqueue = 0;
            TIME(rows[r].label, {
                double before = now_us();
                clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
                enqueue += now_us() - before;
                if (i_ % CHAIN == CHAIN - 1)
                    clFinish(q);
            });
            printf("%-40s %8.3f us (enqueue alone)\n", rows[r].label,
                   enqueue / N);
        }
    }
    clFinish(q);
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
        if (rows[r].kernel != NULL)
            clReleaseKernel(rows[r].kernel);
    if (svm_state != NULL)
        clSVMFree(cl, svm_state);
    clReleaseMemObject(buf);
    clReleaseMemObject(two);
    return 0;
}

int main(int argc, char **argv)
{
    cl_platform_id pl;
    cl_device_id dev;
    if (xwg_find_device(argc > 1 ? argv[1] : "", &pl, &dev)) return 1;
    cl_int err;
    cl_context cl = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(cl, dev, NULL, &err);
    xwg_context *xc;
    if (xwg_context_create(cl, dev, NULL, &xc)) return 2;
    cl_program prog;
    if (xwg_program_build(xc, "__kernel void k(uint count, XWG_STATE)\n"
                              "{ XWG_DISCOVER(); for (uint i = 0; i < count; i++) xwg_barrier(); }\n",
                          "", &prog, NULL)) return 3;
    cl_kernel k = clCreateKernel(prog, "k", &err);
    cl_uint zero = 0;
    clSetKernelArg(k, 0, sizeof zero, &zero);
    cl_mem buf = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    static cl_uint host[1024];
    cl_uint n;
    char name[64];
    cl_program p2;
    size_t bytes;
    char opts[4096];
    cl_ulong lm;
    TIME("clGetKernelInfo NUM_ARGS", clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL));
    TIME("clGetKernelArgInfo NAME (arg 1)", clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_NAME, sizeof name, name, NULL));
    TIME("clGetKernelInfo PROGRAM", clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof p2, &p2, NULL));
    TIME("clGetProgramBuildInfo OPTIONS size", clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_OPTIONS, 0, NULL, &bytes));
    TIME("clGetProgramBuildInfo OPTIONS", clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts, NULL));
    TIME("clGetKernelWorkGroupInfo LOCAL_MEM", clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL));
    TIME("clSetKernelArg", clSetKernelArg(k, 0, sizeof zero, &zero));
    clFinish(q);
    TIME("clEnqueueWriteBuffer 1 KiB nonblocking", clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, 1024, host, 0, NULL, NULL));
    clFinish(q);
    TIME("clEnqueueWriteBuffer 80 B nonblocking", clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, 80, host, 0, NULL, NULL));
    clFinish(q);
    {
        cl_kernel e = counting_kernel(cl, dev, buf);
        size_t g = 512, l = 64;
        cl_event done, ev;
        clEnqueueMarkerWithWaitList(q, 0, NULL, &done);
        clFinish(q);
        cl_command_queue_properties props;
        TIME("clGetCommandQueueInfo PROPERTIES", clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
        TIME("clRetainCommandQueue + release", { clRetainCommandQueue(q); clReleaseCommandQueue(q); });
        TIME("clEnqueueNDRangeKernel", { clEnqueueNDRangeKernel(q, e, 1, NULL, &g, &l, 0, NULL, NULL); if (i_ % 100 == 99) clFinish(q); });
        clFinish(q);
        TIME("clEnqueueNDRangeKernel, event out", { clEnqueueNDRangeKernel(q, e, 1, NULL, &g, &l, 0, NULL, &ev); clReleaseEvent(ev); if (i_ % 100 == 99) clFinish(q); });
        clFinish(q);
        TIME("clEnqueueNDRangeKernel, wait list + event", { clEnqueueNDRangeKernel(q, e, 1, NULL, &g, &l, 1, &done, &ev); clReleaseEvent(ev); if (i_ % 100 == 99) clFinish(q); });
        clFinish(q);
        TIME("write 1 KiB + kernel waiting on it (events)", { cl_event w; clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, 1024, host, 0, NULL, &w); clEnqueueNDRangeKernel(q, e, 1, NULL, &g, &l, 1, &w, &ev); clReleaseEvent(w); clReleaseEvent(ev); if (i_ % 100 == 99) clFinish(q); });
        clFinish(q);
        TIME("write 1 KiB + kernel, no events", { clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, 1024, host, 0, NULL, NULL); clEnqueueNDRangeKernel(q, e, 1, NULL, &g, &l, 0, NULL, NULL); if (i_ % 100 == 99) clFinish(q); });
        clFinish(q);
    }
    if (argc > 2 && strcmp(argv[2], "chains") == 0)
        return chains(cl, dev, q, xc, k);
    if (argc > 2 && strcmp(argv[2], "waits") == 0)
        return waits(cl, dev, q, xc, k);
    if (argc > 2 && strcmp(argv[2], "delays") == 0)
        return delays(cl, dev, q);
    if (argc > 2 && strcmp(argv[2], "finishes") == 0)
        return finishes(cl, dev, q);
    if (argc > 2 && strcmp(argv[2], "carriers") == 0)
        return carriers(cl, dev, q);
    if (argc > 2 && strcmp(argv[2], "reads") == 0)
        return reads(cl, dev, q, xc, prog, k);
    {
        double s = now_us(), in = 0;
        for (int i = 0; i < N / 10; i++) {
            xwg_pending *pd;
            xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
            lo.groups = 8;
            lo.skip_discovery = 1;
            double b = now_us();
            if (xwg_launch_async(xc, q, k, 64, &lo, &pd, NULL)) return 4;
            in += now_us() - b;
            xwg_launch_finish(pd, NULL);
        }
        printf("%-40s %8.3f us (of %.3f per launch)\n", "xwg_launch_async", in / (N / 10), (now_us() - s) / (N / 10));
    }
    return 0;
}
