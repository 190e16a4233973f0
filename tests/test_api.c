/*
 * test_api.c - the public API's contract: status codes and messages, bad
 * input to every public function (each gets its documented code and leaks
 * nothing, shown by OpenCL reference counts), the atomics path choice and
 * its overrides, and the discovery cache.
 *
 * Leaks show as a reference count that grew. PoCL also counts its own
 * objects in a context's count (queues, buffers, events it releases
 * lazily), so a count may fall between two reads: the tests assert "no
 * greater than before", which a leak of ours cannot pass.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test_util.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char good_source[] =
    "__kernel void k(__global uint *out, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    if (get_local_id(0) == 0)\n"
    "        out[xwg_group_id()] = xwg_num_groups();\n"
    "}\n"
    "__kernel void with_local(__local uint *scratch, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    scratch[get_local_id(0)] = 0;\n"
    "}\n"
    "__kernel void no_state(__global uint *out)\n"
    "{\n"
    "    out[get_global_id(0)] = 1;\n"
    "}\n";

/* ---- status codes (no device needed) ------------------------------------ */

START_TEST(every_status_has_a_message_and_a_name)
{
    /* Breaks if a code is added to the enum without a message. */
    const int codes[] = {
#define CODE(name, value, message) value,
        XWG_STATUS_MAP(CODE)
#undef CODE
    };
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        ck_assert_str_ne(xwg_status_string(codes[i]), "unknown status code");
        ck_assert_str_ne(xwg_status_name(codes[i]), "XWG_UNKNOWN_STATUS");
        /* xwg's own codes stay clear of OpenCL's (core and extensions). */
        ck_assert(codes[i] == 0 || (codes[i] <= -20000 && codes[i] > -20100));
    }
    ck_assert_str_eq(xwg_status_name(XWG_ERROR_NO_STATE_ARG),
                     "XWG_ERROR_NO_STATE_ARG");
    /* Every core OpenCL error from -1 to -72 has a message. */
    for (int c = -1; c >= -72; c--) {
        if ((c <= -20 && c >= -29) || c == -1001)
            continue; /* gaps in OpenCL's numbering */
        ck_assert_msg(strcmp(xwg_status_string(c), "unknown status code"),
                      "no message for %d", c);
    }
    ck_assert_str_eq(xwg_status_name(CL_INVALID_KERNEL_ARGS),
                     "CL_INVALID_KERNEL_ARGS");
    ck_assert_str_eq(xwg_status_string(12345), "unknown status code");
}
END_TEST

START_TEST(version_is_consistent)
{
    ck_assert_uint_eq(xwg_version(), XWG_VERSION_HEX);
    ck_assert_ptr_nonnull(strchr(xwg_version_string(), '.'));
}
END_TEST

/* ---- contexts ------------------------------------------------------- */

START_TEST(context_create_rejects_bad_input)
{
    test_env env;
    test_env_open(&env, NULL);
    cl_uint before = test_refcount_context(env.cl);
    xwg_context *xc = (xwg_context *)1;

    ck_assert_int_eq(xwg_context_create(env.cl, env.device, NULL, NULL),
                     XWG_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(xwg_context_create(NULL, env.device, NULL, &xc),
                     XWG_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_null(xc);
    ck_assert_int_eq(xwg_context_create(env.cl, NULL, NULL, &xc),
                     XWG_ERROR_INVALID_ARGUMENT);
    xwg_options bad;
    xwg_options_init(&bad);
    bad.atomics = (xwg_atomics_path)7;
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, &bad, &xc),
                     XWG_ERROR_INVALID_ARGUMENT);
    xwg_options_init(&bad);
    bad.size = 0;
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, &bad, &xc),
                     XWG_ERROR_INVALID_ARGUMENT);
    setenv("XWG_ATOMICS", "cl99", 1);
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, NULL, &xc),
                     XWG_ERROR_INVALID_ARGUMENT);
    unsetenv("XWG_ATOMICS");
    ck_assert_ptr_null(xc);
    /* No failed create kept a reference to the OpenCL context. */
    ck_assert_uint_le(test_settled_refcount_context(env.cl, before), before);

    /* A successful create retains it (PoCL also counts the queue and
     * buffer made in it), and release gives every reference back. */
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, NULL, &xc),
                     XWG_SUCCESS);
    ck_assert_uint_gt(test_refcount_context(env.cl), before);
    xwg_context_release(xc);
    ck_assert_uint_le(test_settled_refcount_context(env.cl, before), before);
    xwg_context_release(NULL);
    test_env_close(&env);
}
END_TEST

START_TEST(query_rejects_bad_input)
{
    test_env env;
    test_env_open(&env, NULL);
    xwg_device_info info = XWG_DEVICE_INFO_INIT;
    ck_assert_int_eq(xwg_context_query(NULL, &info),
                     XWG_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(xwg_context_query(env.xc, NULL),
                     XWG_ERROR_INVALID_ARGUMENT);
    info.size = 0;
    ck_assert_int_eq(xwg_context_query(env.xc, &info),
                     XWG_ERROR_INVALID_ARGUMENT);
    /* An older, smaller struct gets only the fields it has. */
    info.size = offsetof(xwg_device_info, device_name);
    info.device_name[0] = 'Z';
    ck_assert_int_eq(xwg_context_query(env.xc, &info), XWG_SUCCESS);
    ck_assert_int_eq(info.device_name[0], 'Z');
    ck_assert(info.platform_name[0] != '\0');
    test_env_close(&env);
}
END_TEST

/* ---- the atomics path ------------------------------------------------ */

static xwg_atomics_path path_of(const test_env *env)
{
    xwg_device_info info = XWG_DEVICE_INFO_INIT;
    ck_assert_int_eq(xwg_context_query(env->xc, &info), XWG_SUCCESS);
    ck_assert(info.atomics_reason[0] != '\0'); /* it says why */
    ck_assert(info.compute_units > 0 && info.max_work_group_size > 0);
    return info.atomics_path;
}

START_TEST(path_follows_the_device_and_the_overrides)
{
    /* XWG_TEST_EXPECT_PATH is 20 or 12, set by ctest per implementation:
     * PoCL promises device-scope acq_rel (cl20), Oclgrind does not. */
    int expect = test_env_int("XWG_TEST_EXPECT_PATH", 20);
    test_env env;
    unsetenv("XWG_ATOMICS");
    test_env_open(&env, NULL);
    ck_assert_int_eq(path_of(&env),
                     expect == 20 ? XWG_ATOMICS_CL20 : XWG_ATOMICS_CL12);
    xwg_context_release(env.xc);

    /* The environment forces cl12 over the automatic choice... */
    setenv("XWG_ATOMICS", "cl12", 1);
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, NULL, &env.xc),
                     XWG_SUCCESS);
    ck_assert_int_eq(path_of(&env), XWG_ATOMICS_CL12);
    xwg_context_release(env.xc);

    /* ...and over the options, which force a path too. */
    xwg_options opts;
    xwg_options_init(&opts);
    opts.atomics = XWG_ATOMICS_CL20;
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, &opts, &env.xc),
                     XWG_SUCCESS);
    ck_assert_int_eq(path_of(&env), XWG_ATOMICS_CL12);
    xwg_context_release(env.xc);
    unsetenv("XWG_ATOMICS");

    opts.atomics = XWG_ATOMICS_CL12;
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, &opts, &env.xc),
                     XWG_SUCCESS);
    ck_assert_int_eq(path_of(&env), XWG_ATOMICS_CL12);
    test_env_close(&env);
}
END_TEST

/* The ptx path is NVIDIA's: elsewhere, forcing it is refused cleanly, and
 * the automatic choice never takes it. */
START_TEST(ptx_path_is_refused_off_nvidia_and_leaks_nothing)
{
    test_env env;
    unsetenv("XWG_ATOMICS");
    test_env_open(&env, NULL);
    ck_assert_int_ne(path_of(&env), XWG_ATOMICS_PTX);
    xwg_context_release(env.xc);
    env.xc = NULL;

    cl_uint before = test_refcount_context(env.cl);
    xwg_options opts;
    xwg_options_init(&opts);
    opts.atomics = XWG_ATOMICS_PTX;
    xwg_context *xc = (xwg_context *)1;
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, &opts, &xc),
                     XWG_ERROR_UNSUPPORTED_DEVICE);
    ck_assert_ptr_null(xc);
    setenv("XWG_ATOMICS", "ptx", 1);
    xc = (xwg_context *)1;
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, NULL, &xc),
                     XWG_ERROR_UNSUPPORTED_DEVICE);
    ck_assert_ptr_null(xc);
    /* With the self-test skipped, the forced path is still built once. */
    opts.self_test = XWG_SELF_TEST_SKIP;
    xc = (xwg_context *)1;
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, &opts, &xc),
                     XWG_ERROR_UNSUPPORTED_DEVICE);
    ck_assert_ptr_null(xc);
    opts.self_test = XWG_SELF_TEST_REQUIRE;
    unsetenv("XWG_ATOMICS");
    ck_assert_uint_le(test_settled_refcount_context(env.cl, before), before);

    ck_assert_str_eq(xwg_atomics_path_name(XWG_ATOMICS_PTX), "ptx");
    ck_assert_str_eq(xwg_atomics_path_name(XWG_ATOMICS_CL20), "cl20");
    ck_assert_str_eq(xwg_atomics_path_name(XWG_ATOMICS_CL12), "cl12");
    ck_assert_str_eq(xwg_atomics_path_name(XWG_ATOMICS_AUTO), "auto");
    ck_assert_str_eq(xwg_atomics_path_name((xwg_atomics_path)99), "?");
    ck_assert_str_eq(xwg_barrier_algo_name(XWG_BARRIER_DEFAULT), "default");
    ck_assert_str_eq(xwg_barrier_algo_name(XWG_BARRIER_XF), "xf");
    ck_assert_str_eq(xwg_barrier_algo_name(XWG_BARRIER_COUNTER), "counter");
    ck_assert_str_eq(xwg_barrier_algo_name(XWG_BARRIER_TREE), "tree");
    ck_assert_str_eq(xwg_barrier_algo_name((xwg_barrier_algo)7), "?");
    opts.atomics = (xwg_atomics_path)4;
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, &opts, &xc),
                     XWG_ERROR_INVALID_ARGUMENT);
    test_env_close(&env);
}
END_TEST

/* ---- building programs ---------------------------------------------- */

START_TEST(build_failure_returns_the_log_with_the_users_line)
{
    test_env env;
    test_env_open(&env, NULL);
    cl_uint before = test_refcount_context(env.cl);
    const char *broken = "__kernel void k(XWG_STATE)\n"
                         "{\n"
                         "    this_is_not_c;\n"
                         "}\n";
    cl_program prog = (cl_program)1;
    char *log = NULL;
    ck_assert_int_eq(xwg_program_build(env.xc, broken, NULL, &prog, &log),
                     XWG_ERROR_BUILD_FAILED);
    ck_assert_ptr_null(prog);
    ck_assert_ptr_nonnull(log);
    /* "#line 1" makes the error's line the user's line 3. */
    ck_assert_msg(strstr(log, ":3:") != NULL, "log lacks line 3:\n%s", log);
    ck_assert_msg(strstr(log, "this_is_not_c") != NULL, "log:\n%s", log);
    free(log);
    /* The failed program was released. */
    ck_assert_uint_le(test_settled_refcount_context(env.cl, before), before);

    ck_assert_int_eq(xwg_program_build(NULL, broken, NULL, &prog, &log),
                     XWG_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(xwg_program_build(env.xc, NULL, NULL, &prog, &log),
                     XWG_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(xwg_program_build(env.xc, broken, NULL, NULL, &log),
                     XWG_ERROR_INVALID_ARGUMENT);
    /* A NULL log is allowed. */
    ck_assert_int_eq(xwg_program_build(env.xc, broken, NULL, &prog, NULL),
                     XWG_ERROR_BUILD_FAILED);
    ck_assert_uint_le(test_settled_refcount_context(env.cl, before), before);
    ck_assert(strstr(xwg_kernel_library_source(), "XWG_DISCOVER") != NULL);
    test_env_close(&env);
}
END_TEST

/* ---- discovery's argument checks and cache ----------------------------- */

START_TEST(discover_rejects_bad_input_and_leaks_nothing)
{
    test_env env;
    test_env_open(&env, NULL);
    int err;
    cl_mem out = clCreateBuffer(env.cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_kernel k = test_build_kernel(&env, good_source, "k", NULL);
    cl_kernel plain = test_build_kernel(&env, good_source, "no_state", NULL);
    clSetKernelArg(k, 0, sizeof out, &out);
    clSetKernelArg(plain, 0, sizeof out, &out);
    cl_uint k_refs = test_refcount_kernel(k);
    cl_uint ctx_refs = test_refcount_context(env.cl);
    xwg_device_info info = XWG_DEVICE_INFO_INIT;
    xwg_context_query(env.xc, &info);
    xwg_occupancy occ = XWG_OCCUPANCY_INIT;

    ck_assert_int_eq(xwg_discover(NULL, k, 64, &occ),
                     XWG_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(xwg_discover(env.xc, NULL, 64, &occ),
                     XWG_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(xwg_discover(env.xc, k, 64, NULL),
                     XWG_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(xwg_discover(env.xc, k, 0, &occ),
                     XWG_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(xwg_discover(env.xc, k, info.max_work_group_size + 1,
                                  &occ),
                     XWG_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(xwg_discover(env.xc, plain, 64, &occ),
                     XWG_ERROR_NO_STATE_ARG);
    /* Launch refuses the same things. */
    xwg_launch_info li = XWG_LAUNCH_INFO_INIT;
    ck_assert_int_eq(xwg_launch(env.xc, env.queue, plain, 64, &li),
                     XWG_ERROR_NO_STATE_ARG);
    ck_assert_int_eq(xwg_launch(env.xc, NULL, k, 64, &li),
                     XWG_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(xwg_launch(env.xc, env.queue, k, 0, &li),
                     XWG_ERROR_INVALID_ARGUMENT);
    /* A grid of 2^33 work-items would wrap the kernel's 32-bit ids. */
    xwg_launch_options huge = XWG_LAUNCH_OPTIONS_INIT;
    huge.groups = 1u << 23;
    huge.skip_discovery = 1;
    ck_assert_int_eq(xwg_launch_ex(env.xc, env.queue, k, 1024, &huge, &li),
                     XWG_ERROR_INVALID_ARGUMENT);
    huge.barrier = (xwg_barrier_algo)9;
    ck_assert_int_eq(xwg_launch_ex(env.xc, env.queue, k, 64, &huge, &li),
                     XWG_ERROR_INVALID_ARGUMENT);
    /* None of the refusals kept a reference. */
    ck_assert_uint_eq(test_refcount_kernel(k), k_refs);
    ck_assert_uint_le(test_settled_refcount_context(env.cl, ctx_refs), ctx_refs);

    clReleaseKernel(plain);
    clReleaseKernel(k);
    clReleaseMemObject(out);
    test_env_close(&env);
}
END_TEST

START_TEST(discovery_is_cached_per_local_memory_size)
{
    test_env env;
    test_env_open(&env, NULL);
    cl_kernel k = test_build_kernel(&env, good_source, "with_local", NULL);
    cl_uint refs = test_refcount_kernel(k);
    xwg_occupancy first = XWG_OCCUPANCY_INIT, again = XWG_OCCUPANCY_INIT,
                  other = XWG_OCCUPANCY_INIT;
    clSetKernelArg(k, 0, 64 * sizeof(cl_uint), NULL);
    ck_assert_int_eq(xwg_discover(env.xc, k, 64, &first), XWG_SUCCESS);
    ck_assert_int_eq(first.from_cache, 0);
    ck_assert_uint_ge(first.groups, 1);
    ck_assert_uint_gt(first.local_mem, 0);
    ck_assert_int_eq(xwg_discover(env.xc, k, 64, &again), XWG_SUCCESS);
    ck_assert_int_eq(again.from_cache, 1);
    ck_assert_uint_eq(again.groups, first.groups);

    /* A new dynamic __local size is discovered again. */
    clSetKernelArg(k, 0, 1024 * sizeof(cl_uint), NULL);
    ck_assert_int_eq(xwg_discover(env.xc, k, 64, &other), XWG_SUCCESS);
    ck_assert_int_eq(other.from_cache, 0);
    ck_assert_uint_gt(other.local_mem, first.local_mem);

    /* The cache holds a reference to the kernel until the context goes
     * (the runtime may hold one more for a finished command); the
     * context's release gives everything back. */
    ck_assert_uint_gt(test_refcount_kernel(k), refs);
    xwg_context_release(env.xc);
    ck_assert_uint_eq(test_refcount_kernel(k), refs);
    env.xc = NULL;
    clReleaseKernel(k);
    test_env_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("api");
    TCase *status = tcase_create("status");
    tcase_add_test(status, every_status_has_a_message_and_a_name);
    tcase_add_test(status, version_is_consistent);
    suite_add_tcase(s, status);

    TCase *device = tcase_create("device");
    /* Builds on PoCL take seconds; Check's default of 4 s is too short. */
    tcase_set_timeout(device, 120);
    tcase_add_test(device, context_create_rejects_bad_input);
    tcase_add_test(device, query_rejects_bad_input);
    tcase_add_test(device, path_follows_the_device_and_the_overrides);
    tcase_add_test(device, ptx_path_is_refused_off_nvidia_and_leaks_nothing);
    tcase_add_test(device, build_failure_returns_the_log_with_the_users_line);
    tcase_add_test(device, discover_rejects_bad_input_and_leaks_nothing);
    tcase_add_test(device, discovery_is_cached_per_local_memory_size);
    suite_add_tcase(s, device);
    return test_run_suite(s);
}
