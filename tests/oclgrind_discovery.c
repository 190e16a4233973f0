/*
 * oclgrind_discovery.c - discovery under Oclgrind, a plain driver (Check's
 * fork per test is slow under the simulator). Oclgrind runs work-groups on
 * --num-threads worker threads, so exactly that many groups are
 * co-resident; ctest passes the number as argv[1]. Oclgrind compiles
 * OpenCL C 1.2 only, so the path must be cl12.
 *
 * Usage: oclgrind --num-threads N oclgrind_discovery N
 */
#include "xwg_barrier.h"

#include <stdio.h>
#include <stdlib.h>

static const char source[] = "__kernel void k(XWG_STATE)\n"
                             "{\n"
                             "    XWG_DISCOVER();\n"
                             "}\n";

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "FAIL: " __VA_ARGS__);                             \
            fputc('\n', stderr);                                               \
            return 1;                                                          \
        }                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: oclgrind_discovery EXPECTED_GROUPS");
    cl_uint expected = (cl_uint)atoi(argv[1]);
    cl_platform_id platform;
    cl_device_id device;
    int err = xwg_find_device("Oclgrind", &platform, &device);
    CHECK(err == XWG_SUCCESS, "no Oclgrind device (run under oclgrind)");
    cl_context cl = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(cl != NULL, "clCreateContext: %s", xwg_status_name(err));
    xwg_context *xc = NULL;
    err = xwg_context_create(cl, device, NULL, &xc);
    CHECK(err == XWG_SUCCESS, "xwg_context_create: %s", xwg_status_name(err));
    xwg_device_info info = XWG_DEVICE_INFO_INIT;
    xwg_context_query(xc, &info);
    CHECK(info.atomics_path == XWG_ATOMICS_CL12, "path is not cl12: %s",
          info.atomics_reason);

    cl_program prog;
    err = xwg_program_build(xc, source, NULL, &prog, NULL);
    CHECK(err == XWG_SUCCESS, "build: %s", xwg_status_name(err));
    cl_kernel k = clCreateKernel(prog, "k", &err);
    CHECK(k != NULL, "clCreateKernel: %s", xwg_status_name(err));
    int exact = 0;
    for (int run = 0; run < 3; run++) {
        xwg_occupancy occ = XWG_OCCUPANCY_INIT;
        err = xwg_discover_uncached(xc, k, 16, &occ);
        CHECK(err == XWG_SUCCESS, "discover: %s", xwg_status_name(err));
        printf("run %d: %u groups (expected %u), %.1f ms\n", run, occ.groups,
               expected, occ.time_ms);
        CHECK(occ.groups <= expected, "%u groups on %u threads: unsafe",
              occ.groups, expected);
        exact += occ.groups == expected;
    }
    CHECK(exact >= 2, "found all %u threads in only %d of 3 runs", expected,
          exact);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    xwg_context_release(xc);
    clReleaseContext(cl);
    printf("1 passed, 0 failed\n");
    return 0;
}
