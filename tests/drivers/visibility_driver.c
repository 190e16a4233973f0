/*
 * visibility_driver.c - what a device needs for data written before an xwg
 * barrier to be seen after it. A diagnostic, not a test: it runs the
 * self-test's exchange (every work-item stores a value per episode, and
 * after the barrier reads another group's) with each way of storing,
 * loading and fencing the data, at several group counts, and prints one
 * line per run with the wrong reads sorted by kind:
 *   stale   the value of an earlier episode (a store not yet visible);
 *   zero    the buffer's initial 0 (no store of this launch seen at all);
 *   other   anything else (a torn or misdirected value);
 *   ids     participant ids that were not distinct and dense.
 * It answers "why does this stack give wrong values": if plain data is
 * stale but atomic data is right, plain loads are served from a cache
 * that the barrier's acquire does not invalidate; if a device-scope
 * work_group_barrier mends it, the library's barrier can too.
 *
 * Usage: visibility_driver [--platform-name S] [--local-size L]
 *          [--episodes E] [--launches N] [--groups G,...] [--matrix G]
 * The plain variant runs at each of the group counts; with --matrix every
 * other variant runs too, at G groups. The context's self-test is only reported
 * (XWG_SELF_TEST=report is set unless the caller set it).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "xwg_barrier.h"
#include "visibility_source.h" /* visibility.cl */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* visibility_source: tests/drivers/visibility.cl, embedded at build time. */

typedef struct run_config {
    cl_context cl;
    cl_command_queue queue;
    xwg_context *xc;
    size_t local;
    cl_uint episodes, launches;
} run_config;

static const char *const store_names[] = {"plain", "volatile", "atomic"};
static const char *const fence_names[] = {"none", "fence", "wgb-device"};

/* One variant at one group count: prints its line. */
static void run_variant(const run_config *c, const char *path, int s, int l,
                        int f, cl_uint groups)
{
    char options[96];
    snprintf(options, sizeof options, "-DSTORE_KIND=%d -DLOAD_KIND=%d "
             "-DFENCE_KIND=%d", s, l, f);
    cl_program prog = NULL;
    char *log = NULL;
    int err =
        xwg_program_build(c->xc, visibility_source, options, &prog, &log);
    if (err != XWG_SUCCESS) {
        printf("%s store=%s load=%s fence=%s: build %s\n%s\n", path,
               store_names[s], store_names[l], fence_names[f],
               xwg_status_name(err), log ? log : "");
        free(log);
        return;
    }
    cl_kernel k = clCreateKernel(prog, "exchange", &err);
    clReleaseProgram(prog);
    size_t data_bytes = (size_t)groups * c->local * sizeof(cl_uint);
    cl_mem data = clCreateBuffer(c->cl, CL_MEM_READ_WRITE, data_bytes, NULL,
                                 &err);
    cl_mem counts = clCreateBuffer(c->cl, CL_MEM_READ_WRITE,
                                   3 * sizeof(cl_uint), NULL, &err);
    cl_mem ids = clCreateBuffer(c->cl, CL_MEM_READ_WRITE,
                                (groups + 1) * sizeof(cl_uint), NULL, &err);
    clSetKernelArg(k, 0, sizeof data, &data);
    clSetKernelArg(k, 1, sizeof counts, &counts);
    clSetKernelArg(k, 2, sizeof ids, &ids);
    clSetKernelArg(k, 3, sizeof c->episodes, &c->episodes);
    unsigned long long total[3] = {0, 0, 0}, id_errors = 0;
    cl_uint launches = 0;
    const cl_uint zero = 0;
    cl_uint *host = calloc(groups + 1, sizeof *host);
    for (; launches < c->launches && err == XWG_SUCCESS; launches++) {
        clEnqueueFillBuffer(c->queue, data, &zero, sizeof zero, 0, data_bytes,
                            0, NULL, NULL);
        clEnqueueFillBuffer(c->queue, counts, &zero, sizeof zero, 0,
                            3 * sizeof(cl_uint), 0, NULL, NULL);
        clEnqueueFillBuffer(c->queue, ids, &zero, sizeof zero, 0,
                            (groups + 1) * sizeof(cl_uint), 0, NULL, NULL);
        xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
        opts.groups = groups;
        opts.skip_discovery = 1;
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        err = xwg_launch_ex(c->xc, c->queue, k, c->local, &opts, &info);
        cl_uint found[3] = {0, 0, 0};
        if (err == XWG_SUCCESS)
            err = clEnqueueReadBuffer(c->queue, counts, CL_TRUE, 0,
                                      sizeof found, found, 0, NULL, NULL);
        if (err == XWG_SUCCESS)
            err = clEnqueueReadBuffer(c->queue, ids, CL_TRUE, 0,
                                      (groups + 1) * sizeof *host, host, 0,
                                      NULL, NULL);
        for (int i = 0; i < 3; i++)
            total[i] += found[i];
        for (cl_uint g = 0; err == XWG_SUCCESS && g <= groups; g++)
            id_errors += host[g] != (g < groups ? 1u : 0u);
    }
    printf("%s groups=%u store=%s load=%s fence=%s: %u launches, %llu "
           "episodes, stale %llu, zero %llu, other %llu, ids %llu, %s\n",
           path, groups, store_names[s], store_names[l], fence_names[f],
           launches, (unsigned long long)launches * c->episodes, total[0],
           total[1], total[2], id_errors, xwg_status_name(err));
    fflush(stdout);
    free(host);
    clReleaseMemObject(ids);
    clReleaseMemObject(counts);
    clReleaseMemObject(data);
    clReleaseKernel(k);
}

int main(int argc, char **argv)
{
    const char *platform = NULL, *group_list = "2,32,264";
    cl_uint matrix = 0; /* --matrix: the group count of the other variants */
    run_config c = {.local = 256, .episodes = 200, .launches = 3};
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(argv[i], "--platform-name"))
            platform = argv[++i];
        else if (!strcmp(argv[i], "--local-size"))
            c.local = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--episodes"))
            c.episodes = (cl_uint)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--launches"))
            c.launches = (cl_uint)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--groups"))
            group_list = argv[++i];
        else if (!strcmp(argv[i], "--matrix"))
            matrix = (cl_uint)strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "visibility_driver: unknown argument %s %s\n",
                    argv[i], v);
            return 2;
        }
    }
    setenv("XWG_SELF_TEST", "report", 0);
    cl_platform_id p;
    cl_device_id device;
    int err = xwg_find_device(platform, &p, &device);
    if (err != XWG_SUCCESS) {
        fprintf(stderr, "visibility_driver: no device: %s\n",
                xwg_status_name(err));
        return 2;
    }
    c.cl = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    c.queue = clCreateCommandQueueWithProperties(c.cl, device, NULL, &err);
    err = xwg_context_create(c.cl, device, NULL, &c.xc);
    if (err != XWG_SUCCESS) {
        fprintf(stderr, "visibility_driver: xwg_context_create: %s\n",
                xwg_status_name(err));
        return 2;
    }
    xwg_device_info info = XWG_DEVICE_INFO_INIT;
    xwg_context_query(c.xc, &info);
    const char *path = xwg_atomics_path_name(info.atomics_path);
    printf("%s on %s: path %s, self-test %d (%u wrong in %u episodes, %u "
           "groups)\n", info.device_name, info.platform_name, path,
           (int)info.self_test, info.self_test_errors,
           info.self_test_episodes, info.self_test_groups);
    for (const char *g = group_list; *g;) {
        char *end;
        cl_uint groups = (cl_uint)strtoul(g, &end, 10);
        run_variant(&c, path, 0, 0, 0, groups);
        g = *end == ',' ? end + 1 : end;
    }
    int fences = info.atomics_path == XWG_ATOMICS_CL12 ? 2 : 3;
    for (int s = 0; matrix && s < 3; s++)
        for (int l = 0; l < 3; l++)
            for (int f = 0; f < fences; f++)
                if (s || l || f)
                    run_variant(&c, path, s, l, f, matrix);
    xwg_context_release(c.xc);
    clReleaseCommandQueue(c.queue);
    clReleaseContext(c.cl);
    return 0;
}
