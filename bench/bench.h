/*
 * bench.h - what the parts of xwg-bench share: the run's settings and
 * OpenCL objects, and the helpers of bench_common.c (timed launches, row
 * names, the CSV row, spreads over placements).
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

/* bench_common.c: a finished command's device time, in microseconds;
 * releases the event. */
double event_us(cl_event ev);
/* One launch through xwg, waited for: its device time in us, and what it
 * reports in *info. Exits on failure, naming `what`. */
double timed_launch_us(bench *b, cl_kernel k, size_t local,
                       const xwg_launch_options *o, const char *what,
                       xwg_launch_info *info);
/* Per barrier, from the times of runs of E1 and E2 barriers: their
 * difference over E2 - E1, so that launch and discovery cancel. */
double per_barrier(const bench *b, double t_e1, double t_e2);
/* Whether the bench can measure barrier `algo` (or the default): a
 * context that fixes the barrier compiles that one only. */
int bench_measures(const bench *b, xwg_barrier_algo algo);
/* A row's name: what format gives, then "+tag" where the run is a variant
 * (--tag), so that a variant's rows never pass for the shipped ones. */
void row_name(const bench *b, char *name, size_t size, const char *format,
              ...) __attribute__((format(printf, 4, 5)));
/* One result: printed, and appended to the CSV (flushed). */
void row(bench *b, const char *variant, size_t local, const char *occ,
         cl_uint groups, double us);
/* A measurement taken at n places in memory (--placements; n may be 0):
 * rows what@min/median/max-of-n. Sorts us. */
void spread_rows(bench *b, const char *what, double *us, unsigned n,
                 size_t local, const char *occ, cl_uint groups);
/* Where the words of placement i start in a buffer of the bench's, in
 * words: 64 KiB and 128 bytes apart, so that each lands on other lines,
 * pages and (as far as the address hash spreads them) L2 slices. */
#define PLACEMENT_WORDS(i) ((i) * (16384u + 32u))

/* The floor (floor.c; its kernels, floor.cl, are in the benchmark's
 * program): rows pingpong... */
void measure_floor(bench *b);
/* The barriers with their words moved (placed.c; kernels in placed.cl),
 * at full occupancy: `groups` groups of `local`. */
void measure_placed(bench *b, size_t local, cl_uint groups);

#endif
