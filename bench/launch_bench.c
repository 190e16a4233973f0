/*
 * launch_bench.c - xwg-launch-bench: what a launch through xwg costs
 * beside a plain OpenCL launch of the same geometry, in one run.
 *
 * Every figure is wall time on the host, per launch, over `count` launches
 * (median of 5 repetitions, each repetition running every row in turn, so
 * that drift reaches all rows alike). The plain rows launch an empty
 * kernel; the xwg rows an empty kernel with XWG_STATE, at the groups that
 * discovery finds (full occupancy), on a queue without profiling:
 *   plain/enqueue      the time spent in clEnqueueNDRangeKernel;
 *   plain/enqueue-2args
 *                      the same for a kernel with a second buffer
 *                      argument, a sub-buffer as xwg's state is: what
 *                      the argument that XWG_STATE adds costs the
 *                      implementation's enqueue, with none of xwg's work
 *                      (on PoCL a buffer argument costs a good part of an
 *                      enqueue);
 *   plain/chained      launches back to back, clFinish after every 32;
 *   plain/chained-2args-read
 *                      the kernel of plain/enqueue-2args chained as
 *                      plain/chained is, each 32 ended by a blocking
 *                      4-byte read of its sub-buffer instead of clFinish:
 *                      what a chain pays for the argument XWG_STATE adds
 *                      and for reading anything back, before any of
 *                      xwg's own work (xwg/chained reads the chain's
 *                      statuses in one rectangular read, so its
 *                      difference from this row includes any cost of a
 *                      rectangular read over a linear one);
 *   plain/readback     each launch followed by a blocking 4-byte read (a
 *                      host loop that reads a convergence flag);
 *   xwg/enqueue        the time spent in xwg_launch_async() (discovery
 *                      skipped), in the chains of xwg/chained, as
 *                      plain/enqueue is measured in plain/chained's;
 *   xwg/wait           xwg_launch_async() then xwg_launch_finish(): the
 *                      launch waited for, its status read (discovery
 *                      skipped);
 *   xwg/launch-ex      the same through xwg_launch_ex(), which waits at
 *                      once, against plain/readback;
 *   xwg/wait+discovery xwg_launch_ex() with discovery in the launch (the
 *                      default);
 *   xwg/chained        32 xwg_launch_async() back to back, then their 32
 *                      xwg_launch_finish(), against plain/chained;
 *   plain/readback-touch, xwg/launch-ex-touch
 *                      plain/readback and xwg/launch-ex for a kernel
 *                      whose every group loads a word and synchronises
 *                      its work-items once, the least that a kernel with
 *                      work in every group does: on NVIDIA's driver a
 *                      read behind a kernel that ends a little later
 *                      than an empty one waits about 7 us longer in
 *                      some processes (docs/performance.md, "Launch
 *                      cost"), so the empty rows alone compare xwg with
 *                      a plain kernel on either side of that step;
 *   requests/xwg       short persistent kernels: one launch of a kernel
 *                      with 10 barriers per request, chained as above;
 *   requests/plain     the same work as a multi-kernel program does it:
 *                      11 launches per request (a launch boundary for each
 *                      barrier), chained as above.
 * The request rows give us per request; stderr also prints requests per
 * second and issue 19's ratios, each also against the two-buffer rows.
 *
 * Usage: xwg-launch-bench [--platform-name S] [--local-size 256]
 *          [--count 1000] [--requests 2000] [--csv FILE] [--label TEXT]
 * CSV columns: label,device,row,local_size,groups,us (appended; the
 * header is written to a new file).
 */
#include "launch_bench_source.h" /* launch_bench.cl, embedded */
#include "timing.h"
#include "xwg_barrier.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPS 5
#define CHAIN 32           /* launches in flight before the host waits */
#define BARRIERS_PER_REQ 10

typedef struct {
    cl_context cl;
    cl_command_queue queue; /* in order, no profiling */
    xwg_context *xc;
    cl_kernel empty, empty_2args, xwg_empty, touch, xwg_touch, request;
    cl_mem sink;
    cl_mem parent, sub; /* empty_2args' second argument: a sub-buffer */
    size_t local, global;
    cl_uint groups;
    unsigned count, requests;
} launch_bench;

enum row_id {
    PLAIN_ENQUEUE, PLAIN_CHAINED, PLAIN_READBACK, XWG_ENQUEUE, XWG_WAIT,
    XWG_LAUNCH_EX, XWG_WAIT_DISCOVERY, XWG_CHAINED, REQUESTS_XWG,
    REQUESTS_PLAIN, PLAIN_READBACK_TOUCH, XWG_LAUNCH_EX_TOUCH,
    PLAIN_ENQUEUE_2ARGS, PLAIN_CHAINED_2ARGS_READ, ROWS
};
static const char *const row_names[ROWS] = {
    "plain/enqueue",      "plain/chained", "plain/readback",
    "xwg/enqueue",        "xwg/wait",      "xwg/launch-ex",
    "xwg/wait+discovery", "xwg/chained",   "requests/xwg",
    "requests/plain",     "plain/readback-touch", "xwg/launch-ex-touch",
    "plain/enqueue-2args", "plain/chained-2args-read"};

static void fail(const char *what, int err)
{
    fprintf(stderr, "xwg-launch-bench: %s: %s (%s)\n", what,
            xwg_status_name(err), xwg_last_error());
    exit(1);
}

static void plain_launch(launch_bench *b, cl_kernel k)
{
    int err = clEnqueueNDRangeKernel(b->queue, k, 1, NULL, &b->global,
                                     &b->local, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        fail("clEnqueueNDRangeKernel", err);
}

/* Waits for every launch on b's queue: clFinish, or (read) a blocking
 * 4-byte read of the sub-buffer behind them. */
static void wait_for_chain(launch_bench *b, int read)
{
    cl_uint word;
    int err = read ? clEnqueueReadBuffer(b->queue, b->sub, CL_TRUE, 0,
                                         sizeof word, &word, 0, NULL, NULL)
                   : clFinish(b->queue);
    if (err != CL_SUCCESS)
        fail(read ? "clEnqueueReadBuffer" : "clFinish", err);
}

/* `n` plain launches of k, `per` back to back between waits (each wait
 * as wait_for_chain(b, read)): total wall time, and in *enqueue the time
 * spent enqueueing. */
static double plain_chained(launch_bench *b, cl_kernel k, unsigned n,
                            unsigned per, int read, double *enqueue)
{
    *enqueue = 0;
    clFinish(b->queue);
    double start = now_us();
    for (unsigned i = 0; i < n; i++) {
        double before = now_us();
        plain_launch(b, k);
        *enqueue += now_us() - before;
        if ((i + 1) % per == 0 || i + 1 == n)
            wait_for_chain(b, read);
    }
    return now_us() - start;
}

/* `count` launches of k, each followed by a blocking 4-byte read. */
static double plain_readback(launch_bench *b, cl_kernel k)
{
    clFinish(b->queue);
    double start = now_us();
    for (unsigned i = 0; i < b->count; i++) {
        cl_uint flag;
        plain_launch(b, k);
        int err = clEnqueueReadBuffer(b->queue, b->sink, CL_TRUE, 0,
                                      sizeof flag, &flag, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            fail("clEnqueueReadBuffer", err);
    }
    return now_us() - start;
}

/* `n` launches of k through xwg, discovery skipped, `per` in flight
 * between waits: total wall time, and in *enqueue the time spent in
 * xwg_launch_async(). */
static double xwg_chained(launch_bench *b, cl_kernel k, unsigned n,
                          unsigned per, double *enqueue)
{
    xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
    lo.groups = b->groups;
    lo.skip_discovery = 1;
    xwg_pending *p[CHAIN];
    *enqueue = 0;
    clFinish(b->queue);
    double start = now_us();
    for (unsigned i = 0; i < n; i += per) {
        unsigned batch = n - i < per ? n - i : per;
        for (unsigned j = 0; j < batch; j++) {
            double before = now_us();
            int err = xwg_launch_async(b->xc, b->queue, k, b->local, &lo,
                                       &p[j], NULL);
            *enqueue += now_us() - before;
            if (err != XWG_SUCCESS)
                fail("xwg_launch_async", err);
        }
        for (unsigned j = 0; j < batch; j++) {
            int err = xwg_launch_finish(p[j], NULL);
            if (err != XWG_SUCCESS)
                fail("xwg_launch_finish", err);
        }
    }
    return now_us() - start;
}

/* `count` launches of k through xwg_launch_ex(), each waited for:
 * discovery skipped, or (discover) in every launch, the default. */
static double xwg_launch_ex_us(launch_bench *b, cl_kernel k, int discover)
{
    xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
    lo.groups = discover ? 0 : b->groups;
    lo.skip_discovery = !discover;
    clFinish(b->queue);
    double start = now_us();
    for (unsigned i = 0; i < b->count; i++) {
        int err = xwg_launch_ex(b->xc, b->queue, k, b->local, &lo, NULL);
        if (err != XWG_SUCCESS)
            fail("xwg_launch_ex", err);
    }
    return now_us() - start;
}

/* One repetition of every row, in us per launch (per request for the
 * request rows). */
static void repetition(launch_bench *b, double us[ROWS])
{
    double enq;
    const double n = b->count, r = b->requests;
    us[PLAIN_CHAINED] =
        plain_chained(b, b->empty, b->count, CHAIN, 0, &enq) / n;
    us[PLAIN_ENQUEUE] = enq / n;
    us[PLAIN_READBACK] = plain_readback(b, b->empty) / n;
    (void)plain_chained(b, b->empty_2args, b->count, CHAIN, 0, &enq);
    us[PLAIN_ENQUEUE_2ARGS] = enq / n;
    us[PLAIN_CHAINED_2ARGS_READ] =
        plain_chained(b, b->empty_2args, b->count, CHAIN, 1, &enq) / n;
    us[XWG_WAIT] = xwg_chained(b, b->xwg_empty, b->count, 1, &enq) / n;
    us[XWG_LAUNCH_EX] = xwg_launch_ex_us(b, b->xwg_empty, 0) / n;
    us[XWG_WAIT_DISCOVERY] = xwg_launch_ex_us(b, b->xwg_empty, 1) / n;
    us[PLAIN_READBACK_TOUCH] = plain_readback(b, b->touch) / n;
    us[XWG_LAUNCH_EX_TOUCH] = xwg_launch_ex_us(b, b->xwg_touch, 0) / n;
    us[XWG_CHAINED] = xwg_chained(b, b->xwg_empty, b->count, CHAIN, &enq) / n;
    /* Measured as plain/enqueue is, in chains: an enqueue onto an idle
     * queue (each launch waited for before the next) costs more than one
     * onto a busy queue, for plain launches as for xwg's. */
    us[XWG_ENQUEUE] = enq / n;
    us[REQUESTS_XWG] = xwg_chained(b, b->request, b->requests, CHAIN, &enq) / r;
    us[REQUESTS_PLAIN] =
        plain_chained(b, b->empty, b->requests * (BARRIERS_PER_REQ + 1),
                      CHAIN * (BARRIERS_PER_REQ + 1), 0, &enq) /
        r;
}

static cl_kernel kernel(cl_program prog, const char *name, cl_mem sink)
{
    int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    if (k == NULL)
        fail(name, err);
    clSetKernelArg(k, 0, sizeof sink, &sink);
    return k;
}

static void setup(launch_bench *b, const char *platform)
{
    cl_platform_id p;
    cl_device_id device;
    int err = xwg_find_device(platform, &p, &device);
    if (err != XWG_SUCCESS)
        fail("no device", err);
    b->cl = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (b->cl == NULL)
        fail("clCreateContext", err);
    b->queue = clCreateCommandQueueWithProperties(b->cl, device, NULL, &err);
    if (b->queue == NULL)
        fail("clCreateCommandQueueWithProperties", err);
    if ((err = xwg_context_create(b->cl, device, NULL, &b->xc)) != XWG_SUCCESS)
        fail("xwg_context_create", err);
    cl_program prog;
    char *log = NULL;
    err = xwg_program_build(b->xc, launch_bench_source, NULL, &prog, &log);
    if (err != XWG_SUCCESS) {
        fprintf(stderr, "%s\n", log ? log : "");
        fail("xwg_program_build", err);
    }
    free(log);
    b->sink = clCreateBuffer(b->cl, CL_MEM_READ_WRITE, 64, NULL, &err);
    if (b->sink == NULL)
        fail("clCreateBuffer", err);
    /* Where a slab puts a launch's state: a sub-buffer at an offset that
     * the device's alignment allows (4 KiB satisfies those we know). */
    b->parent = clCreateBuffer(b->cl, CL_MEM_READ_WRITE, 1 << 16, NULL, &err);
    if (b->parent == NULL)
        fail("clCreateBuffer", err);
    const cl_buffer_region region = {4096, 4096};
    b->sub = clCreateSubBuffer(b->parent, CL_MEM_READ_WRITE,
                               CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    if (b->sub == NULL)
        fail("clCreateSubBuffer", err);
    b->empty = kernel(prog, "empty", b->sink);
    b->empty_2args = kernel(prog, "empty_2args", b->sink);
    clSetKernelArg(b->empty_2args, 1, sizeof b->sub, &b->sub);
    b->xwg_empty = kernel(prog, "xwg_empty", b->sink);
    b->touch = kernel(prog, "touch", b->sink);
    b->xwg_touch = kernel(prog, "xwg_touch", b->sink);
    b->request = kernel(prog, "request", b->sink);
    clReleaseProgram(prog); /* the kernels keep it */
    xwg_occupancy occ = XWG_OCCUPANCY_INIT;
    if ((err = xwg_discover(b->xc, b->xwg_empty, b->local, &occ)) !=
        XWG_SUCCESS)
        fail("xwg_discover", err);
    b->groups = occ.groups;
    b->global = (size_t)b->groups * b->local;
}

static void teardown(launch_bench *b)
{
    clReleaseKernel(b->empty);
    clReleaseKernel(b->empty_2args);
    clReleaseMemObject(b->sub);
    clReleaseMemObject(b->parent);
    clReleaseKernel(b->xwg_empty);
    clReleaseKernel(b->touch);
    clReleaseKernel(b->xwg_touch);
    clReleaseKernel(b->request);
    clReleaseMemObject(b->sink);
    xwg_context_release(b->xc);
    clReleaseCommandQueue(b->queue);
    clReleaseContext(b->cl);
}

static FILE *open_csv(const char *path)
{
    FILE *probe = fopen(path, "r");
    int fresh = probe == NULL;
    if (probe)
        fclose(probe);
    FILE *f = fopen(path, "a");
    if (f == NULL) {
        perror(path);
        exit(1);
    }
    if (fresh)
        fprintf(f, "label,device,row,local_size,groups,us\n");
    return f;
}

static void report(const launch_bench *b, const double us[ROWS],
                   const char *device, const char *label, FILE *csv)
{
    for (int i = 0; i < ROWS; i++) {
        printf("%-20s local %4zu, %5u groups: %10.3f us\n", row_names[i],
               b->local, b->groups, us[i]);
        if (csv)
            fprintf(csv, "%s,\"%s\",%s,%zu,%u,%.4f\n", label, device,
                    row_names[i], b->local, b->groups, us[i]);
    }
    fprintf(stderr,
            "xwg-launch-bench: xwg/launch-ex %.2f x plain/readback (target "
            "1.1; %.2f x for the kernels that touch memory); "
            "xwg/enqueue %.2f x plain/enqueue (1.2; %.2f x the kernel with a "
            "second buffer argument); xwg/chained %.2f x plain/chained "
            "(1.1; %.2f x the two-buffer kernel's chains ended by a read)\n"
            "xwg-launch-bench: requests of %d barriers: %.0f/s through xwg, "
            "%.0f/s as %d plain launches each\n",
            us[XWG_LAUNCH_EX] / us[PLAIN_READBACK],
            us[XWG_LAUNCH_EX_TOUCH] / us[PLAIN_READBACK_TOUCH],
            us[XWG_ENQUEUE] / us[PLAIN_ENQUEUE],
            us[XWG_ENQUEUE] / us[PLAIN_ENQUEUE_2ARGS],
            us[XWG_CHAINED] / us[PLAIN_CHAINED],
            us[XWG_CHAINED] / us[PLAIN_CHAINED_2ARGS_READ], BARRIERS_PER_REQ,
            1e6 / us[REQUESTS_XWG], 1e6 / us[REQUESTS_PLAIN],
            BARRIERS_PER_REQ + 1);
}

static unsigned positive(const char *option, const char *v)
{
    char *end;
    unsigned long n = strtoul(v, &end, 10);
    if (*v == '\0' || *end != '\0' || n == 0 || n > 10000000) {
        fprintf(stderr, "xwg-launch-bench: %s takes 1 to 10000000, not '%s'\n",
                option, v);
        exit(2);
    }
    return (unsigned)n;
}

int main(int argc, char **argv)
{
    launch_bench b = {0};
    const char *platform = NULL, *csv_path = NULL, *label = "";
    b.local = 256;
    b.count = 1000;
    b.requests = 2000;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v == NULL) {
            fprintf(stderr, "xwg-launch-bench: %s needs a value\n", o);
            return 2;
        }
        i++;
        if (!strcmp(o, "--platform-name")) platform = v;
        else if (!strcmp(o, "--local-size")) b.local = positive(o, v);
        else if (!strcmp(o, "--count")) b.count = positive(o, v);
        else if (!strcmp(o, "--requests")) b.requests = positive(o, v);
        else if (!strcmp(o, "--csv")) csv_path = v;
        else if (!strcmp(o, "--label")) label = v;
        else {
            fprintf(stderr, "xwg-launch-bench: unknown option %s\n", o);
            return 2;
        }
    }
    setup(&b, platform);
    xwg_device_info info = XWG_DEVICE_INFO_INIT;
    xwg_context_query(b.xc, &info);
    fprintf(stderr, "xwg-launch-bench: %s, %u groups of %zu, %u launches, "
                    "%u requests, %d repetitions\n",
            info.device_name, b.groups, b.local, b.count, b.requests, REPS);
    double warm[ROWS], us[REPS][ROWS], median[ROWS];
    repetition(&b, warm); /* compiles, allocates the state buffers */
    for (int r = 0; r < REPS; r++)
        repetition(&b, us[r]);
    for (int i = 0; i < ROWS; i++) {
        double col[REPS];
        for (int r = 0; r < REPS; r++)
            col[r] = us[r][i];
        median[i] = median_us(col, REPS);
    }
    FILE *csv = csv_path ? open_csv(csv_path) : NULL;
    report(&b, median, info.device_name, label, csv);
    if (csv)
        fclose(csv);
    teardown(&b);
    return 0;
}
