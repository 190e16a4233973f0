/*
 * clcost.c (xwg-clcost) - what each OpenCL call that xwg_launch_async()
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
 * It prints; nothing records its output. This file holds the first (the
 * calls one by one) and chooses the mode; clcost.h lists the files of the
 * others.
 */
#include "clcost.h"

#include <string.h>

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
    if (xwg_program_build(xc, clcost_barriers_source, "", &prog, NULL))
        return 3;
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
