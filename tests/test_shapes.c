/*
 * test_shapes.c - the barrier on more than two groups, and the ids that
 * kernels see when more groups are launched than participate.
 *
 * barrier_pocl runs everything on two groups, where a tree has one
 * cluster, its cluster wake wakes one cluster and XF has one slave: an
 * edit that breaks only a partial last cluster, the wake of several
 * clusters, or a master's share of several slaves passes there. ctest
 * runs this suite with POCL_MAX_PTHREAD_COUNT (XWG_TEST_THREADS) above
 * the cores: PoCL then runs that many groups at once, slowly. The stress
 * launches skip discovery and force their group count, which is the way
 * to get exactly N groups (a group that spins holds its worker thread, so
 * N groups on at least N threads are co-resident); every test asserts the
 * count it needed. A lower fan-in (-DXWG_TUNE_TREE_FANIN) makes clusters of
 * 2 or 4 groups, and -DXWG_TUNE_TREE_FLAT_MAX=0u the cluster wake.
 *
 * The ids test launches more groups than can participate, through the
 * in-kernel protocol, with hardware group 0 held back until the poll has
 * closed, so that no participant's hardware id can equal its xwg id by
 * luck: a kernel-side id taken from get_group_id() and friends instead
 * of the participants' shows as ids that are not dense, a count that is
 * not the launch's, or global ids outside [0, groups * local).
 *
 * The paper's ticket-lock protocol gets 200 launches, each checked for
 * safety, where other suites run it a handful of times.
 *
 * With XWG_TEST_BROKEN=NAME (ctest's known-bad entries) the kernels are
 * built with that known-bad variant and XWG_TEST_CASE picks the test to
 * run.
 */
#define _POSIX_C_SOURCE 200809L
#include "barrier_kernels.h"
#include "test_util.h"
#include "ids_source.h" /* shapes_ids.cl */
#include "ticket_source.h" /* shapes_ticket.cl */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Episodes per stress launch, and launches per shape (the second starts
 * from the state that the first left, as the host does not clear it
 * after a launch that completed). Few: every barrier needs every worker
 * thread to run after the last arrival, and with more threads than cores
 * a barrier takes tens of milliseconds on a busy machine. The broken
 * edits these tests catch show in the first episodes. */
#define SHAPE_EPISODES 25
#define SHAPE_LAUNCHES 2
/* A stress launch's watchdog: long, so that a wait held up by a loaded
 * machine does not time out (a correct barrier must never fail here);
 * short for a known-bad build, which is expected to. */
#define SHAPE_WATCHDOG_MS 20000u
#define BROKEN_WATCHDOG_MS 100u

static int broken(void) { return test_broken_options()[0] != '\0'; }

static cl_uint threads(void)
{
    return (cl_uint)test_env_int("XWG_TEST_THREADS", 2);
}

/* The options of every context here: the defaults without the barrier
 * self-test, which with more worker threads than cores takes seconds
 * per context (Check forks per test, so its cache does not help), and
 * which test_self_test covers. */
static void test_options(xwg_options *opts)
{
    xwg_options_init(opts);
    opts->self_test = XWG_SELF_TEST_SKIP;
}

/* ---- the barrier on N groups ------------------------------------------ */

/* One barrier shape: the algorithm, the groups, the work-items per group,
 * and for the tree its fan-in and wake. */
typedef struct shape {
    xwg_barrier_algo algo;
    cl_uint groups;
    size_t local;
    unsigned fanin;    /* tree only; 0: the shipped fan-in */
    int cluster_wake;  /* tree only */
} shape;

/* Runs stress_source (every work-item checks a value that another group
 * stored before the barrier) on exactly s.groups groups, SHAPE_LAUNCHES
 * on one context, and requires no wrong value and no timeout. */
static void stress_shape(shape s)
{
    ck_assert_msg(threads() >= s.groups,
                  "%u groups need %u worker threads, ctest gave %u",
                  s.groups, s.groups, threads());
    xwg_options opts;
    test_options(&opts);
    opts.barrier = s.algo; /* XF is compiled only on a context fixing it */
    test_env env;
    test_env_open(&env, &opts);
    char options[160];
    int n = snprintf(options, sizeof options, "%s", test_broken_options());
    if (s.fanin)
        n += snprintf(options + n, sizeof options - n,
                      " -DXWG_TUNE_TREE_FANIN=%uu", s.fanin);
    if (s.cluster_wake)
        snprintf(options + n, sizeof options - n,
                 " -DXWG_TUNE_TREE_FLAT_MAX=0u");
    cl_kernel k = test_build_kernel(&env, stress_source, "stress", options);
    cl_mem data = test_buffer(&env, s.groups * s.local * sizeof(cl_uint));
    cl_mem errors = test_buffer(&env, sizeof(cl_uint));
    cl_uint episodes = SHAPE_EPISODES;
    clSetKernelArg(k, 0, sizeof data, &data);
    clSetKernelArg(k, 1, sizeof errors, &errors);
    clSetKernelArg(k, 2, sizeof episodes, &episodes);

    xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
    lo.groups = s.groups;
    lo.skip_discovery = 1;
    lo.barrier = s.algo;
    lo.watchdog_ms = broken() ? BROKEN_WATCHDOG_MS : SHAPE_WATCHDOG_MS;
    cl_uint bad = 0;
    char what[96];
    int w = snprintf(what, sizeof what, "%s on %u groups of %zu",
                     xwg_barrier_algo_name(s.algo), s.groups, s.local);
    if (s.algo == XWG_BARRIER_TREE)
        snprintf(what + w, sizeof what - w, ", fan-in %u, %s wake", s.fanin,
                 s.cluster_wake ? "cluster" : "flat");
    for (int launch = 0; launch < SHAPE_LAUNCHES; launch++) {
        test_fill(&env, errors, 0, 1);
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        int err = xwg_launch_ex(env.xc, env.queue, k, s.local, &lo, &info);
        ck_assert_msg(err == XWG_SUCCESS, "stress %s: launch %d: %s", what,
                      launch, xwg_status_name(err));
        ck_assert_int_eq(info.barrier, s.algo);
        /* A run on fewer groups would prove nothing about this shape. */
        ck_assert_msg(info.groups == s.groups, "stress %s ran %u groups",
                      what, info.groups);
        cl_uint b = 0;
        test_read_words(&env, errors, &b, 1);
        bad += b;
    }
    printf("stress %s: %d episodes: %u wrong values\n", what,
           SHAPE_LAUNCHES * SHAPE_EPISODES, bad);
    ck_assert_msg(bad == 0, "stress %s: %u wrong values in %d episodes", what,
                  bad, SHAPE_LAUNCHES * SHAPE_EPISODES);
    clReleaseMemObject(data);
    clReleaseMemObject(errors);
    clReleaseKernel(k);
    test_env_close(&env);
}

/* Clusters of 2, 2 and 1 (fan-in 2, 5 groups), and of 4 and 2 (fan-in 4,
 * 6 groups): partial last clusters of one member and of several, each
 * with both wakes. Would fail if the last cluster's member count, the
 * number of clusters, or the wake of several clusters were wrong. */
START_TEST(tree_partial_last_cluster_flat_wake)
{
    stress_shape((shape){XWG_BARRIER_TREE, 5, 64, 2, 0});
    stress_shape((shape){XWG_BARRIER_TREE, 6, 64, 4, 0});
}
END_TEST

START_TEST(tree_partial_last_cluster_cluster_wake)
{
    stress_shape((shape){XWG_BARRIER_TREE, 5, 64, 2, 1});
    stress_shape((shape){XWG_BARRIER_TREE, 6, 64, 4, 1});
}
END_TEST

/* Six groups on one counter: group 0's add must account for n - 1
 * others (with two groups, n - 1 is 1 whatever the formula). */
START_TEST(counter_six_groups)
{
    stress_shape((shape){XWG_BARRIER_COUNTER, 6, 64, 0, 0});
}
END_TEST

/* XF with five slaves: with 64 work-items each master work-item collects
 * and releases one slave; with 2 work-items each has a share of two or
 * three, so the strided loops of collect and release both go round. */
START_TEST(xf_five_slaves)
{
    stress_shape((shape){XWG_BARRIER_XF, 6, 64, 0, 0});
    stress_shape((shape){XWG_BARRIER_XF, 6, 2, 0, 0});
}
END_TEST

/* ---- participant ids ---------------------------------------------------- */

/* ids_source: tests/kernels/shapes_ids.cl, embedded at build time. */

#define IDS_LAUNCHED 16 /* groups launched: more than worker threads */
#define IDS_LOCAL 16
#define UNSET 0xffffffffu

/* Launches IDS_LAUNCHED groups through the in-kernel protocol (forced
 * count, discovery on) and checks every id a participant sees against
 * info.groups: group ids distinct and dense, one count, global ids
 * group * local + local id covering [0, groups * local) once, one global
 * size, the _of forms equal to the macros; non-participants write
 * nothing, and hardware group 0 was held out. */
static void check_ids(xwg_discovery_protocol protocol)
{
    xwg_options o;
    test_options(&o);
    o.discovery = protocol;
    test_env env;
    test_env_open(&env, &o);
    cl_kernel k = test_build_kernel(&env, ids_source, "ids", NULL);
    const size_t L = IDS_LOCAL, items = IDS_LAUNCHED * IDS_LOCAL;
    cl_mem held = test_buffer(&env, sizeof(cl_uint));
    cl_mem group_ids = test_buffer(&env, IDS_LAUNCHED * sizeof(cl_uint));
    cl_mem counts = test_buffer(&env, IDS_LAUNCHED * sizeof(cl_uint));
    cl_mem gids = test_buffer(&env, items * sizeof(cl_uint));
    cl_mem gsizes = test_buffer(&env, items * sizeof(cl_uint));
    cl_mem alt = test_buffer(&env, 4 * items * sizeof(cl_uint));
    cl_mem args[] = {held, group_ids, counts, gids, gsizes, alt};
    for (cl_uint a = 0; a < 6; a++)
        clSetKernelArg(k, a, sizeof(cl_mem), &args[a]);

    static cl_uint h_ids[IDS_LAUNCHED], h_counts[IDS_LAUNCHED];
    static cl_uint h_gids[IDS_LAUNCHED * IDS_LOCAL];
    static cl_uint h_gsizes[IDS_LAUNCHED * IDS_LOCAL];
    static cl_uint h_alt[4 * IDS_LAUNCHED * IDS_LOCAL];
    for (int launch = 0; launch < 3; launch++) {
        test_fill(&env, held, 0, 1);
        test_fill(&env, group_ids, UNSET, IDS_LAUNCHED);
        test_fill(&env, counts, UNSET, IDS_LAUNCHED);
        test_fill(&env, gids, UNSET, items);
        test_fill(&env, gsizes, UNSET, items);
        test_fill(&env, alt, UNSET, 4 * items);
        xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
        lo.groups = IDS_LAUNCHED;
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        int err = xwg_launch_ex(env.xc, env.queue, k, L, &lo, &info);
        ck_assert_msg(err == XWG_SUCCESS, "launch: %s", xwg_status_name(err));
        cl_uint h_held = 0;
        test_read_words(&env, held, &h_held, 1);
        test_read_words(&env, group_ids, h_ids, IDS_LAUNCHED);
        test_read_words(&env, counts, h_counts, IDS_LAUNCHED);
        test_read_words(&env, gids, h_gids, items);
        test_read_words(&env, gsizes, h_gsizes, items);
        test_read_words(&env, alt, h_alt, 4 * items);

        const cl_uint n = info.groups;
        ck_assert_uint_eq(info.groups_launched, IDS_LAUNCHED);
        ck_assert_msg(h_held == 1, "hardware group 0 was not held out");
        ck_assert_msg(n >= 1 && n < threads(),
                      "%u participants on %u threads, one of them held", n,
                      threads());
        ck_assert_msg(h_ids[0] == UNSET, "held group 0 took part as %u",
                      h_ids[0]);
        int seen_group[IDS_LAUNCHED] = {0};
        static int seen_global[IDS_LAUNCHED * IDS_LOCAL];
        memset(seen_global, 0, sizeof seen_global);
        cl_uint participants = 0;
        for (cl_uint hw = 0; hw < IDS_LAUNCHED; hw++) {
            if (h_ids[hw] == UNSET) {
                ck_assert_uint_eq(h_counts[hw], UNSET);
                for (size_t l = 0; l < L; l++)
                    ck_assert_msg(h_gids[hw * L + l] == UNSET,
                                  "non-participant %u wrote a global id",
                                  hw);
                continue;
            }
            participants++;
            const cl_uint g = h_ids[hw];
            ck_assert_msg(g < n, "hardware group %u has id %u, count %u", hw,
                          g, n);
            ck_assert_msg(!seen_group[g], "id %u given twice", g);
            seen_group[g] = 1;
            ck_assert_msg(h_counts[hw] == n, "group %u saw %u groups, not %u",
                          g, h_counts[hw], n);
            for (size_t l = 0; l < L; l++) {
                const size_t w = hw * L + l;
                const cl_uint gid = h_gids[w];
                ck_assert_msg(gid == g * L + l,
                              "group %u item %zu: global id %u, not %zu", g,
                              l, gid, g * L + l);
                ck_assert_msg(gid < n * L && !seen_global[gid],
                              "global id %u outside [0, %zu) or twice", gid,
                              n * L);
                seen_global[gid] = 1;
                ck_assert_msg(h_gsizes[w] == n * L,
                              "global size %u, not %zu", h_gsizes[w], n * L);
                const cl_uint want[4] = {g, n, gid, (cl_uint)(n * L)};
                for (int f = 0; f < 4; f++)
                    ck_assert_msg(h_alt[4 * w + f] == want[f],
                                  "_of form %d gave %u, the macro %u", f,
                                  h_alt[4 * w + f], want[f]);
            }
        }
        ck_assert_uint_eq(participants, n);
        if (launch == 0)
            printf("ids (%s): %u participants of %d launched, ids dense\n",
                   protocol == XWG_DISCOVERY_TICKET_LOCK ? "ticket lock"
                                                         : "stable window",
                   n, IDS_LAUNCHED);
    }
    for (int a = 0; a < 6; a++)
        clReleaseMemObject(args[a]);
    clReleaseKernel(k);
    test_env_close(&env);
}

START_TEST(ids_are_the_participants_stable_window)
{
    check_ids(XWG_DISCOVERY_STABLE_WINDOW);
}
END_TEST

START_TEST(ids_are_the_participants_ticket_lock)
{
    check_ids(XWG_DISCOVERY_TICKET_LOCK);
}
END_TEST

/* ---- the ticket lock over many launches -------------------------------- */

/* ticket_source: tests/kernels/shapes_ticket.cl, embedded at build time. */

#define TICKET_LAUNCHES 200
#define TICKET_MAX_LAUNCHED 32
#define TICKET_LOCAL 16

/* The paper's protocol, which other suites launch a handful of times:
 * TICKET_LAUNCHES launches, each past the worker threads through the
 * in-kernel protocol, half with the default delay before closing and
 * half with a short one (100 us), where the first participant closes
 * while other threads' groups are still starting. Every launch must be
 * safe: at most one participant per thread, ids distinct and dense, one
 * count equal to the host's, and right values after the barrier among
 * them. (Races whose window is a few instructions, such as a close
 * outside the lock, did not show on PoCL even so: its threads start
 * milliseconds apart.) */
START_TEST(ticket_lock_is_safe_over_many_launches)
{
    /* Twice the worker threads: half of the groups come too late. */
    const cl_uint launched = 2 * threads();
    ck_assert_uint_le(launched, TICKET_MAX_LAUNCHED);
    int total = 0;
    for (int window = 0; window < 2; window++) {
        xwg_options o;
        test_options(&o);
        o.discovery = XWG_DISCOVERY_TICKET_LOCK;
        o.discovery_window_us = window ? 100 : 0;
        test_env env;
        test_env_open(&env, &o);
        cl_kernel k = test_build_kernel(&env, ticket_source, "ticket", NULL);
        cl_mem ids = test_buffer(&env, launched * sizeof(cl_uint));
        cl_mem counts = test_buffer(&env, launched * sizeof(cl_uint));
        cl_mem data = test_buffer(
            &env, launched * TICKET_LOCAL * sizeof(cl_uint));
        cl_mem bad = test_buffer(&env, sizeof(cl_uint));
        clSetKernelArg(k, 0, sizeof ids, &ids);
        clSetKernelArg(k, 1, sizeof counts, &counts);
        clSetKernelArg(k, 2, sizeof data, &data);
        clSetKernelArg(k, 3, sizeof bad, &bad);
        cl_uint most = 0, sum = 0;
        for (int launch = 0; launch < TICKET_LAUNCHES / 2; launch++) {
            cl_uint salt = (cl_uint)(total++ * 2654435761u);
            clSetKernelArg(k, 4, sizeof salt, &salt);
            test_fill(&env, ids, UNSET, launched);
            test_fill(&env, counts, UNSET, launched);
            test_fill(&env, bad, 0, 1);
            xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
            lo.groups = launched;
            lo.watchdog_ms = 20000;
            xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
            int err = xwg_launch_ex(env.xc, env.queue, k, TICKET_LOCAL, &lo,
                                    &info);
            ck_assert_msg(err == XWG_SUCCESS, "launch %d: %s", total,
                          xwg_status_name(err));
            cl_uint h_ids[TICKET_MAX_LAUNCHED], h_counts[TICKET_MAX_LAUNCHED], h_bad;
            test_read_words(&env, ids, h_ids, launched);
            test_read_words(&env, counts, h_counts, launched);
            test_read_words(&env, bad, &h_bad, 1);
            const cl_uint n = info.groups;
            ck_assert_msg(n >= 1 && n <= threads(),
                          "launch %d: %u participants on %u threads", total,
                          n, threads());
            int seen[TICKET_MAX_LAUNCHED] = {0};
            cl_uint participants = 0;
            for (int hw = 0; hw < (int)launched; hw++) {
                if (h_ids[hw] == UNSET)
                    continue;
                participants++;
                ck_assert_msg(h_ids[hw] < n && !seen[h_ids[hw]],
                              "launch %d: id %u twice or outside [0, %u)",
                              total, h_ids[hw], n);
                seen[h_ids[hw]] = 1;
                ck_assert_msg(h_counts[hw] == n,
                              "launch %d: a group saw %u groups, the host %u",
                              total, h_counts[hw], n);
            }
            ck_assert_msg(participants == n, "launch %d: %u ids, count %u",
                          total, participants, n);
            ck_assert_msg(h_bad == 0, "launch %d: %u wrong values", total,
                          h_bad);
            most = n > most ? n : most;
            sum += n;
        }
        printf("ticket lock (%s delay): %d launches safe, %.2f participants "
               "on average, at most %u\n",
               window ? "100 us" : "default", TICKET_LAUNCHES / 2,
               (double)sum / (TICKET_LAUNCHES / 2), most);
        clReleaseMemObject(ids);
        clReleaseMemObject(counts);
        clReleaseMemObject(data);
        clReleaseMemObject(bad);
        clReleaseKernel(k);
        test_env_close(&env);
    }
}
END_TEST

int main(void)
{
    /* XWG_TEST_CASE=tree, counter, xf, ids or ticket runs those tests
     * alone (ctest runs each so, with its own timeout); by default every
     * test runs. */
    setvbuf(stdout, NULL, _IOLBF, 0); /* lines survive a Check timeout */
    const char *only = getenv("XWG_TEST_CASE");
    int all = only == NULL || only[0] == '\0';
    Suite *s = suite_create("shapes");
    TCase *tc = tcase_create("shapes");
    /* Generous: with more worker threads than cores, a machine busy with
     * other work makes each barrier slower still. */
    tcase_set_timeout(tc, 1200);
    if (all || !strcmp(only, "tree")) {
        tcase_add_test(tc, tree_partial_last_cluster_flat_wake);
        tcase_add_test(tc, tree_partial_last_cluster_cluster_wake);
    }
    if (all || !strcmp(only, "counter"))
        tcase_add_test(tc, counter_six_groups);
    if (all || !strcmp(only, "xf"))
        tcase_add_test(tc, xf_five_slaves);
    if (all || !strcmp(only, "ids")) {
        tcase_add_test(tc, ids_are_the_participants_stable_window);
        tcase_add_test(tc, ids_are_the_participants_ticket_lock);
    }
    if (all || !strcmp(only, "ticket"))
        tcase_add_test(tc, ticket_lock_is_safe_over_many_launches);
    suite_add_tcase(s, tc);
    return test_run_suite(s);
}
