/*
 * test_barrier.c - the global barrier on PoCL: stress with data checks,
 * a stencil that must match a C reference bit for bit, the watchdog's
 * misuse cases, the default barrier's choice by launch size, asynchronous
 * launches, and the fence helpers.
 *
 * PoCL runs one group per worker thread; ctest sets 2 threads (the cores
 * of a CI machine), so launches have 2 groups of 1024 work-items. With
 * XWG_TEST_BROKEN=NAME the kernels are built with that known-bad variant
 * (tests/known_bad.md), and ctest runs the stress and the Jacobi cases
 * alone (XWG_TEST_CASE): with BARRIER_NOOP or NO_GROUP_BARRIERS it
 * expects wrong values and mismatches; with TREE_FLAT_NO_RESET the tree's
 * stress ends in the watchdog's timeout, with EVERY_ARRIVAL_LAST the
 * counter's gives wrong values, and with EPISODES_NOT_KEPT or
 * SELF_OWN_EPISODES (helpers counting episodes of their own) the
 * counter's ends in the timeout, and the tree's in the timeout or wrong
 * values, which of them by timing (tests/CMakeLists.txt says why).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "barrier_kernels.h"
#include "test_util.h"
#include "arrivals_source.h" /* barrier_arrivals.cl */
#include "chain_source.h" /* barrier_chain.cl */
#include "discover_only_source.h" /* barrier_discover_only.cl */
#include "fence_source.h" /* barrier_fence.cl */
#include "larger_source.h" /* barrier_larger.cl */
#include "leave_source.h" /* barrier_leave.cl */
#include "split_leave_source.h" /* barrier_split_leave.cl */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STRESS_EPISODES 20000 /* per launch */
#define STRESS_LAUNCHES 3     /* 60,000 episodes per run of stress() */

/* Episodes per stress launch: STRESS_EPISODES, or XWG_TEST_STRESS_EPISODES.
 * The AddressSanitizer build sets fewer (tests/CMakeLists.txt): the
 * sanitizer sees the host code, which is the same at any count, and not
 * the episodes, which run in PoCL's uninstrumented kernel code. */
static cl_uint stress_episodes(void)
{
    int n = test_env_int("XWG_TEST_STRESS_EPISODES", STRESS_EPISODES);
    return n > 0 ? (cl_uint)n : STRESS_EPISODES;
}

static char broken_options[128];

/* Clusters of the tree barrier: 96 groups by default. PoCL here runs two
 * groups, one cluster; a fan-in of 1 makes every group a cluster, so that
 * the two levels of the tree are exercised too. With two groups the
 * shipped tree takes its flat wake (up to XWG_TUNE_TREE_FLAT_MAX groups);
 * tree_cluster_wake sets that maximum to 0, so that it wakes by cluster. */
static unsigned tree_fanin = 96;
static int tree_cluster_wake = 0;
/* The options of the stress test's context: NULL for the defaults, or a
 * context that fixes the barrier, whose programs compile it alone. */
static const xwg_options *stress_options = NULL;

/* Opens the context for a test of barrier `algo`: with `opts`, else the
 * defaults, whose programs compile the counter and the tree only; XF
 * needs a context that fixes it. */
static void open_env_for(test_env *env, xwg_barrier_algo algo,
                         const xwg_options *opts)
{
    xwg_options xf;
    if (opts == NULL && algo == XWG_BARRIER_XF) {
        xwg_options_init(&xf);
        xf.barrier = XWG_BARRIER_XF;
        opts = &xf;
    }
    test_env_open(env, opts);
}

static const char *build_options(void)
{
    snprintf(broken_options, sizeof broken_options,
             "-DXWG_TUNE_TREE_FANIN=%uu%s%s", tree_fanin,
             test_broken_options(),
             tree_cluster_wake ? " -DXWG_TUNE_TREE_FLAT_MAX=0u" : "");
    return broken_options;
}

static const char *tree_wake(void)
{
    return tree_cluster_wake ? "cluster" : "flat";
}

/* The largest group up to 1024 work-items that the device allows. */
static size_t big_local(const test_env *env)
{
    xwg_device_info info = XWG_DEVICE_INFO_INIT;
    xwg_context_query(env->xc, &info);
    return info.max_work_group_size < 1024 ? info.max_work_group_size : 1024;
}

static cl_mem make_buffer(test_env *env, size_t bytes)
{
    int err;
    cl_mem m = clCreateBuffer(env->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    ck_assert_msg(m != NULL, "clCreateBuffer: %s", xwg_status_name(err));
    return m;
}

static cl_uint read_word(test_env *env, cl_mem m)
{
    cl_uint v = 0;
    clEnqueueReadBuffer(env->queue, m, CL_TRUE, 0, sizeof v, &v, 0, NULL,
                        NULL);
    return v;
}

/* ---- stress ----------------------------------------------------------- */

static void stress(xwg_barrier_algo algo)
{
    test_env env;
    open_env_for(&env, algo, stress_options);
    size_t local = big_local(&env);
    cl_kernel k = test_build_kernel(&env, stress_source, "stress",
                                    build_options());
    xwg_occupancy occ = XWG_OCCUPANCY_INIT;
    cl_mem errors = make_buffer(&env, sizeof(cl_uint));
    cl_uint episodes = stress_episodes();
    clSetKernelArg(k, 0, sizeof errors, &errors); /* placeholder */
    clSetKernelArg(k, 1, sizeof errors, &errors);
    clSetKernelArg(k, 2, sizeof episodes, &episodes);
    ck_assert_int_eq(xwg_discover(env.xc, k, local, &occ), XWG_SUCCESS);
    cl_mem data = make_buffer(&env, occ.groups * local * sizeof(cl_uint));
    clSetKernelArg(k, 0, sizeof data, &data);

    /* The first launch goes through discovery, as users launch. On a
     * loaded machine that may admit one group and test nothing, so the
     * others launch one group per worker thread with discovery skipped:
     * all of them run (the watchdog would end a launch that could not). */
    int threads = test_env_int("XWG_TEST_THREADS", 2);
    cl_mem forced_data =
        make_buffer(&env, (size_t)threads * local * sizeof(cl_uint));
    xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
    opts.barrier = algo;
    cl_uint total_bad = 0, total_episodes = 0, groups = 0;
    for (int i = 0; i < STRESS_LAUNCHES; i++) {
        const cl_uint zero = 0;
        clEnqueueWriteBuffer(env.queue, errors, CL_TRUE, 0, sizeof zero,
                             &zero, 0, NULL, NULL);
        if (i == 1) {
            test_force_groups(&opts, (cl_uint)threads);
            clSetKernelArg(k, 0, sizeof forced_data, &forced_data);
        }
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        int err = xwg_launch_ex(env.xc, env.queue, k, local, &opts, &info);
        ck_assert_msg(err == XWG_SUCCESS, "launch: %s", xwg_status_name(err));
        ck_assert_int_eq(info.barrier, algo);
        total_bad += read_word(&env, errors);
        total_episodes += episodes;
        if (info.groups > groups) /* a busy CPU may admit fewer, once */
            groups = info.groups;
    }
    clReleaseMemObject(forced_data);
    char tree[48] = "";
    if (algo == XWG_BARRIER_TREE)
        snprintf(tree, sizeof tree, " (fan-in %u, %s wake)", tree_fanin,
                 tree_wake());
    printf("stress %s%s%s: %u episodes, %u groups of %zu: %u wrong values\n",
           xwg_barrier_algo_name(algo), tree,
           stress_options ? " (built for it alone)" : "", total_episodes,
           groups,
           local, total_bad);
    ck_assert_msg(groups >= 2, "only %u group: nothing was tested", groups);
    ck_assert_msg(total_bad == 0, "%u wrong values in %u episodes", total_bad,
                  total_episodes);
    clReleaseMemObject(data);
    clReleaseMemObject(errors);
    clReleaseKernel(k);
    test_env_close(&env);
}

START_TEST(stress_counter) { stress(XWG_BARRIER_COUNTER); }
END_TEST

START_TEST(stress_xf) { stress(XWG_BARRIER_XF); }
END_TEST

/* Every algorithm again, in programs built on a context that fixes it:
 * the barrier compiled alone (XWG_BARRIERS). */
START_TEST(stress_specialised)
{
    xwg_options opts;
    xwg_options_init(&opts);
    stress_options = &opts;
    for (int a = XWG_BARRIER_XF; a <= XWG_BARRIER_TREE; a++) {
        opts.barrier = (xwg_barrier_algo)a;
        stress((xwg_barrier_algo)a);
    }
    stress_options = NULL;
}
END_TEST

START_TEST(stress_tree)
{
    stress(XWG_BARRIER_TREE);
    tree_cluster_wake = 1;
    stress(XWG_BARRIER_TREE);
    tree_cluster_wake = 0;
    tree_fanin = 1;
    stress(XWG_BARRIER_TREE);
}
END_TEST

/* ---- Jacobi ------------------------------------------------------------ */

#define JACOBI_N 3000 /* not a multiple of the global size: tails matter */
#define JACOBI_ITERATIONS 1000

static void jacobi(xwg_barrier_algo algo, int forced)
{
    static float a[JACOBI_N], b[JACOBI_N], got[JACOBI_N];
    for (int i = 0; i < JACOBI_N; i++)
        a[i] = b[i] = (float)((i * 7919) % 1000) / 10.0f;
    test_env env;
    open_env_for(&env, algo, NULL);
    cl_kernel k = test_build_kernel(&env, jacobi_source, "jacobi",
                                    build_options());
    cl_mem da = make_buffer(&env, sizeof a), db = make_buffer(&env, sizeof b);
    jacobi_setup(env.queue, k, da, db, a, b, JACOBI_N, JACOBI_ITERATIONS);
    xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
    opts.barrier = algo;
    if (forced) {
        /* One group per worker thread, discovery skipped: two groups
         * however loaded the machine is. */
        test_force_groups(&opts,
                          (cl_uint)test_env_int("XWG_TEST_THREADS", 2));
    }
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    size_t local = big_local(&env) < 256 ? big_local(&env) : 256;
    int err = xwg_launch_ex(env.xc, env.queue, k, local, &opts, &info);
    ck_assert_msg(err == XWG_SUCCESS, "launch: %s", xwg_status_name(err));
    /* 1000 sweeps: the result is in a (even count). */
    clEnqueueReadBuffer(env.queue, da, CL_TRUE, 0, sizeof got, got, 0, NULL,
                        NULL);
    jacobi_reference(a, b, JACOBI_N, JACOBI_ITERATIONS);
    int mismatches = 0, first = -1;
    for (int i = 0; i < JACOBI_N; i++)
        if (memcmp(&got[i], &a[i], sizeof(float)) != 0 && mismatches++ == 0)
            first = i;
    printf("jacobi %s%s: %d sweeps over %d points on %u groups: %d "
           "mismatches\n",
           xwg_barrier_algo_name(algo), forced ? " (forced groups)" : "",
           JACOBI_ITERATIONS,
           JACOBI_N, info.groups, mismatches);
    ck_assert_msg(mismatches == 0, "%d mismatches, first at %d: %a vs %a",
                  mismatches, first, first >= 0 ? got[first] : 0.0f,
                  first >= 0 ? a[first] : 0.0f);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseKernel(k);
    test_env_close(&env);
}

START_TEST(jacobi_counter)
{
    jacobi(XWG_BARRIER_COUNTER, 0);
    jacobi(XWG_BARRIER_COUNTER, 1);
}
END_TEST

START_TEST(jacobi_xf)
{
    jacobi(XWG_BARRIER_XF, 0);
    jacobi(XWG_BARRIER_XF, 1);
}
END_TEST

START_TEST(jacobi_tree)
{
    jacobi(XWG_BARRIER_TREE, 0);
    tree_cluster_wake = 1;
    jacobi(XWG_BARRIER_TREE, 0);
    tree_cluster_wake = 0;
    tree_fanin = 1;
    jacobi(XWG_BARRIER_TREE, 1);
}
END_TEST

/* ---- the watchdog --------------------------------------------------- */

/* Runs a misuse kernel on barrier `algo`; it must end in
 * XWG_ERROR_BARRIER_TIMEOUT, with xwg_failed() true in every group that
 * waited; then a correct launch on the same context must succeed. */
static void misuse_on(const char *kernel_name, cl_uint groups, int skip,
                      xwg_barrier_algo algo)
{
    test_env env;
    open_env_for(&env, algo, NULL);
    cl_kernel k = test_build_kernel(&env, misuse_source, kernel_name, NULL);
    cl_mem out = make_buffer(&env, 64 * sizeof(cl_uint));
    const cl_uint zero = 0;
    clEnqueueFillBuffer(env.queue, out, &zero, sizeof zero, 0,
                        64 * sizeof zero, 0, NULL, NULL);
    clSetKernelArg(k, 0, sizeof out, &out);
    xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
    opts.groups = groups;
    opts.skip_discovery = skip;
    opts.watchdog_ms = 200;
    opts.barrier = algo;
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    int err = xwg_launch_ex(env.xc, env.queue, k, 64, &opts, &info);
    ck_assert_msg(err == XWG_ERROR_BARRIER_TIMEOUT,
                  "%s (barrier %d): %s, not a timeout", kernel_name, algo,
                  xwg_status_name(err));
    ck_assert_int_eq(info.timed_out, 1);
    ck_assert_uint_ge(info.groups, 2);
    cl_uint failed[64] = {0}, saw = 0;
    const cl_uint n = groups < 64 ? groups : 64;
    clEnqueueReadBuffer(env.queue, out, CL_TRUE, 0, n * sizeof *failed,
                        failed, 0, NULL, NULL);
    for (cl_uint g = 0; g < n; g++)
        saw += failed[g];
    if (strcmp(kernel_name, "plain") != 0) {
        /* All co-resident, and group 0 waits in every such case, so it
         * must have seen the failure. */
        ck_assert_msg(failed[0] == 1, "xwg_failed() was %u in group 0",
                      failed[0]);
    } else {
        /* Past the occupancy the groups that started first waited, and
         * which they are is the runtime's choice (PoCL starts group 0
         * first, Intel's runtime not always): one of them at least. */
        ck_assert_msg(saw >= 1, "xwg_failed() was 0 in all %u groups", n);
    }
    clReleaseKernel(k);

    /* The context stays usable: a correct launch now succeeds. */
    cl_kernel good = test_build_kernel(&env, misuse_source, "plain", NULL);
    clSetKernelArg(good, 0, sizeof out, &out);
    xwg_launch_info after = XWG_LAUNCH_INFO_INIT;
    ck_assert_int_eq(xwg_launch(env.xc, env.queue, good, 64, &after),
                     XWG_SUCCESS);
    ck_assert_int_eq(after.timed_out, 0);
    clReleaseKernel(good);
    clReleaseMemObject(out);
    test_env_close(&env);
}

/* misuse_on for each barrier algorithm. */
static void misuse(const char *kernel_name, cl_uint groups, int skip)
{
    for (int a = XWG_BARRIER_XF; a <= XWG_BARRIER_TREE; a++)
        misuse_on(kernel_name, groups, skip, (xwg_barrier_algo)a);
}

/* The misuses need two groups that run together: one per worker thread,
 * with discovery skipped (discovery on a loaded machine may admit one). */
START_TEST(watchdog_group_returns_early)
{
    misuse("early_return", (cl_uint)test_env_int("XWG_TEST_THREADS", 2), 1);
}
END_TEST

START_TEST(watchdog_barrier_in_divergent_branch)
{
    misuse("divergent", (cl_uint)test_env_int("XWG_TEST_THREADS", 2), 1);
}
END_TEST

START_TEST(watchdog_launch_past_occupancy)
{
    /* Four groups per worker thread, discovery skipped: the resident
     * groups wait for groups that cannot start until they leave. */
    misuse("plain", 4 * (cl_uint)test_env_int("XWG_TEST_THREADS", 2), 1);
}
END_TEST

/* ---- the default barrier -------------------------------------------------- */

/* discover_only_source: tests/kernels/barrier_discover_only.cl, embedded at
 * build time. */

/* The build options of launch_discover_only's kernel (NULL: none). */
static const char *discover_only_options = NULL;

/* One launch, discovery skipped, of `groups` groups of a kernel that
 * never waits (so any number of groups completes), asking for barrier
 * `asked`: its status, and in *ran the barrier it ran. */
static int launch_discover_only(test_env *env, cl_uint groups,
                                xwg_barrier_algo asked, xwg_barrier_algo *ran)
{
    cl_kernel k = test_build_kernel(env, discover_only_source,
                                    "discover_only", discover_only_options);
    xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
    opts.skip_discovery = 1;
    opts.groups = groups;
    opts.barrier = asked;
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    int err = xwg_launch_ex(env->xc, env->queue, k, 16, &opts, &info);
    if (err == XWG_SUCCESS)
        ck_assert_uint_eq(info.groups, groups);
    clReleaseKernel(k);
    *ran = info.barrier;
    return err;
}

/* Which barrier a successful launch ran (see launch_discover_only). */
static xwg_barrier_algo barrier_ran(test_env *env, cl_uint groups,
                                    xwg_barrier_algo asked)
{
    xwg_barrier_algo ran;
    ck_assert_int_eq(launch_discover_only(env, groups, asked, &ran),
                     XWG_SUCCESS);
    return ran;
}

/* The status of a launch of one group asking for barrier `asked`. */
static int launch_status(test_env *env, xwg_barrier_algo asked)
{
    xwg_barrier_algo ran;
    return launch_discover_only(env, 1, asked, &ran);
}

/* ---- one state buffer, both tree wakes -------------------------------- */

/* One launch of the tree on one group per worker thread (discovery
 * skipped, so that both groups run, except where residency is decided
 * per launch: test_force_groups). Returns the launch's status, and its
 * participants in *groups. */
static int launch_tree(test_env *env, cl_kernel k, size_t local,
                       cl_uint watchdog_ms, cl_uint *groups)
{
    xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
    opts.barrier = XWG_BARRIER_TREE;
    test_force_groups(&opts, (cl_uint)test_env_int("XWG_TEST_THREADS", 2));
    opts.watchdog_ms = watchdog_ms;
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    int err = xwg_launch_ex(env->xc, env->queue, k, local, &opts, &info);
    *groups = info.groups;
    return err;
}

/* Launches one after another on a context reuse its state buffer, which
 * the host zeroes only after a failed launch: what the flat wake leaves
 * must serve the cluster wake and the other way round, and a failed
 * launch must leave neither stuck. */
START_TEST(tree_wakes_share_one_state_buffer)
{
    test_env env;
    test_env_open(&env, NULL);
    const size_t local = 64;
    const cl_uint groups = (cl_uint)test_env_int("XWG_TEST_THREADS", 2);
    const cl_uint episodes = stress_episodes();
    const char *flat = NULL; /* the shipped tree: flat at this size */
    const char *cluster = "-DXWG_TUNE_TREE_FLAT_MAX=0u";
    cl_kernel wake[2] = {
        test_build_kernel(&env, stress_source, "stress", flat),
        test_build_kernel(&env, stress_source, "stress", cluster)};
    cl_kernel fail = test_build_kernel(&env, misuse_source, "early_return",
                                       cluster);
    cl_mem data = make_buffer(&env, groups * local * sizeof(cl_uint));
    cl_mem errors = make_buffer(&env, sizeof(cl_uint));
    for (int w = 0; w < 2; w++) {
        clSetKernelArg(wake[w], 0, sizeof data, &data);
        clSetKernelArg(wake[w], 1, sizeof errors, &errors);
        clSetKernelArg(wake[w], 2, sizeof episodes, &episodes);
    }
    clSetKernelArg(fail, 0, sizeof data, &data);
    /* flat, cluster, a failed launch, flat, cluster, flat */
    const int order[] = {0, 1, -1, 0, 1, 0};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if (order[i] < 0) {
            /* The misuse needs two participants: one group returning
             * early leaves nobody waiting. Where discovery stays on
             * (Intel's per-launch residency) a loaded machine may admit
             * one (a clean-clone CI run at a1ab7f5 saw XWG_SUCCESS), so
             * up to ten tries for a launch of two. */
            cl_uint ran = 0;
            int err = XWG_SUCCESS;
            for (int t = 0; t < 10 && ran < 2; t++)
                err = launch_tree(&env, fail, local, 200, &ran);
            ck_assert_uint_ge(ran, 2);
            ck_assert_msg(err == XWG_ERROR_BARRIER_TIMEOUT,
                          "the misuse gave %s", xwg_status_name(err));
            continue;
        }
        const cl_uint zero = 0;
        clEnqueueWriteBuffer(env.queue, errors, CL_TRUE, 0, sizeof zero,
                             &zero, 0, NULL, NULL);
        cl_uint ran = 0;
        int err = launch_tree(&env, wake[order[i]], local, 0, &ran);
        ck_assert_msg(err == XWG_SUCCESS, "launch %zu (%s wake): %s", i,
                      order[i] ? "cluster" : "flat", xwg_status_name(err));
        cl_uint bad = read_word(&env, errors);
        ck_assert_msg(bad == 0, "launch %zu (%s wake): %u wrong values", i,
                      order[i] ? "cluster" : "flat", bad);
    }
    clReleaseKernel(wake[0]);
    clReleaseKernel(wake[1]);
    clReleaseKernel(fail);
    clReleaseMemObject(data);
    clReleaseMemObject(errors);
    test_env_close(&env);
}
END_TEST

/* arrivals_source: tests/kernels/barrier_arrivals.cl, embedded at
 * build time. */

/* leave_source: tests/kernels/barrier_leave.cl, embedded at build time. */
#define LEAVE_COUNT 0xffffffffu
/* split_leave_source: tests/kernels/barrier_split_leave.cl, embedded at
 * build time. */
#define SPLIT_LEAVE 0xfffffffeu

/* Launches that skip discovery, one after another with the same header,
 * reuse their state buffer with no write: the grid counter's top bit is
 * then wherever the launch before left it (odd barrier counts leave it
 * set), and each group must read it before its first arrival. Counter and
 * tree, odd and even counts, and a failed launch in the middle (after
 * which the host writes the buffer whole again), and, on the counter, a
 * launch that leaves a count in it (after which the host must write the
 * buffer too: a count would end the next launch's episodes one arrival
 * early), and a split arrive with no wait (SPLIT_LEAVE: a count in the
 * counter, or in a tree cluster's word, which the host must write again
 * too); each launch's barriers must all wait for every group. */
START_TEST(launches_start_from_the_state_the_last_one_left)
{
    test_env env;
    test_env_open(&env, NULL);
    const size_t local = 64;
    const cl_uint groups = (cl_uint)test_env_int("XWG_TEST_THREADS", 2);
    const cl_uint most = 8;
    cl_kernel k = test_build_kernel(&env, arrivals_source, "arrivals", NULL);
    cl_kernel fail = test_build_kernel(&env, misuse_source, "early_return",
                                       NULL);
    cl_kernel leave = test_build_kernel(&env, leave_source, "leave_count",
                                        NULL);
    cl_kernel split_leave = test_build_kernel(&env, split_leave_source,
                                              "split_leave", NULL);
    cl_mem arrived = make_buffer(&env, most * sizeof(cl_uint));
    cl_mem wrong = make_buffer(&env, sizeof(cl_uint));
    clSetKernelArg(k, 0, sizeof arrived, &arrived);
    clSetKernelArg(k, 1, sizeof wrong, &wrong);
    clSetKernelArg(fail, 0, sizeof arrived, &arrived);
    /* barrier counts; 0 marks the failed launch, LEAVE_COUNT the launch
     * that leaves a count (counter only) */
    static const cl_uint counts[] = {1, 3, 2, 1, 0, 1, 1, 5, 1,
                                     LEAVE_COUNT, 5, 2, SPLIT_LEAVE, 3, 1};
    const xwg_barrier_algo algos[] = {XWG_BARRIER_COUNTER, XWG_BARRIER_TREE};
    for (int a = 0; a < 2; a++) {
        xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
        opts.barrier = algos[a];
        test_force_groups(&opts, groups);
        opts.watchdog_ms = 200; /* the failed launch's too: one header */
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
            xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
            if (counts[i] == 0) {
                /* The misuse needs two participants: one group returning
                 * early leaves nobody waiting. Where discovery stays on
                 * (Intel's per-launch residency) a loaded machine may
                 * admit one (the clean-clone CI at cfa4b0a saw
                 * XWG_SUCCESS under AddressSanitizer), so min_groups,
                 * and up to ten tries. */
                xwg_launch_options two = opts;
                two.min_groups = groups;
                int err = XWG_ERROR_TOO_FEW_GROUPS;
                for (int t = 0; t < 10 && err == XWG_ERROR_TOO_FEW_GROUPS;
                     t++)
                    err = xwg_launch_ex(env.xc, env.queue, fail, local, &two,
                                        &info);
                ck_assert_msg(err == XWG_ERROR_BARRIER_TIMEOUT,
                              "%s, launch %zu: the misuse gave %s",
                              xwg_barrier_algo_name(algos[a]), i,
                              xwg_status_name(err));
                continue;
            }
            if (counts[i] == SPLIT_LEAVE) {
                int err = xwg_launch_ex(env.xc, env.queue, split_leave, local,
                                        &opts, &info);
                ck_assert_msg(err == XWG_SUCCESS, "split_leave gave %s",
                              xwg_status_name(err));
                continue;
            }
            if (counts[i] == LEAVE_COUNT) {
                if (algos[a] != XWG_BARRIER_COUNTER)
                    continue;
                int err = xwg_launch_ex(env.xc, env.queue, leave, local,
                                        &opts, &info);
                ck_assert_msg(err == XWG_SUCCESS, "leave_count gave %s",
                              xwg_status_name(err));
                continue;
            }
            const cl_uint zeros[8] = {0};
            clEnqueueWriteBuffer(env.queue, arrived, CL_TRUE, 0, sizeof zeros,
                                 zeros, 0, NULL, NULL);
            clEnqueueWriteBuffer(env.queue, wrong, CL_TRUE, 0, sizeof(cl_uint),
                                 zeros, 0, NULL, NULL);
            clSetKernelArg(k, 2, sizeof counts[i], &counts[i]);
            int err = xwg_launch_ex(env.xc, env.queue, k, local, &opts, &info);
            ck_assert_msg(err == XWG_SUCCESS, "%s, launch %zu: %s",
                          xwg_barrier_algo_name(algos[a]), i,
                          xwg_status_name(err));
            cl_uint bad = read_word(&env, wrong);
            ck_assert_msg(bad == 0,
                          "%s, launch %zu (%u barriers, after %u): %u groups "
                          "passed a barrier before every group arrived",
                          xwg_barrier_algo_name(algos[a]), i, counts[i],
                          i ? counts[i - 1] : 0, bad);
        }
    }
    clReleaseKernel(k);
    clReleaseKernel(fail);
    clReleaseKernel(leave);
    clReleaseKernel(split_leave);
    clReleaseMemObject(arrived);
    clReleaseMemObject(wrong);
    test_env_close(&env);
}
END_TEST

START_TEST(default_barrier_follows_the_launch_size)
{
    test_env env;
    unsetenv("XWG_BARRIER");
    test_env_open(&env, NULL);
    xwg_device_info dev = XWG_DEVICE_INFO_INIT;
    xwg_context_query(env.xc, &dev);
    ck_assert_int_eq(dev.barrier, XWG_BARRIER_DEFAULT);
    const cl_uint cus = dev.compute_units;
    /* Up to 4 groups per compute unit the counter, above it the tree;
     * a launch's own choice among the two wins... */
    ck_assert_int_eq(barrier_ran(&env, 1, XWG_BARRIER_DEFAULT),
                     XWG_BARRIER_COUNTER);
    ck_assert_int_eq(barrier_ran(&env, 4 * cus, XWG_BARRIER_DEFAULT),
                     XWG_BARRIER_COUNTER);
    ck_assert_int_eq(barrier_ran(&env, 4 * cus + 1, XWG_BARRIER_DEFAULT),
                     XWG_BARRIER_TREE);
    ck_assert_int_eq(barrier_ran(&env, 1, XWG_BARRIER_TREE),
                     XWG_BARRIER_TREE);
    ck_assert_int_eq(barrier_ran(&env, 4 * cus + 1, XWG_BARRIER_COUNTER),
                     XWG_BARRIER_COUNTER);
    /* ...but XF is compiled only on a context that fixes it, or where the
     * caller's own -DXWG_BARRIERS asks for it (bits 1 to 3: all three),
     * and a set the library cannot read back is refused at the build. */
    ck_assert_int_eq(launch_status(&env, XWG_BARRIER_XF),
                     XWG_ERROR_INVALID_ARGUMENT);
    discover_only_options = "-D XWG_BARRIERS=14u";
    ck_assert_int_eq(barrier_ran(&env, 1, XWG_BARRIER_XF), XWG_BARRIER_XF);
    discover_only_options = NULL;
    cl_program prog = NULL;
    ck_assert_int_eq(xwg_program_build(env.xc, discover_only_source,
                                       "-DXWG_BARRIERS=(1u<<3)", &prog,
                                       NULL),
                     XWG_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_null(prog);
    test_env_close(&env);

    /* A context's choice wins over the size; its programs compile that
     * barrier alone, so a launch that asks for another is refused... */
    xwg_options opts;
    xwg_options_init(&opts);
    opts.barrier = XWG_BARRIER_COUNTER;
    test_env_open(&env, &opts);
    ck_assert_int_eq(barrier_ran(&env, 4 * cus + 1, XWG_BARRIER_DEFAULT),
                     XWG_BARRIER_COUNTER);
    ck_assert_int_eq(barrier_ran(&env, 1, XWG_BARRIER_COUNTER),
                     XWG_BARRIER_COUNTER);
    ck_assert_int_eq(launch_status(&env, XWG_BARRIER_TREE),
                     XWG_ERROR_INVALID_ARGUMENT);
    /* A kernel built on a default context of the same OpenCL context,
     * launched through this one: the context's counter, which it
     * compiled, whatever the size. */
    xwg_context *plain = NULL;
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, NULL, &plain),
                     XWG_SUCCESS);
    cl_program prog2 = NULL;
    ck_assert_int_eq(xwg_program_build(plain, discover_only_source, NULL,
                                       &prog2, NULL),
                     XWG_SUCCESS);
    int err;
    cl_kernel k = clCreateKernel(prog2, "discover_only", &err);
    xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
    lo.skip_discovery = 1;
    lo.groups = 4 * cus + 1;
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    ck_assert_int_eq(xwg_launch_ex(env.xc, env.queue, k, 16, &lo, &info),
                     XWG_SUCCESS);
    ck_assert_int_eq(info.barrier, XWG_BARRIER_COUNTER);
    clReleaseKernel(k);
    clReleaseProgram(prog2);
    xwg_context_release(plain);
    test_env_close(&env);

    /* ...and XWG_BARRIER=default wins over the context's choice. */
    setenv("XWG_BARRIER", "default", 1);
    test_env_open(&env, &opts);
    xwg_context_query(env.xc, &dev);
    ck_assert_int_eq(dev.barrier, XWG_BARRIER_DEFAULT);
    unsetenv("XWG_BARRIER");
    test_env_close(&env);
}
END_TEST

/* ---- asynchronous launches ------------------------------------------------ */

/* A second in-order queue on the test's device. */
static cl_command_queue second_queue(const test_env *env)
{
    int err;
    cl_command_queue q =
        clCreateCommandQueueWithProperties(env->cl, env->device, NULL, &err);
    ck_assert_msg(q != NULL, "second queue: %d", err);
    return q;
}

START_TEST(two_launches_in_flight_do_not_share_state)
{
    test_env env;
    test_env_open(&env, NULL);
    int err;
    cl_command_queue q2 = second_queue(&env);
    cl_kernel k[2];
    cl_mem data[2], errors[2];
    cl_uint episodes = 2000;
    xwg_pending *pending[2];
    cl_event events[2];
    for (int i = 0; i < 2; i++) {
        k[i] = test_build_kernel(&env, stress_source, "stress", NULL);
        data[i] = make_buffer(&env, 64 * 1024 * sizeof(cl_uint));
        errors[i] = make_buffer(&env, sizeof(cl_uint));
        const cl_uint zero = 0;
        clEnqueueWriteBuffer(env.queue, errors[i], CL_TRUE, 0, sizeof zero,
                             &zero, 0, NULL, NULL);
        clSetKernelArg(k[i], 0, sizeof data[i], &data[i]);
        clSetKernelArg(k[i], 1, sizeof errors[i], &errors[i]);
        clSetKernelArg(k[i], 2, sizeof episodes, &episodes);
    }
    for (int i = 0; i < 2; i++) {
        err = xwg_launch_async(env.xc, i ? q2 : env.queue, k[i], 64, NULL,
                               &pending[i], &events[i]);
        ck_assert_msg(err == XWG_SUCCESS, "async: %s", xwg_status_name(err));
        ck_assert_ptr_nonnull(events[i]);
    }
    for (int i = 1; i >= 0; i--) {
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        ck_assert_int_eq(xwg_launch_finish(pending[i], &info), XWG_SUCCESS);
        ck_assert_uint_ge(info.groups, 1);
        clReleaseEvent(events[i]);
        ck_assert_uint_eq(read_word(&env, errors[i]), 0);
    }
    ck_assert_int_eq(xwg_launch_finish(NULL, NULL), XWG_ERROR_INVALID_ARGUMENT);
    for (int i = 0; i < 2; i++) {
        clReleaseKernel(k[i]);
        clReleaseMemObject(data[i]);
        clReleaseMemObject(errors[i]);
    }
    clReleaseCommandQueue(q2);
    test_env_close(&env);
}
END_TEST

/* A launch's write, kernel and status read go on the caller's queue,
 * chained by events where the queue is out of order (on a queue with
 * profiling the status comes back on xwg's copy queue instead): on each
 * kind of queue that the device offers (in order or not, with profiling
 * or without), a stress launch through discovery must report its
 * participants and check its data, and a misuse must come back as the
 * watchdog's timeout. */
START_TEST(launches_report_status_on_every_kind_of_queue)
{
    test_env env;
    test_env_open(&env, NULL);
    cl_command_queue_properties offered = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES,
                    sizeof offered, &offered, NULL);
    const cl_command_queue_properties kinds[] = {
        0, CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE};
    cl_kernel stress_k = test_build_kernel(&env, stress_source, "stress", NULL);
    cl_kernel misuse_k =
        test_build_kernel(&env, misuse_source, "early_return", NULL);
    cl_mem data = make_buffer(&env, 64 * 1024 * sizeof(cl_uint));
    cl_mem errors = make_buffer(&env, sizeof(cl_uint));
    cl_mem out = make_buffer(&env, 64 * sizeof(cl_uint));
    cl_uint episodes = 2000;
    clSetKernelArg(stress_k, 0, sizeof data, &data);
    clSetKernelArg(stress_k, 1, sizeof errors, &errors);
    clSetKernelArg(stress_k, 2, sizeof episodes, &episodes);
    clSetKernelArg(misuse_k, 0, sizeof out, &out);
    int tried = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if ((kinds[i] & offered) != kinds[i])
            continue;
        const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, kinds[i],
                                             0};
        int err;
        cl_command_queue q = clCreateCommandQueueWithProperties(
            env.cl, env.device, props, &err);
        ck_assert_msg(q != NULL, "queue 0x%lx: %d", (unsigned long)kinds[i],
                      err);
        tried++;
        const cl_uint zero = 0;
        clEnqueueWriteBuffer(env.queue, errors, CL_TRUE, 0, sizeof zero,
                             &zero, 0, NULL, NULL);
        clFinish(env.queue); /* done, not only copied, before q's kernel */
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        err = xwg_launch(env.xc, q, stress_k, 64, &info);
        ck_assert_msg(err == XWG_SUCCESS, "queue 0x%lx: stress: %s",
                      (unsigned long)kinds[i], xwg_status_name(err));
        ck_assert_uint_ge(info.groups, 1);
        ck_assert_uint_le(info.groups, info.groups_launched);
        ck_assert_uint_eq(read_word(&env, errors), 0);

        xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
        opts.groups = (cl_uint)test_env_int("XWG_TEST_THREADS", 2);
        opts.skip_discovery = 1;
        opts.watchdog_ms = 200;
        err = xwg_launch_ex(env.xc, q, misuse_k, 64, &opts, &info);
        ck_assert_msg(err == XWG_ERROR_BARRIER_TIMEOUT,
                      "queue 0x%lx: misuse: %s, not a timeout",
                      (unsigned long)kinds[i], xwg_status_name(err));
        ck_assert_int_eq(info.timed_out, 1);
        clReleaseCommandQueue(q);
    }
    printf("launch status read on %d kinds of queue (device offers 0x%lx)\n",
           tried, (unsigned long)offered);
    ck_assert_int_ge(tried, 2); /* in order, with and without profiling */
    clReleaseMemObject(data);
    clReleaseMemObject(errors);
    clReleaseMemObject(out);
    clReleaseKernel(stress_k);
    clReleaseKernel(misuse_k);
    test_env_close(&env);
}
END_TEST

/* chain_source: tests/kernels/barrier_chain.cl, embedded at build time. */

/* A stress kernel on buffers of its own, for a second queue. */
typedef struct own_stress {
    cl_kernel kernel;
    cl_mem data, errors;
} own_stress;

static own_stress own_stress_open(test_env *env, cl_uint episodes)
{
    own_stress s = {test_build_kernel(env, stress_source, "stress", NULL),
                    make_buffer(env, 64 * 1024 * sizeof(cl_uint)),
                    make_buffer(env, sizeof(cl_uint))};
    const cl_uint zero = 0;
    clEnqueueWriteBuffer(env->queue, s.errors, CL_TRUE, 0, sizeof zero,
                         &zero, 0, NULL, NULL);
    clSetKernelArg(s.kernel, 0, sizeof s.data, &s.data);
    clSetKernelArg(s.kernel, 1, sizeof s.errors, &s.errors);
    clSetKernelArg(s.kernel, 2, sizeof episodes, &episodes);
    return s;
}

static void own_stress_close(own_stress *s)
{
    clReleaseKernel(s->kernel);
    clReleaseMemObject(s->data);
    clReleaseMemObject(s->errors);
}

/* Launches with no event on an in-order queue (xwg_launch_async() with a
 * NULL event) have their statuses read together, at the first finish on
 * their queue (src/host/chain.c): each must still get its own, whatever
 * the order of the finishes. A chain on the test's queue of a stress
 * launch through discovery, a misuse that times out, a kernel that never
 * runs XWG_DISCOVER() (no event can say so: its run count must), a launch
 * with an event among them, a split-barrier misuse and a stress launch
 * with discovery skipped, beside a stress launch on a second queue (on
 * buffers of its own); finished out of order. Then a launch succeeds: the
 * failures left nothing behind. */
START_TEST(chained_launches_each_get_their_own_status)
{
    test_env env;
    test_env_open(&env, NULL);
    int err;
    cl_command_queue q2 = second_queue(&env);
    const cl_uint episodes = 500;
    own_stress mine = own_stress_open(&env, episodes),
               other = own_stress_open(&env, episodes);
    cl_kernel misuse_k =
        test_build_kernel(&env, misuse_source, "early_return", NULL);
    cl_kernel undiscovered_k =
        test_build_kernel(&env, chain_source, "undiscovered", NULL);
    cl_kernel twice_k =
        test_build_kernel(&env, chain_source, "arrive_twice", NULL);
    cl_mem out = make_buffer(&env, 64 * sizeof(cl_uint));
    clSetKernelArg(misuse_k, 0, sizeof out, &out);
    clSetKernelArg(undiscovered_k, 0, sizeof out, &out);
    clSetKernelArg(twice_k, 0, sizeof out, &out);

    xwg_launch_options forced = XWG_LAUNCH_OPTIONS_INIT, one = forced;
    forced.groups = (cl_uint)test_env_int("XWG_TEST_THREADS", 2);
    forced.skip_discovery = 1;
    forced.watchdog_ms = 200;
    one.groups = 1; /* co-resident, whatever runs beside it */
    one.skip_discovery = 1;
    struct {
        cl_command_queue queue;
        cl_kernel kernel;
        const xwg_launch_options *opts;
        int with_event, expected;
    } chain[] = {
        {env.queue, mine.kernel, NULL, 0, XWG_SUCCESS},
        {q2, other.kernel, NULL, 0, XWG_SUCCESS},
        {env.queue, misuse_k, &forced, 0, XWG_ERROR_BARRIER_TIMEOUT},
        {env.queue, undiscovered_k, &forced, 0, XWG_ERROR_KERNEL_NOT_RUN},
        {env.queue, mine.kernel, &one, 1, XWG_SUCCESS},
        {env.queue, twice_k, &one, 0, XWG_ERROR_BARRIER_MISUSE},
        {env.queue, mine.kernel, &one, 0, XWG_SUCCESS},
    };
    enum { N = sizeof chain / sizeof chain[0] };
    xwg_pending *pending[N];
    cl_event event[N] = {0};
    for (int i = 0; i < N; i++) {
        err = xwg_launch_async(env.xc, chain[i].queue, chain[i].kernel, 64,
                               chain[i].opts, &pending[i],
                               chain[i].with_event ? &event[i] : NULL);
        ck_assert_msg(err == XWG_SUCCESS, "launch %d: %s", i,
                      xwg_status_name(err));
    }
    const int order[N] = {6, 3, 0, 5, 4, 2, 1};
    for (int j = 0; j < N; j++) {
        const int i = order[j];
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        err = xwg_launch_finish(pending[i], &info);
        ck_assert_msg(err == chain[i].expected, "launch %d: %s, not %s", i,
                      xwg_status_name(err),
                      xwg_status_name(chain[i].expected));
        if (err == XWG_ERROR_BARRIER_TIMEOUT)
            ck_assert_int_eq(info.timed_out, 1);
        if (err == XWG_SUCCESS) {
            ck_assert_int_eq(info.timed_out, 0);
            ck_assert_uint_ge(info.groups, 1);
            if (chain[i].opts != NULL) /* discovery skipped */
                ck_assert_uint_eq(info.groups, chain[i].opts->groups);
        }
        if (event[i] != NULL)
            clReleaseEvent(event[i]);
    }
    ck_assert_uint_eq(read_word(&env, mine.errors), 0);
    ck_assert_uint_eq(read_word(&env, other.errors), 0);
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    ck_assert_int_eq(xwg_launch_ex(env.xc, env.queue, mine.kernel, 64, &one,
                                   &info),
                     XWG_SUCCESS);
    ck_assert_uint_eq(read_word(&env, mine.errors), 0);
    own_stress_close(&mine);
    own_stress_close(&other);
    clReleaseMemObject(out);
    clReleaseKernel(misuse_k);
    clReleaseKernel(undiscovered_k);
    clReleaseKernel(twice_k);
    clReleaseCommandQueue(q2);
    test_env_close(&env);
}
END_TEST

/* larger_source: tests/kernels/barrier_larger.cl, embedded at build time. */

START_TEST(a_larger_launch_does_not_take_partials_for_flags)
{
    test_env env;
    open_env_for(&env, XWG_BARRIER_XF, NULL);
    cl_kernel seed = test_build_kernel(&env, larger_source, "seed", NULL);
    cl_kernel late = test_build_kernel(&env, larger_source, "late", NULL);
    cl_mem out = make_buffer(&env, sizeof(cl_uint));
    cl_mem mark = make_buffer(&env, 64 * sizeof(cl_uint));
    const cl_uint spin = 4000000, zero = 0;
    clSetKernelArg(seed, 0, sizeof out, &out);
    clSetKernelArg(late, 0, sizeof mark, &mark);
    clSetKernelArg(late, 1, sizeof spin, &spin);
    xwg_launch_options one = XWG_LAUNCH_OPTIONS_INIT, two = one;
    one.groups = 1;
    one.skip_discovery = 1;
    test_force_groups(&two, (cl_uint)test_env_int("XWG_TEST_THREADS", 2));
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    for (int round = 0; round < 3; round++) {
        ck_assert_int_eq(xwg_launch_ex(env.xc, env.queue, seed, 64, &one,
                                       &info),
                         XWG_SUCCESS);
        ck_assert_uint_eq(read_word(&env, out), 1);
        clEnqueueFillBuffer(env.queue, mark, &zero, sizeof zero, 0,
                            64 * sizeof zero, 0, NULL, NULL);
        int err = xwg_launch_ex(env.xc, env.queue, late, 64, &two, &info);
        ck_assert_msg(err == XWG_SUCCESS, "round %d: %s", round,
                      xwg_status_name(err));
        ck_assert_msg(read_word(&env, mark) == 0,
                      "round %d: the master passed the barrier before "
                      "group 1 arrived", round);
    }
    clReleaseKernel(seed);
    clReleaseKernel(late);
    clReleaseMemObject(out);
    clReleaseMemObject(mark);
    test_env_close(&env);
}
END_TEST

/* Threads finishing launches of one chain at once (src/host/chain.c): the
 * first finish of each takes the queue's unread launches and reads them
 * outside the context's lock; a finish whose launch another thread is
 * reading waits for that read. Every launch must end with its own
 * status, and no finish may wait for ever. */
typedef struct finisher {
    xwg_pending **pending;
    int first, step, count, failures;
} finisher;

static void *finish_some(void *arg)
{
    finisher *f = arg;
    for (int i = f->first; i < f->count; i += f->step) {
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        if (xwg_launch_finish(f->pending[i], &info) != XWG_SUCCESS ||
            info.groups != 1)
            f->failures++;
    }
    return NULL;
}

START_TEST(threads_finish_one_chain_at_once)
{
    test_env env;
    test_env_open(&env, NULL);
    own_stress stress = own_stress_open(&env, 50);
    xwg_launch_options one = XWG_LAUNCH_OPTIONS_INIT;
    one.groups = 1;
    one.skip_discovery = 1;
    enum { N = 24, THREADS = 3 };
    for (int round = 0; round < 4; round++) {
        xwg_pending *pending[N];
        for (int i = 0; i < N; i++)
            ck_assert_int_eq(xwg_launch_async(env.xc, env.queue,
                                              stress.kernel, 64, &one,
                                              &pending[i], NULL),
                             XWG_SUCCESS);
        finisher f[THREADS];
        pthread_t t[THREADS];
        for (int k = 0; k < THREADS; k++) {
            f[k] = (finisher){pending, k, THREADS, N, 0};
            ck_assert_int_eq(pthread_create(&t[k], NULL, finish_some, &f[k]),
                             0);
        }
        for (int k = 0; k < THREADS; k++) {
            pthread_join(t[k], NULL);
            ck_assert_msg(f[k].failures == 0, "round %d: thread %d: %d "
                          "launches failed", round, k, f[k].failures);
        }
    }
    ck_assert_uint_eq(read_word(&env, stress.errors), 0);
    own_stress_close(&stress);
    test_env_close(&env);
}
END_TEST

/* ---- fence helpers ------------------------------------------------- */

/* fence_source: tests/kernels/barrier_fence.cl, embedded at build time. */

START_TEST(fence_helpers_build_and_order_on_both_paths)
{
    for (int path = XWG_ATOMICS_CL20; path <= XWG_ATOMICS_CL12; path++) {
        xwg_options opts;
        xwg_options_init(&opts);
        opts.atomics = (xwg_atomics_path)path;
        test_env env;
        test_env_open(&env, &opts);
        cl_kernel k = test_build_kernel(&env, fence_source, "fences", NULL);
        cl_mem data = make_buffer(&env, 64 * sizeof(cl_uint));
        cl_mem out = make_buffer(&env, sizeof(cl_uint));
        clSetKernelArg(k, 0, sizeof data, &data);
        clSetKernelArg(k, 1, sizeof out, &out);
        ck_assert_int_eq(xwg_launch(env.xc, env.queue, k, 64, NULL),
                         XWG_SUCCESS);
        ck_assert_uint_eq(read_word(&env, out), 60);
        clReleaseMemObject(data);
        clReleaseMemObject(out);
        clReleaseKernel(k);
        test_env_close(&env);
    }
}
END_TEST

/* Adds `test` to `tc` unless XWG_TEST_ONLY (NAME[,NAME...]) leaves it
 * out. ctest's known-bad runs name the tests that their expected message
 * comes from: the others would only run minutes of correct episodes, far
 * more on a busy machine, within the same timeout. */
static void add_test(TCase *tc, const TTest *test)
{
    const char *only = getenv("XWG_TEST_ONLY");
    if (only != NULL && only[0] != '\0') {
        size_t n = strlen(test->name);
        const char *p = only;
        while ((p = strstr(p, test->name)) != NULL &&
               !((p == only || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')))
            p += n;
        if (p == NULL)
            return;
    }
    tcase_add_test(tc, test);
}

/* Check's limit on each test, in seconds: a guard against hangs only (the
 * watchdog ends every barrier wait that cannot end). A spin barrier whose
 * threads wait for a core passes about one episode per scheduler slice,
 * so a busy machine stretches these tests by an order of magnitude or
 * more; the limit leaves room for that. */
#define TEST_TIMEOUT_S 1800

int main(void)
{
    /* XWG_TEST_CASE=stress or jacobi runs one test case alone (ctest's
     * known-bad runs use it); by default every case runs. */
    const char *only = getenv("XWG_TEST_CASE");
    int all = only == NULL || only[0] == '\0';
    Suite *s = suite_create("barrier");
    if (all || !strcmp(only, "stress")) {
        TCase *tc = tcase_create("stress");
        tcase_set_timeout(tc, TEST_TIMEOUT_S);
        add_test(tc, stress_counter);
        add_test(tc, stress_xf);
        add_test(tc, stress_tree);
        add_test(tc, stress_specialised);
        suite_add_tcase(s, tc);
    }
    if (all || !strcmp(only, "jacobi")) {
        TCase *tc = tcase_create("jacobi");
        tcase_set_timeout(tc, TEST_TIMEOUT_S);
        add_test(tc, jacobi_counter);
        add_test(tc, jacobi_xf);
        add_test(tc, jacobi_tree);
        suite_add_tcase(s, tc);
    }
    if (all) {
        TCase *tc = tcase_create("watchdog_async_fences");
        tcase_set_timeout(tc, TEST_TIMEOUT_S);
        add_test(tc, watchdog_group_returns_early);
        add_test(tc, watchdog_barrier_in_divergent_branch);
        add_test(tc, watchdog_launch_past_occupancy);
        add_test(tc, two_launches_in_flight_do_not_share_state);
        add_test(tc, launches_report_status_on_every_kind_of_queue);
        add_test(tc, chained_launches_each_get_their_own_status);
        add_test(tc, a_larger_launch_does_not_take_partials_for_flags);
        add_test(tc, threads_finish_one_chain_at_once);
        add_test(tc, default_barrier_follows_the_launch_size);
        add_test(tc, tree_wakes_share_one_state_buffer);
        add_test(tc, launches_start_from_the_state_the_last_one_left);
        add_test(tc, fence_helpers_build_and_order_on_both_paths);
        suite_add_tcase(s, tc);
    }
    return test_run_suite(s);
}
