/*
 * oclgrind_discovery.c - discovery under Oclgrind, a plain driver (Check's
 * fork per test is slow under the simulator). Oclgrind runs work-groups on
 * --num-threads worker threads, so exactly that many groups are
 * co-resident; ctest passes the number as argv[1]. Oclgrind compiles
 * OpenCL C 1.2 only, so the path must be cl12.
 *
 * Every discovery must be safe (at most N groups). Full recall (exactly N)
 * must be reachable, but on a busy machine a worker thread can start after
 * the window has closed (more so with more threads than cores), so runs at
 * the default window that miss it are followed by runs on fresh contexts
 * whose windows grow 4 times each: a correct protocol cannot miss them all.
 * XWG_TEST_BROKEN=CLOSE_AT_FIRST_JOIN builds the known-bad discovery that
 * closes at the first join (kernels/xwg_discovery.cl); ctest expects it to
 * fail here. Any known-bad name (tests/known_bad.h) is taken.
 *
 * Usage: oclgrind --num-threads N oclgrind_discovery N
 */
#include "known_bad.h"
#include "oclgrind_discovery_source.h" /* oclgrind_discovery.cl */
#include "xwg_barrier.h"

#include <stdio.h>
#include <stdlib.h>

/* oclgrind_discovery_source: tests/kernels/oclgrind_discovery.cl, embedded
 * at build time. */

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "FAIL: " __VA_ARGS__);                             \
            fputc('\n', stderr);                                               \
            return 1;                                                          \
        }                                                                      \
    } while (0)

/* Discoveries at the default window; then, until one finds every thread,
 * at most RETRIES more, each with a window 4 times the last (see above). */
#define DEFAULT_RUNS 3
#define RETRIES 5

/* `runs` discoveries on a fresh context with the given window (0: the
 * default), each checked for safety; those that found all `expected`
 * groups are added to *exact, and the window used is left in *window_us.
 * Returns 0, or 1 after printing a failure. */
static int discover_on_fresh_context(cl_context cl, cl_device_id device,
                                     cl_uint window, const char *options,
                                     int runs, cl_uint expected, int *exact,
                                     cl_uint *window_us)
{
    xwg_options opts;
    xwg_options_init(&opts);
    opts.discovery_window_us = window;
    xwg_context *xc = NULL;
    int err = xwg_context_create(cl, device, &opts, &xc);
    CHECK(err == XWG_SUCCESS, "xwg_context_create: %s", xwg_status_name(err));
    xwg_device_info info = XWG_DEVICE_INFO_INIT;
    xwg_context_query(xc, &info);
    CHECK(info.atomics_path == XWG_ATOMICS_CL12, "path is not cl12: %s",
          info.atomics_reason);
    *window_us = info.discovery_window_us;

    cl_program prog;
    err = xwg_program_build(xc, oclgrind_discovery_source, options, &prog,
                            NULL);
    CHECK(err == XWG_SUCCESS, "build: %s", xwg_status_name(err));
    cl_kernel k = clCreateKernel(prog, "k", &err);
    CHECK(k != NULL, "clCreateKernel: %s", xwg_status_name(err));
    for (int run = 0; run < runs; run++) {
        xwg_occupancy occ = XWG_OCCUPANCY_INIT;
        err = xwg_discover_uncached(xc, k, 16, &occ);
        CHECK(err == XWG_SUCCESS, "discover: %s", xwg_status_name(err));
        printf("window %u us: %u groups (expected %u), %.1f ms\n",
               *window_us, occ.groups, expected, occ.time_ms);
        CHECK(occ.groups >= 1 && occ.groups <= expected,
              "%u groups on %u threads: unsafe", occ.groups, expected);
        *exact += occ.groups == expected;
    }
    clReleaseKernel(k);
    clReleaseProgram(prog);
    xwg_context_release(xc);
    return 0;
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: oclgrind_discovery EXPECTED_GROUPS");
    cl_uint expected = (cl_uint)atoi(argv[1]);
    const char *broken = getenv("XWG_TEST_BROKEN");
    char options[64] = "";
    if (broken != NULL && broken[0] != '\0' &&
        xwg_known_bad_option("oclgrind_discovery", broken, options,
                             sizeof options))
        return 2;
    cl_platform_id platform;
    cl_device_id device;
    int err = xwg_find_device("Oclgrind", &platform, &device);
    CHECK(err == XWG_SUCCESS, "no Oclgrind device (run under oclgrind)");
    cl_context cl = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(cl != NULL, "clCreateContext: %s", xwg_status_name(err));

    int exact = 0;
    cl_uint window = 0;
    if (discover_on_fresh_context(cl, device, 0, options[0] ? options : NULL,
                                  DEFAULT_RUNS, expected, &exact, &window))
        return 1;
    for (int retry = 1; exact == 0 && retry <= RETRIES; retry++) {
        if (discover_on_fresh_context(cl, device, window * 4,
                                      options[0] ? options : NULL, 1,
                                      expected, &exact, &window))
            return 1;
    }
    CHECK(exact > 0,
          "found all %u threads in none of %d runs, nor with windows up to "
          "%u us",
          expected, DEFAULT_RUNS, window);
    clReleaseContext(cl);
    printf("1 passed, 0 failed\n");
    return 0;
}
