/*
 * kernel_api_doc.c - runs the helper-function example of docs/kernel-api.md
 * as the doc prints it, so that the doc's code is code that works.
 *
 * Usage: kernel_api_doc DOC [PLATFORM]. Takes the first ```c block after
 * the heading "## Helper functions" in DOC, builds it with
 * xwg_program_build(), and launches its kernel `smooth` on n = 10000
 * values of 1: relax() halves each (0.5), and norm2() sums their squares,
 * 10000 x 0.25 = 2500, exact in float. Prints "kernel-api example: ok"
 * and exits 0 when both hold; exits 1 naming what was wrong.
 */
#include "xwg_barrier.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_text.h"

#define N 10000u

/* The example's source, NUL-terminated, from the doc's text; or NULL. */
static char *example_source(const char *doc)
{
    const char *section = strstr(doc, "## Helper functions");
    const char *open = section ? strstr(section, "```c\n") : NULL;
    const char *close = open ? strstr(open + 5, "```") : NULL;
    if (close == NULL)
        return NULL;
    const size_t len = (size_t)(close - (open + 5));
    char *src = malloc(len + 1);
    if (src != NULL) {
        memcpy(src, open + 5, len);
        src[len] = '\0';
    }
    return src;
}

#define CHECK(call)                                                            \
    do {                                                                       \
        const int err_ = (call);                                               \
        if (err_ != CL_SUCCESS) {                                              \
            fprintf(stderr, "kernel-api example: %s: %s %s\n", #call,          \
                    xwg_status_name(err_), xwg_last_error());                  \
            return 1;                                                          \
        }                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DOC [PLATFORM]\n", argv[0]);
        return 2;
    }
    char *doc = read_text(argv[1]);
    char *source = doc ? example_source(doc) : NULL;
    if (source == NULL) {
        fprintf(stderr, "kernel-api example: no ```c block after "
                        "\"## Helper functions\" in %s\n", argv[1]);
        return 1;
    }
    cl_platform_id platform;
    cl_device_id device;
    CHECK(xwg_find_device(argc > 2 ? argv[2] : NULL, &platform, &device));
    int err;
    cl_context cl = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(cl, device, NULL, &err);
    CHECK(err);
    xwg_context *xc;
    CHECK(xwg_context_create(cl, device, NULL, &xc));
    cl_program prog;
    char *log = NULL;
    err = xwg_program_build(xc, source, "", &prog, &log);
    if (err != XWG_SUCCESS && log != NULL)
        fprintf(stderr, "%s\n", log);
    free(log);
    CHECK(err);
    cl_kernel k = clCreateKernel(prog, "smooth", &err);
    CHECK(err);

    float *u = malloc(N * sizeof(float)), out = 0.0f;
    if (u == NULL)
        return 1;
    for (unsigned i = 0; i < N; i++)
        u[i] = 1.0f;
    cl_mem du = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               N * sizeof(float), u, &err);
    CHECK(err);
    cl_mem dout = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(float), NULL,
                                 &err);
    CHECK(err);
    const cl_uint n = N;
    CHECK(clSetKernelArg(k, 0, sizeof du, &du));
    CHECK(clSetKernelArg(k, 1, sizeof n, &n));
    CHECK(clSetKernelArg(k, 2, sizeof dout, &dout));
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    CHECK(xwg_launch(xc, queue, k, 64, &info));
    CHECK(clEnqueueReadBuffer(queue, du, CL_TRUE, 0, N * sizeof(float), u, 0,
                              NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dout, CL_TRUE, 0, sizeof out, &out, 0,
                              NULL, NULL));
    unsigned wrong = 0;
    for (unsigned i = 0; i < N; i++)
        wrong += u[i] != 0.5f;
    const int ok = wrong == 0 && out == 0.25f * N;
    printf("kernel-api example: %s (%u groups; %u of %u values wrong, "
           "norm2 %g, expected %g)\n", ok ? "ok" : "WRONG", info.groups,
           wrong, N, out, 0.25f * N);

    free(u);
    free(source);
    free(doc);
    clReleaseMemObject(du);
    clReleaseMemObject(dout);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    xwg_context_release(xc);
    clReleaseCommandQueue(queue);
    clReleaseContext(cl);
    return ok ? 0 : 1;
}
