/*
 * barrier_kernels.h - the kernels that test the global barrier, shared by
 * the Check suite (test_barrier.c) and the plain driver that runs on
 * Oclgrind and on the H200 (drivers/barrier_driver.c).
 */
#ifndef XWG_BARRIER_KERNELS_H
#define XWG_BARRIER_KERNELS_H

#include "xwg_barrier.h"

/* stress: in every episode each work-item stores a value with a plain
 * store; after the barrier it reads the value of the same work-item in
 * another group, a different group each episode, and counts wrong ones
 * (at most 1000 per work-item, so that the 32-bit total cannot wrap).
 * A second barrier keeps the next episode's stores after every read,
 * called through a helper that takes xwg_self by value, as users' helpers
 * do: both call sites must count the same episodes. A barrier that lets
 * any group pass early shows as wrong values. */
static const char stress_source[] =
    "inline uint expected(uint e, uint slot) { return e * 0x9E3779B9u ^ slot; }\n"
    "inline void settle(xwg_self self) { xwg_barrier_of(self); }\n"
    "__kernel void stress(__global uint *data, __global uint *errors,\n"
    "                     uint episodes, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    const uint g = xwg_group_id(), n = xwg_num_groups();\n"
    "    const uint l = get_local_id(0), size = get_local_size(0);\n"
    "    uint bad = 0;\n"
    "    for (uint e = 1; e <= episodes && !xwg_failed(); e++) {\n"
    "        data[g * size + l] = expected(e, g * size + l);\n"
    "        xwg_barrier();\n"
    "        uint h = n > 1 ? (g + 1 + e % (n - 1)) % n : g;\n"
    "        if (data[h * size + l] != expected(e, h * size + l))\n"
    "            bad++;\n"
    "        settle(XWG_SELF);\n"
    "    }\n"
    "    if (bad) /* a 32-bit sum of counts could wrap; saturate */\n"
    "        atomic_add(errors, min(bad, 1000u));\n"
    "}\n";

/* jacobi: a 1D three-point stencil, `iterations` sweeps in one kernel,
 * ping-ponging between a and b, a global barrier between sweeps. No
 * contraction into fma, so a C reference with the same expression matches
 * bit for bit. */
static const char jacobi_source[] =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "__kernel void jacobi(__global float *a, __global float *b, uint n,\n"
    "                     uint iterations, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    for (uint it = 0; it < iterations; it++) {\n"
    "        __global const float *src = (it & 1) ? b : a;\n"
    "        __global float *dst = (it & 1) ? a : b;\n"
    "        for (uint i = xwg_global_id(); i < n; i += xwg_global_size()) {\n"
    "            if (i == 0 || i == n - 1)\n"
    "                dst[i] = src[i];\n"
    "            else\n"
    "                dst[i] = 0.25f * src[i - 1] + 0.5f * src[i] +\n"
    "                         0.25f * src[i + 1];\n"
    "        }\n"
    "        xwg_barrier();\n"
    "    }\n"
    "}\n";

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

/* The misuses the watchdog must turn into XWG_ERROR_BARRIER_TIMEOUT. Each
 * runs 50 barriers, so a watchdog that did not make later barriers return
 * at once would take 50 bounds. out[g] records xwg_failed() at the end. */
static const char misuse_source[] =
    /* The last group returns without calling the barrier. */
    "__kernel void early_return(__global uint *out, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    if (xwg_group_id() == xwg_num_groups() - 1)\n"
    "        return;\n"
    "    for (int i = 0; i < 50; i++)\n"
    "        xwg_barrier();\n"
    "    if (get_local_id(0) == 0)\n"
    "        out[xwg_group_id()] = xwg_failed();\n"
    "}\n"
    /* A barrier inside a branch that only the even groups take. */
    "__kernel void divergent(__global uint *out, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    if (xwg_group_id() % 2 == 0)\n"
    "        xwg_barrier();\n"
    "    for (int i = 0; i < 50; i++)\n"
    "        xwg_barrier();\n"
    "    if (get_local_id(0) == 0)\n"
    "        out[xwg_group_id()] = xwg_failed();\n"
    "}\n"
    /* Correct code; launched past the occupancy with discovery skipped. */
    "__kernel void plain(__global uint *out, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    for (int i = 0; i < 50; i++)\n"
    "        xwg_barrier();\n"
    "    if (get_local_id(0) == 0)\n"
    "        out[xwg_group_id()] = xwg_failed();\n"
    "}\n";

/* known_bad: a real race inside one group (every work-item writes one
 * word) and a read of uninitialised local memory. Under Oclgrind both must
 * be told apart from the expected reports between groups. */
static const char known_bad_source[] =
    "__kernel void known_bad(__global uint *out, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    __local uint scratch[4];\n"
    "    out[xwg_group_id()] = get_local_id(0);\n"
    "    out[64 + xwg_global_id()] = scratch[get_local_id(0) % 4];\n"
    "    xwg_barrier();\n"
    "}\n";

#endif
