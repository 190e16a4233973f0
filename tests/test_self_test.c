/*
 * test_self_test.c - the self-test can fail wherever more than one group
 * can be resident, refuses only for wrong reads (or, on a GPU, for a
 * barrier that never completes), and says what it saw.
 *
 * ctest runs the case "one_thread" on PoCL with one worker thread (one
 * group at a time) and "two_threads" with two. Some tests reach into the
 * context to give the device a property it lacks: one compute unit while
 * two groups fit (as rusticl on Zink reports one and runs thousands),
 * or the type GPU. Each test runs in its own process (Check forks), so
 * the self-test's per-process cache starts empty in each.
 */
#include "internal.h"
#include "test_util.h"

#include <string.h>

/* An environment whose context has not run the self-test yet. */
static void open_untested(test_env *env)
{
    xwg_options opts;
    xwg_options_init(&opts);
    opts.self_test = XWG_SELF_TEST_SKIP; /* run by the test */
    test_env_open(env, &opts);
}

/* Runs the self-test on env's context as it now stands, and asserts its
 * result (the message gives the one it had, and its sentence). */
static void expect_self_test(test_env *env, xwg_self_test_result want)
{
    ck_assert_int_eq(xwg__run_self_test(env->xc), XWG_SUCCESS);
    const xwg_device_info *info = &env->xc->info;
    ck_assert_msg(info->self_test == want, "%s, not %s: %s",
                  xwg_self_test_result_name(info->self_test),
                  xwg_self_test_result_name(want), info->self_test_detail);
}

/* ---- one worker thread --------------------------------------------------- */

/* Only one group is ever resident: the device is accepted, and says why
 * its barrier needs no test. A self-test that refused it (two groups that
 * never meet, the old rule) or passed it as tested would fail here. */
START_TEST(one_group_device_is_accepted_and_says_so)
{
    test_env env;
    test_env_open(&env, NULL); /* XWG_SELF_TEST_REQUIRE */
    xwg_device_info info = XWG_DEVICE_INFO_INIT;
    ck_assert_int_eq(xwg_context_query(env.xc, &info), XWG_SUCCESS);
    ck_assert_msg(info.self_test == XWG_SELF_TEST_ONE_GROUP, "%s: %s",
                  xwg_self_test_result_name(info.self_test),
                  info.self_test_detail);
    ck_assert_ptr_nonnull(strstr(info.self_test_detail, "trivially safe"));
    ck_assert_uint_eq(info.self_test_errors, 0);
    test_env_close(&env);
}
END_TEST

/* A device of two compute units where discovery finds one group (as on
 * a loaded machine) cannot be decided: untested, not refused, not
 * passed. */
START_TEST(fewer_groups_than_compute_units_is_untested)
{
    test_env env;
    open_untested(&env);
    env.xc->info.compute_units = 2;
    expect_self_test(&env, XWG_SELF_TEST_UNTESTED);
    ck_assert_uint_eq(env.xc->info.self_test_errors, 0);
    test_env_close(&env);
}
END_TEST

/* ---- two worker threads -------------------------------------------------- */

/* One compute unit reported, two groups resident: the self-test runs on
 * the groups that fit, never one. (The old self-test launched one group
 * on such a device: it could not fail, and passed rusticl on Zink.) */
START_TEST(one_compute_unit_does_not_shrink_the_test)
{
    test_env env;
    open_untested(&env);
    env.xc->info.compute_units = 1;
    expect_self_test(&env, XWG_SELF_TEST_PASSED);
    ck_assert_uint_ge(env.xc->info.self_test_groups, 2);
    ck_assert_uint_eq(env.xc->info.self_test_episodes, 9 * 64);
    test_env_close(&env);
}
END_TEST

/* The same device with a no-op barrier (known-bad BARRIER_NOOP): the self-test
 * sees wrong reads and fails. With one group it would pass. */
START_TEST(broken_barrier_fails_on_one_compute_unit)
{
    test_env env;
    open_untested(&env);
    env.xc->info.compute_units = 1;
    xwg__self_test_inject_options("-DXWG_TEST_BROKEN_BARRIER_NOOP");
    expect_self_test(&env, XWG_SELF_TEST_FAILED);
    ck_assert_uint_gt(env.xc->info.self_test_errors, 0);
    ck_assert_uint_ge(env.xc->info.self_test_groups, 2);
    ck_assert_ptr_nonnull(
        strstr(env.xc->info.self_test_detail, "wrong reads"));
    test_env_close(&env);
}
END_TEST

/* A context on a device that fails is refused, leaves nothing behind,
 * and xwg_last_error() says what the self-test saw. */
START_TEST(refusal_says_what_was_seen)
{
    test_env env;
    open_untested(&env);
    cl_uint before = test_refcount_context(env.cl);
    xwg__self_test_inject_options("-DXWG_TEST_BROKEN_BARRIER_NOOP");
    xwg_context *xc = (xwg_context *)1;
    int err = xwg_context_create(env.cl, env.device, NULL, &xc);
    ck_assert_msg(err == XWG_ERROR_UNSUPPORTED_DEVICE, "accepted: %s",
                  xwg_status_name(err));
    ck_assert_ptr_null(xc);
    const char *why = xwg_last_error();
    ck_assert_msg(strstr(why, "refused") && strstr(why, "wrong reads") &&
                      strstr(why, env.xc->info.device_name),
                  "xwg_last_error: \"%s\"", why);
    ck_assert_uint_le(test_settled_refcount_context(env.cl, before), before);
    test_env_close(&env);
}
END_TEST

/* Launches that time out are run again with more patience, three times
 * at most: three timeouts still leave a pass... */
START_TEST(three_timeouts_are_retried)
{
    test_env env;
    open_untested(&env);
    xwg__self_test_inject_timeouts(3);
    expect_self_test(&env, XWG_SELF_TEST_PASSED);
    ck_assert_uint_eq(env.xc->info.self_test_episodes, 9 * 64);
    test_env_close(&env);
}
END_TEST

/* ...a fourth on a CPU device cannot be decided: untested, accepted,
 * never refused for timing alone. */
START_TEST(a_fourth_timeout_on_a_cpu_is_untested)
{
    test_env env;
    open_untested(&env);
    xwg__self_test_inject_timeouts(4);
    expect_self_test(&env, XWG_SELF_TEST_UNTESTED);
    ck_assert_uint_eq(env.xc->info.self_test_errors, 0);
    test_env_close(&env);
}
END_TEST

/* On a GPU, co-resident groups that cannot complete a barrier twice in a
 * row (rusticl's cl12 path on Zink) are a broken barrier: refused. */
START_TEST(a_gpu_whose_barrier_never_completes_fails)
{
    test_env env;
    open_untested(&env);
    env.xc->info.device_type = CL_DEVICE_TYPE_GPU;
    xwg__self_test_inject_timeouts(2);
    expect_self_test(&env, XWG_SELF_TEST_FAILED);
    ck_assert_ptr_nonnull(
        strstr(env.xc->info.self_test_detail, "never completed"));
    test_env_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("self_test");
    TCase *one = tcase_create("one_thread");
    tcase_set_timeout(one, 120);
    tcase_add_test(one, one_group_device_is_accepted_and_says_so);
    tcase_add_test(one, fewer_groups_than_compute_units_is_untested);
    suite_add_tcase(s, one);
    TCase *two = tcase_create("two_threads");
    tcase_set_timeout(two, 120);
    tcase_add_test(two, one_compute_unit_does_not_shrink_the_test);
    tcase_add_test(two, broken_barrier_fails_on_one_compute_unit);
    tcase_add_test(two, refusal_says_what_was_seen);
    tcase_add_test(two, a_fourth_timeout_on_a_cpu_is_untested);
    tcase_add_test(two, a_gpu_whose_barrier_never_completes_fails);
    suite_add_tcase(s, two);
    /* Three injected timeouts spend every retry: each launch left must
     * decide, which needs a device that runs two groups at once on every
     * launch (PoCL's two threads; not Intel's runtime, which sometimes
     * admits one: tests/intel_tests.cmake). */
    TCase *no_spare = tcase_create("two_threads_no_spare_retry");
    tcase_set_timeout(no_spare, 120);
    tcase_add_test(no_spare, three_timeouts_are_retried);
    suite_add_tcase(s, no_spare);
    return test_run_suite(s);
}
