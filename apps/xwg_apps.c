/*
 * xwg_apps.c - the xwg-apps command: iterative graph applications in two
 * versions that share their kernel code, a persistent kernel with
 * xwg_barrier() between iterations and one launch per iteration, each
 * checked against a plain C reference on every run.
 *
 * Usage: xwg-apps [--platform-name S] [--app bfs|sssp|mis|colour|all]
 *          [--graph rmat:SCALE|grid:WxH] [--variant barrier|multi|both]
 *          [--local-size N] [--seed N] [--repeat N] [--csv FILE]
 *          [--label TEXT] [--broken NAME]
 * (--broken builds a test-only known-bad variant, BARRIER_NOOP say:
 * tests/known_bad.md.) Prints one line per run; with --csv appends rows: implementation,
 * device, app, graph, variant, time_ms, groups, iterations, verified.
 * Exits non-zero if any run fails its check.
 */
#define _POSIX_C_SOURCE 200809L
#include "app_source.h" /* apps/app_kernels.cl, embedded at build time */
#include "graph.h"
#include "known_bad.h"
#include "references.h"
#include "xwg_barrier.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct app_env {
    cl_context cl;
    cl_device_id device;
    cl_command_queue queue;
    xwg_context *xc;
    cl_program prog;
    xwg_device_info info;
    size_t local;
    cl_uint groups; /* discovered for the persistent kernels */
} app_env;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* ---- one run ------------------------------------------------------------- */

typedef struct run_result {
    double ms;
    cl_uint groups, iterations;
    int verified;
} run_result;

static cl_mem upload(app_env *E, const void *data, size_t bytes)
{
    int err;
    cl_mem m = clCreateBuffer(E->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              bytes, (void *)data, &err);
    if (m == NULL) {
        /* Too large for the device: say so, rather than run on NULL. */
        fprintf(stderr, "xwg-apps: a buffer of %zu bytes: %s\n", bytes,
                xwg_status_string(err));
        exit(1);
    }
    return m;
}

/* The persistent version: one xwg_launch; it counts its iterations. */
static int launch_persistent(app_env *E, cl_kernel k, cl_mem iterations,
                             run_result *r)
{
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    int err = xwg_launch(E->xc, E->queue, k, E->local, &info);
    r->groups = info.groups;
    clEnqueueReadBuffer(E->queue, iterations, CL_TRUE, 0, sizeof(cl_uint),
                        &r->iterations, 0, NULL, NULL);
    return err;
}

enum { APP_BFS, APP_SSSP, APP_MIS, APP_COLOUR, APPS };
static const char *app_names[APPS] = {"bfs", "sssp", "mis", "colour"};

/* The most edges one work-item takes of a vertex (apps/graph.h): short
 * enough that a hub spreads, long enough that a grid keeps one segment
 * per vertex. */
#define SEGMENT_EDGES 32u

/* The graph on the device: what every kernel's SEGMENT_PARAMS take. */
typedef struct device_graph {
    cl_uint n, segs;
    cl_mem seg_vertex, seg_begin, col, weight;
} device_graph;

static void device_graph_upload(app_env *E, const graph *g,
                                const segments *sg, device_graph *d)
{
    d->n = g->n;
    d->segs = sg->count;
    d->seg_vertex = upload(E, sg->vertex, (size_t)sg->count * sizeof(uint32_t));
    d->seg_begin = upload(E, sg->begin, ((size_t)sg->count + 1) * sizeof(uint32_t));
    d->col = upload(E, g->col, (size_t)g->m * sizeof(uint32_t));
    d->weight = upload(E, g->weight, (size_t)g->m * sizeof(uint32_t));
}

static void device_graph_release(device_graph *d)
{
    clReleaseMemObject(d->seg_vertex);
    clReleaseMemObject(d->seg_begin);
    clReleaseMemObject(d->col);
    clReleaseMemObject(d->weight);
}

/* Sets SEGMENT_PARAMS, the first five arguments; returns the next index. */
static cl_uint set_segment_args(cl_kernel k, const device_graph *d)
{
    clSetKernelArg(k, 0, sizeof d->n, &d->n);
    clSetKernelArg(k, 1, sizeof d->segs, &d->segs);
    clSetKernelArg(k, 2, sizeof d->seg_vertex, &d->seg_vertex);
    clSetKernelArg(k, 3, sizeof d->seg_begin, &d->seg_begin);
    clSetKernelArg(k, 4, sizeof d->col, &d->col);
    return 5;
}

/* Stops the clock, reads the n results into out, releases the run's
 * kernel and buffers. */
static int finish_run(app_env *E, cl_kernel k, cl_mem values, uint32_t n,
                      uint32_t *out, cl_mem *buffers, int count,
                      double start, run_result *r, int err)
{
    clFinish(E->queue);
    r->ms = now_ms() - start;
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(E->queue, values, CL_TRUE, 0,
                                  n * sizeof(uint32_t), out, 0, NULL, NULL);
    clReleaseKernel(k);
    for (int i = 0; i < count; i++)
        clReleaseMemObject(buffers[i]);
    return err;
}

static int run_select(app_env *E, const device_graph *d, int colouring,
                      int persistent, uint32_t *out, run_result *r);

/* Runs an app in one variant; its per-vertex result into out. */
static int run_app(app_env *E, const device_graph *d, int which,
                   int persistent, uint32_t *out, run_result *r)
{
    if (which == APP_MIS || which == APP_COLOUR)
        return run_select(E, d, which == APP_COLOUR, persistent, out, r);
    int sssp = which == APP_SSSP;
    int err;
    uint32_t *init = malloc(d->n * sizeof *init);
    for (uint32_t v = 0; v < d->n; v++)
        init[v] = v == 0 ? 0 : INF;
    cl_uint zeros[3] = {0, 0, 0};
    cl_mem values = upload(E, init, d->n * sizeof(uint32_t));
    cl_mem changed = upload(E, zeros, sizeof zeros);
    cl_mem iterations = upload(E, zeros, sizeof zeros);
    free(init);
    const char *name = persistent ? (sssp ? "sssp_persistent" : "bfs_persistent")
                                  : (sssp ? "sssp_one" : "bfs_one");
    cl_kernel k = clCreateKernel(E->prog, name, &err);
    cl_uint a = set_segment_args(k, d);
    if (sssp)
        clSetKernelArg(k, a++, sizeof d->weight, &d->weight);
    clSetKernelArg(k, a++, sizeof values, &values);
    err = XWG_SUCCESS;
    double start = now_ms();
    if (persistent) {
        clSetKernelArg(k, a++, sizeof changed, &changed);
        clSetKernelArg(k, a++, sizeof iterations, &iterations);
        err = launch_persistent(E, k, iterations, r);
    } else {
        /* One launch per iteration, the same grid as the persistent one,
         * and the flag read back each time, as a host loop does. */
        size_t global = (size_t)E->groups * E->local;
        cl_uint it = 0, flag = 1;
        /* n + 2 at most, as the persistent loop: a wrong kernel ends. */
        for (; flag && err == CL_SUCCESS && it <= d->n + 1; it++) {
            static const cl_uint zero = 0; /* read by a non-blocking write */
            clEnqueueWriteBuffer(E->queue, changed, CL_FALSE, 0, sizeof zero,
                                 &zero, 0, NULL, NULL);
            if (!sssp)
                clSetKernelArg(k, a, sizeof it, &it);
            clSetKernelArg(k, sssp ? a : a + 1, sizeof changed, &changed);
            err = clEnqueueNDRangeKernel(E->queue, k, 1, NULL, &global,
                                         &E->local, 0, NULL, NULL);
            if (err == CL_SUCCESS)
                err = clEnqueueReadBuffer(E->queue, changed, CL_TRUE, 0,
                                          sizeof flag, &flag, 0, NULL, NULL);
        }
        r->groups = E->groups;
        r->iterations = it;
    }
    cl_mem mine[] = {values, changed, iterations};
    return finish_run(E, k, values, d->n, out, mine, 3, start, r, err);
}

/* MIS and colouring: two phases per round. */
static int run_select(app_env *E, const device_graph *d, int colouring,
                      int persistent, uint32_t *out, run_result *r)
{
    int err;
    uint32_t *init = malloc(d->n * sizeof *init);
    for (uint32_t v = 0; v < d->n; v++)
        init[v] = INF;
    cl_uint zeros[3] = {0, 0, 0}, c = (cl_uint)colouring;
    cl_mem state = upload(E, init, d->n * sizeof(uint32_t));
    /* mark: 0, below every round's 2r + 1 (app_kernels.cl) */
    memset(init, 0, d->n * sizeof *init);
    cl_mem mark = upload(E, init, d->n * sizeof(uint32_t));
    cl_mem changed = upload(E, zeros, sizeof zeros);
    cl_mem iterations = upload(E, zeros, sizeof zeros);
    free(init);
    cl_kernel k = clCreateKernel(E->prog, persistent ? "select_persistent"
                                                     : "select_one", &err);
    cl_uint a = set_segment_args(k, d);
    clSetKernelArg(k, a++, sizeof state, &state);
    clSetKernelArg(k, a++, sizeof mark, &mark);
    clSetKernelArg(k, a++, sizeof c, &c);
    err = XWG_SUCCESS;
    double start = now_ms();
    if (persistent) {
        clSetKernelArg(k, a++, sizeof changed, &changed);
        clSetKernelArg(k, a++, sizeof iterations, &iterations);
        err = launch_persistent(E, k, iterations, r);
    } else {
        size_t global = (size_t)E->groups * E->local;
        clSetKernelArg(k, a + 2, sizeof changed, &changed);
        cl_uint round = 0;
        for (; round <= d->n + 1; round++) {
            static const cl_uint zero = 0; /* read by a non-blocking write */
            cl_uint flag = 0;
            clEnqueueWriteBuffer(E->queue, changed, CL_FALSE, 0, sizeof zero,
                                 &zero, 0, NULL, NULL);
            for (cl_uint phase = 0; phase < 2 && err == CL_SUCCESS; phase++) {
                clSetKernelArg(k, a, sizeof phase, &phase);
                clSetKernelArg(k, a + 1, sizeof round, &round);
                err = clEnqueueNDRangeKernel(E->queue, k, 1, NULL, &global,
                                             &E->local, 0, NULL, NULL);
                if (phase == 0 && err == CL_SUCCESS)
                    err = clEnqueueReadBuffer(E->queue, changed, CL_TRUE, 0,
                                              sizeof flag, &flag, 0, NULL,
                                              NULL);
                if (!flag)
                    break;
            }
            if (!flag || err != CL_SUCCESS)
                break;
        }
        r->groups = E->groups;
        r->iterations = round;
    }
    cl_mem mine[] = {state, mark, changed, iterations};
    return finish_run(E, k, state, d->n, out, mine, 4, start, r, err);
}

static int setup(app_env *E, const char *platform, const char *options)
{
    cl_platform_id p;
    int err = xwg_find_device(platform, &p, &E->device);
    if (err != XWG_SUCCESS)
        return err;
    E->cl = clCreateContext(NULL, 1, &E->device, NULL, NULL, &err);
    if (E->cl == NULL)
        return err;
    E->queue = clCreateCommandQueueWithProperties(E->cl, E->device, NULL, &err);
    if (E->queue == NULL)
        return err;
    if ((err = xwg_context_create(E->cl, E->device, NULL, &E->xc)))
        return err;
    char *log = NULL;
    if ((err = xwg_program_build(E->xc, app_source, options, &E->prog,
                                 &log))) {
        fprintf(stderr, "%s\n", log ? log : "");
        free(log);
        return err;
    }
    E->info.size = sizeof E->info;
    xwg_context_query(E->xc, &E->info);
    if (E->local > E->info.max_work_group_size)
        E->local = E->info.max_work_group_size;
    return XWG_SUCCESS;
}

/* The persistent kernels' occupancy, which the multi-kernel version uses as
 * its grid too, so that both do the same work per iteration. */
static int discover_groups(app_env *E)
{
    int err;
    cl_kernel k = clCreateKernel(E->prog, "sssp_persistent", &err);
    cl_mem dummy = clCreateBuffer(E->cl, CL_MEM_READ_WRITE, 64, NULL, &err);
    cl_uint zero = 0;
    clSetKernelArg(k, 0, sizeof zero, &zero); /* n */
    clSetKernelArg(k, 1, sizeof zero, &zero); /* segs */
    for (cl_uint a = 2; a < 9; a++)
        clSetKernelArg(k, a, sizeof dummy, &dummy);
    xwg_occupancy occ = XWG_OCCUPANCY_INIT;
    err = xwg_discover(E->xc, k, E->local, &occ);
    E->groups = occ.groups;
    clReleaseMemObject(dummy);
    clReleaseKernel(k);
    return err;
}

int main(int argc, char **argv)
{
    const char *platform = NULL, *app = "all", *spec = "grid:64x64",
               *variant = "both", *csv_path = NULL, *label = "";
    char build_options[64] = "";
    unsigned long long seed = 1;
    int repeat = 1;
    app_env E = {0};
    E.local = 256;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *o = argv[i], *v = argv[i + 1];
        if (!strcmp(o, "--platform-name")) platform = v;
        else if (!strcmp(o, "--app")) app = v;
        else if (!strcmp(o, "--graph")) spec = v;
        else if (!strcmp(o, "--variant")) variant = v;
        else if (!strcmp(o, "--local-size")) E.local = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--seed")) seed = strtoull(v, NULL, 10);
        else if (!strcmp(o, "--repeat")) repeat = atoi(v);
        else if (!strcmp(o, "--csv")) csv_path = v;
        else if (!strcmp(o, "--label")) label = v;
        else if (!strcmp(o, "--broken")) { /* a test-only known-bad one */
            if (xwg_known_bad_option("xwg-apps", v, build_options,
                                     sizeof build_options))
                return 2;
        }
        else {
            fprintf(stderr, "xwg-apps: unknown option %s\n", o);
            return 2;
        }
    }
    if (argc % 2 == 0 || repeat < 1 || E.local == 0 ||
        (strcmp(app, "bfs") && strcmp(app, "sssp") && strcmp(app, "mis") &&
         strcmp(app, "colour") && strcmp(app, "all")) ||
        (strcmp(variant, "barrier") && strcmp(variant, "multi") &&
         strcmp(variant, "both"))) {
        fprintf(stderr, "xwg-apps: bad arguments (see the comment at the top "
                        "of apps/xwg_apps.c)\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress, even into a pipe */
    graph g;
    segments sg;
    char msg[128];
    double t0 = now_ms();
    if (graph_from_spec(&g, spec, seed, msg, sizeof msg)) {
        fprintf(stderr, "xwg-apps: %s\n", msg);
        return 2;
    }
    if (graph_segments(&g, SEGMENT_EDGES, &sg)) {
        fprintf(stderr, "xwg-apps: out of memory\n");
        graph_free(&g);
        return 2;
    }
    uint32_t max_degree = 0;
    for (uint32_t v = 0; v < g.n; v++)
        if (g.row[v + 1] - g.row[v] > max_degree)
            max_degree = g.row[v + 1] - g.row[v];
    /* Progress for long studies: large graphs take seconds to make. */
    fprintf(stderr, "xwg-apps: %s: %u vertices, %u edges (largest degree "
                    "%u), %u segments, made in %.0f ms\n",
            g.name, g.n, g.m, max_degree, sg.count, now_ms() - t0);
    int err = setup(&E, platform, build_options);
    if (err == XWG_SUCCESS)
        err = discover_groups(&E);
    if (err != XWG_SUCCESS) {
        fprintf(stderr, "xwg-apps: %s\n", xwg_status_string(err));
        return 1;
    }
    device_graph d;
    device_graph_upload(&E, &g, &sg, &d);
    FILE *csv = csv_path ? fopen(csv_path, "a") : NULL;
    uint32_t *want = malloc(g.n * sizeof *want), *got = malloc(g.n * sizeof *got);
    int failures = 0;
    for (int s = 0; s < APPS; s++) {
        if (strcmp(app, "all") && strcmp(app, app_names[s]))
            continue;
        t0 = now_ms();
        if (s == APP_BFS)
            bfs_reference(&g, want);
        else if (s == APP_SSSP)
            sssp_reference(&g, want);
        else
            select_reference(&g, s == APP_COLOUR, want);
        fprintf(stderr, "xwg-apps: %s reference in %.0f ms\n", app_names[s],
                now_ms() - t0);
        for (int pv = 1; pv >= 0; pv--) {
            if (strcmp(variant, "both") && strcmp(variant, pv ? "barrier" : "multi"))
                continue;
            /* A first, untimed run: PoCL compiles a kernel for its
             * work-group size at its first launch. */
            run_result warm = {0};
            run_app(&E, &d, s, pv, got, &warm);
            for (int rep = 0; rep < repeat; rep++) {
                run_result r = {0};
                err = run_app(&E, &d, s, pv, got, &r);
                r.verified = err == XWG_SUCCESS &&
                             !memcmp(got, want, g.n * sizeof *got);
                failures += !r.verified;
                printf("%-6s %-10s %-7s %10.3f ms  %5u groups  %6u iterations"
                       "  %s%s%s\n",
                       app_names[s], g.name, pv ? "barrier" : "multi",
                       r.ms, r.groups, r.iterations,
                       r.verified ? "verified" : "WRONG",
                       err ? " " : "", err ? xwg_status_name(err) : "");
                if (csv) {
                    fprintf(csv, "%s,\"%s\",%s,%s,%s,%.3f,%u,%u,%d\n", label,
                            E.info.device_name, app_names[s], g.name,
                            pv ? "barrier" : "multi", r.ms, r.groups,
                            r.iterations, r.verified);
                    fflush(csv); /* a long study cut short keeps its rows */
                }
            }
        }
    }
    if (csv)
        fclose(csv);
    printf("%d passed, %d failed\n", failures ? 0 : 1, failures ? 1 : 0);
    free(want);
    free(got);
    device_graph_release(&d);
    segments_free(&sg);
    graph_free(&g);
    clReleaseProgram(E.prog);
    xwg_context_release(E.xc);
    clReleaseCommandQueue(E.queue);
    clReleaseContext(E.cl);
    return failures ? 1 : 0;
}
