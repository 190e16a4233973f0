/*
 * clcost_kernels.c - the kernels and the state header that several modes
 * of xwg-clcost launch, and the device time of a kernel in chains
 * (declared in clcost.h).
 */
#include "clcost.h"

#include <string.h>

/* A plain kernel (no xwg) whose first work-item counts its launches in
 * buf[0]. */
cl_kernel counting_kernel(cl_context cl, cl_device_id dev, cl_mem buf)
{
    const char *src = clcost_count_source;
    cl_int err;
    cl_program ep = clCreateProgramWithSource(cl, 1, &src, NULL, &err);
    clBuildProgram(ep, 1, &dev, "", NULL, NULL);
    cl_kernel e = clCreateKernel(ep, "e", &err);
    clSetKernelArg(e, 0, sizeof buf, &buf);
    return e;
}

/* A kernel named `name` from `src`, built with `options` (NULL: through
 * xwg_program_build(), the embedded library and its defines), its
 * argument 0 set to `arg` where it is not NULL. NULL when the build
 * fails. */
cl_kernel built_kernel(cl_context cl, cl_device_id dev,
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

/* Device time per launch of kernel k (its arguments set) on a profiling
 * queue, launched in chains of `per`, from the first start to the last
 * end of each: per = CHAIN gives a chain's mean (10 chains), the gaps
 * between launches included; per = 1 each launch alone (500 of them),
 * how much longer one kernel runs than another, which those gaps hide. */
double device_us(cl_context cl, cl_device_id dev, cl_kernel k,
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

cl_mem bare_state(cl_context cl, cl_uint header[256], cl_int *err)
{
    memset(header, 0, 256 * sizeof *header);
    header[0] = 2u;       /* XWG__MODE_SKIP */
    header[3] = 2u;       /* counter barrier */
    header[4] = 1u << 20; /* watchdog: 2^30 polls, in units of 1024 */
    return clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                          256 * sizeof *header, header, err);
}
