/*
 * bench_common.c - the helpers that the parts of xwg-bench share
 * (xwg_bench.c, floor.c, placed.c; declared in bench.h): device times of
 * events and launches, the per-barrier difference of two runs, row names
 * and rows, and the spread of a measurement taken at several places.
 */
#include "bench.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

double event_us(cl_event ev)
{
    cl_ulong start = 0, end = 0;
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start,
                            &start, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end,
                            NULL);
    clReleaseEvent(ev);
    return (end - start) / 1e3;
}

double timed_launch_us(bench *b, cl_kernel k, size_t local,
                       const xwg_launch_options *o, const char *what,
                       xwg_launch_info *info)
{
    xwg_pending *p;
    cl_event ev;
    int err = xwg_launch_async(b->xc, b->queue, k, local, o, &p, &ev);
    if (err == XWG_SUCCESS)
        err = xwg_launch_finish(p, info);
    if (err != XWG_SUCCESS) {
        fprintf(stderr, "xwg-bench: %s: %s\n", what, xwg_status_name(err));
        exit(1);
    }
    return event_us(ev);
}

double per_barrier(const bench *b, double t_e1, double t_e2)
{
    return (t_e2 - t_e1) / (b->e2 - b->e1);
}

int bench_measures(const bench *b, xwg_barrier_algo algo)
{
    return b->info.barrier == XWG_BARRIER_DEFAULT ||
           algo == XWG_BARRIER_DEFAULT || algo == b->info.barrier;
}

void row_name(const bench *b, char *name, size_t size, const char *format,
              ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(name, size, format, args);
    va_end(args);
    if (*b->tag) {
        size_t used = strlen(name);
        snprintf(name + used, size - used, "+%s", b->tag);
    }
}

void row(bench *b, const char *variant, size_t local, const char *occ,
         cl_uint groups, double us)
{
    printf("%-16s local %4zu, %-7s occupancy, %5u groups: %10.3f us\n",
           variant, local, occ, groups, us);
    if (b->csv) {
        fprintf(b->csv, "%s,\"%s\",%s,%zu,%s,%u,%.4f\n", b->label,
                b->info.device_name, variant, local, occ, groups, us);
        fflush(b->csv); /* a run cut short by a timeout keeps its rows */
    }
    fflush(stdout);
}

void spread_rows(bench *b, const char *what, double *us, unsigned n,
                 size_t local, const char *occ, cl_uint groups)
{
    static const char *const names[3] = {"min", "median", "max"};
    if (n == 0)
        return;
    qsort(us, n, sizeof *us, cmp_double);
    const double pick[3] = {us[0], us[n / 2], us[n - 1]};
    for (int j = 0; j < 3; j++) {
        char name[96];
        row_name(b, name, sizeof name, "%s@%s-of-%u", what, names[j], n);
        row(b, name, local, occ, groups, pick[j]);
    }
}
