/*
 * cg_kernels.cl - the OpenCL code of xwg-cg (apps/cg/xwg_cg.c), embedded
 * into the program at build time as cg_source, followed by
 * cg_pipelined.cl (CMakeLists.txt, xwg_embed_cl): Conjugate Gradient on a
 * CSR matrix in two versions of the same algorithm (x0 = 0, r0 = b, p0 = b,
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
 * - cg_pipelined (cg_pipelined.cl): not this algorithm but Chronopoulos
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

#define CG_RUNNING(k, rr) ((k) < max_iter && (fixed || (rr) > stop))

/* p' at row j */
#define CG_NEXT_P(r, p, beta, j) fma((beta), (p)[j], (r)[j])
/* Row i of A p', from r and the old p; p'[i] in *own. */
inline float row_times_next(__global const uint *row,
                            __global const uint *col,
                            __global const float *val,
                            __global const float *r,
                            __global const float *p, float beta,
                            uint i, float *own)
{
    float s = 0.0f;
    for (uint e = row[i]; e < row[i + 1u]; e++)
        s += val[e] * CG_NEXT_P(r, p, beta, col[e]);
    *own = CG_NEXT_P(r, p, beta, i);
    return s;
}

#ifdef XWG_STATE
/* The host defines CG_LOCAL, the work-group size it launches: a
 * compiler may then fit the kernel's registers to it (NVIDIA's does;
 * without it a group of 1024 does not fit on the H200); and CG_ROWS,
 * the rows a work-item may keep A p' of in local memory (0: none). */
__kernel __attribute__((reqd_work_group_size(CG_LOCAL, 1, 1)))
void cg_persistent(uint n, __global const uint *row,
                   __global const uint *col, __global const float *val,
                   __global float *x, __global float *r,
                   __global float *p, __global float *q,
                   __global float *ap, float stop, uint max_iter,
                   uint fixed, __global float *result, XWG_STATE)
{
    XWG_DISCOVER();
    __local float ap_kept[CG_ROWS > 0 ? CG_ROWS * CG_LOCAL : 1];
    const uint first = xwg_global_id(), step = xwg_global_size();
    /* Uniform: the same n and step in every work-item. */
    const int kept = (n + step - 1u) / step <= CG_ROWS;
    __local float *const own_ap = ap_kept + get_local_id(0);
    float mine = 0.0f;
    for (uint i = first; i < n; i += step)
        mine += r[i] * r[i];
    float rr = xwg_reduce_add_float(mine), beta = 0.0f;
    __global float *old = p, *next = q;
    uint k = 0;
    /* Every work-item gets the same rr, bit for bit, so all leave the loop
     * at the same k (or, once a barrier has failed, soon after it). */
    while (CG_RUNNING(k, rr) && !xwg_failed()) {
        mine = 0.0f;
        for (uint i = first, j = 0u; i < n; i += step, j++) {
            float pi;
            const float s = row_times_next(row, col, val, r, old, beta,
                                           i, &pi);
            next[i] = pi;
            if (kept)
                own_ap[j * CG_LOCAL] = s;
            else
                ap[i] = s;
            mine += pi * s;
        }
        const float alpha = rr / xwg_reduce_add_float(mine);
        mine = 0.0f;
        for (uint i = first, j = 0u; i < n; i += step, j++) {
            x[i] += alpha * next[i];
            const float api = kept ? own_ap[j * CG_LOCAL] : ap[i];
            const float ri = r[i] - alpha * api;
            r[i] = ri;
            mine += ri * ri;
        }
        const float rr_next = xwg_reduce_add_float(mine);
        beta = rr_next / rr;
        rr = rr_next;
        __global float *t = old;
        old = next;
        next = t;
        k++;
    }
    if (xwg_global_id() == 0) {
        result[0] = as_float(k);
        result[1] = rr;
    }
}

/* The pipelined version, cg_pipelined, is in cg_pipelined.cl, which the
 * build embeds after this file: like the persistent one, only where the
 * program is built with xwg's library (XWG_STATE defined). */
#else
/* ---- the multi-kernel version ---- */
/* The scalars: rr, alpha, beta, k (as bits), stop, and the settings. */
#define S_RR 0
#define S_ALPHA 1
#define S_BETA 2
#define S_K 3
#define CG_SETTINGS(s)                                                 \
    const float stop = s[4];                                         \
    const uint max_iter = as_uint(s[5]), fixed = as_uint(s[6])
#define CG_STILL(s) CG_RUNNING(as_uint(s[S_K]), s[S_RR])
/* Every kernel of an iteration does nothing once the solve is done. */
#define CG_RETURN_IF_DONE(s)                                           \
    CG_SETTINGS(s);                                                  \
    if (!CG_STILL(s))                                                \
        return
/* The group's sum of `mine`, as its partial. */
#define CG_PUBLISH_PART(part, t, mine)                                 \
    do {                                                             \
        const float sum_ = group_sum(t, mine);                       \
        if (get_local_id(0) == 0)                                    \
            part[get_group_id(0)] = sum_;                            \
    } while (0)

/* The sum of every work-item's v, to work-item 0, in a fixed tree. */
inline float group_sum(__local float *t, float v)
{
    const uint l = get_local_id(0), size = get_local_size(0);
    uint w = 1u;
    while (w < size)
        w <<= 1;
    t[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (w >>= 1; w > 0u; w >>= 1) {
        if (l < w && l + w < size)
            t[l] += t[l + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return t[0];
}

/* One group: the sum of the partials, in a fixed order. */
inline float sum_partials(__global const float *part, uint count,
                          __local float *t)
{
    float s = 0.0f;
    for (uint i = get_local_id(0); i < count; i += get_local_size(0))
        s += part[i];
    return group_sum(t, s);
}

__kernel void cg_start(uint n, __global const float *r,
                       __global float *part, __local float *t)
{
    float mine = 0.0f;
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        mine += r[i] * r[i];
    CG_PUBLISH_PART(part, t, mine);
}

__kernel void cg_first_rr(__global const float *part, uint count,
                          __global float *s, __local float *t)
{
    const float rr = sum_partials(part, count, t);
    if (get_local_id(0) == 0) {
        s[S_RR] = rr;
        s[S_BETA] = 0.0f;
        s[S_K] = as_float(0u);
    }
}

__kernel void cg_spmv_dot(uint n, __global const uint *row,
                          __global const uint *col,
                          __global const float *val,
                          __global const float *r,
                          __global const float *old,
                          __global float *next, __global float *ap,
                          __global float *part,
                          __global const float *s, __local float *t)
{
    CG_RETURN_IF_DONE(s);
    const float beta = s[S_BETA];
    float mine = 0.0f;
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
        float pi;
        const float v = row_times_next(row, col, val, r, old, beta, i,
                                       &pi);
        next[i] = pi;
        ap[i] = v;
        mine += pi * v;
    }
    CG_PUBLISH_PART(part, t, mine);
}

__kernel void cg_alpha(__global const float *part, uint count,
                       __global float *s, __local float *t)
{
    CG_RETURN_IF_DONE(s);
    const float pap = sum_partials(part, count, t);
    if (get_local_id(0) == 0)
        s[S_ALPHA] = s[S_RR] / pap;
}

__kernel void cg_update_xr(uint n, __global float *x,
                           __global float *r, __global const float *p,
                           __global const float *ap,
                           __global float *part,
                           __global const float *s, __local float *t)
{
    CG_RETURN_IF_DONE(s);
    const float alpha = s[S_ALPHA];
    float mine = 0.0f;
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
        x[i] += alpha * p[i];
        const float ri = r[i] - alpha * ap[i];
        r[i] = ri;
        mine += ri * ri;
    }
    CG_PUBLISH_PART(part, t, mine);
}

/* The iteration's last decision: beta, the new rr, and k + 1. */
__kernel void cg_beta(__global const float *part, uint count,
                      __global float *s, __local float *t)
{
    CG_RETURN_IF_DONE(s);
    const float next = sum_partials(part, count, t);
    /* Every work-item's CG_STILL has read S_RR and S_K before they change. */
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        s[S_BETA] = next / s[S_RR];
        s[S_RR] = next;
        s[S_K] = as_float(as_uint(s[S_K]) + 1u);
    }
}

#endif
