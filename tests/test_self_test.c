/*
 * test_self_test.c - a device whose two groups never meet is refused, and
 * the self-test's retries of launches that time out are bounded.
 *
 * The self-test runs a launch again when it times out with no wrong read
 * (a loaded machine can hold one group back), so a retry that forgot its
 * bound would hang here, and one that took a later success for a pass, or
 * a timeout for one, would let the device through. ctest runs this on
 * PoCL with a single worker thread: the two groups of a launch then run one
 * after the other and can never meet. PoCL reports one compute unit there,
 * for which the self-test launches a single group, so the test claims two,
 * through the library's internals, and runs the self-test itself.
 */
#include "internal.h"
#include "test_util.h"

START_TEST(two_groups_that_never_meet_fail_the_self_test)
{
    test_env env;
    xwg_options opts;
    xwg_options_init(&opts);
    opts.self_test = XWG_SELF_TEST_SKIP; /* run below, on two groups */
    test_env_open(&env, &opts);
    xwg_device_info *info = &env.xc->info;
    ck_assert_uint_eq(info->compute_units, 1);
    info->compute_units = 2;

    ck_assert_int_eq(xwg__run_self_test(env.xc), XWG_SUCCESS);
    ck_assert_int_eq(info->self_test, XWG_SELF_TEST_FAILED);
    /* Refused for the timeouts alone: no launch completed, none misread. */
    ck_assert_uint_eq(info->self_test_errors, 0);
    ck_assert_uint_eq(info->self_test_episodes, 0);
    test_env_close(&env);
}
END_TEST

/* The self-test on the device as it is (one group on one worker thread),
 * after `timeouts` launches that report a timeout: the result, and the
 * episodes that ran. */
static void self_test_after(int timeouts, xwg_self_test_result *result,
                            cl_uint *episodes)
{
    test_env env;
    xwg_options opts;
    xwg_options_init(&opts);
    opts.self_test = XWG_SELF_TEST_SKIP;
    test_env_open(&env, &opts);
    xwg__self_test_inject_timeouts(timeouts);
    ck_assert_int_eq(xwg__run_self_test(env.xc), XWG_SUCCESS);
    *result = env.xc->info.self_test;
    *episodes = env.xc->info.self_test_episodes;
    ck_assert_uint_eq(env.xc->info.self_test_errors, 0);
    test_env_close(&env);
}

/* Two timeouts are retried and the nine launches still run... (Each case
 * in its own process: a process caches its self-test result.) */
START_TEST(two_timeouts_are_retried)
{
    xwg_self_test_result result;
    cl_uint episodes;
    self_test_after(2, &result, &episodes);
    ck_assert_int_eq(result, XWG_SELF_TEST_PASSED);
    ck_assert_uint_eq(episodes, 9 * 64);
}
END_TEST

/* ...a third is not, and the device is refused. */
START_TEST(a_third_timeout_is_not)
{
    xwg_self_test_result result;
    cl_uint episodes;
    self_test_after(3, &result, &episodes);
    ck_assert_int_eq(result, XWG_SELF_TEST_FAILED);
    ck_assert_uint_eq(episodes, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("self_test");
    TCase *tc = tcase_create("refusal");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, two_groups_that_never_meet_fail_the_self_test);
    tcase_add_test(tc, two_timeouts_are_retried);
    tcase_add_test(tc, a_third_timeout_is_not);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
