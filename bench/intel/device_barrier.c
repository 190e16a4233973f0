/*
 * device_barrier.c - Intel's own device barrier: the vendor's side of the
 * comparison with xwg, as bench/cuda/gridsync.cu is NVIDIA's.
 *
 * With cl_intel_concurrent_dispatch, a kernel whose dispatch type is
 * CONCURRENT may call intel_device_barrier() (all groups of the ND-range)
 * with up to clGetKernelMaxConcurrentWorkGroupCountINTEL() groups. Per local
 * size, at that count, it prints rows in xwg-bench's CSV columns:
 *   max_concurrent  the vendor's count, in the groups column (us empty);
 *   barrier/intel_device_barrier  a kernel runs E1, then E2 barriers;
 *       (t(E2) - t(E1)) / (E2 - E1) from its profiling times, so launch
 *       costs cancel; median of 5 for each count;
 *   floor/two-work-group-barriers  the same timing of a kernel whose
 *       step is two work-group barriers with work-item 0's read of a
 *       global word between them, and nothing between groups: the floor
 *       of xwg's barrier, whose shape is an entry and an exit work-group
 *       barrier around work-item 0's wait (kernels/xwg_barrier.cl);
 *   relaunch/readback  as xwg-bench's row: an empty kernel of the same
 *       geometry launched E1/4, then E2/4 times, each launch followed by a
 *       blocking 4-byte read; per launch, wall time, median of 3.
 * A check (each group writes its slot, barrier, each sums all slots) must
 * pass first; run with its barriers left out, it is shown to fail.
 *
 * A barrier whose groups are not all running never returns, so each job
 * runs in a forked child under alarm(); the parent reports the hang, and
 * never calls OpenCL itself (a runtime's threads do not survive fork()).
 * If the vendor's count hangs, a half and a quarter of it are tried, as
 * xwg-bench's occupancies. Last, one group more than the vendor's count is
 * launched, to see what the runtime does with it.
 *
 * With --groups N the barrier and the relaunch are also timed on N groups
 * (occupancy "full": pass xwg's discovered count, so that both barriers
 * run the same kernel shape); the vendor's counts are the occupancies
 * vendor-max, vendor-half and vendor-quarter.
 *
 * Usage: xwg-intel-barrier [--local-sizes 64,256,1024] [--e1 256]
 *          [--e2 10256] [--groups N [--vendor-max 0]] [--csv FILE]
 *          [--label SERIES]
 * --vendor-max 0 leaves out the vendor's counts and the probe past them
 * (what xwg-study runs: the same shape as xwg's rows, in seconds).
 * SERIES (default intel) is the first column, as bench/cuda's "cuda".
 * Rows go to stdout and are appended to FILE; notes go to stderr.
 */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "intel_barrier_source.h" /* device_barrier.cl */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* From the extension's spec (intel/llvm, sycl/doc/design/opencl-extensions/
 * cl_intel_concurrent_dispatch.asciidoc): Debian's headers lack them. */
#ifndef CL_KERNEL_EXEC_INFO_DISPATCH_TYPE_INTEL
#define CL_KERNEL_EXEC_INFO_DISPATCH_TYPE_INTEL 0x4257
#define CL_KERNEL_EXEC_INFO_DISPATCH_TYPE_CONCURRENT_INTEL 1
#endif
typedef cl_int(CL_API_CALL *max_groups_fn)(cl_command_queue, cl_kernel,
                                           cl_uint, const size_t *,
                                           const size_t *, size_t *);

/* A launch gets WAIT_S to finish; set-up (the build) gets SETUP_S. */
enum { WAIT_S = 10, SETUP_S = 60, ROUNDS = 4, MAX_SIZES = 8 };

/* intel_barrier_source: device_barrier.cl, embedded at build time. */

/* One child's job: `groups` groups of `local`, or where that is 0,
 * (vendor's count >> shift) + extra.
 * With extra, launch syncs once, to see whether the runtime takes it;
 * otherwise run the check, its known-bad twin, then the timings. */
struct job {
    size_t local, groups;
    unsigned shift, extra, e1, e2;
};

/* What the child has found; sent whole after each stage (one write under
 * PIPE_BUF, so never torn), so a child killed by its alarm leaves behind
 * the stage it hung in. */
enum stage { STARTED, QUERIED, CHECKED, TIMED, DONE };
struct report {
    enum stage stage;
    size_t max, groups;
    cl_int launch_err;     /* the launch's error, if it was refused */
    long wrong, bad_wrong; /* wrong sums, with and without barriers */
    double barrier_us, floor_us, relaunch_us;
    char device[128];
};

/* The child's OpenCL state: one job per process, so file-scope. */
static cl_context ctx;
static cl_command_queue timed, plain; /* with profiling, and without */
static cl_program prog;
static max_groups_fn max_groups;

static void check(cl_int err, const char *what)
{
    if (err == CL_SUCCESS)
        return;
    fprintf(stderr, "xwg-intel-barrier: %s failed: %d\n", what, err);
    exit(1);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* The first device of the platform named Intel, its queues, the program
 * and the extension's entry point. */
static void setup(struct report *r)
{
    cl_platform_id ps[16], p = NULL;
    cl_uint np = 0;
    cl_device_id d;
    cl_int err;
    char name[256];
    check(clGetPlatformIDs(16, ps, &np), "clGetPlatformIDs");
    for (cl_uint i = 0; i < np && i < 16 && !p; i++) {
        check(clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name,
                                NULL), "clGetPlatformInfo");
        p = strstr(name, "Intel") ? ps[i] : NULL;
    }
    if (!p)
        check(CL_INVALID_PLATFORM, "finding a platform named Intel");
    check(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL), "clGetDeviceIDs");
    check(clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof r->device, r->device,
                          NULL), "clGetDeviceInfo");
    max_groups = (max_groups_fn)clGetExtensionFunctionAddressForPlatform(
        p, "clGetKernelMaxConcurrentWorkGroupCountINTEL");
    if (!max_groups)
        check(CL_INVALID_OPERATION, "clGetExtensionFunctionAddressForPlatform");
    ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    check(err, "clCreateContext");
    const cl_queue_properties prof[] = {CL_QUEUE_PROPERTIES,
                                        CL_QUEUE_PROFILING_ENABLE, 0};
    timed = clCreateCommandQueueWithProperties(ctx, d, prof, &err);
    check(err, "clCreateCommandQueueWithProperties");
    plain = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
    check(err, "clCreateCommandQueueWithProperties");
    const char *text = intel_barrier_source;
    prog = clCreateProgramWithSource(ctx, 1, &text, NULL, &err);
    check(err, "clCreateProgramWithSource");
    err = clBuildProgram(prog, 1, &d, "-cl-std=CL2.0", NULL, NULL);
    if (err != CL_SUCCESS) {
        static char log[16384];
        clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, sizeof log, log,
                              NULL);
        fprintf(stderr, "%s\n", log);
        check(err, "clBuildProgram");
    }
}

/* A kernel of the program, with the concurrent dispatch type if asked. */
static cl_kernel kernel(const char *name, int concurrent)
{
    const cl_uint type = CL_KERNEL_EXEC_INFO_DISPATCH_TYPE_CONCURRENT_INTEL;
    cl_int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    check(err, "clCreateKernel");
    if (concurrent)
        check(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_DISPATCH_TYPE_INTEL,
                                  sizeof type, &type), "clSetKernelExecInfo");
    return k;
}

/* A buffer of n zeroed words, set as argument `arg` of k. */
static cl_mem words(cl_kernel k, cl_uint arg, size_t n)
{
    const cl_uint zero = 0;
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, NULL, &err);
    check(err, "clCreateBuffer");
    check(clEnqueueFillBuffer(plain, m, &zero, 4, 0, n * 4, 0, NULL, NULL),
          "clEnqueueFillBuffer");
    check(clSetKernelArg(k, arg, sizeof m, &m), "clSetKernelArg");
    return m;
}

/* Runs the check over r->groups groups, with barriers or without: the
 * number of groups whose sum is wrong; r->launch_err if it is refused. */
static long run_check(size_t local, struct report *r, cl_uint barriers)
{
    const cl_uint rounds = ROUNDS, n = (cl_uint)r->groups;
    cl_uint want = 0, *got;
    long wrong = 0;
    cl_kernel k = kernel("check", 1);
    check(clSetKernelArg(k, 0, sizeof rounds, &rounds), "clSetKernelArg");
    check(clSetKernelArg(k, 1, sizeof barriers, &barriers), "clSetKernelArg");
    cl_mem slots = words(k, 2, n), sums = words(k, 3, n);
    size_t global = n * local;
    r->launch_err = clEnqueueNDRangeKernel(plain, k, 1, NULL, &global, &local,
                                           0, NULL, NULL);
    if (r->launch_err != CL_SUCCESS)
        return 0;
    got = malloc(n * sizeof *got);
    alarm(WAIT_S);
    check(clEnqueueReadBuffer(plain, sums, CL_TRUE, 0, n * sizeof *got, got,
                              0, NULL, NULL), "clEnqueueReadBuffer");
    for (cl_uint i = 0; i < rounds; i++) /* as the kernel adds, mod 2^32 */
        for (cl_uint g = 0; g < n; g++)
            want += i * n + g + 1;
    for (cl_uint g = 0; g < n; g++)
        wrong += got[g] != want;
    free(got);
    clReleaseMemObject(slots);
    clReleaseMemObject(sums);
    clReleaseKernel(k);
    return wrong;
}

/* Device time (us) of one launch of `count` barriers; median of 5. */
static double syncs_us(cl_kernel k, size_t local, size_t groups,
                       cl_uint count)
{
    double t[5];
    size_t global = groups * local;
    check(clSetKernelArg(k, 0, sizeof count, &count), "clSetKernelArg");
    for (int i = 0; i < 5; i++) {
        cl_event ev;
        cl_ulong start, end;
        check(clEnqueueNDRangeKernel(timed, k, 1, NULL, &global, &local, 0,
                                     NULL, &ev), "clEnqueueNDRangeKernel");
        alarm(WAIT_S);
        check(clWaitForEvents(1, &ev), "clWaitForEvents");
        check(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START,
                                      sizeof start, &start, NULL),
              "clGetEventProfilingInfo");
        check(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END,
                                      sizeof end, &end, NULL),
              "clGetEventProfilingInfo");
        check(clReleaseEvent(ev), "clReleaseEvent");
        t[i] = (end - start) / 1e3;
    }
    qsort(t, 5, sizeof *t, cmp_double);
    return t[2];
}

/* Wall time (us) of `count` launches of k, each followed by a blocking
 * 4-byte read of sink; median of 3. */
static double relaunch_us(cl_kernel k, size_t local, size_t groups,
                          unsigned count, cl_mem sink)
{
    double t[3];
    size_t global = groups * local;
    for (int i = 0; i < 3; i++) {
        check(clFinish(plain), "clFinish");
        alarm(WAIT_S);
        double start = now_us();
        for (unsigned c = 0; c < count; c++) {
            cl_uint flag;
            check(clEnqueueNDRangeKernel(plain, k, 1, NULL, &global, &local,
                                         0, NULL, NULL),
                  "clEnqueueNDRangeKernel");
            check(clEnqueueReadBuffer(plain, sink, CL_TRUE, 0, sizeof flag,
                                      &flag, 0, NULL, NULL),
                  "clEnqueueReadBuffer");
        }
        t[i] = now_us() - start;
    }
    qsort(t, 3, sizeof *t, cmp_double);
    return t[1];
}

static void send(int fd, struct report *r, enum stage s)
{
    r->stage = s;
    if (write(fd, r, sizeof *r) != (ssize_t)sizeof *r)
        _exit(1);
}

/* The child's side of a job; ends the process. */
static void child(const struct job *j, int fd)
{
    struct report r;
    const cl_uint none = 0;
    memset(&r, 0, sizeof r);
    alarm(SETUP_S);
    setup(&r);
    cl_kernel syncs = kernel("syncs", 1);
    /* The count may depend on the kernel's arguments, so they are set. */
    check(clSetKernelArg(syncs, 0, sizeof none, &none), "clSetKernelArg");
    check(max_groups(plain, syncs, 1, NULL, &j->local, &r.max),
          "clGetKernelMaxConcurrentWorkGroupCountINTEL");
    r.groups = j->groups ? j->groups : (r.max >> j->shift) + j->extra;
    send(fd, &r, QUERIED);
    if (j->extra) {
        size_t global = r.groups * j->local;
        r.launch_err = clEnqueueNDRangeKernel(plain, syncs, 1, NULL, &global,
                                              &j->local, 0, NULL, NULL);
        alarm(WAIT_S);
        if (r.launch_err == CL_SUCCESS)
            check(clFinish(plain), "clFinish");
        send(fd, &r, DONE);
        _exit(0);
    }
    r.wrong = run_check(j->local, &r, 1);
    if (r.launch_err == CL_SUCCESS && !r.wrong)
        r.bad_wrong = run_check(j->local, &r, 0);
    send(fd, &r, CHECKED);
    if (r.launch_err != CL_SUCCESS || r.wrong)
        _exit(0);
    const double t1 = syncs_us(syncs, j->local, r.groups, j->e1);
    const double t2 = syncs_us(syncs, j->local, r.groups, j->e2);
    r.barrier_us = (t2 - t1) / (j->e2 - j->e1);
    cl_kernel floor = kernel("work_group_barriers", 0);
    cl_mem word = words(floor, 1, 1);
    const double f1 = syncs_us(floor, j->local, r.groups, j->e1);
    const double f2 = syncs_us(floor, j->local, r.groups, j->e2);
    r.floor_us = (f2 - f1) / (j->e2 - j->e1);
    check(clReleaseMemObject(word), "clReleaseMemObject");
    check(clReleaseKernel(floor), "clReleaseKernel");
    send(fd, &r, TIMED);
    /* Relaunches need no device barrier: the default dispatch type. */
    cl_kernel empty = kernel("empty", 0);
    cl_mem sink = words(empty, 0, 1);
    const unsigned n1 = j->e1 / 4, n2 = j->e2 / 4;
    const double r1 = relaunch_us(empty, j->local, r.groups, n1, sink);
    const double r2 = relaunch_us(empty, j->local, r.groups, n2, sink);
    r.relaunch_us = (r2 - r1) / (n2 - n1);
    send(fd, &r, DONE);
    _exit(0);
}

/* Runs a job in a child; *r gets the last stage it reported. Returns 0 if
 * the child finished, 1 if its alarm killed it (a hang), -1 if it failed
 * (it has said why on stderr). */
static int guarded(const struct job *j, struct report *r)
{
    int fds[2], status;
    pid_t pid;
    struct report m;
    memset(r, 0, sizeof *r);
    fflush(NULL); /* or the child would hold copies of our buffers */
    if (pipe(fds) != 0 || (pid = fork()) < 0) {
        perror("xwg-intel-barrier: pipe or fork");
        exit(1);
    }
    if (pid == 0) {
        close(fds[0]);
        child(j, fds[1]);
    }
    close(fds[1]);
    while (read(fds[0], &m, sizeof m) == (ssize_t)sizeof m)
        *r = m; /* until the pipe ends with the child */
    close(fds[0]);
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        return 1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static const char *label = "intel";
static FILE *csv;

/* A CSV row, to stdout and the file; us < 0 leaves its column empty. */
static void row(const struct report *r, const char *variant, size_t local,
                const char *occ, size_t groups, double us)
{
    char line[512], num[32] = "";
    if (us >= 0)
        snprintf(num, sizeof num, "%.4f", us);
    snprintf(line, sizeof line, "%s,\"%s\",%s,%zu,%s,%zu,%s\n", label,
             r->device, variant, local, occ, groups, num);
    fputs(line, stdout);
    if (csv)
        fputs(line, csv);
}

/* One local size: j.groups groups where it is set (one try), else the
 * vendor's count, then a half and a quarter of it while the barrier
 * hangs. Returns 1 if the check failed. */
static int measure(struct job j)
{
    static const char *const vendor_occ[] = {"vendor-max", "vendor-half",
                                             "vendor-quarter"};
    static const char *const fixed_occ[] = {"full"};
    const char *const *occ = j.groups ? fixed_occ : vendor_occ;
    static const char *const in[] = {"set-up", "the check", "the timing",
                                     "the relaunch loop", "?"};
    struct report r;
    for (j.shift = 0; j.shift < (j.groups ? 1u : 3u); j.shift++) {
        int got = guarded(&j, &r);
        if (j.shift == 0 && !j.groups && r.stage >= QUERIED) {
            fprintf(stderr, "local %zu: %s, vendor max %zu groups\n", j.local,
                    r.device, r.max);
            row(&r, "max_concurrent", j.local, "vendor-max", r.max, -1);
        }
        if (got == 1) {
            fprintf(stderr, "local %zu, %zu groups (%s): HANG in %s, killed "
                    "after %d s\n", j.local, r.groups, occ[j.shift],
                    in[r.stage], WAIT_S);
            continue;
        }
        if (got < 0 || r.launch_err != CL_SUCCESS || r.wrong) {
            if (got < 0)
                fprintf(stderr, "local %zu: FAIL (see above)\n", j.local);
            else
                fprintf(stderr, "local %zu, %zu groups: FAIL (%ld wrong sums, "
                        "launch error %d)\n", j.local, r.groups, r.wrong,
                        r.launch_err);
            return 1;
        }
        fprintf(stderr, "local %zu, %zu groups (%s): check ok (without "
                "barriers %ld wrong%s); barrier %.3f us, two work-group "
                "barriers %.3f us, relaunch/readback %.3f us\n", j.local,
                r.groups, occ[j.shift], r.bad_wrong,
                r.bad_wrong ? "" : ": the check is BLIND here", r.barrier_us,
                r.floor_us, r.relaunch_us);
        row(&r, "barrier/intel_device_barrier", j.local, occ[j.shift],
            r.groups, r.barrier_us);
        row(&r, "floor/two-work-group-barriers", j.local, occ[j.shift],
            r.groups, r.floor_us);
        row(&r, "relaunch/readback", j.local, occ[j.shift], r.groups,
            r.relaunch_us);
        return 0;
    }
    return 0;
}

static unsigned number(const char *s)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v == 0 || v > 1ul << 30) {
        fprintf(stderr, "xwg-intel-barrier: not a count: '%s'\n", s);
        exit(2);
    }
    return (unsigned)v;
}

int main(int argc, char **argv)
{
    char sizes[128] = "64,256,1024";
    const char *path = NULL;
    struct job j = {0, 0, 0, 0, 256, 10256};
    size_t fixed = 0;
    int vendor_counts = 1; /* --vendor-max 0: only --groups N */
    size_t local[MAX_SIZES];
    unsigned n = 0;
    int usage = argc % 2 == 0, failed = 0; /* options come in pairs */
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--local-sizes"))
            snprintf(sizes, sizeof sizes, "%s", argv[i + 1]);
        else if (!strcmp(argv[i], "--e1"))
            j.e1 = number(argv[i + 1]);
        else if (!strcmp(argv[i], "--e2"))
            j.e2 = number(argv[i + 1]);
        else if (!strcmp(argv[i], "--groups"))
            fixed = number(argv[i + 1]);
        else if (!strcmp(argv[i], "--vendor-max"))
            vendor_counts = strcmp(argv[i + 1], "0") != 0;
        else if (!strcmp(argv[i], "--csv"))
            path = argv[i + 1];
        else if (!strcmp(argv[i], "--label"))
            label = argv[i + 1];
        else
            usage = 1;
    }
    for (char *s = strtok(sizes, ","); s && n < MAX_SIZES;
         s = strtok(NULL, ","))
        local[n++] = number(s);
    if (usage || n == 0 || j.e2 / 4 <= j.e1 / 4) {
        fprintf(stderr, "usage: xwg-intel-barrier [--local-sizes 64,256,1024]"
                        " [--e1 256] [--e2 10256] [--groups N [--vendor-max 0]]"
                        " [--csv FILE]"
                        " [--label SERIES]"
                        "\n(E2/4 must exceed E1/4)\n");
        return 2;
    }
    if (path && (!(csv = fopen(path, "a")) || fseek(csv, 0, SEEK_END))) {
        perror(path);
        return 2;
    }
    if (csv && ftell(csv) == 0) /* a new file gets the header */
        fputs("label,device,variant,local_size,occupancy,groups,us\n", csv);
    for (unsigned s = 0; s < n; s++) {
        j.local = local[s];
        j.groups = 0;
        if (vendor_counts || !fixed)
            failed |= measure(j);
        if (fixed) {
            j.groups = fixed;
            failed |= measure(j);
        }
    }
    /* One group past the vendor's count: the spec says CL_INVALID_VALUE. */
    struct job over = {local[0], 0, 0, 1, 0, 0};
    struct report r;
    if (!vendor_counts) {
        if (csv)
            fclose(csv);
        return failed;
    }
    int got = guarded(&over, &r);
    fprintf(stderr, "local %zu, %zu groups (vendor max + 1): %s %d%s\n",
            over.local, r.groups, got == 1 ? "HANG, killed; error"
            : got < 0 ? "the probe failed (see above); error"
            : r.launch_err != CL_SUCCESS ? "clEnqueueNDRangeKernel refused it:"
            : "accepted, and it finished:", r.launch_err,
            r.launch_err == CL_INVALID_VALUE ? " (CL_INVALID_VALUE)" : "");
    if (csv)
        fclose(csv);
    return failed;
}
