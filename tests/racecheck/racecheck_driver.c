/*
 * racecheck_driver.c - runs one kernel file under xwg, for xwg-racecheck's
 * tests (the .cl files of tests/racecheck): the seeded bugs, which it must
 * report, and their corrected twins, which it must not.
 *
 *   racecheck_driver FILE.cl [LOCAL_SIZE [N [STEPS [BUILD_OPTIONS]]]]
 *
 * The file holds a kernel named `seeded` of this shape, built with
 * xwg_program_build():
 *
 *   __kernel void seeded(__global uint *a, __global uint *b, uint n,
 *                        uint steps, XWG_STATE)
 *
 * a and b hold n words each (a[i] = i, b[i] = 0 to start). The files'
 * corrected twins build with BUILD_OPTIONS -DXWG_FIXED. The driver
 * launches it once with xwg_launch() on the first device of the first
 * platform (Oclgrind's, under xwg-racecheck) and prints what it read back,
 * so that a plain run on PoCL shows whether the answer came out right.
 * Exit status 0 when the launch succeeded, 2 when anything failed.
 */
#include <xwg_barrier.h>

#include <stdio.h>
#include <stdlib.h>

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (text != NULL && fread(text, 1, (size_t)size, f) == (size_t)size)
        text[size] = '\0';
    else {
        free(text);
        text = NULL;
    }
    fclose(f);
    return text;
}

static int fail(const char *what, int err)
{
    fprintf(stderr, "racecheck_driver: %s: %s %s\n", what,
            xwg_status_string(err), xwg_last_error());
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 6) {
        fprintf(stderr, "usage: racecheck_driver FILE.cl [LOCAL_SIZE [N "
                        "[STEPS [BUILD_OPTIONS]]]]\n");
        return 2;
    }
    const size_t local = argc > 2 ? strtoul(argv[2], NULL, 10) : 4;
    const cl_uint n = argc > 3 ? (cl_uint)strtoul(argv[3], NULL, 10) : 64;
    const cl_uint steps = argc > 4 ? (cl_uint)strtoul(argv[4], NULL, 10) : 3;
    const char *options = argc > 5 ? argv[5] : NULL;
    char *source = read_file(argv[1]);
    if (source == NULL || local == 0 || n == 0)
        return 2;

    cl_platform_id platform;
    cl_device_id device;
    int err = xwg_find_device(getenv("XWG_TEST_PLATFORM"), &platform, &device);
    if (err != XWG_SUCCESS)
        return fail("xwg_find_device", err);
    cl_context cl = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(cl, device, NULL, &err);
    /* No self-test: Oclgrind's barrier has its own test (self_test_oclgrind_4threads),
     * and here it would cost 1 to 3 s of every run, checked for nothing. */
    xwg_options opts = XWG_OPTIONS_INIT;
    opts.self_test = XWG_SELF_TEST_SKIP;
    xwg_context *xc;
    if ((err = xwg_context_create(cl, device, &opts, &xc)) != XWG_SUCCESS)
        return fail("xwg_context_create", err);
    cl_program prog;
    char *log = NULL;
    if ((err = xwg_program_build(xc, source, options, &prog, &log)) !=
        XWG_SUCCESS) {
        fprintf(stderr, "%s\n", log != NULL ? log : "");
        return fail("xwg_program_build", err);
    }
    cl_kernel k = clCreateKernel(prog, "seeded", &err);
    if (err != CL_SUCCESS)
        return fail("clCreateKernel", err);

    cl_uint *a = malloc(n * sizeof *a), *b = calloc(n, sizeof *b);
    for (cl_uint i = 0; i < n; i++)
        a[i] = i;
    cl_mem da = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               n * sizeof *a, a, &err);
    cl_mem db = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               n * sizeof *b, b, &err);
    err = clSetKernelArg(k, 0, sizeof da, &da);
    err = err != CL_SUCCESS ? err : clSetKernelArg(k, 1, sizeof db, &db);
    err = err != CL_SUCCESS ? err : clSetKernelArg(k, 2, sizeof n, &n);
    err = err != CL_SUCCESS ? err
                            : clSetKernelArg(k, 3, sizeof steps, &steps);
    if (err != CL_SUCCESS)
        return fail("clSetKernelArg", err);
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    if ((err = xwg_launch(xc, queue, k, local, &info)) != XWG_SUCCESS)
        return fail("xwg_launch", err);
    clEnqueueReadBuffer(queue, da, CL_TRUE, 0, n * sizeof *a, a, 0, NULL,
                        NULL);
    clEnqueueReadBuffer(queue, db, CL_TRUE, 0, n * sizeof *b, b, 0, NULL,
                        NULL);
    unsigned long sum_a = 0, sum_b = 0;
    for (cl_uint i = 0; i < n; i++) {
        sum_a += a[i];
        sum_b += b[i];
    }
    printf("racecheck_driver: %u groups of %zu, sum(a) %lu, sum(b) %lu\n",
           info.groups, local, sum_a, sum_b);

    free(a);
    free(b);
    free(source);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    xwg_context_release(xc);
    clReleaseCommandQueue(queue);
    clReleaseContext(cl);
    return 0;
}
