/*
 * sort.c - an odd-even transposition sort of n ints in ONE kernel: n
 * phases, each comparing and swapping neighbours (2i, 2i+1) or
 * (2i+1, 2i+2), with a global barrier between phases. Every phase reads
 * what other groups wrote in the one before, so a barrier that lets a
 * group pass early, or plain loads that miss other groups' stores, leave
 * elements out of place. It checks its answer against qsort.
 *
 *   build/examples/xwg-example-sort [platform-name] [n] [local-size]
 */
#include <xwg_barrier.h>

#include <stdio.h>
#include <stdlib.h>

static const char source[] =
    "__kernel void sort(__global int *a, uint n, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    for (uint phase = 0; phase < n && !xwg_failed(); phase++) {\n"
    "        /* Pair p compares elements 2p + odd and 2p + odd + 1. */\n"
    "        for (uint p = xwg_global_id(); 2 * p + (phase & 1) + 1 < n;\n"
    "             p += xwg_global_size()) {\n"
    "            uint i = 2 * p + (phase & 1);\n"
    "            int x = a[i], y = a[i + 1];\n"
    "            if (x > y) {\n"
    "                a[i] = y;\n"
    "                a[i + 1] = x;\n"
    "            }\n"
    "        }\n"
    "        xwg_barrier(); /* this phase's swaps before the next reads */\n"
    "    }\n"
    "}\n";

/* Exits on an xwg or OpenCL error, with the status and, where the call
 * left one, its reason. */
static void check(int status, const char *call)
{
    if (status == XWG_SUCCESS)
        return;
    fprintf(stderr, "%s: %s%s%s\n", call, xwg_status_string(status),
            xwg_last_error()[0] ? ": " : "", xwg_last_error());
    exit(2);
}
#define CHECK(call) check((call), #call)

static int ascending(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    const char *platform_name = argc > 1 ? argv[1] : NULL;
    cl_uint n = argc > 2 ? (cl_uint)strtoul(argv[2], NULL, 10) : 20000;
    size_t local = argc > 3 ? strtoul(argv[3], NULL, 10) : 256;
    int *data = malloc(n * sizeof *data), *want = malloc(n * sizeof *want);
    if (data == NULL || want == NULL || n < 2)
        return 2;
    srand(1);
    for (cl_uint i = 0; i < n; i++)
        data[i] = want[i] = rand() % 100000;
    qsort(want, n, sizeof *want, ascending);

    cl_platform_id platform;
    cl_device_id device;
    int err;
    CHECK(xwg_find_device(platform_name, &platform, &device));
    cl_context cl = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(cl, device, NULL, &err);
    CHECK(err);
    xwg_context *xc;
    CHECK(xwg_context_create(cl, device, NULL, &xc)); /* refuses unsafe */

    cl_program prog;
    char *log = NULL;
    if (xwg_program_build(xc, source, NULL, &prog, &log) != XWG_SUCCESS) {
        fprintf(stderr, "build failed:\n%s\n", log);
        return 2;
    }
    cl_kernel k = clCreateKernel(prog, "sort", &err);
    cl_mem buf = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                n * sizeof *data, data, &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, 0, sizeof buf, &buf)); /* xwg sets XWG_STATE */
    CHECK(clSetKernelArg(k, 1, sizeof n, &n));
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    CHECK(xwg_launch(xc, queue, k, local, &info));
    CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, n * sizeof *data, data,
                              0, NULL, NULL));

    cl_uint wrong = 0;
    for (cl_uint i = 0; i < n; i++)
        wrong += data[i] != want[i];
    if (wrong == 0)
        printf("sort: %u ints in one kernel on %u groups of %zu: sorted\n",
               n, info.groups, local);
    else
        printf("sort: %u ints in one kernel on %u groups of %zu: WRONG (%u "
               "elements out of place)\n", n, info.groups, local, wrong);

    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    xwg_context_release(xc);
    clReleaseCommandQueue(queue);
    clReleaseContext(cl);
    free(data);
    free(want);
    return wrong == 0 ? 0 : 1;
}
