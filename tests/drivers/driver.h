/*
 * driver.h - what barrier_driver's runs share: the device, the options
 * and the tally (barrier_driver.c), and the collectives' runs
 * (collective_checks.c).
 */
#ifndef XWG_TEST_DRIVER_H
#define XWG_TEST_DRIVER_H

#include "xwg_barrier.h"

#include <stdio.h>

typedef struct driver {
    cl_context cl;
    cl_device_id device;
    cl_command_queue queue;
    xwg_context *xc;
    xwg_device_info info;
    size_t local;
    unsigned episodes, launches, jacobi_n, jacobi_iters;
    cl_uint min_groups; /* a stress run with fewer fails */
    cl_uint groups;     /* split, collectives: this many, discovery
                           skipped (0: discovered) */
    cl_uint watchdog_ms; /* split, collectives: the launches' watchdog
                            (0: the default) */
    const char *only, *label;
    const char *algo; /* --algo: one barrier, by name; NULL for all */
    char options[192]; /* build options: a variant, a known-bad one */
    FILE *csv;
    int passed, failed;
} driver;

/* Wall-clock seconds. */
double now_s(void);
/* Prints one result (and its CSV row) and counts it passed or failed. */
void report(driver *d, const char *test, const char *variant, cl_uint groups,
            unsigned long long episodes, unsigned long long errors,
            double seconds, int ok, const char *note);
/* Builds source with d->options and creates kernel `name`; exits 2 on a
 * build failure, with the log. */
cl_kernel build(driver *d, const char *source, const char *name);
/* build() for several kernels of one program, built once, into
 * kernels[0 .. count). */
void build_kernels(driver *d, const char *source, const char *const *names,
                   size_t count, cl_kernel *kernels);
/* A zeroed read-write buffer; exits 2 if it cannot be made. */
cl_mem buffer(driver *d, size_t bytes);

/* What a run of launches that count wrong values found. */
typedef struct counted {
    unsigned long long bad, episodes;
    cl_uint groups; /* the last launch's */
} counted;
/* d->launches launches of k, each after zeroing the word `errors` that
 * the kernel counts its wrong values into, adding to *c. Returns the
 * first failed launch's status, or XWG_SUCCESS. */
int launch_counting(driver *d, const char *test, cl_kernel k, cl_mem errors,
                    const xwg_launch_options *opts, unsigned episodes,
                    counted *c);
/* report() for such a run: it passes with no error, no wrong value and at
 * least d->min_groups groups. */
void report_counted(driver *d, const char *test, xwg_barrier_algo algo,
                    const counted *c, double start, int err);

/* collective_checks.c: the split barrier's stress, the collectives
 * checked against the host's reference, and the misuses that must end in
 * XWG_ERROR_BARRIER_MISUSE; each for the launch's barrier `algo`. */
void run_split(driver *d, xwg_barrier_algo algo);
void run_collectives(driver *d, xwg_barrier_algo algo);
void run_collective_misuse(driver *d, xwg_barrier_algo algo);

/* divergence_checks.c: barriers and collectives made by some work-items
 * of a group, built with -DXWG_CHECK_DIVERGENCE: misuse where the device
 * lets xwg see it; the same calls by every work-item succeed. */
void run_divergence(driver *d, xwg_barrier_algo algo);

#endif
