/*
 * test_util.c - shared helpers of the Check suites.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, setenv */
#include "test_util.h"

#include "known_bad.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void test_env_open(test_env *env, const xwg_options *opts)
{
    /* The suites ask for each algorithm by launch, from programs built
     * with the context's default set: keep that set both algorithms
     * (XWG_CALIBRATE=0), unless the test asks otherwise. */
    setenv("XWG_CALIBRATE", "0", 0);
    int err = xwg_find_device(getenv("XWG_TEST_PLATFORM"), &env->platform,
                              &env->device);
    ck_assert_msg(err == XWG_SUCCESS, "no OpenCL device: %s",
                  xwg_status_string(err));
    env->cl = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
    ck_assert_msg(env->cl != NULL, "clCreateContext: %s",
                  xwg_status_name(err));
    env->queue =
        clCreateCommandQueueWithProperties(env->cl, env->device, NULL, &err);
    ck_assert_msg(env->queue != NULL, "queue: %s", xwg_status_name(err));
    err = xwg_context_create(env->cl, env->device, opts, &env->xc);
    ck_assert_msg(err == XWG_SUCCESS, "xwg_context_create: %s",
                  xwg_status_name(err));
}

void test_env_close(test_env *env)
{
    xwg_context_release(env->xc);
    clReleaseCommandQueue(env->queue);
    clReleaseContext(env->cl);
}

cl_kernel test_build_kernel(test_env *env, const char *source,
                            const char *name, const char *extra_options)
{
    cl_program prog = NULL;
    char *log = NULL;
    int err = xwg_program_build(env->xc, source, extra_options, &prog, &log);
    if (err != XWG_SUCCESS && log != NULL)
        fprintf(stderr, "build log:\n%s\n", log);
    free(log);
    ck_assert_msg(err == XWG_SUCCESS, "xwg_program_build: %s",
                  xwg_status_name(err));
    cl_kernel k = clCreateKernel(prog, name, &err);
    ck_assert_msg(k != NULL, "clCreateKernel(%s): %s", name,
                  xwg_status_name(err));
    clReleaseProgram(prog); /* the kernel keeps it alive */
    return k;
}

cl_uint test_refcount_context(cl_context c)
{
    cl_uint n = 0;
    clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL);
    return n;
}

/* Reads count(object) every 10 ms until it falls to at_most, 5 s at most. */
static cl_uint settle(cl_uint (*count)(void *), void *object, cl_uint at_most)
{
    cl_uint n = count(object);
    for (int i = 0; i < 500 && n > at_most; i++) {
        nanosleep(&(struct timespec){0, 10000000}, NULL); /* 10 ms */
        n = count(object);
    }
    return n;
}

static cl_uint count_context(void *c) { return test_refcount_context(c); }
static cl_uint count_kernel(void *k) { return test_refcount_kernel(k); }

cl_uint test_settled_refcount_context(cl_context c, cl_uint at_most)
{
    return settle(count_context, c, at_most);
}

cl_uint test_settled_refcount_kernel(cl_kernel k, cl_uint at_most)
{
    return settle(count_kernel, k, at_most);
}

cl_uint test_refcount_kernel(cl_kernel k)
{
    cl_uint n = 0;
    clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof n, &n, NULL);
    return n;
}

cl_uint test_refcount_program(cl_program p)
{
    cl_uint n = 0;
    clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof n, &n, NULL);
    return n;
}

cl_uint test_refcount_mem(cl_mem m)
{
    cl_uint n = 0;
    clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof n, &n, NULL);
    return n;
}

void test_force_groups(xwg_launch_options *opts, cl_uint groups)
{
    const char *residency = getenv("XWG_TEST_RESIDENCY");
    opts->groups = groups;
    opts->skip_discovery =
        residency == NULL || strcmp(residency, "per-launch") != 0;
}

int test_env_int(const char *name, int fallback)
{
    const char *v = getenv(name);
    return (v != NULL && v[0] != '\0') ? atoi(v) : fallback;
}

const char *test_broken_options(void)
{
    static char options[64];
    const char *name = getenv("XWG_TEST_BROKEN");
    options[0] = '\0';
    if (name != NULL && name[0] != '\0')
        ck_assert_msg(!xwg_known_bad_option("XWG_TEST_BROKEN", name, options,
                                            sizeof options),
                      "XWG_TEST_BROKEN=%s: no such known-bad variant", name);
    return options;
}

int test_run_suite(Suite *suite)
{
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}

cl_mem test_buffer(test_env *env, size_t bytes)
{
    int err;
    cl_mem m = clCreateBuffer(env->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    ck_assert_msg(m != NULL, "clCreateBuffer: %s", xwg_status_name(err));
    return m;
}

void test_fill(test_env *env, cl_mem m, cl_uint value, size_t words)
{
    clEnqueueFillBuffer(env->queue, m, &value, sizeof value, 0,
                        words * sizeof value, 0, NULL, NULL);
    clFinish(env->queue);
}

void test_read_words(test_env *env, cl_mem m, cl_uint *out, size_t words)
{
    clEnqueueReadBuffer(env->queue, m, CL_TRUE, 0, words * sizeof *out, out,
                        0, NULL, NULL);
}
