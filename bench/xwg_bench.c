/*
 * xwg_bench.c - what a global barrier costs, per barrier, on one device.
 *
 * For each work-group size and each occupancy (full, a half, a quarter of
 * the discovered groups) it measures, and writes as CSV rows:
 *   barrier/<algo>  the latency of one xwg_barrier(): a kernel runs E1 and
 *                   then E2 barriers; (t(E2) - t(E1)) / (E2 - E1), with the
 *                   kernel's device times, so launch and discovery cancel.
 *                   The watchdog is on, as users get it. Median of 5.
 *   relaunch        the multi-kernel alternative: one launch of an empty
 *                   kernel of the same geometry per step, waited for at the
 *                   end; the same difference of two counts, wall time. The
 *                   relaunch rows use a queue without profiling (as a
 *                   multi-kernel program would), the barrier rows one with.
 *   relaunch/readback  the same with a blocking read of 4 bytes after each
 *                   launch, as a host loop that checks a convergence flag.
 *   relaunch/finish  the same with clFinish after each launch: each
 *                   launch's whole latency.
 *   relaunch/write-readback  the read-back loop with a write of 80 bytes
 *                   before each launch, as xwg writes a launch's state.
 *   relaunch/xwg    the same through xwg_launch_async() and
 *                   xwg_launch_finish() (discovery skipped, the discovered
 *                   groups): a launch with xwg's state, waited for, its
 *                   status read back.
 *   relaunch/xwg-enqueue  the part of that spent in xwg_launch_async()
 *                   (host-side checks and enqueues).
 *   discovery       xwg_discover_uncached's wall time.
 *   pingpong        the floor: a flag handed between two groups and back
 *                   (release store; polls that acquire as the barriers'
 *                   waits do), per round trip;
 *   pingpong/relaxed  the same with every access relaxed: the hardware's
 *                   round trip, with no ordering at all.
 *   pingpong/bare, pingpong/bare-relaxed  the same two in a plain OpenCL
 *                   kernel (no xwg state, discovery or local memory),
 *                   launched directly.
 * Usage: xwg-bench --help (the usage[] text below).
 */
#include "bench.h"
#include "bench_source.h" /* xwg_bench.cl, floor.cl, placed.cl, embedded */
#include "cpu_barriers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What --help prints (and a bad option points to). */
static const char usage[] =
    "usage: xwg-bench [--platform-name S] [--local-sizes 64,256,1024]\n"
    "         [--e1 256] [--e2 10256] [--csv FILE] [--label TEXT]\n"
    "         [--algos xf,counter,tree,default]  (default: what a launch\n"
    "                              without a barrier option runs, in a\n"
    "                              program built as a user's is, with the\n"
    "                              barrier set the context calibrated; the\n"
    "                              others from one program of counter and\n"
    "                              tree, and XF's of its own)\n"
    "         [--build-options S --tag T]  (a variant: S is added to the\n"
    "                              program's build options, e.g.\n"
    "                              -DXWG_TUNE_COLLECT=1 or\n"
    "                              -DXWG_TUNE_TREE_FANIN=8u, and T to the names\n"
    "                              of its rows, barrier/tree+T, pingpong+T)\n"
    "         [--barriers-only]   (full occupancy, barriers and pingpong only:\n"
    "                              for variants)\n"
    "         [--collectives]     (with --barriers-only: also the split\n"
    "                              barrier and the all-reduces, blocking\n"
    "                              and nonblocking, and the nonblocking\n"
    "                              one's overlap with work, per call,\n"
    "                              beside each barrier row at full occupancy)\n"
    "         [--dump-binary F]   (the program's binary: PTX on NVIDIA)\n"
    "         [--placements N]    (also the floor, and the counter and tree\n"
    "                              barriers, with their words at N places in\n"
    "                              memory, 64 KiB + 128 B apart: rows\n"
    "                              pingpong@min/median/max-of-N and\n"
    "                              barrier/ALGO@min/median/max-of-N; see\n"
    "                              placed.c)\n"
    "         [--prototypes]      (also the tree's flat-wake prototypes of\n"
    "                              placed.c, at full occupancy)\n"
    "         [--cpu-baselines]   (also a pthread and a spin barrier on the\n"
    "                              host: see cpu_barriers.c)\n";

/* Device time (us) of one launch of `count` barriers; median of 5. */
static double barrier_launch_us(bench *b, cl_kernel k, size_t local,
                                const xwg_launch_options *o, cl_uint count,
                                cl_uint *groups, xwg_barrier_algo *ran)
{
    double t[5];
    for (int i = 0; i < 5; i++) {
        clSetKernelArg(k, 0, sizeof count, &count);
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        t[i] = timed_launch_us(b, k, local, o, "launch", &info);
        *groups = info.groups;
        *ran = info.barrier;
    }
    return median_us(t, 5);
}

/* How a relaunch loop waits between launches: not at all (the launches
 * queue back to back), for a 4-byte read of a result (a convergence
 * loop), or for clFinish (each launch's whole latency, as the brief's
 * relaunch figure was taken). WRITE_READBACK also writes 80 bytes to the
 * device before each launch, as xwg_launch writes a launch's state: what
 * that write adds to a launch that is read back. */
enum relaunch_wait { WAIT_NONE, WAIT_READBACK, WAIT_FINISH, WRITE_READBACK };
static const char *const relaunch_rows[] = {"relaunch", "relaunch/readback",
                                            "relaunch/finish",
                                            "relaunch/write-readback"};

/* Relaunch loops run a quarter of the barrier counts (a launch costs
 * microseconds, not a barrier's fraction of one); per launch, the
 * difference of the two loops over the difference of their counts. */
static unsigned relaunches(unsigned barriers) { return barriers / 4; }

static double per_relaunch_us(const bench *b, double t1, double t2)
{
    return (t2 - t1) / (relaunches(b->e2) - relaunches(b->e1));
}

/* Wall time (us) of `count` launches of the empty kernel, each waited for
 * as `wait` says (into `sink` for a read-back); median of 3. */
static double relaunch_us(bench *b, cl_kernel k, size_t local, cl_uint groups,
                          unsigned count, cl_mem sink, enum relaunch_wait wait)
{
    cl_command_queue q = b->plain_queue;
    double t[3];
    size_t global = (size_t)groups * local;
    for (int i = 0; i < 3; i++) {
        clFinish(q);
        double start = now_us();
        for (unsigned c = 0; c < count; c++) {
            static const cl_uint header[20];
            if (wait == WRITE_READBACK)
                clEnqueueWriteBuffer(q, sink, CL_FALSE, 0,
                                     sizeof header, header, 0, NULL, NULL);
            clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL,
                                   NULL);
            cl_uint flag;
            if (wait == WAIT_READBACK || wait == WRITE_READBACK)
                clEnqueueReadBuffer(q, sink, CL_TRUE, 0, sizeof flag, &flag,
                                    0, NULL, NULL);
            else if (wait == WAIT_FINISH)
                clFinish(q);
        }
        clFinish(q);
        t[i] = now_us() - start;
    }
    return median_us(t, 3);
}

/* Wall time (us) of `count` launches through xwg of k (the barrier kernel
 * with no barriers to run), `groups` groups with discovery skipped: what
 * xwg adds to a launch that the host waits for (its state buffer, the
 * algorithm and watchdog arguments, the status read back). Each launch is
 * xwg_launch_async() then xwg_launch_finish(), as xwg_launch_ex() does;
 * *enqueue_us gets the part spent in xwg_launch_async() (its checks and
 * enqueues, no wait). Median of 3; NAN if a launch fails. */
static double xwg_relaunch_us(bench *b, cl_kernel k, size_t local,
                              cl_uint groups, unsigned count,
                              double *enqueue_us)
{
    cl_command_queue q = b->plain_queue;
    double t[3], e[3];
    *enqueue_us = NAN;
    const cl_uint none = 0;
    clSetKernelArg(k, 0, sizeof none, &none);
    xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
    lo.groups = groups;
    lo.skip_discovery = 1;
    for (int i = 0; i < 3; i++) {
        clFinish(q);
        double start = now_us();
        e[i] = 0;
        for (unsigned c = 0; c < count; c++) {
            xwg_pending *p;
            double before = now_us();
            int err = xwg_launch_async(b->xc, q, k, local, &lo, &p, NULL);
            e[i] += now_us() - before;
            if (err != XWG_SUCCESS || xwg_launch_finish(p, NULL) != XWG_SUCCESS)
                return NAN;
        }
        t[i] = now_us() - start;
    }
    *enqueue_us = median_us(e, 3);
    return median_us(t, 3);
}

/* Beside a barrier row (same launch options): the split barrier, the
 * all-reduces (blocking and nonblocking), and the nonblocking one's
 * overlap (with work between, beside the blocking one and the work
 * alone), per call. */
static void measure_collectives(bench *b, int xf, size_t local,
                                const xwg_launch_options *lo, cl_mem sink)
{
    static const char *const kernels[] = {
        "splits", "reduces_float", "reduces_uint", "reduces_float_nb",
        "reduces_float_work", "reduces_float_nb_work", "work_only"};
    static const char *const rows[] = {
        "split", "allreduce-float", "allreduce-uint", "allreduce-float-nb",
        "allreduce-float+work", "allreduce-float-nb+work", "work"};
    xwg_context *shared_xc = b->xc;
    if (xf)
        b->xc = b->xf_xc;
    for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++) {
        int err;
        cl_kernel k = clCreateKernel(xf ? b->xf_prog : b->prog, kernels[i],
                                     &err);
        clSetKernelArg(k, 1, sizeof sink, &sink);
        cl_uint g1 = 0, g2 = 0;
        xwg_barrier_algo ran = XWG_BARRIER_DEFAULT;
        double t1 = barrier_launch_us(b, k, local, lo, b->e1, &g1, &ran);
        double t2 = barrier_launch_us(b, k, local, lo, b->e2, &g2, &ran);
        char name[96];
        row_name(b, name, sizeof name, "%s/%s", rows[i],
                 xwg_barrier_algo_name(lo->barrier));
        row(b, name, local, "full", g2, per_barrier(b, t1, t2));
        clReleaseKernel(k);
    }
    b->xc = shared_xc;
}

static void measure_size(bench *b, size_t local)
{
    int err;
    cl_kernel k = clCreateKernel(b->prog, "barriers", &err);
    cl_kernel xf_k = b->xf_prog ? clCreateKernel(b->xf_prog, "barriers", &err)
                                : NULL;
    cl_kernel default_k =
        b->default_prog ? clCreateKernel(b->default_prog, "barriers", &err)
                        : NULL;
    if (default_k != NULL)
        clSetKernelArg(default_k, 0, sizeof(cl_uint), &(cl_uint){0});
    cl_kernel empty = clCreateKernel(b->prog, "empty", &err);
    cl_mem sink = clCreateBuffer(b->cl, CL_MEM_READ_WRITE, 128, NULL, &err);
    clSetKernelArg(empty, 0, sizeof sink, &sink);
    cl_uint zero = 0;
    clSetKernelArg(k, 0, sizeof zero, &zero);

    /* The first launch of a size may compile (PoCL builds the work-group
     * function then): discover once before timing it. */
    xwg_occupancy occ = XWG_OCCUPANCY_INIT;
    xwg_discover_uncached(b->xc, k, local, &occ);
    if ((err = xwg_discover_uncached(b->xc, k, local, &occ)) != XWG_SUCCESS) {
        fprintf(stderr, "xwg-bench: discover(%zu): %s\n", local,
                xwg_status_name(err));
        exit(1);
    }
    if (!b->barriers_only)
        row(b, "discovery", local, "full", occ.groups, occ.time_ms * 1e3);

    const char *occ_name[] = {"full", "half", "quarter"};
    for (int o = 0; o < (b->barriers_only ? 1 : 3); o++) {
        cl_uint groups = occ.groups >> o;
        if (groups < 1)
            continue;
        fprintf(stderr, "xwg-bench: local %zu, %s occupancy (%u groups)\n",
                local, occ_name[o], groups);
        static const int order[] = {XWG_BARRIER_XF, XWG_BARRIER_COUNTER,
                                    XWG_BARRIER_TREE, XWG_BARRIER_DEFAULT};
        for (int j = 0; j < 4; j++) {
            int a = order[j];
            if (!b->algos[a] || !bench_measures(b, (xwg_barrier_algo)a))
                continue;
            xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
            lo.groups = groups;
            lo.barrier = (xwg_barrier_algo)a;
            cl_uint g1 = 0, g2 = 0;
            xwg_barrier_algo ran = XWG_BARRIER_DEFAULT;
            xwg_context *shared_xc = b->xc;
            cl_kernel ka = k;
            if (a == XWG_BARRIER_XF && xf_k != NULL) {
                b->xc = b->xf_xc;
                ka = xf_k;
            }
            if (a == XWG_BARRIER_DEFAULT && default_k != NULL)
                ka = default_k;
            double t1 = barrier_launch_us(b, ka, local, &lo, b->e1, &g1, &ran);
            double t2 = barrier_launch_us(b, ka, local, &lo, b->e2, &g2, &ran);
            b->xc = shared_xc;
            if (a == XWG_BARRIER_DEFAULT)
                fprintf(stderr, "xwg-bench: the default ran the %s barrier\n",
                        xwg_barrier_algo_name(ran));
            char name[96];
            row_name(b, name, sizeof name, "barrier/%s",
                     xwg_barrier_algo_name((xwg_barrier_algo)a));
            row(b, name, local, occ_name[o], g2, per_barrier(b, t1, t2));
            if (o == 0 && (!b->barriers_only || b->collectives))
                measure_collectives(b, a == XWG_BARRIER_XF && xf_k != NULL,
                                    local, &lo, sink);
        }
        if (o == 0 && (b->placements || b->prototypes))
            measure_placed(b, local, groups);
        if (b->barriers_only)
            continue;
        for (int w = WAIT_NONE; w <= WRITE_READBACK; w++) {
            double r1 = relaunch_us(b, empty, local, groups,
                                    relaunches(b->e1), sink,
                                    (enum relaunch_wait)w);
            double r2 = relaunch_us(b, empty, local, groups,
                                    relaunches(b->e2), sink,
                                    (enum relaunch_wait)w);
            row(b, relaunch_rows[w], local, occ_name[o], groups,
                per_relaunch_us(b, r1, r2));
        }
        double q1, q2;
        double x1 = xwg_relaunch_us(b, k, local, groups, relaunches(b->e1),
                                    &q1);
        double x2 = xwg_relaunch_us(b, k, local, groups, relaunches(b->e2),
                                    &q2);
        row(b, "relaunch/xwg", local, occ_name[o], groups,
            per_relaunch_us(b, x1, x2));
        row(b, "relaunch/xwg-enqueue", local, occ_name[o], groups,
            per_relaunch_us(b, q1, q2));
    }
    clReleaseMemObject(sink);
    clReleaseKernel(empty);
    if (xf_k)
        clReleaseKernel(xf_k);
    if (default_k)
        clReleaseKernel(default_k);
    clReleaseKernel(k);
}

/* Writes the program's binary for its one device (NVIDIA: PTX), to see
 * what the atomics became. */
static void dump_binary(cl_program prog, const char *path)
{
    size_t size = 0;
    clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
    unsigned char *bin = malloc(size ? size : 1);
    FILE *f = fopen(path, "wb");
    if (bin && f &&
        clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) ==
            CL_SUCCESS)
        fwrite(bin, 1, size, f);
    else
        fprintf(stderr, "xwg-bench: could not write %s\n", path);
    if (f)
        fclose(f);
    free(bin);
}

/* "counter,tree" -> algos[COUNTER] = algos[TREE] = 1 (by
 * xwg_barrier_algo; "default" is XWG_BARRIER_DEFAULT, 0). 0 for an empty,
 * too long or unknown list. */
static int parse_algos(const char *list, int algos[4])
{
    char copy[64];
    if (!*list || strlen(list) >= sizeof copy)
        return 0;
    snprintf(copy, sizeof copy, "%s", list);
    memset(algos, 0, 4 * sizeof *algos);
    for (char *t = strtok(copy, ","); t; t = strtok(NULL, ",")) {
        int found = 0;
        for (int a = XWG_BARRIER_DEFAULT; a <= XWG_BARRIER_TREE; a++)
            if (!strcmp(t, xwg_barrier_algo_name((xwg_barrier_algo)a)))
                algos[a] = found = 1;
        if (!found)
            return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    bench b = {0};
    const char *platform = NULL, *csv = NULL, *sizes = "64,256,1024";
    const char *options = NULL, *binary = NULL;
    int cpu = 0;
    b.e1 = 256;
    b.e2 = 10256;
    b.label = "";
    b.tag = "";
    parse_algos("xf,counter,tree,default", b.algos);
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!strcmp(o, "--cpu-baselines")) { cpu = 1; continue; }
        if (!strcmp(o, "--barriers-only")) { b.barriers_only = 1; continue; }
        if (!strcmp(o, "--collectives")) { b.collectives = 1; continue; }
        if (!strcmp(o, "--prototypes")) { b.prototypes = 1; continue; }
        i++;
        if (!strcmp(o, "--platform-name")) platform = v;
        else if (!strcmp(o, "--local-sizes")) sizes = v;
        else if (!strcmp(o, "--e1")) b.e1 = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--e2")) b.e2 = strtoul(v, NULL, 10);
        else if (!strcmp(o, "--csv")) csv = v;
        else if (!strcmp(o, "--label")) b.label = v;
        else if (!strcmp(o, "--tag")) b.tag = v;
        else if (!strcmp(o, "--build-options")) options = v;
        else if (!strcmp(o, "--dump-binary")) binary = v;
        else if (!strcmp(o, "--placements")) {
            b.placements = strtoul(v, NULL, 10);
            if (b.placements > 64) {
                fprintf(stderr, "xwg-bench: --placements takes 0 to 64\n");
                return 2;
            }
        }
        else if (!strcmp(o, "--algos")) {
            if (!parse_algos(v, b.algos)) {
                fprintf(stderr, "xwg-bench: --algos takes a list of xf, "
                                "counter, tree, default\n");
                return 2;
            }
        } else {
            fprintf(stderr, "xwg-bench: unknown option %s (--help)\n", o);
            return 2;
        }
    }
    if (options && !*b.tag) {
        fprintf(stderr, "xwg-bench: --build-options needs a --tag, so that "
                        "its rows differ from the shipped ones\n");
        return 2;
    }
    if (b.e2 <= b.e1 + 4) {
        fprintf(stderr, "xwg-bench: --e2 must exceed --e1\n");
        return 2;
    }
    cl_platform_id p;
    int err = xwg_find_device(platform, &p, &b.device);
    if (err != XWG_SUCCESS) {
        fprintf(stderr, "xwg-bench: no device: %s\n", xwg_status_string(err));
        return 1;
    }
    b.cl = clCreateContext(NULL, 1, &b.device, NULL, NULL, &err);
    const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                         CL_QUEUE_PROFILING_ENABLE, 0};
    b.queue = clCreateCommandQueueWithProperties(b.cl, b.device, props, &err);
    b.plain_queue =
        clCreateCommandQueueWithProperties(b.cl, b.device, NULL, &err);
    if ((err = xwg_context_create(b.cl, b.device, NULL, &b.xc)) != XWG_SUCCESS) {
        fprintf(stderr, "xwg-bench: xwg_context_create: %s\n",
                xwg_status_name(err));
        return 1;
    }
    b.info.size = sizeof b.info;
    xwg_context_query(b.xc, &b.info);
    /* One program: the barrier kernels, the floor's and placed.c's
     * (xwg_bench.cl, floor.cl and placed.cl, embedded at build time). */
    char *log = NULL;
    const char *source = bench_source;
    /* The counter and the tree in one program, as the rows that ask for
     * each by launch need, unless the options set the barriers; the
     * default row's program as a user's would be built. */
    const int own_set = options != NULL && strstr(options, "XWG_BARRIERS");
    char pair_options[1024];
    snprintf(pair_options, sizeof pair_options, "%s -DXWG_BARRIERS=%uu",
             options ? options : "",
             1u << XWG_BARRIER_COUNTER | 1u << XWG_BARRIER_TREE);
    err = xwg_program_build(b.xc, source,
                            own_set || b.info.barrier != XWG_BARRIER_DEFAULT
                                ? options
                                : pair_options,
                            &b.prog, &log);
    if (err == XWG_SUCCESS && !own_set && b.algos[XWG_BARRIER_DEFAULT] &&
        b.info.barrier == XWG_BARRIER_DEFAULT)
        err = xwg_program_build(b.xc, source, options, &b.default_prog, &log);
    if (err == XWG_SUCCESS && b.algos[XWG_BARRIER_XF] &&
        b.info.barrier == XWG_BARRIER_DEFAULT) {
        xwg_options xo;
        xwg_options_init(&xo);
        xo.barrier = XWG_BARRIER_XF;
        err = xwg_context_create(b.cl, b.device, &xo, &b.xf_xc);
        if (err != XWG_SUCCESS) {
            fprintf(stderr, "xwg-bench: the context for xf: %s\n",
                    xwg_status_name(err));
            return 1;
        }
        err = xwg_program_build(b.xf_xc, source, options, &b.xf_prog, &log);
    }
    if (err) {
        fprintf(stderr, "xwg-bench: build: %s\n%s\n", xwg_status_name(err),
                log ? log : "");
        return 1;
    }
    if (binary)
        dump_binary(b.prog, binary);
    if (csv) {
        FILE *probe = fopen(csv, "r");
        int fresh = probe == NULL;
        if (probe)
            fclose(probe);
        b.csv = fopen(csv, "a");
        if (b.csv && fresh)
            fprintf(b.csv, "label,device,variant,local_size,occupancy,groups,"
                           "us\n");
    }
    fprintf(stderr, "xwg-bench: %s, path %s, E1 %u, E2 %u, options '%s'\n",
            b.info.device_name,
            xwg_atomics_path_name(b.info.atomics_path), b.e1,
            b.e2, options ? options : "");
    char list[128];
    snprintf(list, sizeof list, "%s", sizes);
    for (char *t = strtok(list, ","); t; t = strtok(NULL, ","))
        measure_size(&b, strtoul(t, NULL, 10));
    /* A variant of the atomics or of XWG_TUNE_COLLECT moves the floor;
     * for the others (fan-in, flag interval) the pingpong+TAG rows are the
     * same kernel again: a measure of run-to-run noise. */
    measure_floor(&b);
    if (cpu) {
        cpu_barrier_result r[2];
        cpu_barriers_measure(2, 200000, r);
        for (int i = 0; i < 2; i++)
            row(&b, r[i].name, 0, "2 threads", 2, r[i].us);
    }
    if (b.csv)
        fclose(b.csv);
    clReleaseProgram(b.prog);
    if (b.xf_prog)
        clReleaseProgram(b.xf_prog);
    if (b.default_prog)
        clReleaseProgram(b.default_prog);
    if (b.xf_xc)
        xwg_context_release(b.xf_xc);
    xwg_context_release(b.xc);
    clReleaseCommandQueue(b.plain_queue);
    clReleaseCommandQueue(b.queue);
    clReleaseContext(b.cl);
    return 0;
}
