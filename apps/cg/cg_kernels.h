/*
 * cg_kernels.h - the OpenCL code of xwg-cg: Conjugate Gradient on a CSR
 * matrix in two versions of the same algorithm (x0 = 0, r0 = b, p0 = b,
 * beta0 = 0):
 *
 *     rr = (r, r)
 *     while k < max_iter and rr > stop:
 *         p' = r + beta p;  Ap' = A p' = A r + beta A p;  alpha = rr / (p', Ap')
 *         x += alpha p';  r -= alpha Ap';  next = (r, r)
 *         beta = next / rr;  rr = next;  p = p';  k++
 *
 * p's update is fused into A p: row i forms p'[j] = r[j] + beta p[j] of
 * each column j it reads, from r and the old p, and writes its own p'[i]
 * to the other of two p buffers. So no grid sync has to separate the
 * update of p from the product, and an iteration needs two: its two dot
 * products. (CUDA's sample updates p in place and syncs before A p.)
 * Every p' is formed with the same fma, so row i's own p'[i] and its
 * neighbours' copies of it are the same bits.
 *
 * - cg_persistent: one xwg launch per solve; each dot product is an
 *   xwg_reduce_add_float(), an all-reduce that is also a barrier. Where
 *   every work-item has at most CG_ROWS rows, A p' stays in local memory
 *   between the product and the update, which only a kernel that lives
 *   across both can do: the update reads the rows of A p' that the same
 *   work-item wrote, so it never goes through global memory: 8 bytes a
 *   row an iteration less (docs/performance.md, "Applications"). Each
 *   work-item's k-th row (in the grid stride) is word k * CG_LOCAL + l
 *   of the group's array, l its local id: its own words, so no
 *   work-group barrier orders them.
 * - cg_pipelined (cg_pipelined.h): not this algorithm but Chronopoulos
 *   and Gear's form of it, one launch, one grid-wide synchronisation an
 *   iteration, which the matrix product overlaps.
 * - the multi-kernel version: four launches per iteration (A p' with its
 *   partial dot product, alpha, the x and r update with its partial,
 *   beta); the scalars stay on the device, and every kernel does nothing
 *   once the solve has converged, so the host may enqueue many iterations
 *   between two reads of the state.
 *
 * Rows go to work-items in a grid stride. In A p' a work-item reads r and
 * the old p at its rows' columns and writes only its own rows of p' and
 * Ap'; in the update it reads and writes only its own rows. The reads of
 * other rows are ordered after their writes by the all-reduce (or launch)
 * between the phases, and the old p buffer is written again (as the next
 * p') only two all-reduces after its last read. The sums are in a fixed
 * order (each work-item's rows in turn, then the collective's or the
 * work-group tree's order), so a solve on the same device and group count
 * gives the same bits every time.
 *
 * `fixed` != 0 runs max_iter iterations whatever rr says: the timing runs
 * measure iterations of one length, without a converged tail.
 */
#ifndef XWG_CG_KERNELS_H
#define XWG_CG_KERNELS_H

#include "cg_pipelined.h"

static const char cg_source[] =
    "#define CG_RUNNING(k, rr) ((k) < max_iter && (fixed || (rr) > stop))\n"
    "\n"
    /* p' at row j */
    "#define CG_NEXT_P(r, p, beta, j) fma((beta), (p)[j], (r)[j])\n"
    /* Row i of A p', from r and the old p; p'[i] in *own. */
    "inline float row_times_next(__global const uint *row,\n"
    "                            __global const uint *col,\n"
    "                            __global const float *val,\n"
    "                            __global const float *r,\n"
    "                            __global const float *p, float beta,\n"
    "                            uint i, float *own)\n"
    "{\n"
    "    float s = 0.0f;\n"
    "    for (uint e = row[i]; e < row[i + 1u]; e++)\n"
    "        s += val[e] * CG_NEXT_P(r, p, beta, col[e]);\n"
    "    *own = CG_NEXT_P(r, p, beta, i);\n"
    "    return s;\n"
    "}\n"
    "\n"
    "#ifdef XWG_STATE\n"
    /* The host defines CG_LOCAL, the work-group size it launches: a
     * compiler may then fit the kernel's registers to it (NVIDIA's does;
     * without it a group of 1024 does not fit on the H200); and CG_ROWS,
     * the rows a work-item may keep A p' of in local memory (0: none). */
    "__kernel __attribute__((reqd_work_group_size(CG_LOCAL, 1, 1)))\n"
    "void cg_persistent(uint n, __global const uint *row,\n"
    "                   __global const uint *col, __global const float *val,\n"
    "                   __global float *x, __global float *r,\n"
    "                   __global float *p, __global float *q,\n"
    "                   __global float *ap, float stop, uint max_iter,\n"
    "                   uint fixed, __global float *result, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    __local float ap_kept[CG_ROWS > 0 ? CG_ROWS * CG_LOCAL : 1];\n"
    "    const uint first = xwg_global_id(), step = xwg_global_size();\n"
    /* Uniform: the same n and step in every work-item. */
    "    const int kept = (n + step - 1u) / step <= CG_ROWS;\n"
    "    __local float *const own_ap = ap_kept + get_local_id(0);\n"
    "    float mine = 0.0f;\n"
    "    for (uint i = first; i < n; i += step)\n"
    "        mine += r[i] * r[i];\n"
    "    float rr = xwg_reduce_add_float(mine), beta = 0.0f;\n"
    "    __global float *old = p, *next = q;\n"
    "    uint k = 0;\n"
    /* Every work-item gets the same rr, bit for bit, so all leave the loop
     * at the same k (or, once a barrier has failed, soon after it). */
    "    while (CG_RUNNING(k, rr) && !xwg_failed()) {\n"
    "        mine = 0.0f;\n"
    "        for (uint i = first, j = 0u; i < n; i += step, j++) {\n"
    "            float pi;\n"
    "            const float s = row_times_next(row, col, val, r, old, beta,\n"
    "                                           i, &pi);\n"
    "            next[i] = pi;\n"
    "            if (kept)\n"
    "                own_ap[j * CG_LOCAL] = s;\n"
    "            else\n"
    "                ap[i] = s;\n"
    "            mine += pi * s;\n"
    "        }\n"
    "        const float alpha = rr / xwg_reduce_add_float(mine);\n"
    "        mine = 0.0f;\n"
    "        for (uint i = first, j = 0u; i < n; i += step, j++) {\n"
    "            x[i] += alpha * next[i];\n"
    "            const float api = kept ? own_ap[j * CG_LOCAL] : ap[i];\n"
    "            const float ri = r[i] - alpha * api;\n"
    "            r[i] = ri;\n"
    "            mine += ri * ri;\n"
    "        }\n"
    "        const float rr_next = xwg_reduce_add_float(mine);\n"
    "        beta = rr_next / rr;\n"
    "        rr = rr_next;\n"
    "        __global float *t = old;\n"
    "        old = next;\n"
    "        next = t;\n"
    "        k++;\n"
    "    }\n"
    "    if (xwg_global_id() == 0) {\n"
    "        result[0] = as_float(k);\n"
    "        result[1] = rr;\n"
    "    }\n"
    "}\n"
    "\n"
    /* ---- the pipelined version (cg_pipelined.h) ---- */
    CG_PIPELINED_SOURCE
    "#else\n"
    /* ---- the multi-kernel version ---- */
    /* The scalars: rr, alpha, beta, k (as bits), stop, and the settings. */
    "#define S_RR 0\n"
    "#define S_ALPHA 1\n"
    "#define S_BETA 2\n"
    "#define S_K 3\n"
    "#define CG_SETTINGS(s)                                                 \\\n"
    "    const float stop = s[4];                                         \\\n"
    "    const uint max_iter = as_uint(s[5]), fixed = as_uint(s[6])\n"
    "#define CG_STILL(s) CG_RUNNING(as_uint(s[S_K]), s[S_RR])\n"
    /* Every kernel of an iteration does nothing once the solve is done. */
    "#define CG_RETURN_IF_DONE(s)                                           \\\n"
    "    CG_SETTINGS(s);                                                  \\\n"
    "    if (!CG_STILL(s))                                                \\\n"
    "        return\n"
    /* The group's sum of `mine`, as its partial. */
    "#define CG_PUBLISH_PART(part, t, mine)                                 \\\n"
    "    do {                                                             \\\n"
    "        const float sum_ = group_sum(t, mine);                       \\\n"
    "        if (get_local_id(0) == 0)                                    \\\n"
    "            part[get_group_id(0)] = sum_;                            \\\n"
    "    } while (0)\n"
    "\n"
    /* The sum of every work-item's v, to work-item 0, in a fixed tree. */
    "inline float group_sum(__local float *t, float v)\n"
    "{\n"
    "    const uint l = get_local_id(0), size = get_local_size(0);\n"
    "    uint w = 1u;\n"
    "    while (w < size)\n"
    "        w <<= 1;\n"
    "    t[l] = v;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (w >>= 1; w > 0u; w >>= 1) {\n"
    "        if (l < w && l + w < size)\n"
    "            t[l] += t[l + w];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    return t[0];\n"
    "}\n"
    "\n"
    /* One group: the sum of the partials, in a fixed order. */
    "inline float sum_partials(__global const float *part, uint count,\n"
    "                          __local float *t)\n"
    "{\n"
    "    float s = 0.0f;\n"
    "    for (uint i = get_local_id(0); i < count; i += get_local_size(0))\n"
    "        s += part[i];\n"
    "    return group_sum(t, s);\n"
    "}\n"
    "\n"
    "__kernel void cg_start(uint n, __global const float *r,\n"
    "                       __global float *part, __local float *t)\n"
    "{\n"
    "    float mine = 0.0f;\n"
    "    for (uint i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "        mine += r[i] * r[i];\n"
    "    CG_PUBLISH_PART(part, t, mine);\n"
    "}\n"
    "\n"
    "__kernel void cg_first_rr(__global const float *part, uint count,\n"
    "                          __global float *s, __local float *t)\n"
    "{\n"
    "    const float rr = sum_partials(part, count, t);\n"
    "    if (get_local_id(0) == 0) {\n"
    "        s[S_RR] = rr;\n"
    "        s[S_BETA] = 0.0f;\n"
    "        s[S_K] = as_float(0u);\n"
    "    }\n"
    "}\n"
    "\n"
    "__kernel void cg_spmv_dot(uint n, __global const uint *row,\n"
    "                          __global const uint *col,\n"
    "                          __global const float *val,\n"
    "                          __global const float *r,\n"
    "                          __global const float *old,\n"
    "                          __global float *next, __global float *ap,\n"
    "                          __global float *part,\n"
    "                          __global const float *s, __local float *t)\n"
    "{\n"
    "    CG_RETURN_IF_DONE(s);\n"
    "    const float beta = s[S_BETA];\n"
    "    float mine = 0.0f;\n"
    "    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {\n"
    "        float pi;\n"
    "        const float v = row_times_next(row, col, val, r, old, beta, i,\n"
    "                                       &pi);\n"
    "        next[i] = pi;\n"
    "        ap[i] = v;\n"
    "        mine += pi * v;\n"
    "    }\n"
    "    CG_PUBLISH_PART(part, t, mine);\n"
    "}\n"
    "\n"
    "__kernel void cg_alpha(__global const float *part, uint count,\n"
    "                       __global float *s, __local float *t)\n"
    "{\n"
    "    CG_RETURN_IF_DONE(s);\n"
    "    const float pap = sum_partials(part, count, t);\n"
    "    if (get_local_id(0) == 0)\n"
    "        s[S_ALPHA] = s[S_RR] / pap;\n"
    "}\n"
    "\n"
    "__kernel void cg_update_xr(uint n, __global float *x,\n"
    "                           __global float *r, __global const float *p,\n"
    "                           __global const float *ap,\n"
    "                           __global float *part,\n"
    "                           __global const float *s, __local float *t)\n"
    "{\n"
    "    CG_RETURN_IF_DONE(s);\n"
    "    const float alpha = s[S_ALPHA];\n"
    "    float mine = 0.0f;\n"
    "    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {\n"
    "        x[i] += alpha * p[i];\n"
    "        const float ri = r[i] - alpha * ap[i];\n"
    "        r[i] = ri;\n"
    "        mine += ri * ri;\n"
    "    }\n"
    "    CG_PUBLISH_PART(part, t, mine);\n"
    "}\n"
    "\n"
    /* The iteration's last decision: beta, the new rr, and k + 1. */
    "__kernel void cg_beta(__global const float *part, uint count,\n"
    "                      __global float *s, __local float *t)\n"
    "{\n"
    "    CG_RETURN_IF_DONE(s);\n"
    "    const float next = sum_partials(part, count, t);\n"
    /* Every work-item's CG_STILL has read S_RR and S_K before they change. */
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    if (get_local_id(0) == 0) {\n"
    "        s[S_BETA] = next / s[S_RR];\n"
    "        s[S_RR] = next;\n"
    "        s[S_K] = as_float(as_uint(s[S_K]) + 1u);\n"
    "    }\n"
    "}\n"
    "\n"
    "#endif\n";

#endif
