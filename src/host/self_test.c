/*
 * self_test.c - the barrier self-test that a new context runs.
 *
 * Capabilities alone cannot decide whether the barrier is safe on a
 * device: Mesa rusticl, Oclgrind and NVIDIA's driver advertise the same
 * (relaxed, work-group scope), yet a draft barrier read stale data on
 * rusticl and never on the H200. So each context runs a short stress
 * kernel: every group stores a value per episode with plain stores, and
 * after the barrier reads another group's value. rusticl showed its stale
 * reads in the first rounds of most launches, so a few short launches
 * catch it. The result is cached per device, driver version and atomics
 * path for the life of the process.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

#define XWG__SELF_TEST_LAUNCHES 9
#define XWG__SELF_TEST_EPISODES 64
#define XWG__SELF_TEST_LOCAL 64
#define XWG__SELF_TEST_CACHE 16
/* Launches that time out with no wrong read yet are run again, at most
 * this many times in the whole self-test (see run_launches). */
#define XWG__SELF_TEST_RETRIES 2

static const char self_test_source[] =
    "__kernel void xwg_self_test(__global uint *data, __global uint *errors,\n"
    "                            uint episodes, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    const uint g = xwg_group_id(), n = xwg_num_groups();\n"
    "    const uint l = get_local_id(0), size = get_local_size(0);\n"
    "    uint bad = 0;\n"
    "    for (uint e = 1; e <= episodes && !xwg_failed(); e++) {\n"
    "        data[g * size + l] = e * n + g; /* plain stores */\n"
    "        xwg_barrier();\n"
    "        uint other = (g + 1 + e % (n > 1 ? n - 1 : 1)) % n;\n"
    "        if (data[other * size + l] != e * n + other)\n"
    "            bad++;\n"
    "        xwg_barrier();\n"
    "    }\n"
    "    if (bad)\n"
    "        atomic_add(errors, bad);\n"
    "}\n";

typedef struct cached_result {
    char key[400];
    xwg_self_test_result result;
    cl_uint errors, groups, episodes;
} cached_result;

static cached_result cache[XWG__SELF_TEST_CACHE];
static size_t cache_len;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static void cache_key(const xwg_device_info *info, char *key, size_t size)
{
    snprintf(key, size, "%s|%s|%s|%d", info->platform_name,
             info->device_name, info->driver_version,
             (int)info->atomics_path);
}

/* Launches still to report a timeout without running: a test's way to
 * exercise the retries (xwg__self_test_inject_timeouts). */
static int injected_timeouts;

void xwg__self_test_inject_timeouts(int launches)
{
    injected_timeouts = launches;
}

/* One launch of the self-test; adds its errors, gives its participants. */
static int run_once(xwg_context *ctx, cl_command_queue queue, cl_kernel k,
                    cl_mem errors, size_t local,
                    const xwg_launch_options *opts, cl_uint *bad,
                    cl_uint *groups)
{
    if (injected_timeouts > 0) {
        injected_timeouts--;
        return XWG_ERROR_BARRIER_TIMEOUT;
    }
    const cl_uint zero = 0;
    int err = clEnqueueWriteBuffer(queue, errors, CL_TRUE, 0, sizeof zero,
                                   &zero, 0, NULL, NULL);
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    if (err == CL_SUCCESS)
        err = xwg_launch_ex(ctx, queue, k, local, opts, &info);
    cl_uint found = 0;
    if (err == XWG_SUCCESS)
        err = clEnqueueReadBuffer(queue, errors, CL_TRUE, 0, sizeof found,
                                  &found, 0, NULL, NULL);
    if (err == XWG_SUCCESS) {
        *bad += found;
        *groups = info.groups;
    }
    return err;
}

/* What the launches of a self-test found. */
typedef struct self_test_count {
    cl_uint bad, groups;
    cl_uint launches; /* completed: their episodes all ran */
    cl_uint retried;  /* launches that timed out and were run again */
    int gave_up;      /* a launch timed out and was not run again */
} self_test_count;

/* The self-test's launches. A launch that times out, while no earlier
 * launch has misread, is run again (its own reads came after the timeout
 * and are not counted), twice at most in the whole self-test. Its two groups
 * are launched with discovery skipped, so nothing checks that they run
 * together: on a loaded CPU device (PoCL under AddressSanitizer, two test
 * processes of two worker threads on two cores) the OS can hold one
 * worker back until the other's watchdog fires, as runs of the host tests
 * have seen. That says the groups were not co-scheduled in time, not that
 * the barrier is unsafe. A device whose two groups never meet times out
 * every time and is still refused, two watchdog periods later. Wrong
 * reads are never retried: one is proof enough.
 *
 * The watchdog itself is left as it is. It counts the waiting group's own
 * polls, and the calibration keeps the fastest of its runs, so load
 * already lengthens it in wall time; a longer one would delay the refusal
 * on every device whose groups never meet and still lose to a long enough
 * stall. */
static int run_launches(xwg_context *ctx, cl_command_queue queue,
                        cl_kernel k, cl_mem errors, size_t local,
                        xwg_launch_options *opts, self_test_count *n)
{
    while (n->launches < XWG__SELF_TEST_LAUNCHES) {
        opts->barrier = (xwg_barrier_algo)(XWG_BARRIER_XF + n->launches % 3);
        int err = run_once(ctx, queue, k, errors, local, opts, &n->bad,
                           &n->groups);
        if (err == XWG_ERROR_BARRIER_TIMEOUT) {
            if (n->bad == 0 && n->retried < XWG__SELF_TEST_RETRIES) {
                n->retried++;
                continue;
            }
            /* Two groups could not meet: no barrier works here. */
            n->gave_up = 1;
            return XWG_SUCCESS;
        }
        if (err != XWG_SUCCESS)
            return err;
        n->launches++;
    }
    return XWG_SUCCESS;
}

static int run_self_test(xwg_context *ctx)
{
    xwg_device_info *info = &ctx->info;
    size_t local = XWG__SELF_TEST_LOCAL < info->max_work_group_size
                       ? XWG__SELF_TEST_LOCAL
                       : info->max_work_group_size;
    cl_uint episodes = XWG__SELF_TEST_EPISODES;
    int err;
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem data = NULL, errors = NULL;
    cl_command_queue queue = xwg__create_queue(ctx->cl, ctx->device, 0, &err);
    if (queue != NULL)
        err = xwg__program_build(ctx, self_test_source, NULL, 0, &prog,
                                 NULL);
    if (err == XWG_SUCCESS)
        k = clCreateKernel(prog, "xwg_self_test", &err);
    if (err == XWG_SUCCESS)
        errors = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, sizeof(cl_uint),
                                NULL, &err);
    /* Argument 0 (the data) is set once its size is known. */
    if (err == XWG_SUCCESS)
        err = clSetKernelArg(k, 1, sizeof errors, &errors);
    if (err == XWG_SUCCESS)
        err = clSetKernelArg(k, 2, sizeof episodes, &episodes);
    /* Two groups, launched with discovery skipped so that both take part
     * however loaded the machine is (an in-kernel protocol can admit one
     * group and test nothing): the case in which rusticl read stale data.
     * Each barrier algorithm gets a third of the launches. A device of one
     * compute unit runs one group at a time: its barrier is trivial, and
     * two groups there could only time out. */
    xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
    opts.skip_discovery = 1;
    opts.groups = info->compute_units > 1 ? 2 : 1;
    if (err == XWG_SUCCESS)
        data = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE,
                              opts.groups * local * sizeof(cl_uint), NULL,
                              &err);
    if (err == XWG_SUCCESS)
        err = clSetKernelArg(k, 0, sizeof data, &data);
    self_test_count n = {0};
    if (err == XWG_SUCCESS)
        err = run_launches(ctx, queue, k, errors, local, &opts, &n);
    if (err == XWG_SUCCESS) {
        int failed = n.bad || n.gave_up;
        info->self_test = failed ? XWG_SELF_TEST_FAILED : XWG_SELF_TEST_PASSED;
        info->self_test_errors = n.bad;
        info->self_test_groups = n.groups;
        info->self_test_episodes = n.launches * episodes;
        XWG__TRACE("self-test on %s: %s, %u wrong reads in %u launches of %u "
                   "groups; %u timed out (%u retried)%s",
                   info->device_name, failed ? "FAILED" : "passed", n.bad,
                   n.launches, n.groups, n.retried + n.gave_up, n.retried,
                   n.gave_up ? ": the groups could not meet" : "");
    }
    if (data)
        clReleaseMemObject(data);
    if (errors)
        clReleaseMemObject(errors);
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    if (queue)
        clReleaseCommandQueue(queue);
    return err;
}

int xwg__run_self_test(xwg_context *ctx)
{
    char key[400];
    cache_key(&ctx->info, key, sizeof key);
    pthread_mutex_lock(&cache_lock);
    for (size_t i = 0; i < cache_len; i++) {
        if (!strcmp(cache[i].key, key)) {
            ctx->info.self_test = cache[i].result;
            ctx->info.self_test_errors = cache[i].errors;
            ctx->info.self_test_groups = cache[i].groups;
            ctx->info.self_test_episodes = cache[i].episodes;
            pthread_mutex_unlock(&cache_lock);
            return XWG_SUCCESS;
        }
    }
    pthread_mutex_unlock(&cache_lock);

    int err = run_self_test(ctx);
    if (err != XWG_SUCCESS)
        return err;
    pthread_mutex_lock(&cache_lock);
    if (cache_len < XWG__SELF_TEST_CACHE) {
        cached_result *c = &cache[cache_len++];
        snprintf(c->key, sizeof c->key, "%s", key);
        c->result = ctx->info.self_test;
        c->errors = ctx->info.self_test_errors;
        c->groups = ctx->info.self_test_groups;
        c->episodes = ctx->info.self_test_episodes;
    }
    pthread_mutex_unlock(&cache_lock);
    return XWG_SUCCESS;
}
