/*
 * bench.h - what the parts of xwg-bench share: the run's settings and
 * OpenCL objects, the CSV row, and timed launches.
 */
#ifndef XWG_BENCH_H
#define XWG_BENCH_H

#include "timing.h"
#include "xwg_barrier.h"

#include <stdio.h>

typedef struct bench {
    cl_context cl;
    cl_device_id device;
    cl_command_queue queue; /* with profiling: device times of barriers */
    /* Without profiling: the relaunch loops, timed on the host. On the
     * H200 a read through a profiling queue costs about 8 us more, which
     * a multi-kernel program need not pay. */
    cl_command_queue plain_queue;
    xwg_context *xc;
    xwg_device_info info;
    cl_program prog;
    /* XF, which programs of a default context do not compile: a second
     * context that fixes it, and the program built there (NULL where the
     * first context fixes the barrier). */
    xwg_context *xf_xc;
    cl_program xf_prog;
    /* The default row's program: built with no barrier set of the bench's
     * own, so with the one the context calibrated (xwg_device_info.
     * default_barriers); `prog` compiles the counter and the tree, which
     * the other rows ask for by launch. NULL where --build-options set
     * one: `prog` then serves. */
    cl_program default_prog;
    unsigned e1, e2;
    const char *label;
    const char *tag;    /* appended to barrier rows' names: a variant */
    int algos[4];       /* by xwg_barrier_algo: measure it? */
    int barriers_only;  /* full occupancy; no relaunch or discovery */
    int collectives;    /* the split barrier and all-reduce rows, also
                           with barriers_only */
    int prototypes; /* --prototypes: the tree's flat-wake prototypes */
    unsigned placements; /* the floor and barriers at this many places in
                            memory, or 0 */
    FILE *csv;
} bench;

/* A finished command's device time, in microseconds; releases the event. */
double event_us(cl_event ev);
/* Sorts us[0..n) (n > 0) and gives its fastest, median and slowest in
 * pick[], which rows name by spread_names[]: min, median, max. */
extern const char *const spread_names[3];
void spread_pick(double *us, unsigned n, double pick[3]);
/* Whether the bench can measure barrier `algo` (or the default): a
 * context that fixes the barrier compiles that one only. */
int bench_measures(const bench *b, xwg_barrier_algo algo);
/* One result: printed, and appended to the CSV (flushed). */
void row(bench *b, const char *variant, size_t local, const char *occ,
         cl_uint groups, double us);
/* One launch through xwg, waited for: its device time in us, and what it
 * reports in *info. Exits on failure, naming `what`. */
double timed_launch_us(bench *b, cl_kernel k, size_t local,
                       const xwg_launch_options *o, const char *what,
                       xwg_launch_info *info);

/* The floor (floor.c): its kernels, built with the benchmark's, and its
 * measurement, rows pingpong... */
extern const char floor_source[];
void measure_floor(bench *b);
/* The barriers with their words moved (placed.c), at full occupancy:
 * `groups` groups of `local`. */
extern const char placed_source[];
void measure_placed(bench *b, size_t local, cl_uint groups);

#endif
