/* probe2.c - what a second kernel argument costs NVIDIA's enqueue: none,
 * a cl_mem, a sub-buffer, an SVM pointer (coarse grain), a scalar.
 * Scratch probe for issue 19 (not part of the product). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}
#define CK(x)                                                                  \
    do {                                                                       \
        cl_int e_ = (x);                                                       \
        if (e_ != CL_SUCCESS) {                                                \
            printf("%s: %d (line %d)\n", #x, e_, __LINE__);                    \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static const char *src =
    "__kernel void one(__global uint *p)"
    "{ if (get_global_id(0) == 0) p[0] += 1; }\n"
    "__kernel void two(__global uint *p, __global uint *q)"
    "{ if (get_global_id(0) == 0) { p[0] += 1; q[1] += 1; } }\n"
    "__kernel void scalar(__global uint *p, ulong q)"
    "{ if (get_global_id(0) == 0) p[0] += (uint)q; }\n";

int main(int argc, char **argv)
{
    const char *want = argc > 1 ? argv[1] : "NVIDIA";
    cl_platform_id plats[8];
    cl_uint np;
    CK(clGetPlatformIDs(8, plats, &np));
    cl_platform_id plat = NULL;
    for (cl_uint i = 0; i < np; i++) {
        char name[256];
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strstr(name, want))
            plat = plats[i];
    }
    if (!plat)
        return printf("no platform %s\n", want), 1;
    cl_device_id dev;
    CK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    cl_device_svm_capabilities svm = 0;
    clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL);
    cl_int err;
    cl_context cx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(cx, dev, NULL, &err);
    CK(err);
    cl_program pr = clCreateProgramWithSource(cx, 1, &src, NULL, &err);
    CK(clBuildProgram(pr, 1, &dev, "-cl-std=CL2.0", NULL, NULL));
    cl_mem a = clCreateBuffer(cx, CL_MEM_READ_WRITE, 1 << 16, NULL, &err);
    cl_mem b = clCreateBuffer(cx, CL_MEM_READ_WRITE, 1 << 16, NULL, &err);
    const cl_buffer_region region = {4096, 4096};
    cl_mem sub = clCreateSubBuffer(b, CL_MEM_READ_WRITE,
                                   CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CK(err);
    void *s = (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)
                  ? clSVMAlloc(cx, CL_MEM_READ_WRITE, 1 << 16, 0) : NULL;
    cl_ulong v = 1;
    enum { K = 5 };
    const char *names[K] = {"1 cl_mem", "2 cl_mem", "cl_mem + sub-buffer",
                            "cl_mem + svm pointer", "cl_mem + ulong"};
    cl_kernel ks[K];
    ks[0] = clCreateKernel(pr, "one", &err);
    CK(clSetKernelArg(ks[0], 0, sizeof a, &a));
    ks[1] = clCreateKernel(pr, "two", &err);
    CK(clSetKernelArg(ks[1], 0, sizeof a, &a));
    CK(clSetKernelArg(ks[1], 1, sizeof b, &b));
    ks[2] = clCreateKernel(pr, "two", &err);
    CK(clSetKernelArg(ks[2], 0, sizeof a, &a));
    CK(clSetKernelArg(ks[2], 1, sizeof sub, &sub));
    ks[3] = clCreateKernel(pr, "two", &err);
    CK(clSetKernelArg(ks[3], 0, sizeof a, &a));
    if (s)
        CK(clSetKernelArgSVMPointer(ks[3], 1, s));
    ks[4] = clCreateKernel(pr, "scalar", &err);
    CK(clSetKernelArg(ks[4], 0, sizeof a, &a));
    CK(clSetKernelArg(ks[4], 1, sizeof v, &v));
    printf("svm caps 0x%llx, svm alloc %p\n", (unsigned long long)svm, s);
    size_t g = 1056 * 256, l = 256;
    for (int pass = 0; pass < 3; pass++)
        for (int k = 0; k < K; k++) {
            if (k == 3 && !s)
                continue;
            double enq = 0, s0 = now_us();
            const int n = 3200;
            for (int i = 0; i < n; i++) {
                double t = now_us();
                CK(clEnqueueNDRangeKernel(q, ks[k], 1, NULL, &g, &l, 0, NULL,
                                          NULL));
                enq += now_us() - t;
                if ((i + 1) % 32 == 0)
                    CK(clFinish(q));
            }
            printf("pass %d %-22s enqueue %.3f us, chained %.3f us\n", pass,
                   names[k], enq / n, (now_us() - s0) / n);
        }
    return 0;
}
