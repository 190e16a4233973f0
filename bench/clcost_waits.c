/*
 * clcost_waits.c - xwg-clcost's modes on waiting for a kernel and reading
 * a few words after it: waits (whole launches, each way of resetting
 * state and of waiting), delays (a plain kernel made longer step by
 * step) and finishes (the ways to wait, into pinned memory, after one
 * kernel and after a chain).
 */
#include "clcost.h"

/* "waits": whole launches of 1056 groups of 256 (the relaunch shape at
 * 256 on the H200), each with one way of resetting state before it and of
 * waiting for it after: what xwg_launch() pays for each of its steps.
 * Mean of N launches, three passes over the ways so that drift shows. */
int waits(cl_context cl, cl_device_id dev, cl_command_queue q,
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

/* A plain kernel whose first work-item spins `spins` (argument 1) times
 * on a volatile word, then counts its launches in p[0] (argument 0, set
 * to buf). NULL when it does not build. */
static cl_kernel spinning_kernel(cl_context cl, cl_device_id dev, cl_mem buf)
{
    const char *src = clcost_spin_source;
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
int delays(cl_context cl, cl_device_id dev, cl_command_queue q)
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
int finishes(cl_context cl, cl_device_id dev, cl_command_queue q)
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
    const char *src2 = clcost_count_two_source;
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
