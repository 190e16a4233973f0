/*
 * test_rusticl.c - Mesa rusticl is refused, never wrong.
 *
 * rusticl promises only relaxed, work-group-scope atomics, and its
 * barrier lets a group read another group's value from before the
 * barrier. xwg_context_create's self-test must catch that and refuse the
 * device with XWG_ERROR_UNSUPPORTED_DEVICE, unless the caller forces it
 * (XWG_SELF_TEST_REPORT), in which case the result is recorded.
 */
#include "test_util.h"

START_TEST(rusticl_is_refused_by_default)
{
    cl_platform_id platform;
    cl_device_id device;
    ck_assert_int_eq(xwg_find_device("rusticl", &platform, &device),
                     XWG_SUCCESS);
    int err;
    cl_context cl = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    ck_assert_ptr_nonnull(cl);
    cl_uint before = test_refcount_context(cl);
    xwg_context *xc = (xwg_context *)1;
    err = xwg_context_create(cl, device, NULL, &xc);
    if (err == XWG_SUCCESS) {
        /* Say what the self-test saw, to tell a test that could not
         * decide from one that passed. */
        xwg_device_info seen = XWG_DEVICE_INFO_INIT;
        xwg_context_query(xc, &seen);
        ck_abort_msg("rusticl accepted, self-test %d: %s", (int)seen.self_test,
                     seen.self_test_detail);
    }
    ck_assert_msg(err == XWG_ERROR_UNSUPPORTED_DEVICE,
                  "rusticl not refused: %s", xwg_status_name(err));
    ck_assert_ptr_null(xc);
    /* The refused context left nothing behind. */
    ck_assert_uint_le(test_settled_refcount_context(cl, before), before);

    /* Forced: the context works, and says why it would be refused. */
    xwg_options opts;
    xwg_options_init(&opts);
    opts.self_test = XWG_SELF_TEST_REPORT;
    ck_assert_int_eq(xwg_context_create(cl, device, &opts, &xc), XWG_SUCCESS);
    ck_assert_str_eq(xwg_last_error(), ""); /* a success says no more */
    xwg_device_info info = XWG_DEVICE_INFO_INIT;
    xwg_context_query(xc, &info);
    ck_assert_int_eq(info.self_test, XWG_SELF_TEST_FAILED);
    ck_assert_int_eq(info.atomics_path, XWG_ATOMICS_CL12);
    /* Every path tried keeps what it read, the one chosen last: cl20
     * first (the device compiles OpenCL C 2.0 or later), then cl12. */
    ck_assert_uint_eq(info.self_test_runs, 2);
    const xwg_self_test_run *tried = &info.self_test_run[0];
    const xwg_self_test_run *chosen = &info.self_test_run[1];
    ck_assert_int_eq(tried->path, XWG_ATOMICS_CL20);
    ck_assert_int_eq(chosen->path, XWG_ATOMICS_CL12);
    ck_assert_int_eq(chosen->result, info.self_test);
    ck_assert_uint_eq(chosen->errors, info.self_test_errors);
    ck_assert_uint_eq(chosen->groups, info.self_test_groups);
    /* A path given up reads wrong values, or could not finish, or (on a
     * busy machine) could not decide. */
    ck_assert_msg(tried->status != XWG_SUCCESS ||
                      tried->result == XWG_SELF_TEST_UNTESTED ||
                      (tried->result == XWG_SELF_TEST_FAILED &&
                       tried->errors > 0 && tried->groups >= 2),
                  "cl20 given up after %s, result %d, %u wrong reads",
                  xwg_status_name(tried->status), (int)tried->result,
                  tried->errors);
    xwg_context_release(xc);
    clReleaseContext(cl);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rusticl");
    TCase *tc = tcase_create("refusal");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, rusticl_is_refused_by_default);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
