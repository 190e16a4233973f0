/*
 * test_watchdog.c - the watchdog's promises on more than two groups, and
 * how a launch is sized.
 *
 * The watchdog (docs/kernel-api.md, kernels/xwg_barrier.cl) promises:
 * a wait that runs out of polls marks the launch failed; every other wait
 * then ends within XWG_TUNE_FLAG_EVERY polls, and each group whose wait
 * ended so sees xwg_failed(); the launch returns XWG_ERROR_BARRIER_TIMEOUT;
 * and `watchdog_ms` sets how many polls a wait may take. The tests here
 * check each without a clock where they can: which groups saw the
 * failure, the bound in polls that a kernel reads, and that waits end
 * although their own bound could not run out within the test. The one
 * check of time is a lower bound (a wait must not give up much earlier
 * than watchdog_ms), which load can only make longer.
 *
 * Sizing: `groups = 0` launches the discovered count, and the in-kernel
 * protocol stays on wherever discovery is not skipped, which matters on a
 * device that another kernel shares: a plain kernel on another queue holds
 * some of PoCL's worker threads, and an xwg launch must then admit no more
 * groups than the threads left free.
 *
 * ctest runs this suite with more PoCL worker threads than cores
 * (XWG_TEST_THREADS), so that several groups run at once.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep */
#include "barrier_kernels.h"
#include "test_util.h"
#include "bound_source.h" /* watchdog_bound.cl */
#include "far_wait_source.h" /* watchdog_far_wait.cl */
#include "hog_source.h" /* watchdog_hog.cl */
#include "propagation_source.h" /* watchdog_propagation.cl */
#include "sizes_source.h" /* watchdog_sizes.cl */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static cl_uint threads(void)
{
    return (cl_uint)test_env_int("XWG_TEST_THREADS", 2);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The defaults without the barrier self-test, which with more worker
 * threads than cores takes seconds per context (Check forks per test, so
 * its cache does not help) and which test_self_test covers; `algo` fixed
 * where it is XF, which only a context that fixes it compiles. */
static void open_env(test_env *env, xwg_barrier_algo algo)
{
    xwg_options opts;
    xwg_options_init(&opts);
    opts.self_test = XWG_SELF_TEST_SKIP;
    if (algo == XWG_BARRIER_XF)
        opts.barrier = XWG_BARRIER_XF;
    test_env_open(env, &opts);
}

/* The barriers the watchdog tests run on: each algorithm, and the tree
 * with clusters of two groups (so that with five groups the last cluster
 * is partial) under both wakes. */
typedef struct variant {
    xwg_barrier_algo algo;
    const char *options;
    const char *name;
} variant;

static const variant variants[] = {
    {XWG_BARRIER_XF, NULL, "xf"},
    {XWG_BARRIER_COUNTER, NULL, "counter"},
    {XWG_BARRIER_TREE, "-DXWG_TUNE_TREE_FANIN=2u", "tree (fan-in 2, flat wake)"},
    {XWG_BARRIER_TREE, "-DXWG_TUNE_TREE_FANIN=2u -DXWG_TUNE_TREE_FLAT_MAX=0u",
     "tree (fan-in 2, cluster wake)"},
};
#define VARIANTS (sizeof variants / sizeof variants[0])

#define WATCHDOG_GROUPS 5u

/* ---- every waiting group sees the failure ------------------------------- */

/* misuse_source's early_return on five groups (one per worker thread,
 * discovery skipped): the last group never arrives, so no barrier can
 * complete and every other group waits in the first one. Each of them
 * must end that wait (the launch returns), see xwg_failed() (out[g] = 1),
 * and the launch must return the timeout. Would fail if a wait that
 * ended on another group's failure did not count as failed (the slaves
 * of XF, the members of a tree cluster), or a failure reached only some
 * groups. */
START_TEST(every_waiting_group_sees_the_timeout)
{
    ck_assert_uint_ge(threads(), WATCHDOG_GROUPS);
    for (size_t v = 0; v < VARIANTS; v++) {
        test_env env;
        open_env(&env, variants[v].algo);
        cl_kernel k = test_build_kernel(&env, misuse_source, "early_return",
                                        variants[v].options);
        cl_mem out = test_buffer(&env, 64 * sizeof(cl_uint));
        test_fill(&env, out, 0, 64);
        clSetKernelArg(k, 0, sizeof out, &out);
        xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
        lo.groups = WATCHDOG_GROUPS;
        lo.skip_discovery = 1;
        lo.barrier = variants[v].algo;
        lo.watchdog_ms = 200;
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        int err = xwg_launch_ex(env.xc, env.queue, k, 64, &lo, &info);
        ck_assert_msg(err == XWG_ERROR_BARRIER_TIMEOUT, "%s: %s, not a timeout",
                      variants[v].name, xwg_status_name(err));
        ck_assert_int_eq(info.timed_out, 1);
        ck_assert_uint_eq(info.groups, WATCHDOG_GROUPS);
        cl_uint failed[64];
        test_read_words(&env, out, failed, 64);
        char seen[64] = "";
        for (cl_uint g = 0; g < WATCHDOG_GROUPS; g++)
            seen[g] = (char)('0' + failed[g]);
        printf("timeout on %s: xwg_failed() by group %s\n", variants[v].name,
               seen);
        for (cl_uint g = 0; g + 1 < WATCHDOG_GROUPS; g++)
            ck_assert_msg(failed[g] == 1,
                          "%s: group %u waited, and saw xwg_failed() = %u",
                          variants[v].name, g, failed[g]);
        ck_assert_msg(failed[WATCHDOG_GROUPS - 1] == 0,
                      "%s: the group that returned early wrote %u",
                      variants[v].name, failed[WATCHDOG_GROUPS - 1]);
        clReleaseMemObject(out);
        clReleaseKernel(k);
        test_env_close(&env);
    }
}
END_TEST

/* ---- a timeout ends every other wait ----------------------------------- */

/* propagation_source: tests/kernels/watchdog_propagation.cl, embedded at
 * build time, which says what it does. PROPAGATION_BARRIERS: its barrier
 * count, which the kernel defines too. */
#define PROPAGATION_BARRIERS 100

START_TEST(a_timeout_ends_every_other_wait)
{
    ck_assert_uint_ge(threads(), WATCHDOG_GROUPS);
    for (size_t v = 0; v < VARIANTS; v++) {
        test_env env;
        open_env(&env, variants[v].algo);
        cl_kernel k = test_build_kernel(&env, propagation_source,
                                        "one_times_out", variants[v].options);
        cl_mem out = test_buffer(&env, 64 * sizeof(cl_uint));
        cl_mem never = test_buffer(&env, sizeof(cl_uint));
        test_fill(&env, out, 0, 64);
        test_fill(&env, never, 0, 1);
        clSetKernelArg(k, 0, sizeof out, &out);
        clSetKernelArg(k, 1, sizeof never, &never);
        xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
        lo.groups = WATCHDOG_GROUPS;
        lo.skip_discovery = 1;
        lo.barrier = variants[v].algo;
        lo.watchdog_ms = 3600000; /* an hour, or the cap of 2^42 polls */
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        double t0 = now_ms();
        int err = xwg_launch_ex(env.xc, env.queue, k, 64, &lo, &info);
        double ms = now_ms() - t0;
        ck_assert_msg(err == XWG_ERROR_BARRIER_TIMEOUT, "%s: %s, not a timeout",
                      variants[v].name, xwg_status_name(err));
        cl_uint failed[64];
        test_read_words(&env, out, failed, 64);
        printf("one wait timed out on %s: the others left %d barriers in "
               "%.0f ms\n",
               variants[v].name, PROPAGATION_BARRIERS, ms);
        ck_assert_msg(failed[63] == 1, "%s: the short wait did not time out",
                      variants[v].name);
        for (cl_uint g = 0; g + 1 < WATCHDOG_GROUPS; g++)
            ck_assert_msg(failed[g] == 1, "%s: group %u saw xwg_failed() = %u",
                          variants[v].name, g, failed[g]);
        clReleaseMemObject(out);
        clReleaseMemObject(never);
        clReleaseKernel(k);
        test_env_close(&env);
    }
}
END_TEST

/* ---- a wait far into its polls still sees the flag -------------------- */

/* far_wait_source: tests/kernels/watchdog_far_wait.cl, embedded at
 * build time. */

START_TEST(a_wait_far_into_its_polls_sees_the_flag)
{
    ck_assert_uint_ge(threads(), 2);
    test_env env;
    open_env(&env, XWG_BARRIER_DEFAULT);
    cl_kernel k = test_build_kernel(&env, far_wait_source, "far_wait", NULL);
    cl_mem out = test_buffer(&env, 2 * sizeof(cl_uint));
    cl_mem words = test_buffer(&env, 3 * sizeof(cl_uint));
    test_fill(&env, out, 0, 2);
    test_fill(&env, words, 0, 3);
    clSetKernelArg(k, 0, sizeof out, &out);
    clSetKernelArg(k, 1, sizeof words, &words);
    xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
    lo.groups = 2;
    lo.skip_discovery = 1;
    int err = xwg_launch_ex(env.xc, env.queue, k, 16, &lo, NULL);
    ck_assert_msg(err == XWG_ERROR_BARRIER_TIMEOUT, "%s, not a timeout",
                  xwg_status_name(err));
    cl_uint got[2];
    test_read_words(&env, out, got, 2);
    ck_assert_msg(got[1] == 1, "the short wait returned %u, not 1", got[1]);
    printf("a wait 128 polls in stopped after %u polls\n", got[0]);
    ck_assert_msg(got[0] > 128 && got[0] < 0xffffffffu,
                  "the long wait stopped after %u polls: it never saw the "
                  "failed flag",
                  got[0]);
    clReleaseMemObject(out);
    clReleaseMemObject(words);
    clReleaseKernel(k);
    test_env_close(&env);
}
END_TEST

/* ---- watchdog_ms ------------------------------------------------------- */

/* bound_source: tests/kernels/watchdog_bound.cl, embedded at build time. */

/* The bound that the kernel's waits get for `ms`: the same in every
 * group, which a launch of two groups checks. */
static double bound_for(test_env *env, cl_kernel k, cl_mem out, cl_uint ms)
{
    test_fill(env, out, 0, 4);
    xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
    lo.groups = 2;
    lo.skip_discovery = 1;
    lo.watchdog_ms = ms;
    int err = xwg_launch_ex(env->xc, env->queue, k, 16, &lo, NULL);
    ck_assert_msg(err == XWG_SUCCESS, "watchdog_ms %u: %s", ms,
                  xwg_status_name(err));
    cl_uint b[4];
    test_read_words(env, out, b, 4);
    ck_assert_uint_eq(b[0], b[2]);
    ck_assert_uint_eq(b[1], b[3]);
    return b[0] + 4294967296.0 * b[1];
}

/* |a / b - want| within 1%. */
static int ratio_is(double a, double b, double want)
{
    return b > 0 && a / b > want * 0.99 && a / b < want * 1.01;
}

/* watchdog_ms is converted with the context's calibration into a bound
 * proportional to it (0 meaning 1000), at least 1024 polls and at most
 * 2^42; and a wait that the bound ends takes at least a good part of
 * watchdog_ms. Would fail if watchdog_ms were ignored, scaled wrongly,
 * or not the bound that waits use. */
START_TEST(watchdog_ms_sets_the_bound)
{
    test_env env;
    open_env(&env, XWG_BARRIER_DEFAULT);
    cl_kernel k = test_build_kernel(&env, bound_source, "bound", NULL);
    cl_mem out = test_buffer(&env, 64 * sizeof(cl_uint));
    clSetKernelArg(k, 0, sizeof out, &out);
    const double b0 = bound_for(&env, k, out, 0);
    const double b10 = bound_for(&env, k, out, 10);
    const double b20 = bound_for(&env, k, out, 20);
    const double b100 = bound_for(&env, k, out, 100);
    const double b1000 = bound_for(&env, k, out, 1000);
    const double b20000 = bound_for(&env, k, out, 20000);
    const double b1 = bound_for(&env, k, out, 1);
    xwg_device_info dev = XWG_DEVICE_INFO_INIT;
    xwg_context_query(env.xc, &dev);
    printf("watchdog bounds: 0 ms %.0f, 1 ms %.0f, 10 ms %.0f, 20 ms %.0f, "
           "100 ms %.0f, 1000 ms %.0f, 20000 ms %.0f polls (%.3f ns a "
           "poll)\n",
           b0, b1, b10, b20, b100, b1000, b20000, dev.poll_ns);
    ck_assert_msg(dev.poll_ns > 0, "no calibration");
    ck_assert_msg(b0 == b1000, "0 ms gave %.0f polls, 1000 ms %.0f", b0,
                  b1000);
    ck_assert_msg(ratio_is(b20, b10, 2.0) && ratio_is(b100, b20, 5.0),
                  "bounds not proportional to watchdog_ms: %.0f %.0f %.0f",
                  b10, b20, b100);
    /* 1000 ms: 1e9 ns of polls. The cap, 2^42 polls, is far above it
     * unless a poll takes under 0.001 ns. */
    ck_assert_msg(ratio_is(b1000 * dev.poll_ns, 1e9, 1.0),
                  "1000 ms gave %.0f polls of %.3f ns", b1000, dev.poll_ns);
    /* 20 s, as the collectives' tests ask on a loaded machine: 20 times
     * 1 s, not a cap at 2^32 polls (about 2 s of a CPU core). */
    ck_assert_msg(ratio_is(b20000, b1000, 20.0),
                  "20000 ms gave %.0f polls, 1000 ms %.0f (%.3f ns a poll)",
                  b20000, b1000, dev.poll_ns);
    ck_assert_msg(b1 >= 1024, "1 ms gave %.0f polls", b1);
    clReleaseKernel(k);

    /* A misuse with watchdog_ms 1000 must not give up long before. A
     * poll is at least as slow as the calibration's fastest (contended
     * ones are slower), unless the calibration itself ran on a busier
     * machine than the wait: hence only a tenth. */
    cl_kernel m = test_build_kernel(&env, misuse_source, "early_return", NULL);
    clSetKernelArg(m, 0, sizeof out, &out);
    xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
    lo.groups = 2;
    lo.skip_discovery = 1;
    lo.watchdog_ms = 1;
    /* PoCL compiles a kernel for its local size at its first launch, in
     * hundreds of milliseconds: not in the launch that is timed. */
    ck_assert_int_eq(xwg_launch_ex(env.xc, env.queue, m, 16, &lo, NULL),
                     XWG_ERROR_BARRIER_TIMEOUT);
    lo.watchdog_ms = 1000;
    double t0 = now_ms();
    int err = xwg_launch_ex(env.xc, env.queue, m, 16, &lo, NULL);
    double ms = now_ms() - t0;
    printf("misuse with watchdog_ms 1000 returned after %.0f ms\n", ms);
    ck_assert_int_eq(err, XWG_ERROR_BARRIER_TIMEOUT);
    ck_assert_msg(ms >= 100, "gave up after %.0f ms of 1000", ms);
    clReleaseKernel(m);
    clReleaseMemObject(out);
    test_env_close(&env);
}
END_TEST

/* ---- sizing ------------------------------------------------------------ */

/* sizes_source: tests/kernels/watchdog_sizes.cl, embedded at build time. */

/* groups = 0 launches what discovery found (occ.groups), not the size of
 * discovery's own launch or any other count, with discovery in the
 * kernel or skipped. Would fail if the launch were sized by anything
 * else, which the first discovery launch (always larger than its count,
 * as a group that came too late ended it) tells apart. */
START_TEST(groups_zero_launches_the_discovered_count)
{
    test_env env;
    open_env(&env, XWG_BARRIER_DEFAULT);
    cl_kernel k = test_build_kernel(&env, sizes_source, "sizes", NULL);
    cl_mem out = test_buffer(&env, 2 * sizeof(cl_uint));
    clSetKernelArg(k, 0, sizeof out, &out);
    xwg_occupancy occ = XWG_OCCUPANCY_INIT;
    ck_assert_int_eq(xwg_discover(env.xc, k, 64, &occ), XWG_SUCCESS);
    ck_assert_uint_lt(occ.groups, occ.groups_launched);
    for (int skip = 0; skip <= 1; skip++) {
        test_fill(&env, out, 0, 2);
        xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
        lo.skip_discovery = skip;
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        int err = xwg_launch_ex(env.xc, env.queue, k, 64, &lo, &info);
        ck_assert_msg(err == XWG_SUCCESS, "%s", xwg_status_name(err));
        cl_uint got[2];
        test_read_words(&env, out, got, 2);
        printf("groups 0%s: discovered %u (of %u launched), launched %u, "
               "%u took part\n",
               skip ? ", discovery skipped" : "", occ.groups,
               occ.groups_launched, info.groups_launched, info.groups);
        ck_assert_uint_eq(info.groups_launched, occ.groups);
        ck_assert_uint_eq(got[0], occ.groups);
        ck_assert_uint_eq(got[1], info.groups);
        ck_assert_uint_ge(info.groups, 1);
        if (skip)
            ck_assert_uint_eq(info.groups, occ.groups);
    }
    clReleaseMemObject(out);
    clReleaseKernel(k);
    test_env_close(&env);
}
END_TEST

/* hog_source: tests/kernels/watchdog_hog.cl, embedded at build time. */

/* Waits (bounded) until *word reaches want; returns what it last read. */
static cl_uint wait_for(volatile cl_uint *word, cl_uint want)
{
    cl_uint v = 0;
    for (int i = 0; i < 6000; i++) { /* 60 s */
        v = __atomic_load_n(word, __ATOMIC_SEQ_CST);
        if (v >= want)
            break;
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    return v;
}

/* The stress kernel launched through the protocol, `groups` groups (0:
 * the discovered count); requires success, no wrong value, and no more
 * participants than `free_threads`. Returns the participants. */
static cl_uint shared_launch(test_env *env, cl_kernel k, cl_mem errors,
                             cl_uint groups, cl_uint free_threads)
{
    test_fill(env, errors, 0, 1);
    xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
    lo.groups = groups;
    lo.barrier = XWG_BARRIER_COUNTER;
    lo.watchdog_ms = 20000; /* a loaded machine must not time it out */
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    int err = xwg_launch_ex(env->xc, env->queue, k, 64, &lo, &info);
    ck_assert_msg(err == XWG_SUCCESS,
                  "%u groups with %u threads free: %s", groups, free_threads,
                  xwg_status_name(err));
    cl_uint bad = 0;
    test_read_words(env, errors, &bad, 1);
    printf("shared device, %u threads free: %u groups launched, %u took "
           "part, %u wrong values\n",
           free_threads, info.groups_launched, info.groups, bad);
    ck_assert_msg(info.groups >= 1 && info.groups <= free_threads,
                  "%u participants with %u threads free", info.groups,
                  free_threads);
    ck_assert_uint_eq(bad, 0);
    return info.groups;
}

/* The device shared with another kernel: discovery runs on an idle
 * device, then a plain kernel on a second queue holds all worker threads
 * but one. Launches of the discovered count and of a forced count (both
 * with the in-kernel protocol) must admit one group, and succeed; with
 * one hog released, at most two, with right values. Would fail (in the
 * watchdog's timeout) if a launch that fits the discovered count, or a
 * forced one, ran without the protocol: its groups would wait for groups
 * that cannot start. */
START_TEST(protocol_stays_on_when_the_device_is_shared)
{
    const cl_uint n = threads();
    ck_assert_uint_ge(n, 3);
    test_env env;
    open_env(&env, XWG_BARRIER_DEFAULT);
    cl_device_svm_capabilities svm = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm,
                    NULL);
    ck_assert_msg((svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) &&
                      (svm & CL_DEVICE_SVM_ATOMICS),
                  "the device lacks fine-grained SVM with atomics (0x%lx)",
                  (unsigned long)svm);
    cl_kernel k = test_build_kernel(&env, stress_source, "stress", NULL);
    cl_mem data = test_buffer(&env, 4 * n * 64 * sizeof(cl_uint));
    cl_mem errors = test_buffer(&env, sizeof(cl_uint));
    cl_uint episodes = 20;
    clSetKernelArg(k, 0, sizeof data, &data);
    clSetKernelArg(k, 1, sizeof errors, &errors);
    clSetKernelArg(k, 2, sizeof episodes, &episodes);
    /* The discovered count must exceed one group, or the launch of that
     * count below would test nothing: try again (uncached) while a busy
     * machine lets fewer groups meet. */
    xwg_occupancy occ = XWG_OCCUPANCY_INIT;
    for (int i = 0; i < 20 && occ.groups < 2; i++)
        ck_assert_int_eq(xwg_discover_uncached(env.xc, k, 64, &occ),
                         XWG_SUCCESS);
    ck_assert_msg(occ.groups >= 2, "discovery found %u group in 20 tries",
                  occ.groups);

    int err;
    cl_command_queue q2 =
        clCreateCommandQueueWithProperties(env.cl, env.device, NULL, &err);
    ck_assert_ptr_nonnull(q2);
    cl_kernel hog = test_build_kernel(&env, hog_source, "hog", NULL);
    const cl_uint hogs = n - 1;
    cl_uint *words = clSVMAlloc(env.cl,
                                CL_MEM_READ_WRITE |
                                    CL_MEM_SVM_FINE_GRAIN_BUFFER |
                                    CL_MEM_SVM_ATOMICS,
                                (2 + n) * sizeof(cl_uint), 0);
    ck_assert_ptr_nonnull(words);
    memset(words, 0, (2 + n) * sizeof(cl_uint));
    cl_uint *started = &words[0], *left = &words[1], *stop = &words[2];
    clSetKernelArgSVMPointer(hog, 0, started);
    clSetKernelArgSVMPointer(hog, 1, stop);
    clSetKernelArgSVMPointer(hog, 2, left);
    size_t global = hogs, local = 1;
    ck_assert_int_eq(clEnqueueNDRangeKernel(q2, hog, 1, NULL, &global, &local,
                                            0, NULL, NULL),
                     CL_SUCCESS);
    clFlush(q2);
    ck_assert_msg(wait_for(started, hogs) == hogs,
                  "the plain kernel's %u groups did not all start", hogs);

    shared_launch(&env, k, errors, 0, 1);     /* occ.groups >= 2 of them */
    shared_launch(&env, k, errors, n, 1);     /* forced: every thread's */
    __atomic_store_n(&stop[0], 1u, __ATOMIC_SEQ_CST); /* one hog leaves */
    ck_assert_uint_eq(wait_for(left, 1), 1);
    shared_launch(&env, k, errors, 2 * n, 2); /* forced, twice over */

    for (cl_uint g = 0; g < hogs; g++)
        __atomic_store_n(&stop[g], 1u, __ATOMIC_SEQ_CST);
    clFinish(q2);
    ck_assert_uint_eq(__atomic_load_n(left, __ATOMIC_SEQ_CST), hogs);
    clSVMFree(env.cl, words);
    clReleaseKernel(hog);
    clReleaseCommandQueue(q2);
    clReleaseMemObject(data);
    clReleaseMemObject(errors);
    clReleaseKernel(k);
    test_env_close(&env);
}
END_TEST

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* lines survive a Check timeout */
    Suite *s = suite_create("watchdog");
    TCase *tc = tcase_create("watchdog_and_sizing");
    /* A watchdog that did not spread a failure would run a_timeout_...
     * far past this; everything else takes seconds. */
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, every_waiting_group_sees_the_timeout);
    tcase_add_test(tc, a_timeout_ends_every_other_wait);
    tcase_add_test(tc, a_wait_far_into_its_polls_sees_the_flag);
    tcase_add_test(tc, watchdog_ms_sets_the_bound);
    tcase_add_test(tc, groups_zero_launches_the_discovered_count);
    tcase_add_test(tc, protocol_stays_on_when_the_device_is_shared);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
