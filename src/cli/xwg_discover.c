/*
 * xwg_discover.c - the xwg-discover command: occupancy per OpenCL device.
 *
 * For each device, for each work-group size and dynamic local-memory size
 * asked for, it runs xwg's discovery --repeat times on a small kernel and
 * reports the groups found (min, median, max), groups per compute unit, the
 * atomics path and the discovery time.
 */
#include "cli_args.h"
#include "probe_source.h" /* xwg_discover_probe.cl */
#include "vendor_count.h"
#include "xwg_barrier.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* probe_source: xwg_discover_probe.cl, embedded at build time. */

typedef struct row {
    size_t local_size;
    unsigned long long local_mem;
    cl_uint min, median, max;
    double time_ms; /* median */
    size_t vendor_max; /* the vendor's own count (vendor_count.c), or 0 */
} row;

static int cmp_uint(const void *a, const void *b)
{
    cl_uint x = *(const cl_uint *)a, y = *(const cl_uint *)b;
    return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Runs discovery `repeat` times for one configuration. */
static int measure(xwg_context *xc, cl_kernel k, size_t local, int repeat,
                   row *r)
{
    cl_uint groups[1000];
    double times[1000];
    for (int i = 0; i < repeat; i++) {
        xwg_occupancy occ = XWG_OCCUPANCY_INIT;
        int err = xwg_discover_uncached(xc, k, local, &occ);
        if (err != XWG_SUCCESS)
            return err;
        groups[i] = occ.groups;
        times[i] = occ.time_ms;
    }
    qsort(groups, repeat, sizeof *groups, cmp_uint);
    qsort(times, repeat, sizeof *times, cmp_double);
    r->min = groups[0];
    r->median = groups[repeat / 2];
    r->max = groups[repeat - 1];
    r->time_ms = times[repeat / 2];
    return XWG_SUCCESS;
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", *s);
        else
            putchar(*s);
    }
    putchar('"');
}

/* A platform's CL_PLATFORM_NAME, _VENDOR or _VERSION ("" if unreadable:
 * a failed call writes nothing). */
static void platform_text(cl_platform_id platform, cl_platform_info what,
                          char *buf, size_t size)
{
    buf[0] = '\0';
    clGetPlatformInfo(platform, what, size, buf, NULL);
}

/* What xwg_device_info does not hold, for --json: CL_DEVICE_VERSION and
 * CL_PLATFORM_VERSION ("" where unreadable). */
typedef struct versions {
    char device[128];
    char platform[128];
} versions;

static void read_versions(cl_platform_id platform, cl_device_id device,
                          versions *v)
{
    v->device[0] = '\0';
    clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof v->device, v->device,
                    NULL);
    platform_text(platform, CL_PLATFORM_VERSION, v->platform,
                  sizeof v->platform);
}

/* --json's self_test_runs: each path the self-test ran on, in order. */
static void print_self_test_runs(const xwg_device_info *info)
{
    printf(", \"self_test_runs\": [");
    for (cl_uint i = 0; i < info->self_test_runs; i++) {
        const xwg_self_test_run *r = &info->self_test_run[i];
        printf("%s{\"path\": \"%s\", \"result\": \"%s\", \"status\": \"%s\", "
               "\"wrong_reads\": %u, \"groups\": %u}",
               i ? ", " : "", xwg_atomics_path_name(r->path),
               xwg_self_test_result_name(r->result),
               xwg_status_name(r->status), r->errors, r->groups);
    }
    printf("]");
}

static void print_device(const cli_args *a, const xwg_device_info *info,
                         const versions *v, const row *rows, size_t n,
                         int pi, int di, int first)
{
    const char *path = xwg_atomics_path_name(info->atomics_path);
    if (a->json) {
        printf("%s\n  {\"platform\": ", first ? "" : ",");
        json_string(info->platform_name);
        printf(", \"platform_version\": ");
        json_string(v->platform);
        printf(", \"platform_index\": %d, \"device\": ", pi);
        json_string(info->device_name);
        printf(", \"device_index\": %d, \"driver_version\": ", di);
        json_string(info->driver_version);
        printf(", \"device_version\": ");
        json_string(v->device);
        printf(", \"device_type\": \"%s\", \"opencl_c\": ",
               info->device_type & CL_DEVICE_TYPE_GPU ? "gpu"
               : info->device_type & CL_DEVICE_TYPE_CPU ? "cpu"
               : info->device_type & CL_DEVICE_TYPE_ACCELERATOR ? "accelerator"
                                                                : "other");
        json_string(info->opencl_c_version);
        printf(", \"opencl_c_max\": %u, \"max_work_group_size\": %zu, "
               "\"local_mem_size\": %llu, \"atomic_memory_capabilities\": "
               "%llu, \"atomic_fence_capabilities\": %llu",
               info->opencl_c_max, info->max_work_group_size,
               (unsigned long long)info->local_mem_size,
               (unsigned long long)info->atomic_memory_capabilities,
               (unsigned long long)info->atomic_fence_capabilities);
        printf(", \"atomics_path\": \"%s\", \"atomics_reason\": ", path);
        json_string(info->atomics_reason);
        printf(", \"compute_units\": %u, \"discovery\": \"%s\", "
               "\"barrier_self_test\": \"%s\", \"self_test_errors\": %u, "
               "\"self_test_groups\": %u, \"self_test_episodes\": %u, "
               "\"default_barriers\": %u, \"self_test_detail\": ",
               info->compute_units,
               info->discovery == XWG_DISCOVERY_TICKET_LOCK ? "ticket"
                                                            : "window",
               xwg_self_test_result_name(info->self_test),
               info->self_test_errors, info->self_test_groups,
               info->self_test_episodes, info->default_barriers);
        json_string(info->self_test_detail);
        print_self_test_runs(info);
        printf(", \"occupancy\": [");
        for (size_t i = 0; i < n; i++) {
            printf("%s\n    {\"local_size\": %zu, \"local_mem\": %llu, "
                   "\"groups_min\": %u, \"groups_median\": %u, "
                   "\"groups_max\": %u, \"time_ms\": %.3f, "
                   "\"vendor_max_groups\": ",
                   i ? "," : "", rows[i].local_size, rows[i].local_mem,
                   rows[i].min, rows[i].median, rows[i].max,
                   rows[i].time_ms);
            if (rows[i].vendor_max > 0)
                printf("%zu}", rows[i].vendor_max);
            else
                printf("null}");
        }
        printf("]}");
        return;
    }
    printf("platform %d: %s\n  device %d: %s\n", pi, info->platform_name, di,
           info->device_name);
    /* The highest OpenCL C version, as --json's opencl_c_max: the atomics
     * path follows from it, while CL_DEVICE_OPENCL_C_VERSION stays at 1.2
     * on many OpenCL 3.0 devices (PoCL) and would seem to contradict it. */
    if (info->opencl_c_max > 0)
        printf("    OpenCL C up to %u.%u", info->opencl_c_max / 100,
               info->opencl_c_max / 10 % 10);
    else
        printf("    %s", info->opencl_c_version);
    printf(", %u compute units, atomics path %s (%s)\n",
           info->compute_units, path, info->atomics_reason);
    printf("    barrier self-test: %s (%s)\n",
           xwg_self_test_result_name(info->self_test),
           info->self_test_detail[0] ? info->self_test_detail
                                     : "no detail: not run");
    if (info->self_test == XWG_SELF_TEST_FAILED)
        printf("    xwg refuses this device: xwg_context_create() returns "
               "XWG_ERROR_UNSUPPORTED_DEVICE, since its barrier read stale "
               "data. XWG_SELF_TEST=report forces it, and its results may "
               "then be wrong.\n");
    printf("    groups found by discovery over %d run%s (min, median, max), "
           "per compute unit (median), discovery's time (median):\n",
           a->repeat, a->repeat == 1 ? "" : "s");
    /* The vendor's own count, where the device has one, in a last
     * column (vendor_count.c). */
    int vendor = 0;
    for (size_t i = 0; i < n; i++)
        vendor = vendor || rows[i].vendor_max > 0;
    printf("    %10s %10s %8s %8s %8s %8s %10s%s\n", "local_size", "local_mem",
           "min", "median", "max", "per_CU", "time_ms",
           vendor ? "  vendor_max" : "");
    for (size_t i = 0; i < n; i++) {
        printf("    %10zu %10llu %8u %8u %8u %8.2f %10.3f",
               rows[i].local_size, rows[i].local_mem, rows[i].min,
               rows[i].median, rows[i].max,
               (double)rows[i].median / info->compute_units, rows[i].time_ms);
        if (vendor)
            printf(" %11zu", rows[i].vendor_max);
        printf("\n");
    }
    if (vendor)
        printf("    vendor_max: clGetKernelMaxConcurrentWorkGroupCountINTEL, "
               "the groups that Intel's runtime says may meet at "
               "intel_device_barrier()\n");
    if (info->default_barriers != 0)
        printf("    default barriers (timed at the first build): %s%s%s\n",
               info->default_barriers >> XWG_BARRIER_COUNTER & 1u
                   ? "counter" : "",
               info->default_barriers == 0xcu ? " and " : "",
               info->default_barriers >> XWG_BARRIER_TREE & 1u ? "tree" : "");
}

/* One configuration, into r. Two facts of real drivers are handled here:
 * a kernel's CL_KERNEL_WORK_GROUP_SIZE may be below the device's maximum
 * (rusticl: 32), so a refused size is retried at the kernel's maximum; and
 * "max" local memory may need a few bytes the runtime keeps for itself
 * (NVIDIA), so it steps down 8 bytes at a time until a launch fits. The
 * row records the sizes really used. Returns XWG_ERROR_INVALID_ARGUMENT
 * for a configuration this device cannot run (after saying so). */
static int measure_config(const cli_args *a, xwg_context *xc, cl_kernel plain,
                          cl_kernel with_local, const xwg_device_info *info,
                          cl_ulong own, size_t local, size_t max_local,
                          unsigned long long mem, row *r)
{
    int is_max = mem == CLI_LOCAL_MEM_MAX;
    if (is_max)
        mem = info->local_mem_size - own;
    if (mem + own > info->local_mem_size) {
        fprintf(stderr, "xwg-discover: %s: skipping %llu bytes of local "
                "memory (the device has %llu)\n", info->device_name, mem,
                (unsigned long long)info->local_mem_size);
        return XWG_ERROR_INVALID_ARGUMENT;
    }
    for (int attempt = 0; attempt < 64; attempt++) {
        cl_kernel k = mem == 0 ? plain : with_local;
        int err = mem > 0 ? clSetKernelArg(k, 0, (size_t)mem, NULL)
                          : CL_SUCCESS;
        if (err == CL_SUCCESS) {
            r->local_size = local;
            r->local_mem = mem;
            err = measure(xc, k, local, a->repeat, r);
        }
        if (err == CL_INVALID_WORK_GROUP_SIZE && local > max_local) {
            local = max_local;
            continue;
        }
        if ((err == CL_OUT_OF_RESOURCES || err == CL_INVALID_ARG_SIZE) &&
            is_max && mem > 8) {
            mem -= 8;
            continue;
        }
        if (err == CL_INVALID_WORK_GROUP_SIZE || err == CL_OUT_OF_RESOURCES) {
            fprintf(stderr, "xwg-discover: %s: local size %zu with %llu "
                    "bytes is not possible for this kernel (%s); skipped\n",
                    info->device_name, local, mem, xwg_status_name(err));
            return XWG_ERROR_INVALID_ARGUMENT;
        }
        return err;
    }
    return XWG_ERROR_INVALID_ARGUMENT;
}

/* Every configuration on one device. Returns an xwg status. */
static int run_device(const cli_args *a, cl_platform_id platform,
                      cl_device_id device, int pi, int di, int first)
{
    int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                     (cl_context_properties)platform, 0};
    cl_context cl = clCreateContext(props, 1, &device, NULL, NULL, &err);
    if (cl == NULL)
        return err;
    xwg_options opts;
    xwg_options_init(&opts);
    opts.discovery = (xwg_discovery_protocol)a->protocol;
    opts.discovery_window_us = a->window_us;
    /* Discovery needs no barrier: run the barrier self-test and report it,
     * but do not refuse a device that fails it. */
    opts.self_test = XWG_SELF_TEST_REPORT;
    xwg_context *xc = NULL;
    cl_program prog = NULL;
    cl_kernel plain = NULL, with_local = NULL;
    char *log = NULL;
    row rows[CLI_MAX_LIST * CLI_MAX_LIST];
    size_t n = 0;
    int discovery_failed = 0;
    xwg_device_info info = XWG_DEVICE_INFO_INIT;

    err = xwg_context_create(cl, device, &opts, &xc);
    if (err == XWG_SUCCESS)
        err = xwg_program_build(xc, probe_source, NULL, &prog, &log);
    if (err == XWG_ERROR_BUILD_FAILED && log != NULL)
        fprintf(stderr, "xwg-discover: probe kernel build log:\n%s\n", log);
    if (err == XWG_SUCCESS)
        plain = clCreateKernel(prog, "xwg_probe", &err);
    if (err == XWG_SUCCESS)
        with_local = clCreateKernel(prog, "xwg_probe_local", &err);
    if (err == XWG_SUCCESS)
        err = xwg_context_query(xc, &info);

    cl_ulong own = 0;     /* xwg's own static local memory */
    size_t max_local = 0; /* the most the kernel says it takes */
    if (err == XWG_SUCCESS)
        err = clGetKernelWorkGroupInfo(plain, device, CL_KERNEL_LOCAL_MEM_SIZE,
                                       sizeof own, &own, NULL);
    if (err == XWG_SUCCESS)
        err = clGetKernelWorkGroupInfo(with_local, device,
                                       CL_KERNEL_WORK_GROUP_SIZE,
                                       sizeof max_local, &max_local, NULL);
    for (size_t i = 0; err == XWG_SUCCESS && i < a->n_local_sizes; i++) {
        size_t local = a->local_sizes[i];
        if (local > info.max_work_group_size)
            local = info.max_work_group_size;
        for (size_t j = 0; err == XWG_SUCCESS && j < a->n_local_mems; j++) {
            row *r = &rows[n];
            err = measure_config(a, xc, plain, with_local, &info, own, local,
                                 max_local, a->local_mems[j], r);
            if (err == XWG_SUCCESS) /* the kernel's arguments are set */
                r->vendor_max = cli_vendor_max_groups(
                    platform, device, cl, r->local_mem ? with_local : plain,
                    r->local_size);
            if (err == XWG_ERROR_INVALID_ARGUMENT) {
                err = XWG_SUCCESS; /* not possible here: skipped */
                continue;
            }
            if (err == XWG_ERROR_DISCOVERY_FAILED) {
                /* The device is still reported (its self-test says why);
                 * the exit status says that discovery failed. */
                fprintf(stderr, "xwg-discover: %s\n", xwg_last_error());
                discovery_failed = 1;
                err = XWG_SUCCESS;
                continue;
            }
            /* Keep one row of a configuration that capping repeated. */
            if (err == XWG_SUCCESS &&
                !(n > 0 && rows[n - 1].local_size == r->local_size &&
                  rows[n - 1].local_mem == r->local_mem))
                n++;
        }
    }
    if (err == XWG_SUCCESS) {
        versions v;
        read_versions(platform, device, &v);
        print_device(a, &info, &v, rows, n, pi, di, first);
    }
    if (err == XWG_SUCCESS && discovery_failed)
        err = XWG_ERROR_DISCOVERY_FAILED;
    free(log);
    if (with_local)
        clReleaseKernel(with_local);
    if (plain)
        clReleaseKernel(plain);
    if (prog)
        clReleaseProgram(prog);
    xwg_context_release(xc);
    clReleaseContext(cl);
    return err;
}

/* The refusal of a --platform-name that matches nothing: one line naming
 * every platform with its vendor, the two texts that can match. */
static void say_no_match(const char *part, const cl_platform_id *platforms,
                         cl_uint np)
{
    fprintf(stderr, "xwg-discover: no platform's name or vendor contains "
                    "\"%s\" (the platforms:", part);
    for (cl_uint p = 0; p < np; p++) {
        char name[256], vendor[256];
        platform_text(platforms[p], CL_PLATFORM_NAME, name, sizeof name);
        platform_text(platforms[p], CL_PLATFORM_VENDOR, vendor, sizeof vendor);
        fprintf(stderr, "%s \"%s\", vendor \"%s\"", p ? ";" : "", name,
                vendor);
    }
    fprintf(stderr, ")\n");
}

/* Every device of one platform (only --device, if given), counted into
 * *ran and *failed. A platform without devices is listed in text, as
 * clinfo -l lists it, but not in --json: its readers (xwg-study,
 * scripts/to_csv.py discovery) take every entry for a device. */
static void run_platform(const cli_args *a, cl_platform_id platform,
                         cl_uint p, int *ran, int *failed)
{
    cl_uint nd = 0;
    cl_device_id devices[32];
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 32, devices, &nd) !=
        CL_SUCCESS)
        nd = 0;
    if (nd == 0 && !a->json) {
        char name[256];
        platform_text(platform, CL_PLATFORM_NAME, name, sizeof name);
        printf("platform %u: %s: no devices\n", p, name);
    }
    for (cl_uint d = 0; d < nd && d < 32; d++) {
        if (a->device >= 0 && (int)d != a->device)
            continue;
        int err = run_device(a, platform, devices[d], (int)p, (int)d,
                             *ran == 0);
        if (err != XWG_SUCCESS) {
            fprintf(stderr, "xwg-discover: platform %u device %u: %s (%s)\n",
                    p, d, xwg_status_string(err), xwg_status_name(err));
            (*failed)++;
        } else {
            (*ran)++;
        }
    }
}

int main(int argc, char **argv)
{
    cli_args a;
    char msg[256];
    if (cli_parse(argc, argv, &a, msg, sizeof msg) != 0) {
        fprintf(stderr, "xwg-discover: %s (try --help)\n", msg);
        return 2;
    }
    if (a.help) {
        fputs(cli_usage, stdout);
        return 0;
    }
    if (a.version) {
        printf("xwg-discover %s\n", xwg_version_string());
        return 0;
    }

    cl_uint np = 0;
    cl_platform_id platforms[32];
    if (clGetPlatformIDs(32, platforms, &np) != CL_SUCCESS || np == 0) {
        fprintf(stderr, "xwg-discover: no OpenCL platform found\n");
        return 1;
    }
    if (np > 32)
        np = 32;
    if (a.platform >= (int)np) {
        fprintf(stderr, "xwg-discover: no platform %d (there are %u)\n",
                a.platform, np);
        return 1;
    }
    int ran = 0, failed = 0, matched = 0;
    if (a.json)
        printf("[");
    for (cl_uint p = 0; p < np; p++) {
        if ((a.platform >= 0 && (int)p != a.platform) ||
            !xwg_platform_matches(platforms[p], a.platform_name))
            continue;
        matched++;
        run_platform(&a, platforms[p], p, &ran, &failed);
    }
    if (a.json)
        printf("\n]\n");
    if (matched == 0 && a.platform_name != NULL) {
        say_no_match(a.platform_name, platforms, np);
        return 1;
    }
    if (ran == 0 && failed == 0) {
        fprintf(stderr, "xwg-discover: no OpenCL device found\n");
        return 1;
    }
    return failed ? 1 : 0;
}
