/*
 * racecheck_driver.c - runs one kernel file under xwg, for xwg-racecheck's
 * tests (the .cl files of tests/racecheck): the seeded bugs, which it must
 * report, and their corrected twins, which it must not.
 *
 *   racecheck_driver [--launches R] FILE.cl [LOCAL_SIZE [N [STEPS
 *                    [BUILD_OPTIONS]]]]
 *
 * The file holds a kernel named `seeded` of this shape, built with
 * xwg_program_build():
 *
 *   __kernel void seeded(__global uint *a, __global uint *b, uint n,
 *                        uint steps, XWG_STATE)
 *
 * a and b hold n words each (a[i] = i, b[i] = 0 to start). The files'
 * corrected twins build with BUILD_OPTIONS -DXWG_FIXED. The driver
 * launches it R times (once unless told) with xwg_launch() on the device
 * that XWG_TEST_PLATFORM names (Oclgrind's, under xwg-racecheck), from
 * fresh a and b each time, and prints a line per launch with the group
 * count and a hash of what it read back: on a plain device, a launch whose
 * hash differs from the corrected twin's gave a wrong answer
 * (bench/racecheck_plain_runs.py counts them); a launch that fails gets
 * a line that says so, and the next one runs. Exit status 0 when every
 * launch succeeded, 2 when anything failed.
 */
#include <xwg_barrier.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../read_text.h"

static int fail(const char *what, int err)
{
    fprintf(stderr, "racecheck_driver: %s: %s %s\n", what,
            xwg_status_string(err), xwg_last_error());
    return 2;
}

int main(int argc, char **argv)
{
    unsigned long launches = 1;
    if (argc > 2 && strcmp(argv[1], "--launches") == 0) {
        launches = strtoul(argv[2], NULL, 10);
        argc -= 2;
        argv += 2;
    }
    if (argc < 2 || argc > 6 || launches == 0) {
        fprintf(stderr, "usage: racecheck_driver [--launches R] FILE.cl "
                        "[LOCAL_SIZE [N [STEPS [BUILD_OPTIONS]]]]\n");
        return 2;
    }
    const size_t local = argc > 2 ? strtoul(argv[2], NULL, 10) : 4;
    const cl_uint n = argc > 3 ? (cl_uint)strtoul(argv[3], NULL, 10) : 64;
    const cl_uint steps = argc > 4 ? (cl_uint)strtoul(argv[4], NULL, 10) : 3;
    const char *options = argc > 5 ? argv[5] : NULL;
    char *source = read_text(argv[1]);
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
    /* No self-test: each device's barrier has its own (under Oclgrind,
     * self_test_oclgrind_4threads); here it would cost 1 to 3 s of every
     * Oclgrind run and check nothing about the kernel. */
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

    const size_t bytes = n * sizeof(cl_uint);
    cl_uint *a = malloc(bytes), *b = malloc(bytes);
    cl_mem da = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem db = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    err = clSetKernelArg(k, 0, sizeof da, &da);
    err = err != CL_SUCCESS ? err : clSetKernelArg(k, 1, sizeof db, &db);
    err = err != CL_SUCCESS ? err : clSetKernelArg(k, 2, sizeof n, &n);
    err = err != CL_SUCCESS ? err
                            : clSetKernelArg(k, 3, sizeof steps, &steps);
    if (err != CL_SUCCESS)
        return fail("clSetKernelArg", err);
    unsigned long failed = 0;
    for (unsigned long r = 0; r < launches; r++) {
        for (cl_uint i = 0; i < n; i++) {
            a[i] = i;
            b[i] = 0;
        }
        err = clEnqueueWriteBuffer(queue, da, CL_TRUE, 0, bytes, a, 0, NULL,
                                   NULL);
        err = err != CL_SUCCESS ? err
                                : clEnqueueWriteBuffer(queue, db, CL_TRUE, 0,
                                                       bytes, b, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            return fail("clEnqueueWriteBuffer", err);
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        if ((err = xwg_launch(xc, queue, k, local, &info)) != XWG_SUCCESS) {
            /* A misused barrier ends in the watchdog's error: say so and
             * go on, so that every launch is counted. */
            printf("racecheck_driver: launch failed: %s\n",
                   xwg_status_string(err));
            failed++;
            continue;
        }
        err = clEnqueueReadBuffer(queue, da, CL_TRUE, 0, bytes, a, 0, NULL,
                                  NULL);
        err = err != CL_SUCCESS ? err
                                : clEnqueueReadBuffer(queue, db, CL_TRUE, 0,
                                                      bytes, b, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            return fail("clEnqueueReadBuffer", err);
        unsigned long long hash = 14695981039346656037ull; /* FNV-1a */
        for (cl_uint i = 0; i < 2 * n; i++) {
            hash ^= i < n ? a[i] : b[i - n];
            hash *= 1099511628211ull;
        }
        printf("racecheck_driver: %u groups of %zu, hash %016llx\n",
               info.groups, local, hash);
    }

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
    return failed ? 2 : 0;
}
