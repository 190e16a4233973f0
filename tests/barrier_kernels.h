/*
 * barrier_kernels.h - the kernels that test the global barrier, shared by
 * the Check suites (test_barrier.c, test_shapes.c, test_watchdog.c) and
 * the plain driver that runs on Oclgrind and on the H200
 * (drivers/barrier_driver.c), and jacobi's C reference. The kernels are
 * plain OpenCL C in tests/kernels/barrier_*.cl, embedded at build time
 * into the xwg_test_kernels library (tests/kernels/CMakeLists.txt).
 */
#ifndef XWG_BARRIER_KERNELS_H
#define XWG_BARRIER_KERNELS_H

#include "jacobi_source.h"    /* barrier_jacobi.cl */
#include "known_bad_source.h" /* barrier_known_bad.cl */
#include "misuse_source.h"    /* barrier_misuse.cl */
#include "stress_source.h"    /* barrier_stress.cl */
#include "xwg_barrier.h"

/* The C reference of jacobi: the same sweeps, the same expression; the
 * result is in a after an even number of sweeps, in b after an odd one. */
static inline void jacobi_reference(float *a, float *b, unsigned n,
                                    unsigned sweeps)
{
    for (unsigned it = 0; it < sweeps; it++) {
        const float *src = (it & 1) ? b : a;
        float *dst = (it & 1) ? a : b;
        for (unsigned i = 0; i < n; i++)
            dst[i] = (i == 0 || i == n - 1) ? src[i]
                                            : 0.25f * src[i - 1] +
                                                  0.5f * src[i] +
                                                  0.25f * src[i + 1];
    }
}

/* Writes the initial a and b and sets jacobi's four arguments. */
static inline void jacobi_setup(cl_command_queue queue, cl_kernel k,
                                cl_mem da, cl_mem db, const float *a,
                                const float *b, cl_uint n, cl_uint sweeps)
{
    clEnqueueWriteBuffer(queue, da, CL_TRUE, 0, n * sizeof *a, a, 0, NULL,
                         NULL);
    clEnqueueWriteBuffer(queue, db, CL_TRUE, 0, n * sizeof *b, b, 0, NULL,
                         NULL);
    clSetKernelArg(k, 0, sizeof da, &da);
    clSetKernelArg(k, 1, sizeof db, &db);
    clSetKernelArg(k, 2, sizeof n, &n);
    clSetKernelArg(k, 3, sizeof sweeps, &sweeps);
}

#endif
