/*
 * collective_checks.c - barrier_driver's runs of the split barrier and
 * the collectives:
 *   split        the stress check through xwg_barrier_arrive/_wait, with
 *                work between them;
 *   collectives  every all-reduce (blocking and nonblocking), broadcast
 *                and scan, in three kernels (one per family) that each
 *                run every episode,
 *                each result compared bit for bit with the host's
 *                reference, which follows the order of summation that
 *                kernels/xwg_collectives.cl documents (so a float result
 *                that is right but in another order fails: the order is
 *                a promise);
 *   collective_misuse  the seven misuses a kernel can be seen to make,
 *                each of which must end in XWG_ERROR_BARRIER_MISUSE.
 */
#include "collective_kernels.h"
#include "driver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- The host's reference ---------------------------------------------- */

static float as_float(uint bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static uint float_bits(float f)
{
    uint bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

/* Combines two values of reduction r (R_*), as bit patterns. */
static uint combine(int r, uint a, uint b)
{
    switch (r) {
    case R_ADD_U:
    case R_ADD_I:
        return a + b; /* int wraps as uint does */
    case R_MIN_U:
        return a < b ? a : b;
    case R_MAX_U:
        return a > b ? a : b;
    case R_MIN_I:
        return (int)a < (int)b ? a : b;
    case R_MAX_I:
        return (int)a > (int)b ? a : b;
    case R_ADD_F:
        return float_bits(as_float(a) + as_float(b));
    case R_MIN_F:
        return float_bits(fminf(as_float(a), as_float(b)));
    default:
        return float_bits(fmaxf(as_float(a), as_float(b)));
    }
}

/* The library's work-group tree over v[0 .. count-1], in s: in each run
 * of 32 values, value j takes in value j+h for j < h (within the run)
 * and j+h < count, h = 16 .. 1; then the same over the runs' results,
 * until one is left. */
static uint tree(int r, const uint *v, uint count, uint *s)
{
    memcpy(s, v, count * sizeof *s);
    for (uint n = count; n > 1; n = (n + 31) / 32) {
        for (uint h = 16; h > 0; h >>= 1)
            for (uint i = 0; i + h < n; i++)
                if (i % 32 < h)
                    s[i] = combine(r, s[i], s[i + h]);
        for (uint k = 0; k * 32 < n; k++) /* the runs' results, in order */
            s[k] = s[k * 32];
    }
    return s[0];
}

/* C3: work-item l folds partials l, l+size, ... below `below`, left to
 * right; then the tree over the folds of work-items 0 .. count-1. A
 * work-item with nothing to fold holds 0 (only work-item 0 of
 * participant 0's scan, where that 0 is the result). */
static uint combine_partials(int r, const uint *partials, uint below,
                             uint size, uint count, uint *fold, uint *s)
{
    for (uint l = 0; l < count; l++) {
        fold[l] = 0;
        for (uint i = l; i < below; i += size)
            fold[l] = i == l ? partials[i] : combine(r, fold[l], partials[i]);
    }
    return tree(r, fold, count, s);
}

static uint min_u(uint a, uint b) { return a < b ? a : b; }

/* One phase's row of the expected table for n participants of `size`. */
static void expected_row(uint p, uint n, uint size, uint *row)
{
    uint *v = malloc(size * sizeof *v), *s = malloc(size * sizeof *s),
         *fold = malloc(size * sizeof *fold),
         *partials = malloc(n * sizeof *partials);
    for (int r = 0; r < REDUCTIONS; r++) {
        for (uint g = 0; g < n; g++) { /* C1 */
            for (uint l = 0; l < size; l++) {
                uint x = g * size + l;
                v[l] = r <= R_MAX_U   ? value_uint(p, x)
                       : r <= R_MAX_I ? (uint)value_int(p, x)
                                      : float_bits(value_float(p, x));
            }
            partials[g] = tree(r, v, size, s);
        }
        row[r] = combine_partials(r, partials, n, size, min_u(size, n), fold,
                                  s);
    }
    /* The scans: the group's own value is its partial. */
    const int scans[3] = {R_ADD_U, R_ADD_I, R_ADD_F};
    for (int k = 0; k < 3; k++) {
        for (uint g = 0; g < n; g++)
            partials[g] = k == 0   ? value_uint(p, g) & 0xffffu
                          : k == 1 ? (uint)value_int(p, g)
                                   : float_bits(value_float(p, g));
        for (uint g = 0; g < n; g++) {
            uint count = g < 1 ? 1 : g < size ? g : size;
            row[REDUCTIONS + 3 * g + k] = combine_partials(
                scans[k], partials, g, size, count, fold, s);
        }
        row[REDUCTIONS + 3 * n + k] = combine_partials(
            scans[k], partials, n, size, min_u(size, n), fold, s);
    }
    free(v);
    free(s);
    free(fold);
    free(partials);
}

/* ---- The runs -------------------------------------------------------------- */

static void read_errors(driver *d, cl_mem errors, cl_uint *out, size_t n)
{
    clEnqueueReadBuffer(d->queue, errors, CL_TRUE, 0, n * sizeof *out, out, 0,
                        NULL, NULL);
}

/* --groups (that many, discovery skipped) and --watchdog-ms. */
static void launch_options(const driver *d, xwg_launch_options *opts)
{
    opts->watchdog_ms = d->watchdog_ms;
    if (d->groups != 0) {
        opts->groups = d->groups;
        opts->skip_discovery = 1;
    }
}

void run_split(driver *d, xwg_barrier_algo algo)
{
    cl_kernel k = build(d, split_source, "split");
    cl_mem errors = buffer(d, sizeof(cl_uint));
    cl_uint episodes = d->episodes;
    for (cl_uint a = 0; a < 3; a++)
        clSetKernelArg(k, a, sizeof errors, &errors);
    clSetKernelArg(k, 3, sizeof episodes, &episodes);
    xwg_occupancy occ = XWG_OCCUPANCY_INIT;
    int err = xwg_discover(d->xc, k, d->local, &occ);
    if (err != XWG_SUCCESS) {
        report(d, "split", xwg_barrier_algo_name(algo), 0, 0, 0, 0, 0,
               xwg_status_name(err));
        clReleaseMemObject(errors);
        clReleaseKernel(k);
        return;
    }
    const size_t words =
        (size_t)(d->groups ? d->groups : occ.groups) * d->local;
    cl_mem data = buffer(d, words * sizeof(cl_uint)),
           work = buffer(d, words * sizeof(cl_uint));
    clSetKernelArg(k, 0, sizeof data, &data);
    clSetKernelArg(k, 2, sizeof work, &work);
    xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
    opts.barrier = algo;
    launch_options(d, &opts);
    counted c = {0};
    double start = now_s();
    err = launch_counting(d, "split", k, errors, &opts, episodes, &c);
    report_counted(d, "split", algo, &c, start, err);
    clReleaseMemObject(work);
    clReleaseMemObject(data);
    clReleaseMemObject(errors);
    clReleaseKernel(k);
}

/* The table for n participants: COLLECTIVE_PHASES rows. */
static cl_mem expected_table(driver *d, cl_uint n)
{
    const size_t row_words = REDUCTIONS + 3 * (size_t)n + 3;
    uint *table = malloc(COLLECTIVE_PHASES * row_words * sizeof *table);
    for (uint p = 0; p < COLLECTIVE_PHASES; p++)
        expected_row(p, n, (uint)d->local, table + p * row_words);
    int err;
    cl_mem m = clCreateBuffer(d->cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                              COLLECTIVE_PHASES * row_words * sizeof *table,
                              table, &err);
    free(table);
    if (m == NULL) {
        fprintf(stderr, "expected table: %s\n", xwg_status_name(err));
        exit(2);
    }
    return m;
}

/* collectives.cl's kernels, one per family of collectives. */
enum { FAMILIES = 3 };
static const char *const family_kernels[FAMILIES] = {
    "collectives_reduce", "collectives_nonblocking", "collectives_scan"};

/* Launches every family's kernel once with opts, each after the errors
 * are zeroed, and adds what each found into found[]. Stops at the first
 * failed launch or at a count of groups other than the table's
 * (found[E_GROUPS]). */
static int launch_families(driver *d, cl_kernel *k, cl_mem errors,
                           const xwg_launch_options *opts, cl_uint *found)
{
    int err = XWG_SUCCESS;
    for (int f = 0; f < FAMILIES && err == XWG_SUCCESS; f++) {
        const cl_uint zeros[ERROR_KINDS] = {0};
        cl_uint mine[ERROR_KINDS];
        clEnqueueWriteBuffer(d->queue, errors, CL_TRUE, 0, sizeof zeros,
                             zeros, 0, NULL, NULL);
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        err = xwg_launch_ex(d->xc, d->queue, k[f], d->local, opts, &info);
        read_errors(d, errors, mine, ERROR_KINDS);
        for (int e = 0; e < E_GROUPS; e++)
            found[e] += mine[e];
        found[E_GROUPS] = mine[E_GROUPS];
        if (mine[E_GROUPS] != 0)
            break;
    }
    return err;
}

void run_collectives(driver *d, xwg_barrier_algo algo)
{
    static const char *kinds[ERROR_KINDS] = {"reduce", "broadcast", "scan",
                                             "total", "barrier", "groups"};
    cl_kernel k[FAMILIES];
    build_kernels(d, collectives_source, family_kernels, FAMILIES, k);
    cl_mem errors = buffer(d, ERROR_KINDS * sizeof(cl_uint));
    cl_uint episodes = d->episodes, n = 0;
    /* Every argument set for discovery; the table comes once its size is
     * known. The groups: the fewest that any family's kernel holds. */
    int err = XWG_SUCCESS;
    for (int f = 0; f < FAMILIES && err == XWG_SUCCESS; f++) {
        for (cl_uint a = 0; a < 3; a++)
            clSetKernelArg(k[f], a, sizeof errors, &errors);
        clSetKernelArg(k[f], 3, sizeof n, &n);
        clSetKernelArg(k[f], 4, sizeof episodes, &episodes);
        xwg_occupancy occ = XWG_OCCUPANCY_INIT;
        err = xwg_discover(d->xc, k[f], d->local, &occ);
        if (f == 0 || occ.groups < n)
            n = occ.groups;
    }
    if (d->groups)
        n = d->groups;
    if (err != XWG_SUCCESS) { /* e.g. a kernel too large for the size */
        report(d, "collectives", xwg_barrier_algo_name(algo), 0, 0, 0, 0, 0,
               xwg_status_name(err));
        clReleaseMemObject(errors);
        for (int f = 0; f < FAMILIES; f++)
            clReleaseKernel(k[f]);
        return;
    }
    cl_mem data = buffer(d, (size_t)n * d->local * sizeof(cl_uint));
    for (int f = 0; f < FAMILIES; f++)
        clSetKernelArg(k[f], 0, sizeof data, &data);
    xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
    opts.barrier = algo;
    opts.groups = n; /* the data buffer's groups, at most */
    launch_options(d, &opts);
    cl_uint found[ERROR_KINDS] = {0};
    unsigned long long bad = 0, total = 0;
    double start = now_s();
    cl_mem table = NULL;
    /* A launch that discovery gave another count checks nothing: build
     * the table for that count, and run it again (three times at most
     * for one launch: a busy CPU device admits fewer groups from launch
     * to launch). What the families before it found, with the right
     * table, counts. */
    for (unsigned i = 0, tries = 0; err == XWG_SUCCESS && i < d->launches;) {
        if (table == NULL) {
            table = expected_table(d, n);
            for (int f = 0; f < FAMILIES; f++) {
                clSetKernelArg(k[f], 2, sizeof table, &table);
                clSetKernelArg(k[f], 3, sizeof n, &n);
            }
        }
        cl_uint mine[ERROR_KINDS] = {0};
        err = launch_families(d, k, errors, &opts, mine);
        for (int e = 0; e < E_GROUPS; e++) {
            found[e] += mine[e];
            bad += mine[e];
        }
        if (err == XWG_SUCCESS && mine[E_GROUPS] != 0) {
            if (++tries == 3) {
                found[E_GROUPS] = mine[E_GROUPS];
                break;
            }
            n = mine[E_GROUPS];
            clReleaseMemObject(table);
            table = NULL;
            continue;
        }
        total += episodes;
        tries = 0;
        i++;
    }
    char note[160] = "";
    size_t used = 0;
    for (int e = 0; e < E_GROUPS; e++)
        if (found[e] && used < sizeof note)
            used += snprintf(note + used, sizeof note - used, "%s%s %u",
                             used ? ", " : "", kinds[e], found[e]);
    if (err != XWG_SUCCESS)
        snprintf(note, sizeof note, "%s", xwg_status_name(err));
    else if (found[E_GROUPS])
        snprintf(note, sizeof note, "discovery's count kept changing");
    int enough = n >= d->min_groups;
    if (!enough && !note[0])
        snprintf(note, sizeof note, "fewer groups than --min-groups");
    report(d, "collectives", xwg_barrier_algo_name(algo), n, total, bad,
           now_s() - start,
           err == XWG_SUCCESS && bad == 0 && !found[E_GROUPS] && enough,
           note);
    if (table != NULL)
        clReleaseMemObject(table);
    clReleaseMemObject(data);
    clReleaseMemObject(errors);
    for (int f = 0; f < FAMILIES; f++)
        clReleaseKernel(k[f]);
}

void run_collective_misuse(driver *d, xwg_barrier_algo algo)
{
    static const char *names[] = {"arrive_twice", "wait_without_arrive",
                                  "barrier_while_arrived",
                                  "reduce_wait_mismatch",
                                  "collective_while_reducing",
                                  "reduce_wait_mismatch_float2",
                                  "broadcast_from_nobody"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        cl_kernel k = build(d, collective_misuse_source, names[i]);
        cl_mem out = NULL;
        if (i >= 3) { /* the kernels with an output */
            out = buffer(d, sizeof(cl_uint));
            clSetKernelArg(k, 0, sizeof out, &out);
        }
        xwg_launch_options opts = XWG_LAUNCH_OPTIONS_INIT;
        opts.barrier = algo;
        xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
        double start = now_s();
        int err = xwg_launch_ex(d->xc, d->queue, k, d->local, &opts, &info);
        char variant[64], note[320];
        snprintf(variant, sizeof variant, "%s/%s", names[i],
                 xwg_barrier_algo_name(algo));
        snprintf(note, sizeof note, "%s: %s", xwg_status_name(err),
                 xwg_last_error());
        report(d, "collective_misuse", variant, info.groups, 0, 0,
               now_s() - start, err == XWG_ERROR_BARRIER_MISUSE, note);
        if (out != NULL)
            clReleaseMemObject(out);
        clReleaseKernel(k);
    }
}
