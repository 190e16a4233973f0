/*
 * context.c - creating and releasing an xwg context: options, environment
 * overrides, the device probe, and the context's own queues and state.
 */
#include "internal.h"
#include "xwg__probe_source.h" /* probe.cl */

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int xwg__is_plain_gpu(cl_device_type type)
{
    return (type & CL_DEVICE_TYPE_GPU) && !(type & CL_DEVICE_TYPE_CPU);
}

cl_command_queue xwg__create_queue(cl_context context, cl_device_id device,
                                   cl_command_queue_properties properties,
                                   int *err)
{
    const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, properties, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(
        context, device, properties ? props : NULL, err);
    if (q == NULL) {
        /* OpenCL 1.2 platforms lack the 2.0 entry point. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        q = clCreateCommandQueue(context, device, properties, err);
#pragma GCC diagnostic pop
    }
    return q;
}

void xwg_options_init(xwg_options *opts)
{
    if (opts == NULL)
        return;
    const xwg_options defaults = XWG_OPTIONS_INIT;
    *opts = defaults;
}

/* One environment variable that overrides an option: its words, in the
 * order of the values they stand for. */
typedef struct env_choice {
    const char *name;
    const char *words[5]; /* NULL-terminated */
    const int values[5];
} env_choice;

/* Sets *value from the variable if it is set; an unknown word is an
 * error. */
static int read_env_choice(const env_choice *choice, int *value)
{
    const char *v = getenv(choice->name);
    if (v == NULL || v[0] == '\0')
        return XWG_SUCCESS;
    for (int i = 0; choice->words[i] != NULL; i++) {
        if (!strcmp(v, choice->words[i])) {
            *value = choice->values[i];
            return XWG_SUCCESS;
        }
    }
    char words[64] = "";
    for (int i = 0; choice->words[i] != NULL; i++)
        snprintf(words + strlen(words), sizeof words - strlen(words), "%s%s",
                 i ? "|" : "", choice->words[i]);
    return XWG__INVALID("xwg_context_create: environment variable %s is "
                        "\"%s\", not one of %s",
                        choice->name, v, words);
}

/* XWG_ATOMICS, XWG_DISCOVERY, XWG_BARRIER and XWG_SELF_TEST override the
 * caller's options. */
static int apply_environment(xwg_options *opts)
{
    static const env_choice atomics = {
        "XWG_ATOMICS", {"cl20", "cl12", "ptx", "auto", NULL},
        {XWG_ATOMICS_CL20, XWG_ATOMICS_CL12, XWG_ATOMICS_PTX,
         XWG_ATOMICS_AUTO}};
    static const env_choice discovery = {
        "XWG_DISCOVERY", {"ticket", "window", NULL},
        {XWG_DISCOVERY_TICKET_LOCK, XWG_DISCOVERY_STABLE_WINDOW}};
    static const env_choice barrier = {
        "XWG_BARRIER", {"xf", "counter", "tree", "default", NULL},
        {XWG_BARRIER_XF, XWG_BARRIER_COUNTER, XWG_BARRIER_TREE,
         XWG_BARRIER_DEFAULT}};
    static const env_choice self_test = {
        "XWG_SELF_TEST", {"require", "report", "skip", NULL},
        {XWG_SELF_TEST_REQUIRE, XWG_SELF_TEST_REPORT, XWG_SELF_TEST_SKIP}};
    int a = opts->atomics, d = opts->discovery, b = opts->barrier,
        t = opts->self_test;
    int err = read_env_choice(&atomics, &a);
    if (err == XWG_SUCCESS)
        err = read_env_choice(&discovery, &d);
    if (err == XWG_SUCCESS)
        err = read_env_choice(&barrier, &b);
    if (err == XWG_SUCCESS)
        err = read_env_choice(&self_test, &t);
    opts->atomics = (xwg_atomics_path)a;
    opts->discovery = (xwg_discovery_protocol)d;
    opts->barrier = (xwg_barrier_algo)b;
    opts->self_test = (xwg_self_test_mode)t;
    return err;
}

static int check_options(const xwg_options *opts)
{
    /* The first option, atomics, is read whatever the size. */
    int err = XWG__CHECK_SIZE("xwg_context_create", opts,
                              offsetof(xwg_options, atomics) +
                                  sizeof opts->atomics,
                              "xwg_options_init() or XWG_OPTIONS_INIT");
    if (err != XWG_SUCCESS)
        return err;
    if ((unsigned)opts->atomics > XWG_ATOMICS_PTX)
        return XWG__INVALID("xwg_context_create: opts->atomics is %d, not "
                            "an xwg_atomics_path",
                            (int)opts->atomics);
    if (opts->size >= offsetof(xwg_options, discovery) + sizeof opts->discovery &&
        opts->discovery != XWG_DISCOVERY_DEFAULT &&
        opts->discovery != XWG_DISCOVERY_TICKET_LOCK &&
        opts->discovery != XWG_DISCOVERY_STABLE_WINDOW)
        return XWG__INVALID("xwg_context_create: opts->discovery is %d, not "
                            "an xwg_discovery_protocol",
                            (int)opts->discovery);
    /* Fields an older caller's struct does not reach keep their defaults
     * (see xwg_context_create). */
    if (opts->size >= offsetof(xwg_options, barrier) + sizeof opts->barrier &&
        (unsigned)opts->barrier > XWG_BARRIER_TREE)
        return XWG__INVALID("xwg_context_create: opts->barrier is %d, not "
                            "an xwg_barrier_algo",
                            (int)opts->barrier);
    if (opts->size >= offsetof(xwg_options, self_test) + sizeof opts->self_test &&
        (unsigned)opts->self_test > XWG_SELF_TEST_SKIP)
        return XWG__INVALID("xwg_context_create: opts->self_test is %d, not "
                            "an xwg_self_test_mode",
                            (int)opts->self_test);
    return XWG_SUCCESS;
}

/* 1 if device belongs to context. */
static int context_has_device(cl_context context, cl_device_id device)
{
    cl_uint n = 0;
    if (clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof n, &n,
                         NULL) != CL_SUCCESS ||
        n == 0)
        return 0;
    cl_device_id *devices = malloc(n * sizeof *devices);
    if (devices == NULL)
        return 0;
    int found = 0;
    if (clGetContextInfo(context, CL_CONTEXT_DEVICES, n * sizeof *devices,
                         devices, NULL) == CL_SUCCESS)
        for (cl_uint i = 0; i < n; i++)
            found |= devices[i] == device;
    free(devices);
    return found;
}

/* Runs the self-test on the current path and adds its outcome to
 * info->self_test_run, so that a path given up for another still shows
 * what it read. */
static int self_test_and_record(xwg_context *ctx)
{
    int err = xwg__run_self_test(ctx);
    xwg_device_info *info = &ctx->info;
    size_t capacity = sizeof info->self_test_run / sizeof *info->self_test_run;
    if (info->self_test_runs < capacity) {
        xwg_self_test_run *run = &info->self_test_run[info->self_test_runs++];
        run->path = info->atomics_path;
        run->result = info->self_test;
        run->status = err;
        run->errors = info->self_test_errors;
        run->groups = info->self_test_groups;
    }
    return err;
}

/* Tries `path` on the barrier self-test. It is kept (returns 1) only if the
 * self-test ran and passed (or found that one group is all the device
 * holds); the reason then reads lead, the earlier reason, trail. Otherwise (it does not build, fails, or the launch fails) the
 * earlier path and reason come back, as if it had never been tried. */
static int self_test_keeps(xwg_context *ctx, xwg_atomics_path path,
                           const char *lead, const char *trail)
{
    xwg_device_info *info = &ctx->info;
    xwg_atomics_path before = info->atomics_path;
    char reason[sizeof info->atomics_reason];
    memcpy(reason, info->atomics_reason, sizeof reason);
    info->atomics_path = path;
    int err = self_test_and_record(ctx);
    if (err == XWG_SUCCESS && (info->self_test == XWG_SELF_TEST_PASSED ||
                               info->self_test == XWG_SELF_TEST_ONE_GROUP)) {
        snprintf(info->atomics_reason, sizeof info->atomics_reason,
                 "%s%.150s%s", lead, reason, trail);
        return 1;
    }
    size_t used = strlen(ctx->paths_tried);
    snprintf(ctx->paths_tried + used, sizeof ctx->paths_tried - used,
             "%s: %s; ", xwg_atomics_path_name(path),
             err == XWG_SUCCESS ? info->self_test_detail
                                : xwg_status_string(err));
    XWG__TRACE("%s on %s: %s, self-test %d (%s); back to %s",
               xwg_atomics_path_name(path), info->device_name,
               xwg_status_name(err), (int)info->self_test,
               info->self_test_detail, xwg_atomics_path_name(before));
    info->atomics_path = before;
    memcpy(info->atomics_reason, reason, sizeof reason);
    info->self_test = XWG_SELF_TEST_NOT_RUN;
    info->self_test_errors = info->self_test_groups = 0;
    info->self_test_episodes = 0;
    info->self_test_detail[0] = '\0';
    info->poll_ns = 0; /* calibrate again, on the next path's loop */
    return 0;
}

/* With the self-test skipped, a forced path is still built once, so that a
 * path the device cannot compile is refused here, not at every build. */
static int forced_path_builds(xwg_context *ctx)
{
    cl_program prog = NULL;
    int err = xwg_program_build(ctx, xwg__probe_source, NULL, &prog, NULL);
    if (prog != NULL)
        clReleaseProgram(prog);
    return err == XWG_ERROR_BUILD_FAILED || err == CL_INVALID_BUILD_OPTIONS
               ? XWG_ERROR_UNSUPPORTED_DEVICE
               : err;
}

/* Runs the barrier self-test, and lets it settle the path where the
 * capabilities cannot. Unless a path is forced:
 *   - on an NVIDIA platform the ptx path is tried first: the same orders
 *     as cl20, and cheaper (docs/performance.md, tuning-h200, +cl20);
 *   - a device that compiles OpenCL C 2.0 or later but does not promise
 *     device-scope acquire/release (NVIDIA's driver 580, rusticl) is tried
 *     on cl20 next: NVIDIA honours device-scope C11 atomics and fences it
 *     does not advertise, while its 1.x fences do not order plain loads
 *     across groups (the cl12 self-test reads stale data there);
 *   - the probe's choice is tested last. */
static int choose_path_by_self_test(xwg_context *ctx, xwg_atomics_path forced)
{
    xwg_device_info *info = &ctx->info;
    if (forced == XWG_ATOMICS_AUTO &&
        strstr(info->platform_name, "NVIDIA") != NULL &&
        info->opencl_c_max >= 200 &&
        self_test_keeps(ctx, XWG_ATOMICS_PTX,
                        "an NVIDIA device, and PTX's own acquire/release "
                        "passed the barrier self-test (the capabilities "
                        "alone: ",
                        ")"))
        return XWG_SUCCESS;
    if (forced != XWG_ATOMICS_AUTO || info->atomics_path != XWG_ATOMICS_CL12 ||
        info->opencl_c_max < 200) {
        int err = self_test_and_record(ctx);
        /* A forced path that the device cannot compile. */
        if (forced != XWG_ATOMICS_AUTO && (err == XWG_ERROR_BUILD_FAILED ||
                                           err == CL_INVALID_BUILD_OPTIONS))
            err = XWG_ERROR_UNSUPPORTED_DEVICE;
        return err;
    }
    if (self_test_keeps(ctx, XWG_ATOMICS_CL20,
                        "cl20 passed the barrier self-test, although ", ""))
        return XWG_SUCCESS;
    return self_test_and_record(ctx); /* cl12, the probe's choice */
}

/* Gives back what ctx holds and frees it, for xwg_context_release and for
 * a creation that failed part way: a handle that was not made yet is NULL
 * (ctx comes from calloc), and `synced` says whether the lock and the
 * signal were, which nothing else can tell. The self-test may have left
 * cached discoveries, kernel facts, records and state buffers behind,
 * so a failed creation needs all of this too. */
static void context_free(xwg_context *ctx, int synced)
{
    for (size_t i = 0; i < ctx->cache_len; i++) {
        clReleaseKernel(ctx->cache[i].kernel);
    }
    free(ctx->cache);
    xwg__kernel_facts_release(ctx);
    xwg__pendings_release(ctx);
    for (size_t i = 0; i < ctx->pool_len; i++)
        xwg__state_release(ctx, ctx->pool[i]);
    xwg__slabs_release(ctx);
    if (ctx->state != NULL)
        clReleaseMemObject(ctx->state);
    if (ctx->copy_queue != NULL)
        clReleaseCommandQueue(ctx->copy_queue);
    if (ctx->queue != NULL)
        clReleaseCommandQueue(ctx->queue);
    if (ctx->device != NULL)
        clReleaseDevice(ctx->device);
    if (ctx->cl != NULL)
        clReleaseContext(ctx->cl);
    if (synced) {
        pthread_cond_destroy(&ctx->chain_done);
        pthread_mutex_destroy(&ctx->lock);
    }
    free(ctx);
}

int xwg_context_create(cl_context context, cl_device_id device,
                       const xwg_options *opts, xwg_context **out)
{
    xwg__clear_last_error();
    if (out == NULL)
        return XWG__INVALID("xwg_context_create: out is NULL");
    *out = NULL;
    if (context == NULL || device == NULL)
        return XWG__INVALID("xwg_context_create: %s is NULL",
                            context == NULL ? "context" : "device");

    xwg_options options;
    xwg_options_init(&options);
    if (opts != NULL) {
        if (check_options(opts) != XWG_SUCCESS)
            return XWG_ERROR_INVALID_ARGUMENT; /* traced there */
        /* Take only the fields the caller's header knew about. */
        size_t n = opts->size < sizeof options ? opts->size : sizeof options;
        memcpy(&options, opts, n);
        options.size = sizeof options;
    }
    int err = apply_environment(&options);
    if (err != XWG_SUCCESS)
        return err;
    if (!context_has_device(context, device))
        return XWG__INVALID("xwg_context_create: device is not one of "
                            "context's devices");

    xwg_context *ctx = calloc(1, sizeof *ctx);
    if (ctx == NULL)
        return XWG_ERROR_OUT_OF_HOST_MEMORY;
    /* From here on every failure ends at `fail`, which gives back what
     * has been made so far (context_free), so that a failed creation
     * leaves nothing allocated or retained. */
    int synced = 0; /* the lock and the signal have been made */
    ctx->options = options;
    ctx->full_state_writes = 0;
    ctx->trace_launches = xwg__trace_enabled();
    ctx->info.size = sizeof ctx->info;
    err = xwg__probe_device(device, options.atomics, &ctx->info);
    if (err != XWG_SUCCESS)
        goto fail;
    ctx->info.discovery = options.discovery == XWG_DISCOVERY_DEFAULT
                              ? XWG_DISCOVERY_STABLE_WINDOW
                              : options.discovery;
    ctx->full_state_writes =
        strstr(ctx->info.platform_name, "Oclgrind") != NULL;
    /* DEFAULT stays: each launch then chooses by its size (launch.c). */
    ctx->info.barrier = options.barrier;
    ctx->info.discovery_window_us =
        options.discovery_window_us != 0 ? options.discovery_window_us
        : xwg__is_plain_gpu(ctx->info.device_type) ? XWG_TUNE_WINDOW_US_GPU
                                               : XWG_TUNE_WINDOW_US_CPU;

    /* Our own queues, so that discovery never waits behind user work: one
     * with profiling, to report the discovery kernel's device time, and one
     * without for reading state back, which profiling slows (internal.h). */
    ctx->queue = xwg__create_queue(context, device, CL_QUEUE_PROFILING_ENABLE,
                                   &err);
    if (ctx->queue == NULL)
        goto fail;
    ctx->copy_queue = xwg__create_queue(context, device, 0, &err);
    if (ctx->copy_queue == NULL)
        goto fail;
    ctx->state = clCreateBuffer(context, CL_MEM_READ_WRITE,
                                XWG__STATE_WORDS * sizeof(cl_uint), NULL, &err);
    if (ctx->state == NULL)
        goto fail;
    err = XWG_ERROR_OUT_OF_HOST_MEMORY;
    if (pthread_mutex_init(&ctx->lock, NULL) != 0)
        goto fail;
    if (pthread_cond_init(&ctx->chain_done, NULL) != 0) {
        pthread_mutex_destroy(&ctx->lock); /* synced covers both or none */
        goto fail;
    }
    synced = 1;
    clRetainContext(context);
    clRetainDevice(device);
    ctx->cl = context;
    ctx->device = device;

    if (options.self_test != XWG_SELF_TEST_SKIP) {
        err = choose_path_by_self_test(ctx, options.atomics);
        if (err == XWG_SUCCESS &&
            ctx->info.self_test == XWG_SELF_TEST_FAILED &&
            options.self_test == XWG_SELF_TEST_REQUIRE)
            err = XWG_ERROR_UNSUPPORTED_DEVICE;
        if (err != XWG_SUCCESS) {
            if (err == XWG_ERROR_UNSUPPORTED_DEVICE &&
                ctx->info.self_test == XWG_SELF_TEST_FAILED)
                xwg__set_last_error(
                    "%s refused: the barrier self-test failed: %s%s: %s",
                    ctx->info.device_name, ctx->paths_tried,
                    xwg_atomics_path_name(ctx->info.atomics_path),
                    ctx->info.self_test_detail);
            XWG__TRACE("%s refused: self-test %s (%s)",
                       ctx->info.device_name, xwg_status_name(err),
                       ctx->info.self_test_detail);
            goto fail;
        }
    } else if (options.atomics != XWG_ATOMICS_AUTO &&
               (err = forced_path_builds(ctx)) != XWG_SUCCESS) {
        XWG__TRACE("%s refused: forced path %s does not build",
                   ctx->info.device_name,
                   xwg_atomics_path_name(options.atomics));
        goto fail;
    }
    /* A self-test that could not decide, or one forced past its failure,
     * may have left a discovery's reason behind: the context is made, so
     * the call succeeded, and says nothing more. */
    xwg__clear_last_error();
    *out = ctx;
    return XWG_SUCCESS;

fail:
    context_free(ctx, synced);
    return err;
}

void xwg_context_release(xwg_context *ctx)
{
    if (ctx != NULL)
        context_free(ctx, 1);
}

int xwg_context_query(const xwg_context *ctx, xwg_device_info *info)
{
    xwg__clear_last_error();
    if (ctx == NULL || info == NULL)
        return XWG__INVALID("xwg_context_query: %s is NULL",
                            ctx == NULL ? "ctx" : "info");
    int err = XWG__CHECK_SIZE("xwg_context_query", info, sizeof(size_t),
                              "XWG_DEVICE_INFO_INIT");
    if (err != XWG_SUCCESS)
        return err;
    /* The first discovery writes the calibration under the lock. */
    pthread_mutex_t *lock = (pthread_mutex_t *)&ctx->lock;
    pthread_mutex_lock(lock);
    xwg__copy_versioned(info, &ctx->info, sizeof ctx->info);
    pthread_mutex_unlock(lock);
    return XWG_SUCCESS;
}
