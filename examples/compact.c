/*
 * compact.c - stream compaction in one persistent kernel: keep the
 * elements of an array that pass a test, in their order, with one
 * grid-wide scan per round of the grid instead of a scan kernel, an
 * offsets kernel and a scatter kernel. It checks its answer against a C
 * loop.
 *
 *   build/examples/xwg-example-compact [platform-name [elements]]
 *
 * (1000000 elements unless told.) Each round, every work-item takes one
 * element (round r, work-item x: element r * global size + x, so the
 * grid's participant order is the array's order), and
 * xwg_scan_exclusive_add_uint(keep, &kept) gives it its place among the
 * round's kept elements and the round's count. The scan is a barrier, so
 * every group agrees on where the next round starts.
 */
#include <xwg_barrier.h>

#include <stdio.h>
#include <stdlib.h>

/* The test: keep x when x % 3 == 0 (a third of the input, scattered). */
static const char source[] =
    "__kernel void compact(__global const uint *in, uint n,\n"
    "                      __global uint *out, __global uint *count,\n"
    "                      XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    uint written = 0; /* the same in every work-item */\n"
    "    for (uint base = 0; base < n && !xwg_failed();\n"
    "         base += xwg_global_size()) {\n"
    "        const uint i = base + xwg_global_id();\n"
    "        const uint x = i < n ? in[i] : 0u;\n"
    "        const uint keep = i < n && x % 3u == 0u;\n"
    "        uint kept;\n"
    "        const uint at = xwg_scan_exclusive_add_uint(keep, &kept);\n"
    "        if (keep)\n"
    "            out[written + at] = x;\n"
    "        written += kept;\n"
    "    }\n"
    "    if (xwg_global_id() == 0)\n"
    "        count[0] = written;\n"
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
    const long N = argc > 2 ? atol(argv[2]) : 1000000;
    if (N < 1 || N > 100000000) {
        fprintf(stderr, "usage: %s [platform-name [elements]]\n", argv[0]);
        return 2;
    }
    const size_t bytes = (size_t)N * sizeof(cl_uint);
    cl_uint *in = malloc(bytes), *got = malloc(bytes), *want = malloc(bytes);
    if (in == NULL || got == NULL || want == NULL)
        return 1;
    srand(1);
    for (long i = 0; i < N; i++)
        in[i] = (cl_uint)rand();
    cl_platform_id platform;
    cl_device_id device;
    int err;
    CHECK(xwg_find_device(argc > 1 ? argv[1] : NULL, &platform, &device));
    cl_context cl = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(cl, device, NULL, &err);
    CHECK(err);
    xwg_context *xc;
    CHECK(xwg_context_create(cl, device, NULL, &xc));

    cl_program prog;
    char *log = NULL;
    if (xwg_program_build(xc, source, NULL, &prog, &log) != XWG_SUCCESS) {
        fprintf(stderr, "build failed:\n%s\n", log ? log : xwg_last_error());
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, "compact", &err);
    CHECK(err);
    cl_mem din = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                bytes, in, &err);
    CHECK(err);
    cl_mem dout = clCreateBuffer(cl, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
    CHECK(err);
    cl_mem dcount =
        clCreateBuffer(cl, CL_MEM_WRITE_ONLY, sizeof(cl_uint), NULL, &err);
    CHECK(err);
    cl_uint n = (cl_uint)N;
    CHECK(clSetKernelArg(k, 0, sizeof din, &din)); /* xwg sets XWG_STATE */
    CHECK(clSetKernelArg(k, 1, sizeof n, &n));
    CHECK(clSetKernelArg(k, 2, sizeof dout, &dout));
    CHECK(clSetKernelArg(k, 3, sizeof dcount, &dcount));

    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    CHECK(xwg_launch(xc, queue, k, 256, &info));
    cl_uint count = 0;
    CHECK(clEnqueueReadBuffer(queue, dcount, CL_TRUE, 0, sizeof count, &count,
                              0, NULL, NULL));
    if (count <= N)
        CHECK(clEnqueueReadBuffer(queue, dout, CL_TRUE, 0,
                                  count * sizeof(cl_uint), got, 0, NULL,
                                  NULL));

    long expected = 0; /* the same on the CPU */
    for (long i = 0; i < N; i++)
        if (in[i] % 3u == 0u)
            want[expected++] = in[i];
    int ok = count == (cl_uint)expected;
    for (long i = 0; ok && i < expected; i++)
        ok = got[i] == want[i];
    printf("compact: kept %u of %ld elements in one kernel on %u groups: "
           "%s\n",
           count, N, info.groups, ok ? "matches the CPU, in order" : "WRONG");

    free(in);
    free(got);
    free(want);
    clReleaseMemObject(din);
    clReleaseMemObject(dout);
    clReleaseMemObject(dcount);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    xwg_context_release(xc);
    clReleaseCommandQueue(queue);
    clReleaseContext(cl);
    return ok ? 0 : 1;
}
