/*
 * clcost.h - what the modes of xwg-clcost share: the timing loop, the
 * chain length, and the kernels and state that several modes launch
 * (clcost_kernels.c); and the modes themselves, one file each by concern.
 */
#ifndef XWG_CLCOST_H
#define XWG_CLCOST_H

/* Before any OpenCL header: the modes call 2.0 and 3.0 entry points. */
#define CL_TARGET_OPENCL_VERSION 300
#include <xwg_barrier.h>

#include <stdio.h>

#include "timing.h"

/* The kernels: plain OpenCL C in bench/clcost/, one program a file,
 * embedded at build time as clcost_<file>_source (CMakeLists.txt). */
#include "clcost_atomic_source.h"
#include "clcost_barriers_source.h"
#include "clcost_carriers_source.h"
#include "clcost_carriers_global_source.h"
#include "clcost_count_source.h"
#include "clcost_count_two_source.h"
#include "clcost_discover_source.h"
#include "clcost_empty_xwg_source.h"
#include "clcost_local_source.h"
#include "clcost_plain_load_source.h"
#include "clcost_spin_source.h"
#include "clcost_state_load_source.h"
#include "clcost_state_store_source.h"

/* Calls or launches per TIME, and the mean that TIME prints is over
 * them. A build may set another (-DN=...). */
#ifndef N
#define N 2000
#endif
/* Times N runs of body (which may use the run's index i_) and prints the
 * mean, in us, under label. */
#define TIME(label, body)                                                      \
    do {                                                                       \
        double s = now_us();                                                   \
        for (int i_ = 0; i_ < N; i_++) {                                       \
            body;                                                              \
        }                                                                      \
        printf("%-40s %8.3f us\n", label, (now_us() - s) / N);               \
    } while (0)
/* Launches in a chain, as xwg's slabs hold them (chains(), reads(),
 * finishes(), carriers()). */
#define CHAIN 32

/* clcost_kernels.c: kernels and state that several modes launch. */
cl_kernel counting_kernel(cl_context cl, cl_device_id dev, cl_mem buf);
cl_kernel built_kernel(cl_context cl, cl_device_id dev, xwg_context *xc,
                       const char *src, const char *name, const char *options,
                       cl_mem arg);
double device_us(cl_context cl, cl_device_id dev, cl_kernel k, int per);
/* A state header that runs xwg's kernel bare (clEnqueueNDRangeKernel, no
 * xwg_launch): skip mode, the counter barrier, a long watchdog; the
 * other words zero. Fills header, and returns a buffer of its own that
 * holds it (NULL with *err set where it cannot be made). */
cl_mem bare_state(cl_context cl, cl_uint header[256], cl_int *err);

/* The modes (xwg-clcost PLATFORM-NAME MODE), each returning main's exit
 * status: 0, or the step that failed. clcost_waits.c: */
int waits(cl_context cl, cl_device_id dev, cl_command_queue q,
          xwg_context *xc, cl_kernel xk);
int delays(cl_context cl, cl_device_id dev, cl_command_queue q);
int finishes(cl_context cl, cl_device_id dev, cl_command_queue q);
/* clcost_chains.c: */
int chains(cl_context cl, cl_device_id dev, cl_command_queue q,
           xwg_context *xc, cl_kernel xk);
/* clcost_reads.c: */
int reads(cl_context cl, cl_device_id dev, cl_command_queue q,
          xwg_context *xc, cl_program xprog, cl_kernel xk);
/* clcost_carriers.c: */
int carriers(cl_context cl, cl_device_id dev, cl_command_queue q);

#endif
