/* probe.c - is a kernel's write to host memory visible without a read, and
 * what does a second buffer argument cost, as a cl_mem or as an SVM
 * pointer? Scratch probe for issue 19 (not part of the product). */
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
    "__kernel void one(__global uint *p, uint v)"
    "{ if (get_global_id(0) == 0) p[0] = v; }\n"
    "__kernel void two(__global uint *p, __global uint *q, uint v)"
    "{ if (get_global_id(0) == 0) { p[0] = v; q[1] = v; } }\n";

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
    if (!plat) {
        printf("no platform %s\n", want);
        return 1;
    }
    cl_device_id dev;
    CK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    cl_device_svm_capabilities svm = 0;
    clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL);
    cl_bool unified = 0;
    clGetDeviceInfo(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified,
                    &unified, NULL);
    printf("svm caps 0x%llx, host unified %u\n", (unsigned long long)svm,
           unified);
    cl_int err;
    cl_context cx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CK(err);
    cl_command_queue q =
        clCreateCommandQueueWithProperties(cx, dev, NULL, &err);
    CK(err);
    cl_program pr = clCreateProgramWithSource(cx, 1, &src, NULL, &err);
    CK(clBuildProgram(pr, 1, &dev, "-cl-std=CL2.0", NULL, NULL));
    cl_kernel one = clCreateKernel(pr, "one", &err);
    cl_kernel two = clCreateKernel(pr, "two", &err);
    cl_kernel two_svm = clCreateKernel(pr, "two", &err);
    cl_mem a = clCreateBuffer(cx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_mem b = clCreateBuffer(cx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_mem h = clCreateBuffer(cx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                              4096, NULL, &err);
    CK(err);
    size_t g = 1056 * 256, l = 256;
    cl_uint v = 0;

    /* 1. Zero copy: a mapped ALLOC_HOST_PTR buffer, written by a kernel
     * while mapped, read on the host after clFinish with no read. */
    volatile cl_uint *hp = clEnqueueMapBuffer(
        q, h, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 4096, 0, NULL, NULL,
        &err);
    CK(err);
    hp[0] = 0;
    int seen = 0, tries = 50;
    double t0 = now_us();
    for (int i = 1; i <= tries; i++) {
        v = 1000 + i;
        CK(clSetKernelArg(one, 0, sizeof h, &h));
        CK(clSetKernelArg(one, 1, sizeof v, &v));
        CK(clEnqueueNDRangeKernel(q, one, 1, NULL, &g, &l, 0, NULL, NULL));
        CK(clFinish(q));
        seen += hp[0] == v;
    }
    printf("alloc_host_ptr mapped: kernel's value seen after clFinish in %d "
           "of %d (%.2f us each)\n", seen, tries, (now_us() - t0) / tries);
    /* The host spinning on the mapped word after the enqueue, no finish. */
    int landed = 0;
    t0 = now_us();
    for (int i = 1; i <= tries; i++) {
        v = 5000 + i;
        CK(clSetKernelArg(one, 1, sizeof v, &v));
        CK(clEnqueueNDRangeKernel(q, one, 1, NULL, &g, &l, 0, NULL, NULL));
        CK(clFlush(q));
        double s = now_us();
        while (hp[0] != v && now_us() - s < 2000)
            ;
        landed += hp[0] == v;
    }
    printf("alloc_host_ptr mapped: value landed without finish in %d of %d "
           "(%.2f us each)\n", landed, tries, (now_us() - t0) / tries);
    CK(clFinish(q));

    /* 2. Coarse-grained SVM read on the host after clFinish, unmapped. */
    if (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) {
        volatile cl_uint *s = clSVMAlloc(cx, CL_MEM_READ_WRITE, 4096, 0);
        printf("svm alloc %p\n", (void *)s);
        if (s) {
            int ok = 0;
            for (int i = 1; i <= tries; i++) {
                v = 7000 + i;
                CK(clSetKernelArgSVMPointer(one, 0, (void *)s));
                CK(clSetKernelArg(one, 1, sizeof v, &v));
                CK(clEnqueueNDRangeKernel(q, one, 1, NULL, &g, &l, 0, NULL,
                                          NULL));
                CK(clFinish(q));
                ok += s[0] == v;
            }
            printf("coarse svm: seen unmapped after clFinish in %d of %d\n",
                   ok, tries);
            /* Enqueue cost with the second argument an SVM pointer. */
            CK(clSetKernelArg(two_svm, 0, sizeof a, &a));
            CK(clSetKernelArgSVMPointer(two_svm, 1, (void *)s));
            CK(clSetKernelArg(two_svm, 2, sizeof v, &v));
        }
    }
    /* 3. Enqueue cost, chains of 32 then clFinish: one buffer argument,
     * two cl_mem, a cl_mem and an SVM pointer; three passes. */
    CK(clSetKernelArg(one, 0, sizeof a, &a));
    CK(clSetKernelArg(two, 0, sizeof a, &a));
    CK(clSetKernelArg(two, 1, sizeof b, &b));
    CK(clSetKernelArg(two, 2, sizeof v, &v));
    cl_kernel ks[3] = {one, two, two_svm};
    const char *names[3] = {"1 cl_mem", "2 cl_mem", "cl_mem + svm"};
    int nk = (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) ? 3 : 2;
    for (int pass = 0; pass < 3; pass++)
        for (int k = 0; k < nk; k++) {
            double enq = 0, s0 = now_us();
            const int n = 3200;
            for (int i = 0; i < n; i++) {
                double s = now_us();
                CK(clEnqueueNDRangeKernel(q, ks[k], 1, NULL, &g, &l, 0, NULL,
                                          NULL));
                enq += now_us() - s;
                if ((i + 1) % 32 == 0)
                    CK(clFinish(q));
            }
            printf("pass %d %-14s enqueue %.3f us, chained %.3f us\n", pass,
                   names[k], enq / n, (now_us() - s0) / n);
        }
    /* 4. Wait for a kernel: blocking 4-byte read, clFinish, clFinish then
     * a look at the mapped word. */
    CK(clSetKernelArg(one, 0, sizeof h, &h));
    for (int pass = 0; pass < 2; pass++) {
        const int n = 2000;
        cl_uint r;
        double s = now_us();
        for (int i = 0; i < n; i++) {
            CK(clEnqueueNDRangeKernel(q, one, 1, NULL, &g, &l, 0, NULL, NULL));
            CK(clEnqueueReadBuffer(q, a, CL_TRUE, 0, 4, &r, 0, NULL, NULL));
        }
        printf("pass %d kernel + blocking read 4 B  %.3f us\n", pass,
               (now_us() - s) / n);
        s = now_us();
        for (int i = 0; i < n; i++) {
            CK(clEnqueueNDRangeKernel(q, one, 1, NULL, &g, &l, 0, NULL, NULL));
            CK(clFinish(q));
            r = hp[0];
        }
        printf("pass %d kernel + clFinish + mapped  %.3f us\n", pass,
               (now_us() - s) / n);
    }
    return 0;
}
