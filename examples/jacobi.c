/*
 * jacobi.c - xwg in one page: a 1D Jacobi solver that runs all its sweeps
 * in ONE kernel, with a global barrier between sweeps instead of a kernel
 * launch per sweep. It checks its own answer against a C loop.
 *
 *   build/examples/xwg-example-jacobi [platform-name [points [sweeps]]]
 *
 * (100000 points and 500 sweeps unless told; xwg-racecheck checks it on a
 * small problem: docs/guide.md, "Finding a missing barrier".)
 */
#include <xwg_barrier.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* No #include: xwg_program_build puts the kernel library in front. */
static const char source[] =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "__kernel void jacobi(__global float *a, __global float *b, uint n,\n"
    "                     uint sweeps, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER(); /* groups that are not co-resident return here */\n"
    "    for (uint s = 0; s < sweeps && !xwg_failed(); s++) {\n"
    "        __global float *src = (s & 1) ? b : a, *dst = (s & 1) ? a : b;\n"
    "        for (uint i = xwg_global_id(); i < n; i += xwg_global_size())\n"
    "            dst[i] = (i == 0 || i == n - 1) ? src[i]\n"
    "                   : 0.25f * src[i - 1] + 0.5f * src[i] + 0.25f * src[i + 1];\n"
    "        xwg_barrier(); /* every group has finished this sweep */\n"
    "    }\n"
    "}\n";

#define CHECK(call)                                                            \
    do {                                                                       \
        int err_ = (call);                                                     \
        if (err_ != XWG_SUCCESS) {                                             \
            fprintf(stderr, "%s: %s%s%s\n", #call, xwg_status_string(err_),   \
                    xwg_last_error()[0] ? ": " : "", xwg_last_error());        \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    const int N = argc > 2 ? atoi(argv[2]) : 100000;
    const int SWEEPS = argc > 3 ? atoi(argv[3]) : 500;
    if (N < 2 || SWEEPS < 0) {
        fprintf(stderr, "usage: %s [platform-name [points [sweeps]]]\n",
                argv[0]);
        return 2;
    }
    const size_t bytes = (size_t)N * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *got = malloc(bytes);
    if (a == NULL || b == NULL || got == NULL)
        return 1;
    for (int i = 0; i < N; i++)
        a[i] = b[i] = (float)(i % 97);
    cl_platform_id platform;
    cl_device_id device;
    int err;
    CHECK(xwg_find_device(argc > 1 ? argv[1] : NULL, &platform, &device));
    cl_context cl = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(cl, device, NULL, &err);
    xwg_context *xc;
    CHECK(xwg_context_create(cl, device, NULL, &xc)); /* probe + self-test */

    cl_program prog;
    char *log = NULL;
    if (xwg_program_build(xc, source, NULL, &prog, &log) != XWG_SUCCESS) {
        fprintf(stderr, "build failed:\n%s\n", log);
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, "jacobi", &err);
    cl_mem da = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               bytes, a, &err);
    cl_mem db = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               bytes, b, &err);
    cl_uint n = N, sweeps = SWEEPS;
    CHECK(clSetKernelArg(k, 0, sizeof da, &da)); /* xwg sets XWG_STATE */
    CHECK(clSetKernelArg(k, 1, sizeof db, &db));
    CHECK(clSetKernelArg(k, 2, sizeof n, &n));
    CHECK(clSetKernelArg(k, 3, sizeof sweeps, &sweeps));

    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    CHECK(xwg_launch(xc, queue, k, 256, &info)); /* discovers, runs, waits */
    clEnqueueReadBuffer(queue, da, CL_TRUE, 0, bytes, got, 0, NULL, NULL);

    for (int s = 0; s < SWEEPS; s++) { /* the same sweeps on the CPU */
        float *src = (s & 1) ? b : a, *dst = (s & 1) ? a : b;
        for (int i = 0; i < N; i++)
            dst[i] = (i == 0 || i == N - 1) ? src[i]
                     : 0.25f * src[i - 1] + 0.5f * src[i] + 0.25f * src[i + 1];
    }
    int ok = memcmp(got, a, bytes) == 0;
    printf("jacobi: %d sweeps over %d points in one kernel on %u groups: %s\n",
           SWEEPS, N, info.groups, ok ? "matches the CPU bit for bit" : "WRONG");

    free(a);
    free(b);
    free(got);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    xwg_context_release(xc);
    clReleaseCommandQueue(queue);
    clReleaseContext(cl);
    return ok ? 0 : 1;
}
