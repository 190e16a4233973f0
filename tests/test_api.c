/*
 * test_api.c - the public API's contract: status codes and messages, bad
 * input to every public function (each gets its documented code, says with
 * XWG_TRACE=1 which argument was wrong and why, and leaks nothing, shown
 * by OpenCL reference counts), the atomics path choice and its overrides,
 * and the discovery cache.
 *
 * Leaks show as a reference count that grew. PoCL also counts its own
 * objects in a context's count (queues, buffers, events it releases
 * lazily), so a count may fall between two reads: the tests assert "no
 * greater than before", which a leak of ours cannot pass.
 *
 * The kernels that several tests share are .cl files in tests/kernels/.
 * A kernel that one test alone builds, to see what the API says of it
 * (a missing macro, a helper, a user's prefix), stays a string beside
 * the assertions about it: it is that test's input, read with them.
 */
#define _GNU_SOURCE /* setenv, fileno, nanosleep, strcasestr */
#include "test_util.h"
#include "good_source.h" /* api_good.cl */
#include "state_first_source.h" /* api_state_first.cl */

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* good_source: tests/kernels/api_good.cl, embedded at build time. */

/* ---- bad arguments, and what XWG_TRACE=1 says of them ----------------- */

/* Where a call's stderr goes while it runs with XWG_TRACE=1. */
typedef struct trace_capture {
    FILE *file;
    int saved_fd;
} trace_capture;

static void capture_begin(trace_capture *c)
{
    fflush(stderr);
    c->file = tmpfile();
    ck_assert_ptr_nonnull(c->file);
    c->saved_fd = dup(2);
    ck_assert_int_ge(c->saved_fd, 0);
    ck_assert_int_ge(dup2(fileno(c->file), 2), 0);
    setenv("XWG_TRACE", "1", 1);
}

/* Puts stderr back; what the call wrote (static, until the next call). */
static const char *capture_end(trace_capture *c)
{
    static char text[1 << 16];
    fflush(stderr);
    unsetenv("XWG_TRACE");
    dup2(c->saved_fd, 2);
    close(c->saved_fd);
    rewind(c->file);
    size_t n = fread(text, 1, sizeof text - 1, c->file);
    text[n] = '\0';
    fclose(c->file);
    return text;
}

/* Asserts that `call` returns XWG_ERROR_INVALID_ARGUMENT and that, with
 * XWG_TRACE=1, it writes `says` to stderr: the public function and the
 * argument that was wrong. Without that line a caller has only the bare
 * status, and cannot tell which of its arguments to fix. xwg_last_error()
 * must say the same, for callers that do not trace. */
#define assert_invalid(call, says)                                             \
    do {                                                                       \
        trace_capture capture_;                                                \
        capture_begin(&capture_);                                              \
        int status_ = (call);                                                  \
        const char *text_ = capture_end(&capture_);                            \
        ck_assert_msg(status_ == XWG_ERROR_INVALID_ARGUMENT,                   \
                      "%s returned %s", #call, xwg_status_name(status_));      \
        ck_assert_msg(strstr(text_, says) != NULL,                             \
                      "%s: its trace lacks \"%s\"; it wrote:\n%s", #call,      \
                      says, text_);                                            \
        ck_assert_msg(strstr(xwg_last_error(), says) != NULL,                  \
                      "%s: xwg_last_error() lacks \"%s\": \"%s\"", #call,     \
                      says, xwg_last_error());                                 \
    } while (0)

static cl_uint refcount_event(cl_event e)
{
    cl_uint n = 0;
    clGetEventInfo(e, CL_EVENT_REFERENCE_COUNT, sizeof n, &n, NULL);
    return n;
}

/* ---- status codes (no device needed) ------------------------------------ */

/* Platform names match ignoring case, anywhere in the name. */
START_TEST(platform_names_match_ignoring_case)
{
    ck_assert_int_eq(xwg_platform_name_matches("Portable Computing Language",
                                               "portable computing"),
                     1);
    ck_assert_int_eq(xwg_platform_name_matches("rusticl", "STIC"), 1);
    ck_assert_int_eq(xwg_platform_name_matches("NVIDIA CUDA", "cuda"), 1);
    ck_assert_int_eq(xwg_platform_name_matches("Clover", "clovers"), 0);
    ck_assert_int_eq(xwg_platform_name_matches("Clover", "rusticl"), 0);
    ck_assert_int_eq(xwg_platform_name_matches("Clover", NULL), 1);
    ck_assert_int_eq(xwg_platform_name_matches("Clover", ""), 1);
    ck_assert_int_eq(xwg_platform_name_matches(NULL, "x"), 0);
}
END_TEST

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

    assert_invalid(xwg_context_create(env.cl, env.device, NULL, NULL),
                   "xwg_context_create: out is NULL");
    assert_invalid(xwg_context_create(NULL, env.device, NULL, &xc),
                   "xwg_context_create: context is NULL");
    ck_assert_ptr_null(xc);
    assert_invalid(xwg_context_create(env.cl, NULL, NULL, &xc),
                   "xwg_context_create: device is NULL");
    /* A handle that is not one of the context's devices (xwg compares
     * handles, and never calls OpenCL with this one). */
    assert_invalid(xwg_context_create(env.cl, (cl_device_id)&env, NULL, &xc),
                   "xwg_context_create: device is not one of context's");
    xwg_options bad;
    xwg_options_init(&bad);
    bad.atomics = (xwg_atomics_path)7;
    assert_invalid(xwg_context_create(env.cl, env.device, &bad, &xc),
                   "xwg_context_create: opts->atomics is 7");
    xwg_options_init(&bad);
    bad.size = 0;
    assert_invalid(xwg_context_create(env.cl, env.device, &bad, &xc),
                   "xwg_context_create: opts->size is 0");
    xwg_options_init(&bad);
    bad.discovery = (xwg_discovery_protocol)5;
    assert_invalid(xwg_context_create(env.cl, env.device, &bad, &xc),
                   "xwg_context_create: opts->discovery is 5");
    xwg_options_init(&bad);
    bad.barrier = (xwg_barrier_algo)6;
    assert_invalid(xwg_context_create(env.cl, env.device, &bad, &xc),
                   "xwg_context_create: opts->barrier is 6");
    xwg_options_init(&bad);
    bad.self_test = (xwg_self_test_mode)4;
    assert_invalid(xwg_context_create(env.cl, env.device, &bad, &xc),
                   "xwg_context_create: opts->self_test is 4");
    /* An older caller's struct that ends before self_test is not checked
     * past its end: the field keeps its default. */
    bad.size = offsetof(xwg_options, self_test);
    bad.self_test = (xwg_self_test_mode)4;
    bad.atomics = (xwg_atomics_path)9;
    assert_invalid(xwg_context_create(env.cl, env.device, &bad, &xc),
                   "xwg_context_create: opts->atomics is 9");
    setenv("XWG_ATOMICS", "cl99", 1);
    assert_invalid(xwg_context_create(env.cl, env.device, NULL, &xc),
                   "xwg_context_create: environment variable XWG_ATOMICS "
                   "is \"cl99\"");
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
    assert_invalid(xwg_context_query(NULL, &info),
                   "xwg_context_query: ctx is NULL");
    assert_invalid(xwg_context_query(env.xc, NULL),
                   "xwg_context_query: info is NULL");
    info.size = 0;
    info.device_name[0] = 'Z';
    assert_invalid(xwg_context_query(env.xc, &info),
                   "xwg_context_query: info->size is 0 (at least 8 needed): "
                   "initialise it with XWG_DEVICE_INFO_INIT");
    ck_assert_int_eq(info.device_name[0], 'Z'); /* nothing written */
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
    /* The reason says the capabilities in words, not as bits. */
    xwg_device_info info = XWG_DEVICE_INFO_INIT;
    xwg_context_query(env.xc, &info);
    ck_assert_msg(strstr(info.atomics_reason, "0x") == NULL,
                  "the reason has bits: %s", info.atomics_reason);
    if (info.opencl_c_max >= 300)
        ck_assert_msg(strstr(info.atomics_reason, "relaxed") != NULL,
                      "the reason names no order: %s", info.atomics_reason);
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
    assert_invalid(xwg_context_create(env.cl, env.device, &opts, &xc),
                   "xwg_context_create: opts->atomics is 4");
    test_env_close(&env);
}
END_TEST

/* ---- building programs ---------------------------------------------- */

/* A kernel that calls xwg without XWG_DISCOVER(), or runs XWG_DISCOVER()
 * without an XWG_STATE parameter, fails to build with a log that names
 * the macro it lacks (the compiler's "undeclared identifier" names an
 * identifier chosen to say so). */
START_TEST(build_log_names_a_missing_macro)
{
    test_env env;
    test_env_open(&env, NULL);
    static const struct {
        const char *source, *says;
    } cases[] = {
        {"__kernel void k(__global uint *out, XWG_STATE)\n"
         "{\n"
         "    out[xwg_global_id()] = 1u;\n"
         "    xwg_barrier();\n"
         "}\n",
         "XWG_DISCOVER"},
        /* A helper cannot see the kernel's XWG_DISCOVER(): the error
         * must say to pass XWG_SELF to it (helper_passes_xwg_self below
         * shows that advice builds), not only to add XWG_DISCOVER(),
         * which the kernel already has. */
        {"void helper(void) { xwg_barrier(); }\n"
         "__kernel void k(__global uint *out, XWG_STATE)\n"
         "{\n"
         "    XWG_DISCOVER();\n"
         "    helper();\n"
         "    out[xwg_global_id()] = 1u;\n"
         "}\n",
         "pass_XWG_SELF_to_helpers_using_the_of_forms"},
        {"__kernel void k(__global uint *out)\n"
         "{\n"
         "    XWG_DISCOVER();\n"
         "    out[xwg_global_id()] = 1u;\n"
         "}\n",
         "XWG_STATE"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cl_program prog = NULL;
        char *log = NULL;
        ck_assert_int_eq(
            xwg_program_build(env.xc, cases[i].source, NULL, &prog, &log),
            XWG_ERROR_BUILD_FAILED);
        ck_assert_ptr_nonnull(log);
        ck_assert_msg(strstr(log, cases[i].says) != NULL,
                      "the log does not name %s:\n%s", cases[i].says, log);
        free(log);
    }
    test_env_close(&env);
}
END_TEST

/* What that error advises builds: a helper takes an xwg_self, which the
 * kernel passes as XWG_SELF, and calls the _of forms. */
START_TEST(helper_passes_xwg_self)
{
    test_env env;
    test_env_open(&env, NULL);
    static const char source[] =
        "void helper(xwg_self self, __global uint *out)\n"
        "{\n"
        "    xwg_barrier_of(self);\n"
        "    out[xwg_global_id_of(self)] = xwg_num_groups_of(self);\n"
        "}\n"
        "__kernel void k(__global uint *out, XWG_STATE)\n"
        "{\n"
        "    XWG_DISCOVER();\n"
        "    helper(XWG_SELF, out);\n"
        "}\n";
    cl_kernel k = test_build_kernel(&env, source, "k", NULL);
    clReleaseKernel(k);
    test_env_close(&env);
}
END_TEST

/* Asks xwg_program_source_prefix() and xwg_program_options() for their
 * sizes, then their texts (malloc'd, into *prefix and *options, each
 * built with `user_options`); returns the prefix's size with its NUL. */
static size_t get_prefix_and_options(xwg_context *xc, const char *user_options,
                                     char **prefix, char **options)
{
    size_t prefix_n = 0, options_n = 0;
    ck_assert_int_eq(xwg_program_source_prefix(xc, user_options, NULL, 0,
                                               &prefix_n),
                     XWG_SUCCESS);
    ck_assert_int_eq(xwg_program_options(xc, user_options, NULL, 0,
                                         &options_n),
                     XWG_SUCCESS);
    *prefix = malloc(prefix_n);
    *options = malloc(options_n);
    ck_assert_int_eq(xwg_program_source_prefix(xc, user_options, *prefix,
                                               prefix_n, NULL),
                     XWG_SUCCESS);
    ck_assert_int_eq(xwg_program_options(xc, user_options, *options,
                                         options_n, NULL),
                     XWG_SUCCESS);
    return prefix_n;
}

/* A program built as a user would outside xwg_program_build(): prefix,
 * then source, with options. */
static cl_program build_program_elsewhere(test_env *env, const char *prefix,
                                          const char *source,
                                          const char *options)
{
    const char *sources[] = {prefix, source};
    int err;
    cl_program prog =
        clCreateProgramWithSource(env->cl, 2, sources, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    ck_assert_int_eq(clBuildProgram(prog, 1, &env->device, options, NULL,
                                    NULL),
                     CL_SUCCESS);
    return prog;
}

/* Kernel `name` of build_program_elsewhere()'s program, which it
 * releases. */
static cl_kernel build_elsewhere(test_env *env, const char *prefix,
                                 const char *source, const char *options,
                                 const char *name)
{
    cl_program prog = build_program_elsewhere(env, prefix, source, options);
    int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    clReleaseProgram(prog);
    return k;
}

/* A program built without xwg_program_build(), from the prefix and the
 * options that xwg hands out, launches as one built by it; each call
 * reports its size, and refuses a buffer too small without writing it. */
START_TEST(programs_built_elsewhere_get_xwgs_prefix_and_options)
{
    test_env env;
    test_env_open(&env, NULL);
    char *prefix, *options;
    size_t prefix_n = get_prefix_and_options(env.xc, "-DUSERS=1", &prefix,
                                             &options);
    size_t options_n = strlen(options) + 1;
    ck_assert_uint_eq(strlen(prefix) + 1, prefix_n);
    ck_assert(strstr(prefix, xwg_kernel_library_source()) != NULL);
    ck_assert(strstr(options, "-cl-kernel-arg-info") != NULL);
    ck_assert(strstr(options, "-DUSERS=1") != NULL);
    /* The path's define is the prefix's alone, as docs/host-api.md says. */
    ck_assert(strstr(prefix, "#define XWG_PATH_CL") != NULL);
    ck_assert(strstr(options, "XWG_PATH_") == NULL);

    const char *user = "__kernel void k(__global uint *out, XWG_STATE)\n"
                       "{\n"
                       "    XWG_DISCOVER();\n"
                       "    xwg_barrier();\n"
                       "    if (get_local_id(0) == 0)\n"
                       "        out[xwg_group_id()] = 5u + USERS;\n"
                       "}\n";
    cl_kernel k = build_elsewhere(&env, prefix, user, options, "k");
    cl_mem out = test_buffer(&env, 64 * sizeof(cl_uint));
    test_fill(&env, out, 0, 1);
    clSetKernelArg(k, 0, sizeof out, &out);
    xwg_launch_info li = XWG_LAUNCH_INFO_INIT;
    ck_assert_int_eq(xwg_launch(env.xc, env.queue, k, 64, &li), XWG_SUCCESS);
    cl_uint got;
    test_read_words(&env, out, &got, 1);
    ck_assert_uint_eq(got, 6);

    /* Too small, or no buffer: refused, nothing written. */
    char small[4] = "abc";
    assert_invalid(xwg_program_options(env.xc, NULL, small, sizeof small,
                                       NULL),
                   "xwg_program_options: size is 4,");
    ck_assert_str_eq(small, "abc");
    assert_invalid(xwg_program_source_prefix(env.xc, NULL, NULL, 8, NULL),
                   "xwg_program_source_prefix: buf is NULL");
    assert_invalid(xwg_program_options(NULL, NULL, small, sizeof small, NULL),
                   "xwg_program_options: ctx is NULL");
    assert_invalid(xwg_program_options(env.xc, "-DXWG_BARRIERS=tree", NULL,
                                       0, &options_n),
                   "xwg_program_options: options define XWG_BARRIERS");
    clReleaseKernel(k);
    clReleaseMemObject(out);
    free(prefix);
    free(options);
    test_env_close(&env);
}
END_TEST

/* Kernel `name` of a program made from prog's binary. */
static cl_kernel rebuild_from_binary(test_env *env, cl_program prog,
                                     const char *name)
{
    size_t size = 0;
    ck_assert_int_eq(clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES,
                                      sizeof size, &size, NULL),
                     CL_SUCCESS);
    unsigned char *binary = malloc(size);
    ck_assert_ptr_nonnull(binary);
    ck_assert_int_eq(clGetProgramInfo(prog, CL_PROGRAM_BINARIES,
                                      sizeof binary, &binary, NULL),
                     CL_SUCCESS);
    int err;
    const unsigned char *binaries[] = {binary};
    cl_program from = clCreateProgramWithBinary(env->cl, 1, &env->device,
                                                &size, binaries, NULL, &err);
    free(binary);
    ck_assert_int_eq(err, CL_SUCCESS);
    ck_assert_int_eq(clBuildProgram(from, 1, &env->device, NULL, NULL, NULL),
                     CL_SUCCESS);
    cl_kernel out = clCreateKernel(from, name, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    clReleaseProgram(from);
    return out;
}

/* A program built elsewhere with xwg's prefix and every option of
 * xwg_program_options() but -cl-kernel-arg-info: a launch cannot find the
 * XWG_STATE parameter, returns XWG_ERROR_NO_STATE_ARG, and
 * xwg_last_error() names the missing option and the call that gives it.
 * Without that sentence the user holds a bare status for a kernel that
 * does declare XWG_STATE. */
START_TEST(launch_without_arg_info_names_the_missing_option)
{
    test_env env;
    test_env_open(&env, NULL);
    char *prefix, *options;
    get_prefix_and_options(env.xc, NULL, &prefix, &options);
    char *flag = strstr(options, "-cl-kernel-arg-info");
    ck_assert_ptr_nonnull(flag);
    memset(flag, ' ', strlen("-cl-kernel-arg-info"));

    cl_program prog =
        build_program_elsewhere(&env, prefix, good_source, options);
    int err;
    cl_kernel k = clCreateKernel(prog, "k", &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    /* OpenCL lets an implementation keep the names anyway. PoCL does not;
     * Intel's runtime does, but drops them from a program made from a
     * binary, as a compile cache makes it (PyOpenCL's). Where neither
     * loses them, this test could not see the message. */
    char name[64];
    if (clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof name, name,
                           NULL) != CL_KERNEL_ARG_INFO_NOT_AVAILABLE) {
        clReleaseKernel(k);
        k = rebuild_from_binary(&env, prog, "k");
    }
    clReleaseProgram(prog);
    ck_assert_msg(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof name,
                                     name, NULL) ==
                      CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
                  "argument names kept without -cl-kernel-arg-info, even "
                  "in a program made from a binary");
    cl_mem out = test_buffer(&env, 64 * sizeof(cl_uint));
    clSetKernelArg(k, 0, sizeof out, &out);
    xwg_launch_info li = XWG_LAUNCH_INFO_INIT;
    int status = xwg_launch(env.xc, env.queue, k, 64, &li);
    ck_assert_msg(status == XWG_ERROR_NO_STATE_ARG, "xwg_launch returned %s",
                  xwg_status_name(status));
    ck_assert_msg(strstr(xwg_last_error(), "-cl-kernel-arg-info") != NULL &&
                      strstr(xwg_last_error(), "xwg_program_options()") !=
                          NULL,
                  "xwg_last_error() does not say what is missing: \"%s\"",
                  xwg_last_error());
    clReleaseKernel(k);
    clReleaseMemObject(out);
    free(prefix);
    free(options);
    test_env_close(&env);
}
END_TEST

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

    assert_invalid(xwg_program_build(NULL, broken, NULL, &prog, &log),
                   "xwg_program_build: ctx is NULL");
    assert_invalid(xwg_program_build(env.xc, NULL, NULL, &prog, &log),
                   "xwg_program_build: source is NULL");
    assert_invalid(xwg_program_build(env.xc, broken, NULL, NULL, &log),
                   "xwg_program_build: out is NULL");
    /* A barrier set that a launch could not read back. */
    assert_invalid(xwg_program_build(env.xc, broken, "-DXWG_BARRIERS=tree",
                                     &prog, &log),
                   "xwg_program_build: options define XWG_BARRIERS");
    ck_assert_ptr_null(prog);
    ck_assert_ptr_null(log);
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

    assert_invalid(xwg_discover(NULL, k, 64, &occ),
                   "xwg_discover: ctx is NULL");
    assert_invalid(xwg_discover(env.xc, NULL, 64, &occ),
                   "xwg_discover: kernel is NULL");
    assert_invalid(xwg_discover(env.xc, k, 64, NULL),
                   "xwg_discover: out is NULL");
    assert_invalid(xwg_discover(env.xc, k, 0, &occ),
                   "xwg_discover: local_size is 0");
    assert_invalid(xwg_discover_uncached(env.xc, k,
                                         info.max_work_group_size + 1, &occ),
                   "xwg_discover_uncached: local_size is");
    assert_invalid(xwg_discover_uncached(NULL, k, 64, &occ),
                   "xwg_discover_uncached: ctx is NULL");
    occ.size = 0;
    assert_invalid(xwg_discover(env.xc, k, 64, &occ),
                   "xwg_discover: out->size is 0 (at least 8 needed): "
                   "initialise it with XWG_OCCUPANCY_INIT");
    ck_assert_uint_eq(occ.groups, 0); /* nothing written */
    occ.size = sizeof occ;
    ck_assert_int_eq(xwg_discover(env.xc, plain, 64, &occ),
                     XWG_ERROR_NO_STATE_ARG);
    /* Launch refuses the same things. */
    xwg_launch_info li = XWG_LAUNCH_INFO_INIT;
    ck_assert_int_eq(xwg_launch(env.xc, env.queue, plain, 64, &li),
                     XWG_ERROR_NO_STATE_ARG);
    assert_invalid(xwg_launch(env.xc, NULL, k, 64, &li),
                   "xwg_launch: queue is NULL");
    assert_invalid(xwg_launch(env.xc, env.queue, k, 0, &li),
                   "xwg_launch: local_size is 0");
    /* A grid of 2^33 work-items would wrap the kernel's 32-bit ids. */
    xwg_launch_options huge = XWG_LAUNCH_OPTIONS_INIT;
    huge.groups = 1u << 23;
    huge.skip_discovery = 1;
    assert_invalid(xwg_launch_ex(env.xc, env.queue, k, 1024, &huge, &li),
                   "xwg_launch_ex: 8388608 groups (opts->groups) of 1024");
    huge.barrier = (xwg_barrier_algo)9;
    assert_invalid(xwg_launch_ex(env.xc, env.queue, k, 64, &huge, &li),
                   "xwg_launch_ex: opts->barrier is 9");
    /* None of the refusals kept a reference. */
    ck_assert_uint_eq(test_refcount_kernel(k), k_refs);
    ck_assert_uint_le(test_settled_refcount_context(env.cl, ctx_refs), ctx_refs);

    clReleaseKernel(plain);
    clReleaseKernel(k);
    clReleaseMemObject(out);
    test_env_close(&env);
}
END_TEST

/* Every launch call names the argument it refuses, and a refused launch
 * holds on to nothing: not the kernel, not the caller's buffer, not the
 * OpenCL context (the second xwg context's release must give back every
 * reference it took, state buffers and events included). */
START_TEST(launch_rejects_bad_input_and_leaks_nothing)
{
    test_env env;
    test_env_open(&env, NULL);
    int err;
    cl_uint ctx_refs = test_refcount_context(env.cl);
    xwg_context *xc = NULL;
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, NULL, &xc),
                     XWG_SUCCESS);
    cl_mem out = clCreateBuffer(env.cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_kernel k = test_build_kernel(&env, good_source, "k", NULL);
    clSetKernelArg(k, 0, sizeof out, &out);
    cl_uint k_refs = test_refcount_kernel(k);
    cl_uint out_refs = test_refcount_mem(out);

    xwg_launch_info li = XWG_LAUNCH_INFO_INIT;
    xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
    xwg_pending *p = (xwg_pending *)1;
    cl_event ev = (cl_event)1;
    assert_invalid(xwg_launch(NULL, env.queue, k, 64, &li),
                   "xwg_launch: ctx is NULL");
    assert_invalid(xwg_launch(xc, env.queue, NULL, 64, &li),
                   "xwg_launch: kernel is NULL");
    assert_invalid(xwg_launch_ex(xc, NULL, k, 64, &opts, &li),
                   "xwg_launch_ex: queue is NULL");
    assert_invalid(xwg_launch_async(xc, env.queue, k, 64, &opts, NULL, &ev),
                   "xwg_launch_async: pending is NULL");
    ck_assert_ptr_null(ev);
    assert_invalid(xwg_launch_async(xc, NULL, k, 64, &opts, &p, &ev),
                   "xwg_launch_async: queue is NULL");
    ck_assert_ptr_null(p);
    ck_assert_ptr_null(ev);
    assert_invalid(xwg_launch_async(xc, env.queue, k, 0, &opts, &p, &ev),
                   "xwg_launch_async: local_size is 0");
    opts.size = 0;
    assert_invalid(xwg_launch_ex(xc, env.queue, k, 64, &opts, &li),
                   "xwg_launch_ex: opts->size is 0 (at least 8 needed): "
                   "initialise it with XWG_LAUNCH_OPTIONS_INIT");
    assert_invalid(xwg_launch_async(xc, env.queue, k, 64, &opts, &p, &ev),
                   "xwg_launch_async: opts->size is 0");
    opts.size = sizeof opts;
    opts.barrier = (xwg_barrier_algo)5;
    assert_invalid(xwg_launch_async(xc, env.queue, k, 64, &opts, &p, &ev),
                   "xwg_launch_async: opts->barrier is 5");
    /* A default context's programs compile the counter and the tree, not
     * xf. */
    opts.barrier = XWG_BARRIER_XF;
    assert_invalid(xwg_launch_ex(xc, env.queue, k, 64, &opts, &li),
                   "xwg_launch_ex: opts->barrier is xf, which the kernel's "
                   "program did not compile");
    opts.barrier = XWG_BARRIER_DEFAULT;
    /* An info declared without XWG_LAUNCH_INFO_INIT: refused before the
     * launch, by each call that takes one. */
    li.size = 0;
    assert_invalid(xwg_launch(xc, env.queue, k, 64, &li),
                   "xwg_launch: info->size is 0 (at least 8 needed): "
                   "initialise it with XWG_LAUNCH_INFO_INIT");
    assert_invalid(xwg_launch_ex(xc, env.queue, k, 64, &opts, &li),
                   "xwg_launch_ex: info->size is 0 (at least 8 needed): "
                   "initialise it with XWG_LAUNCH_INFO_INIT");
    ck_assert_uint_eq(li.groups, 0); /* nothing written */
    assert_invalid(xwg_launch_finish(NULL, &li),
                   "xwg_launch_finish: pending is NULL");

    /* None of the refusals kept a reference to the kernel or the buffer:
     * nothing was enqueued. */
    ck_assert_uint_eq(test_refcount_kernel(k), k_refs);
    ck_assert_uint_eq(test_refcount_mem(out), out_refs);
    /* The context still launches. */
    li.size = sizeof li;
    ck_assert_int_eq(xwg_launch(xc, env.queue, k, 64, &li), XWG_SUCCESS);
    ck_assert_uint_ge(li.groups, 1);

    clReleaseKernel(k);
    clReleaseMemObject(out);
    xwg_context_release(xc);
    ck_assert_uint_le(test_settled_refcount_context(env.cl, ctx_refs),
                      ctx_refs);
    test_env_close(&env);
}
END_TEST

/* The references OpenCL holds on a launch's objects after it finished. */
typedef struct {
    cl_uint event; /* the caller's reference included */
    cl_uint kernel;
    cl_uint mem;
} launch_refs;

static launch_refs read_refs(cl_event ev, cl_kernel k, cl_mem out)
{
    return (launch_refs){refcount_event(ev), test_refcount_kernel(k),
                         test_refcount_mem(out)};
}

/* The references once each has fallen to at most `*at_most`, or after 5 s
 * (read at once when at_most is NULL). Runtimes drop the references of a
 * finished command from a worker thread (PoCL's event was seen at 3 for a
 * moment and 2 after), so a count read at once can be high; a leak stays
 * high. */
static launch_refs settled_refs(cl_event ev, cl_kernel k, cl_mem out,
                                const launch_refs *at_most)
{
    launch_refs r = read_refs(ev, k, out);
    for (int i = 0; at_most != NULL && i < 500 &&
                    (r.event > at_most->event || r.kernel > at_most->kernel ||
                     r.mem > at_most->mem);
         i++) {
        nanosleep(&(struct timespec){0, 10000000}, NULL); /* 10 ms */
        r = read_refs(ev, k, out);
    }
    return r;
}

/* One launch through xwg_launch_async() and xwg_launch_finish(p, info);
 * the status of the finish. What OpenCL still holds afterwards goes to
 * *refs, settled towards `at_most` (see settled_refs). */
static int launch_and_finish(xwg_context *xc, cl_command_queue queue,
                             cl_kernel k, cl_mem out, xwg_launch_info *info,
                             const launch_refs *at_most, launch_refs *refs)
{
    xwg_pending *p = NULL;
    cl_event ev = NULL;
    ck_assert_int_eq(xwg_launch_async(xc, queue, k, 64, NULL, &p, &ev),
                     XWG_SUCCESS);
    int status = xwg_launch_finish(p, info);
    /* Finished or refused, the kernel has run to its end. */
    cl_int done = CL_QUEUED;
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof done, &done,
                   NULL);
    ck_assert_int_eq(done, CL_COMPLETE);
    *refs = settled_refs(ev, k, out, at_most);
    clReleaseEvent(ev);
    return status;
}

/* xwg_launch_finish() refuses an info of size 0 as xwg_launch_ex() does
 * (it used to treat it as NULL and succeed), and still waits for the
 * launch and frees it. A pending launch that the refusal kept would hold
 * the kernel's event, so the event would keep more references than after
 * a finish that succeeds (PoCL keeps one of its own after either), and it
 * would hold a state buffer, so the context's release would not give
 * every reference back. */
START_TEST(launch_finish_refuses_info_of_size_0_and_frees_launch)
{
    test_env env;
    test_env_open(&env, NULL);
    int err;
    cl_uint ctx_refs = test_refcount_context(env.cl);
    xwg_context *xc = NULL;
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, NULL, &xc),
                     XWG_SUCCESS);
    cl_mem out = clCreateBuffer(env.cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_kernel k = test_build_kernel(&env, good_source, "k", NULL);
    clSetKernelArg(k, 0, sizeof out, &out);

    /* The first launch discovers and calibrates; the two compared below
     * then take the same steps, but for the info. */
    xwg_launch_info li = XWG_LAUNCH_INFO_INIT;
    ck_assert_int_eq(xwg_launch(xc, env.queue, k, 64, &li), XWG_SUCCESS);
    launch_refs good, bad_refs;
    ck_assert_int_eq(
        launch_and_finish(xc, env.queue, k, out, &li, NULL, &good),
        XWG_SUCCESS);
    ck_assert_uint_ge(li.groups, 1);

    xwg_launch_info bad = XWG_LAUNCH_INFO_INIT;
    bad.size = 0;
    assert_invalid(
        launch_and_finish(xc, env.queue, k, out, &bad, &good, &bad_refs),
                   "xwg_launch_finish: info->size is 0 (at least 8 needed): "
                   "initialise it with XWG_LAUNCH_INFO_INIT");
    ck_assert_uint_eq(bad.groups, 0); /* nothing written */
    ck_assert_uint_le(bad_refs.event, good.event);
    ck_assert_uint_le(bad_refs.kernel, good.kernel);
    ck_assert_uint_le(bad_refs.mem, good.mem);

    /* The state buffer went back: the next launch runs and reports. */
    li.groups = 0;
    ck_assert_int_eq(
        launch_and_finish(xc, env.queue, k, out, &li, NULL, &good),
        XWG_SUCCESS);
    ck_assert_uint_ge(li.groups, 1);

    clReleaseKernel(k);
    clReleaseMemObject(out);
    xwg_context_release(xc);
    ck_assert_uint_le(test_settled_refcount_context(env.cl, ctx_refs),
                      ctx_refs);
    test_env_close(&env);
}
END_TEST

/* A kernel with XWG_STATE but no XWG_DISCOVER(): a launch and a
 * discovery return XWG_ERROR_KERNEL_NOT_RUN, as docs/host-api.md promises,
 * and xwg_last_error() names the missing macro, whether the context was
 * calibrated by its self-test or the kernel is the first it discovers
 * (the self-test skipped: its calibration would run on this kernel).
 * Without that a user sees XWG_ERROR_DISCOVERY_FAILED and "", and looks
 * for a fault in the protocol. Nothing is left cached or retained. */
START_TEST(kernel_without_discover_is_named_not_run)
{
    static const char source[] =
        "__kernel void no_discover(__global uint *out, XWG_STATE)\n"
        "{\n"
        "    out[get_global_id(0)] = 1u;\n"
        "}\n";
    for (int skip = 0; skip < 2; skip++) {
        xwg_options opts;
        xwg_options_init(&opts);
        opts.self_test = skip ? XWG_SELF_TEST_SKIP : XWG_SELF_TEST_REQUIRE;
        test_env env;
        test_env_open(&env, &opts);
        cl_kernel k = test_build_kernel(&env, source, "no_discover", NULL);
        cl_mem out = test_buffer(&env, 1024 * 64 * sizeof(cl_uint));
        clSetKernelArg(k, 0, sizeof out, &out);
        cl_uint ctx_refs = test_refcount_context(env.cl);
        cl_uint kernel_refs = test_refcount_kernel(k);
        xwg_launch_info li = XWG_LAUNCH_INFO_INIT;
        xwg_occupancy occ = XWG_OCCUPANCY_INIT;
        for (int call = 0; call < 2; call++) {
            int status = call == 0 ? xwg_launch(env.xc, env.queue, k, 64, &li)
                                   : xwg_discover(env.xc, k, 64, &occ);
            ck_assert_msg(status == XWG_ERROR_KERNEL_NOT_RUN,
                          "%s (self-test %s) returned %s",
                          call == 0 ? "xwg_launch" : "xwg_discover",
                          skip ? "skipped" : "run", xwg_status_name(status));
            ck_assert_msg(strstr(xwg_last_error(), "did not run "
                                                   "XWG_DISCOVER()") != NULL,
                          "xwg_last_error() does not name the cause: "
                          "\"%s\"", xwg_last_error());
        }
        ck_assert_uint_le(test_settled_refcount_kernel(k, kernel_refs),
                          kernel_refs);
        ck_assert_uint_le(test_settled_refcount_context(env.cl, ctx_refs),
                          ctx_refs);
        clReleaseMemObject(out);
        clReleaseKernel(k);
        test_env_close(&env);
    }
}
END_TEST

/* Misuse rule 5, a collective in a group larger than the program's
 * scratch: xwg_last_error() names the limit as a number and what to do
 * (a smaller local size, or xwg_program_build()'s scratch), not the
 * internal macro that holds it, which a user can neither see nor should
 * set. The program is built with a scratch of 32 words so that a group of
 * 64 breaks the rule on any device. */
START_TEST(group_too_large_names_the_limit)
{
    static const char source[] =
        "__kernel void sum(__global uint *out, XWG_STATE)\n"
        "{\n"
        "    XWG_DISCOVER();\n"
        "    const uint total = xwg_reduce_add_uint(1u);\n"
        "    if (xwg_global_id() == 0u)\n"
        "        out[0] = total;\n"
        "}\n";
    test_env env;
    test_env_open(&env, NULL);
    cl_kernel k =
        test_build_kernel(&env, source, "sum", "-DXWG__SCRATCH_WORDS=32u");
    cl_mem out = test_buffer(&env, sizeof(cl_uint));
    clSetKernelArg(k, 0, sizeof out, &out);
    xwg_launch_info li = XWG_LAUNCH_INFO_INIT;
    int status = xwg_launch(env.xc, env.queue, k, 64, &li);
    ck_assert_msg(status == XWG_ERROR_BARRIER_MISUSE, "xwg_launch returned %s",
                  xwg_status_name(status));
    const char *says = xwg_last_error();
    ck_assert_msg(strstr(says, "(rule 5)") != NULL &&
                      strstr(says, "larger than 32 work-items") != NULL &&
                      strstr(says, "local size of at most 32") != NULL &&
                      strstr(says, "xwg_program_build()") != NULL &&
                      strstr(says, "XWG__") == NULL,
                  "xwg_last_error() does not name the limit and the fix: "
                  "\"%s\"", says);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    test_env_close(&env);
}
END_TEST

/* opts->min_groups above what the device can hold (a million groups of
 * 64 on PoCL): the launch fails with XWG_ERROR_TOO_FEW_GROUPS before
 * anything is enqueued, names the groups found and required, and leaks
 * nothing; min_groups at the count found runs. Without it a busy machine
 * runs a launch on one group, and the caller never learns. A forced
 * count below min_groups is a contradiction: invalid. */
START_TEST(launch_below_min_groups_fails_and_leaks_nothing)
{
    test_env env;
    test_env_open(&env, NULL);
    cl_kernel k = test_build_kernel(&env, good_source, "k", NULL);
    cl_mem out = test_buffer(&env, 4096 * sizeof(cl_uint));
    clSetKernelArg(k, 0, sizeof out, &out);
    xwg_launch_info li = XWG_LAUNCH_INFO_INIT;
    /* The first launch keeps the kernel's facts and its discovery, which
     * hold references by contract: counted before the failing one. */
    ck_assert_int_eq(xwg_launch(env.xc, env.queue, k, 64, &li), XWG_SUCCESS);
    cl_uint ctx_refs = test_refcount_context(env.cl);
    cl_uint kernel_refs = test_refcount_kernel(k);

    xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
    opts.min_groups = 1000000;
    xwg_launch_info failed = XWG_LAUNCH_INFO_INIT;
    int status = xwg_launch_ex(env.xc, env.queue, k, 64, &opts, &failed);
    ck_assert_msg(status == XWG_ERROR_TOO_FEW_GROUPS,
                  "xwg_launch_ex returned %s", xwg_status_name(status));
    ck_assert_msg(strstr(xwg_last_error(), "co-resident groups") != NULL &&
                      strstr(xwg_last_error(), "min_groups (1000000)") != NULL,
                  "xwg_last_error() does not name found and required: "
                  "\"%s\"", xwg_last_error());
    ck_assert_str_eq(xwg_status_name(status), "XWG_ERROR_TOO_FEW_GROUPS");
    ck_assert_uint_eq(failed.groups, 0); /* nothing ran: info untouched */
    xwg_pending *pending = NULL;
    ck_assert_int_eq(xwg_launch_async(env.xc, env.queue, k, 64, &opts,
                                      &pending, NULL),
                     XWG_ERROR_TOO_FEW_GROUPS);
    ck_assert_ptr_null(pending);
    ck_assert_uint_le(test_settled_refcount_kernel(k, kernel_refs),
                      kernel_refs);
    ck_assert_uint_le(test_settled_refcount_context(env.cl, ctx_refs),
                      ctx_refs);

    opts.min_groups = 1;
    ck_assert_int_eq(xwg_launch_ex(env.xc, env.queue, k, 64, &opts, &li),
                     XWG_SUCCESS);
    ck_assert_uint_ge(li.groups, 1);

    opts.groups = 2;
    opts.min_groups = 4;
    assert_invalid(xwg_launch_ex(env.xc, env.queue, k, 64, &opts, &li),
                   "opts->groups is 2, below opts->min_groups (4)");
    clReleaseMemObject(out);
    clReleaseKernel(k);
    test_env_close(&env);
}
END_TEST

/* xwg_last_error() describes the last call only: a success empties it,
 * and a failure with nothing more to say than its status never carries an
 * earlier failure's reason (which would send a caller, or Python's
 * XwgError, to fix the wrong thing). */
START_TEST(last_error_describes_the_last_call_only)
{
    test_env env;
    test_env_open(&env, NULL);
    cl_kernel k = test_build_kernel(&env, good_source, "k", NULL);
    xwg_launch_info li = XWG_LAUNCH_INFO_INIT;
    assert_invalid(xwg_launch(env.xc, env.queue, k, 0, &li),
                   "xwg_launch: local_size is 0");

    xwg_device_info info = XWG_DEVICE_INFO_INIT;
    ck_assert_int_eq(xwg_context_query(env.xc, &info), XWG_SUCCESS);
    ck_assert_str_eq(xwg_last_error(), "");

    /* Argument 0 unset: OpenCL refuses the launch, with its own status. */
    assert_invalid(xwg_launch(env.xc, env.queue, k, 0, &li),
                   "xwg_launch: local_size is 0");
    int status = xwg_launch(env.xc, env.queue, k, 64, &li);
    ck_assert_int_ne(status, XWG_SUCCESS);
    ck_assert_msg(strstr(xwg_last_error(), "local_size") == NULL,
                  "%s carries the earlier failure's reason: \"%s\"",
                  xwg_status_name(status), xwg_last_error());
    clReleaseKernel(k);
    test_env_close(&env);
}
END_TEST

START_TEST(find_device_rejects_bad_input)
{
    cl_platform_id platform;
    cl_device_id device;
    assert_invalid(xwg_find_device(NULL, NULL, &device),
                   "xwg_find_device: platform is NULL");
    assert_invalid(xwg_find_device("Portable", &platform, NULL),
                   "xwg_find_device: device is NULL");
}
END_TEST

/* A word of `vendor` (split at spaces) that `name` does not hold, in any
 * case, into `word`; 0 where there is none. */
static int vendor_only_word(const char *name, const char *vendor, char *word,
                            size_t size)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", vendor);
    for (char *w = strtok(copy, " "); w != NULL; w = strtok(NULL, " "))
        if (strlen(w) >= 3 && strcasestr(name, w) == NULL) {
            snprintf(word, size, "%s", w);
            return 1;
        }
    return 0;
}

/* A platform is found by a part of its name or of its vendor, in any
 * case. The first platform of the test's implementation serves: a part of
 * its name in another case, and a word that only its vendor holds (PoCL's
 * "pocl", in "The pocl project"; Intel's "Corporation"). */
START_TEST(find_device_matches_name_or_vendor)
{
    cl_platform_id first, platform;
    cl_device_id device;
    char name[256], vendor[256], word[256];
    ck_assert_int_eq(clGetPlatformIDs(1, &first, NULL), CL_SUCCESS);
    clGetPlatformInfo(first, CL_PLATFORM_NAME, sizeof name, name, NULL);
    clGetPlatformInfo(first, CL_PLATFORM_VENDOR, sizeof vendor, vendor, NULL);

    char part[8] = ""; /* the first letters of the name, in lower case */
    for (size_t i = 0; i + 1 < sizeof part && name[i] != '\0'; i++)
        part[i] = (char)tolower((unsigned char)name[i]);
    ck_assert_int_eq(xwg_find_device(part, &platform, &device), XWG_SUCCESS);
    ck_assert_ptr_eq(platform, first);
    ck_assert_int_eq(xwg_platform_matches(platform, name), 1);
    ck_assert_msg(vendor_only_word(name, vendor, word, sizeof word),
                  "no word of the vendor \"%s\" is missing from the name "
                  "\"%s\"", vendor, name);
    for (char *c = word; *c != '\0'; c++)
        *c = (char)toupper((unsigned char)*c);
    ck_assert_int_eq(xwg_find_device(word, &platform, &device), XWG_SUCCESS);
    ck_assert_ptr_eq(platform, first);
    ck_assert_int_eq(xwg_platform_matches(platform, "no such platform"), 0);
    ck_assert_int_eq(xwg_find_device("no such platform", &platform, &device),
                     XWG_ERROR_NO_DEVICE);
    /* The refusal lists what there is, name and vendor, as xwg-discover
     * does: without it the caller cannot tell what to ask for. */
    char listed[600];
    snprintf(listed, sizeof listed, "\"%s\", vendor \"%s\"", name, vendor);
    ck_assert_msg(strstr(xwg_last_error(), "\"no such platform\"") != NULL &&
                      strstr(xwg_last_error(), listed) != NULL,
                  "xwg_last_error() does not list the platform %s: \"%s\"",
                  listed, xwg_last_error());
}
END_TEST

/* Launches ask nothing of a kernel's program, which the application may
 * release as soon as it has its kernels: Intel's runtime then refuses
 * every query on the program, though the kernel still runs. A kernel of a
 * released program launches, synchronously and asynchronously, is
 * discovered, and still knows the barriers its program compiled: a
 * program of the counter alone refuses the tree, naming its set. Both
 * builds count: xwg_program_build() and a build elsewhere with xwg's
 * prefix and options. */
START_TEST(launch_needs_no_program_once_released)
{
    test_env env;
    test_env_open(&env, NULL);
    char *prefix, *options;
    get_prefix_and_options(env.xc, "-DXWG_BARRIERS=4u", &prefix, &options);
    cl_kernel kernels[2] = {
        test_build_kernel(&env, good_source, "k", "-DXWG_BARRIERS=4u"),
        build_elsewhere(&env, prefix, good_source, options, "k")};
    cl_mem out = test_buffer(&env, 64 * sizeof(cl_uint));
    for (int i = 0; i < 2; i++) {
        cl_kernel k = kernels[i]; /* its program released (both helpers) */
        ck_assert_int_eq(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
        xwg_occupancy occ = XWG_OCCUPANCY_INIT;
        ck_assert_int_eq(xwg_discover(env.xc, k, 64, &occ), XWG_SUCCESS);
        xwg_launch_info li = XWG_LAUNCH_INFO_INIT;
        test_fill(&env, out, 0, 1);
        int err = xwg_launch(env.xc, env.queue, k, 64, &li);
        ck_assert_msg(err == XWG_SUCCESS, "build %d: xwg_launch: %s (%s)", i,
                      xwg_status_name(err), xwg_last_error());
        cl_uint got;
        test_read_words(&env, out, &got, 1);
        ck_assert_uint_eq(got, li.groups);

        xwg_pending *p = NULL;
        ck_assert_int_eq(xwg_launch_async(env.xc, env.queue, k, 64, NULL, &p,
                                          NULL),
                         XWG_SUCCESS);
        ck_assert_int_eq(xwg_launch_finish(p, &li), XWG_SUCCESS);

        xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
        lo.barrier = XWG_BARRIER_TREE;
        assert_invalid(xwg_launch_ex(env.xc, env.queue, k, 64, &lo, &li),
                       "did not compile (set 0x4");
        lo.barrier = XWG_BARRIER_COUNTER;
        ck_assert_int_eq(xwg_launch_ex(env.xc, env.queue, k, 64, &lo, &li),
                         XWG_SUCCESS);
        ck_assert_int_eq(li.barrier, XWG_BARRIER_COUNTER);
        clReleaseKernel(k);
    }
    clReleaseMemObject(out);
    free(prefix);
    free(options);
    test_env_close(&env);
}
END_TEST

/* A build that no context or caller fixes compiles the barrier set that
 * the device ran fastest: timed at the context's first such build (the
 * set is 0 before it), one of counter, tree, or both; the build options
 * and every later launch follow it, and a second context on the device
 * takes it from the process's record. A context that fixes a barrier
 * times nothing; XWG_CALIBRATE=0 keeps both, untimed. Without the set in
 * the options, a program built elsewhere would compile other barriers
 * than xwg_program_build()'s. */
START_TEST(default_build_compiles_the_set_the_device_runs_fastest)
{
    setenv("XWG_CALIBRATE", "1", 1);
    test_env env;
    test_env_open(&env, NULL);
    xwg_device_info info = XWG_DEVICE_INFO_INIT;
    ck_assert_int_eq(xwg_context_query(env.xc, &info), XWG_SUCCESS);
    ck_assert_uint_eq(info.default_barriers, 0);
    cl_kernel k = test_build_kernel(&env, good_source, "k", NULL);
    ck_assert_int_eq(xwg_context_query(env.xc, &info), XWG_SUCCESS);
    const cl_uint set = info.default_barriers;
    ck_assert_msg(set == 0x4 || set == 0x8 || set == 0xc, "set 0x%x", set);
    char *prefix, *options, define[32];
    get_prefix_and_options(env.xc, NULL, &prefix, &options);
    snprintf(define, sizeof define, "-DXWG_BARRIERS=%uu", set);
    ck_assert_msg(strstr(options, define) != NULL, "options: %s", options);
    cl_mem out = test_buffer(&env, 64 * sizeof(cl_uint));
    clSetKernelArg(k, 0, sizeof out, &out);
    xwg_launch_info li = XWG_LAUNCH_INFO_INIT;
    ck_assert_int_eq(xwg_launch(env.xc, env.queue, k, 64, &li), XWG_SUCCESS);
    ck_assert_msg((set >> li.barrier) & 1u, "ran %s, set 0x%x",
                  xwg_barrier_algo_name(li.barrier), set);

    xwg_context *again, *fixed;
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, NULL, &again),
                     XWG_SUCCESS);
    free(prefix);
    free(options);
    get_prefix_and_options(again, NULL, &prefix, &options);
    ck_assert_msg(strstr(options, define) != NULL, "again: %s", options);
    xwg_options fix;
    xwg_options_init(&fix);
    fix.barrier = XWG_BARRIER_TREE;
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, &fix, &fixed),
                     XWG_SUCCESS);
    free(prefix);
    free(options);
    get_prefix_and_options(fixed, NULL, &prefix, &options);
    ck_assert_msg(strstr(options, "-DXWG_BARRIERS=8u") != NULL, "%s",
                  options);
    ck_assert_int_eq(xwg_context_query(fixed, &info), XWG_SUCCESS);
    ck_assert_uint_eq(info.default_barriers, 0);
    xwg_context_release(fixed);
    xwg_context_release(again);

    setenv("XWG_CALIBRATE", "0", 1);
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, NULL, &again),
                     XWG_SUCCESS);
    free(prefix);
    free(options);
    get_prefix_and_options(again, NULL, &prefix, &options);
    ck_assert_int_eq(xwg_context_query(again, &info), XWG_SUCCESS);
    ck_assert_uint_eq(info.default_barriers, 0xc);
    ck_assert_msg(strstr(options, "-DXWG_BARRIERS=12u") != NULL, "%s",
                  options);
    xwg_context_release(again);
    free(prefix);
    free(options);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    test_env_close(&env);
}
END_TEST

/* A launch keeps what it learnt of a kernel (its XWG_STATE index, the
 * barriers its program compiled) until the context goes, holding a
 * reference so that the handle cannot come back as another kernel: a
 * second kernel (state_first_source, tests/kernels/api_state_first.cl),
 * with XWG_STATE first where the first kernel had it second, must get
 * its own index (with the first one's, its state buffer would be set on
 * its output and the output on nothing), and the context's release must
 * give the kept reference back. */
START_TEST(launches_learn_each_kernel_once_and_give_it_back)
{
    test_env env;
    test_env_open(&env, NULL);
    cl_mem out = test_buffer(&env, 64 * sizeof(cl_uint));
    cl_kernel k = test_build_kernel(&env, good_source, "k", NULL);
    cl_kernel first = test_build_kernel(&env, state_first_source,
                                        "state_first", NULL);
    clSetKernelArg(k, 0, sizeof out, &out);
    clSetKernelArg(first, 1, sizeof out, &out);
    const cl_uint k_refs = test_refcount_kernel(k);
    xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
    lo.groups = 1;
    lo.skip_discovery = 1;
    for (int round = 0; round < 2; round++) { /* learnt, then known */
        xwg_launch_info li = XWG_LAUNCH_INFO_INIT;
        test_fill(&env, out, 0, 1);
        ck_assert_int_eq(xwg_launch_ex(env.xc, env.queue, k, 64, &lo, &li),
                         XWG_SUCCESS);
        cl_uint got;
        test_read_words(&env, out, &got, 1);
        ck_assert_uint_eq(got, 1);
        test_fill(&env, out, 0, 1);
        ck_assert_int_eq(
            xwg_launch_ex(env.xc, env.queue, first, 64, &lo, &li),
            XWG_SUCCESS);
        test_read_words(&env, out, &got, 1);
        ck_assert_uint_eq(got, 8);
    }
    ck_assert_uint_gt(test_refcount_kernel(k), k_refs); /* kept */
    xwg_context_release(env.xc);
    env.xc = NULL;
    ck_assert_uint_eq(test_settled_refcount_kernel(k, k_refs), k_refs);
    clReleaseKernel(first);
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
    ck_assert_uint_eq(test_settled_refcount_kernel(k, refs), refs);
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
    tcase_add_test(status, platform_names_match_ignoring_case);
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
    tcase_add_test(device, build_log_names_a_missing_macro);
    tcase_add_test(device, helper_passes_xwg_self);
    tcase_add_test(device, programs_built_elsewhere_get_xwgs_prefix_and_options);
    tcase_add_test(device, launch_without_arg_info_names_the_missing_option);
    tcase_add_test(device, discover_rejects_bad_input_and_leaks_nothing);
    tcase_add_test(device, launch_rejects_bad_input_and_leaks_nothing);
    tcase_add_test(device,
                   launch_finish_refuses_info_of_size_0_and_frees_launch);
    tcase_add_test(device, find_device_rejects_bad_input);
    tcase_add_test(device, find_device_matches_name_or_vendor);
    tcase_add_test(device, last_error_describes_the_last_call_only);
    tcase_add_test(device, kernel_without_discover_is_named_not_run);
    tcase_add_test(device, group_too_large_names_the_limit);
    tcase_add_test(device, launch_below_min_groups_fails_and_leaks_nothing);
    tcase_add_test(device, discovery_is_cached_per_local_memory_size);
    tcase_add_test(device, launches_learn_each_kernel_once_and_give_it_back);
    tcase_add_test(device, launch_needs_no_program_once_released);
    tcase_add_test(device,
                   default_build_compiles_the_set_the_device_runs_fastest);
    suite_add_tcase(s, device);
    return test_run_suite(s);
}
