/*
 * cg_kernels.h - the OpenCL code of xwg-cg: Conjugate Gradient on a CSR
 * matrix in two versions of the same algorithm (x0 = 0, r0 = p0 = b):
 *
 *     rr = (r, r)
 *     while k < max_iter and rr > stop:
 *         Ap = A p;  alpha = rr / (p, Ap)
 *         x += alpha p;  r -= alpha Ap;  next = (r, r)
 *         p = r + (next / rr) p;  rr = next;  k++
 *
 * - cg_persistent: one xwg launch per solve. Its grid syncs per iteration
 *   are the two dot products, each an xwg_reduce_add_float() (an
 *   all-reduce that is also a barrier), and one xwg_barrier() after p's
 *   update, before A p reads other rows of p.
 * - the multi-kernel version: five launches per iteration (A p with its
 *   partial dot product, alpha, the x and r update with its partial, beta,
 *   the p update); the scalars stay on the device, and every kernel does
 *   nothing once the solve has converged, so the host may enqueue many
 *   iterations between two reads of the state.
 *
 * Rows go to work-items in a grid stride. A work-item writes only its own
 * rows of x, r, p and Ap; the one read of other rows is A p's read of p,
 * after the barrier (or, multi-kernel, the launch) that follows p's
 * update. The sums are in a fixed order (each work-item's rows in turn,
 * then the collective's or the work-group tree's order), so a solve on the
 * same device and group count gives the same bits every time.
 *
 * `fixed` != 0 runs max_iter iterations whatever rr says: the timing runs
 * measure iterations of one length, without a converged tail.
 */
#ifndef XWG_CG_KERNELS_H
#define XWG_CG_KERNELS_H

static const char cg_source[] =
    "#define CG_RUNNING(k, rr) ((k) < max_iter && (fixed || (rr) > stop))\n"
    "\n"
    /* (row i of A) . p */
    "inline float row_times(__global const uint *row,\n"
    "                       __global const uint *col,\n"
    "                       __global const float *val,\n"
    "                       __global const float *p, uint i)\n"
    "{\n"
    "    float s = 0.0f;\n"
    "    for (uint e = row[i]; e < row[i + 1u]; e++)\n"
    "        s += val[e] * p[col[e]];\n"
    "    return s;\n"
    "}\n"
    "\n"
    "#ifdef XWG_STATE\n"
    "__kernel void cg_persistent(uint n, __global const uint *row,\n"
    "                            __global const uint *col,\n"
    "                            __global const float *val,\n"
    "                            __global float *x, __global float *r,\n"
    "                            __global float *p, __global float *ap,\n"
    "                            float stop, uint max_iter, uint fixed,\n"
    "                            __global float *result, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    const uint first = xwg_global_id(), step = xwg_global_size();\n"
    "    float mine = 0.0f;\n"
    "    for (uint i = first; i < n; i += step)\n"
    "        mine += r[i] * r[i];\n"
    "    float rr = xwg_reduce_add_float(mine);\n"
    "    uint k = 0;\n"
    /* Every work-item gets the same rr, bit for bit, so all leave the loop
     * at the same k (or, once a barrier has failed, soon after it). */
    "    while (CG_RUNNING(k, rr) && !xwg_failed()) {\n"
    "        mine = 0.0f;\n"
    "        for (uint i = first; i < n; i += step) {\n"
    "            const float s = row_times(row, col, val, p, i);\n"
    "            ap[i] = s;\n"
    "            mine += p[i] * s;\n"
    "        }\n"
    "        const float alpha = rr / xwg_reduce_add_float(mine);\n"
    "        mine = 0.0f;\n"
    "        for (uint i = first; i < n; i += step) {\n"
    "            x[i] += alpha * p[i];\n"
    "            const float ri = r[i] - alpha * ap[i];\n"
    "            r[i] = ri;\n"
    "            mine += ri * ri;\n"
    "        }\n"
    "        const float next = xwg_reduce_add_float(mine);\n"
    "        const float beta = next / rr;\n"
    "        for (uint i = first; i < n; i += step)\n"
    "            p[i] = r[i] + beta * p[i];\n"
    "        xwg_barrier(); /* p complete before A p reads other rows */\n"
    "        rr = next;\n"
    "        k++;\n"
    "    }\n"
    "    if (xwg_global_id() == 0) {\n"
    "        result[0] = as_float(k);\n"
    "        result[1] = rr;\n"
    "    }\n"
    "}\n"
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
    "    const float s = group_sum(t, mine);\n"
    "    if (get_local_id(0) == 0)\n"
    "        part[get_group_id(0)] = s;\n"
    "}\n"
    "\n"
    "__kernel void cg_first_rr(__global const float *part, uint count,\n"
    "                          __global float *s, __local float *t)\n"
    "{\n"
    "    const float rr = sum_partials(part, count, t);\n"
    "    if (get_local_id(0) == 0) {\n"
    "        s[S_RR] = rr;\n"
    "        s[S_K] = as_float(0u);\n"
    "    }\n"
    "}\n"
    "\n"
    "__kernel void cg_spmv_dot(uint n, __global const uint *row,\n"
    "                          __global const uint *col,\n"
    "                          __global const float *val,\n"
    "                          __global const float *p, __global float *ap,\n"
    "                          __global float *part,\n"
    "                          __global const float *s, __local float *t)\n"
    "{\n"
    "    CG_SETTINGS(s);\n"
    "    if (!CG_STILL(s))\n"
    "        return;\n"
    "    float mine = 0.0f;\n"
    "    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {\n"
    "        const float v = row_times(row, col, val, p, i);\n"
    "        ap[i] = v;\n"
    "        mine += p[i] * v;\n"
    "    }\n"
    "    const float sum = group_sum(t, mine);\n"
    "    if (get_local_id(0) == 0)\n"
    "        part[get_group_id(0)] = sum;\n"
    "}\n"
    "\n"
    "__kernel void cg_alpha(__global const float *part, uint count,\n"
    "                       __global float *s, __local float *t)\n"
    "{\n"
    "    CG_SETTINGS(s);\n"
    "    if (!CG_STILL(s))\n"
    "        return;\n"
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
    "    CG_SETTINGS(s);\n"
    "    if (!CG_STILL(s))\n"
    "        return;\n"
    "    const float alpha = s[S_ALPHA];\n"
    "    float mine = 0.0f;\n"
    "    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {\n"
    "        x[i] += alpha * p[i];\n"
    "        const float ri = r[i] - alpha * ap[i];\n"
    "        r[i] = ri;\n"
    "        mine += ri * ri;\n"
    "    }\n"
    "    const float sum = group_sum(t, mine);\n"
    "    if (get_local_id(0) == 0)\n"
    "        part[get_group_id(0)] = sum;\n"
    "}\n"
    "\n"
    /* The iteration's last decision: beta, the new rr, and k + 1. */
    "__kernel void cg_beta(__global const float *part, uint count,\n"
    "                      __global float *s, __local float *t)\n"
    "{\n"
    "    CG_SETTINGS(s);\n"
    "    if (!CG_STILL(s))\n"
    "        return;\n"
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
    /* After cg_beta: runs while the iteration that set beta did (k was
     * counted, so the test is against k - 1 and the rr before it; a
     * converged solve needs no new p). */
    "__kernel void cg_update_p(uint n, __global const float *r,\n"
    "                          __global float *p, __global const float *s)\n"
    "{\n"
    "    CG_SETTINGS(s);\n"
    "    if (!CG_STILL(s))\n"
    "        return;\n"
    "    const float beta = s[S_BETA];\n"
    "    for (uint i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "        p[i] = r[i] + beta * p[i];\n"
    "}\n"
    "#endif\n";

#endif
