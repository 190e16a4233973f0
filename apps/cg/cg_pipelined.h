/*
 * cg_pipelined.h - the OpenCL code of xwg-cg's pipelined solver: CG with
 * one grid-wide synchronisation an iteration, its two dot products in one
 * nonblocking all-reduce that the matrix product overlaps. It is
 * Chronopoulos and Gear's s-step form (s = 1: "s-step iterative methods
 * for symmetric linear systems", J. Comput. Appl. Math. 25(2), 1989),
 * w = A r computed, never updated by a recurrence:
 *
 *     r = b, x = 0, s = 0, w = A r
 *     loop:
 *         arrive with the partials of gamma = (r, r) and delta = (w, r)
 *         (A r, A w, A s) at the rows whose columns are all the group's own
 *         wait: gamma, delta; stop if converged (below)
 *         (A r, A w, A s) at the other rows
 *         beta = gamma / gamma_old,  alpha = gamma / (delta - beta gamma / alpha_old)
 *             (at a start: beta = 0, alpha = gamma / delta)
 *         p = r + beta p;  s' = w + beta s;  x += alpha p;  r' = r - alpha s'
 *         w' = A r - alpha (A w + beta A s)     (= A r', as A s' = A w + beta A s)
 *
 * In exact arithmetic x, r and p are classic CG's and s = A p. Ghysels and
 * Vanroose's form, which updates w by a recurrence and needs only A w, was
 * tried first and dropped: in float it stagnates (the 32 x 32 Laplacian,
 * a float emulation in NumPy: 3e-3 after 3000 iterations, where this form
 * and classic CG take 47 to tol 1e-5).
 *
 * Convergence: like cg_persistent, on the recurrence's gamma; then the
 * true residual b - A x is computed, and the solve ends if it is under
 * `stop` too, or at float's floor (a backward error ||b - A x|| / (||A||
 * ||x|| + ||b||) of at most CG_FLOOR epsilons, ||A|| bounded by the host's
 * Gershgorin bound: classic CG in float ends near one). Otherwise r and w
 * start again from the true residual, with beta = 0, as a restarted CG;
 * a restart counts as an iteration, so max_iter bounds the loop whatever
 * the values (a NaN gamma always "converges" and never passes).
 *
 * Rows: group g owns the contiguous rows [n g / G, n (g + 1) / G), its
 * work-items in a stride of CG_LOCAL. Every vector's row i is written only
 * by the work-item that owns it. Other rows are read by the products (r,
 * w and s at the columns; x at the check):
 *   - a row whose columns all lie in the group's rows (columns ascend, so
 *     its first and last tell) reads only vectors that its own group wrote
 *     before the arrive, ordered by the work-group barrier after it: these
 *     rows run before the wait, overlapping the all-reduce;
 *   - every other row runs after the wait, which orders it after every
 *     group's writes before its arrive.
 * r, w and s have two buffers each: an update writes the ones that held
 * the iteration before's, whose last reads (other groups' rows, after that
 * iteration's wait) all came before this iteration's arrives, so before
 * this wait. x and p are read and written only at their own rows, except
 * x at the check, after a wait.
 */
#ifndef XWG_CG_PIPELINED_H
#define XWG_CG_PIPELINED_H

#define CG_PIPELINED_SOURCE \
    "/* The most a converged solve's backward error may be, in float\n" \
    " * epsilons (above). */\n" \
    "#define CG_FLOOR 4.0f\n" \
    "\n" \
    "/* Row i of A v. */\n" \
    "inline float row_times(__global const uint *row, __global const uint *col,\n" \
    "                       __global const float *val, __global const float *v,\n" \
    "                       uint i)\n" \
    "{\n" \
    "    float s = 0.0f;\n" \
    "    for (uint e = row[i]; e < row[i + 1u]; e++)\n" \
    "        s += val[e] * v[col[e]];\n" \
    "    return s;\n" \
    "}\n" \
    "\n" \
    "/* Row i of A r, A w and A s, in one pass over the row (three sums, not a\n" \
    " * float3 one: Oclgrind 21.10's --uninitialized checker crashes on that). */\n" \
    "inline float3 row_times3(__global const uint *row, __global const uint *col,\n" \
    "                         __global const float *val, __global const float *r,\n" \
    "                         __global const float *w, __global const float *s,\n" \
    "                         uint i)\n" \
    "{\n" \
    "    float ar = 0.0f, aw = 0.0f, as = 0.0f;\n" \
    "    for (uint e = row[i]; e < row[i + 1u]; e++) {\n" \
    "        const uint c = col[e];\n" \
    "        const float v = val[e];\n" \
    "        ar += v * r[c];\n" \
    "        aw += v * w[c];\n" \
    "        as += v * s[c];\n" \
    "    }\n" \
    "    return (float3)(ar, aw, as);\n" \
    "}\n" \
    "\n" \
    "/* Whether row i reads only columns in [lo, hi): its first and last, the\n" \
    " * columns ascending. */\n" \
    "inline int row_within(__global const uint *row, __global const uint *col,\n" \
    "                      uint i, uint lo, uint hi)\n" \
    "{\n" \
    "    const uint first = row[i], end = row[i + 1u];\n" \
    "    return first == end || (col[first] >= lo && col[end - 1u] < hi);\n" \
    "}\n" \
    "\n" \
    "/* w = A r at the group's rows, and its partials of (r, r) and (w, r). */\n" \
    "inline float2 w_from_r(__global const uint *row, __global const uint *col,\n" \
    "                       __global const float *val, __global const float *r,\n" \
    "                       __global float *w, uint lo, uint hi)\n" \
    "{\n" \
    "    float2 mine = (float2)(0.0f, 0.0f);\n" \
    "    for (uint i = lo + get_local_id(0); i < hi; i += CG_LOCAL) {\n" \
    "        const float wi = row_times(row, col, val, r, i), ri = r[i];\n" \
    "        w[i] = wi;\n" \
    "        mine += (float2)(ri * ri, wi * ri);\n" \
    "    }\n" \
    "    return mine;\n" \
    "}\n" \
    "\n" \
    "/* Test-only, known-bad (tests/CMakeLists.txt): every row's product before\n" \
    " * the wait, reading other groups' vectors before they are ordered. */\n" \
    "#ifdef CG_TEST_BROKEN_ALL_EARLY\n" \
    "#define CG_EARLY(within) 1\n" \
    "#else\n" \
    "#define CG_EARLY(within) (within)\n" \
    "#endif\n" \
    "\n" \
    "/* The work-item's j-th row's products: in local memory where its rows fit\n" \
    " * (CG_PIPELINED_ROWS, from the host), else in the global `products`. */\n" \
    "#define CG_KEEP(j, i, v)                                                  \\\n" \
    "    do {                                                                  \\\n" \
    "        const float3 v_ = (v);                                            \\\n" \
    "        if (kept) {                                                       \\\n" \
    "            own[(3u * (j)) * CG_LOCAL] = v_.x;                            \\\n" \
    "            own[(3u * (j) + 1u) * CG_LOCAL] = v_.y;                       \\\n" \
    "            own[(3u * (j) + 2u) * CG_LOCAL] = v_.z;                       \\\n" \
    "        } else {                                                          \\\n" \
    "            products[i] = v_.x;                                           \\\n" \
    "            products[n + (i)] = v_.y;                                     \\\n" \
    "            products[2u * n + (i)] = v_.z;                                \\\n" \
    "        }                                                                 \\\n" \
    "    } while (0)\n" \
    "#define CG_KEPT(j, i)                                                     \\\n" \
    "    (kept ? (float3)(own[(3u * (j)) * CG_LOCAL],                          \\\n" \
    "                     own[(3u * (j) + 1u) * CG_LOCAL],                     \\\n" \
    "                     own[(3u * (j) + 2u) * CG_LOCAL])                     \\\n" \
    "          : (float3)(products[i], products[n + (i)],                      \\\n" \
    "                     products[2u * n + (i)]))\n" \
    "#define CG_SWAP(a, b)                                                     \\\n" \
    "    do {                                                                  \\\n" \
    "        __global float *const t_ = a;                                     \\\n" \
    "        a = b;                                                            \\\n" \
    "        b = t_;                                                           \\\n" \
    "    } while (0)\n" \
    "\n" \
    "__kernel __attribute__((reqd_work_group_size(CG_LOCAL, 1, 1)))\n" \
    "void cg_pipelined(uint n, __global const uint *row, __global const uint *col,\n" \
    "                  __global const float *val, __global const float *b,\n" \
    "                  __global float *x, __global float *p, __global float *r,\n" \
    "                  __global float *r_next, __global float *w,\n" \
    "                  __global float *w_next, __global float *s,\n" \
    "                  __global float *s_next, __global float *products,\n" \
    "                  float stop, float a_norm, float b_norm, uint max_iter,\n" \
    "                  uint fixed, __global float *result, XWG_STATE)\n" \
    "{\n" \
    "    XWG_DISCOVER();\n" \
    "    __local float kept_products[CG_PIPELINED_ROWS > 0\n" \
    "                                    ? 3 * CG_PIPELINED_ROWS * CG_LOCAL\n" \
    "                                    : 1];\n" \
    "    __local float *const own = kept_products + get_local_id(0);\n" \
    "    const uint groups = xwg_num_groups(), g = xwg_group_id();\n" \
    "    const uint lo = (uint)((ulong)n * g / groups),\n" \
    "               hi = (uint)((ulong)n * (g + 1u) / groups);\n" \
    "    /* Uniform: the most rows a group has, over CG_LOCAL. */\n" \
    "    const uint most = (n + groups - 1u) / groups;\n" \
    "    const int kept = (most + CG_LOCAL - 1u) / CG_LOCAL <= CG_PIPELINED_ROWS;\n" \
    "    float2 mine = w_from_r(row, col, val, r, w, lo, hi);\n" \
    "    float gamma = 0.0f, gamma_old = 0.0f, alpha_old = 0.0f;\n" \
    "    int fresh = 1;\n" \
    "    uint k = 0u;\n" \
    "    for (;;) {\n" \
    "        const xwg_reduce_token t = xwg_reduce_add_float2_arrive(mine);\n" \
    "        /* The group's own r, w and s, written by its work-items, before\n" \
    "         * its rows read them. */\n" \
    "        barrier(CLK_GLOBAL_MEM_FENCE);\n" \
    "        /* Bit j: the work-item's j-th row waits for the all-reduce (rows\n" \
    "         * past the 32nd are tested again after it). */\n" \
    "        uint late = 0u;\n" \
    "        for (uint i = lo + get_local_id(0), j = 0u; i < hi;\n" \
    "             i += CG_LOCAL, j++) {\n" \
    "            if (CG_EARLY(row_within(row, col, i, lo, hi)))\n" \
    "                CG_KEEP(j, i, row_times3(row, col, val, r, w, s, i));\n" \
    "            else if (j < 32u)\n" \
    "                late |= 1u << j;\n" \
    "        }\n" \
    "        const float2 dots = xwg_reduce_add_float2_wait(t);\n" \
    "        gamma = dots.x;\n" \
    "        /* Every work-item has the same bits of gamma, so all take the\n" \
    "         * same branch. */\n" \
    "        if (!CG_RUNNING(k, gamma) || xwg_failed()) {\n" \
    "            if (k >= max_iter || xwg_failed())\n" \
    "                break;\n" \
    "            /* The recurrence says converged: the true residual, into\n" \
    "             * r_next, and ||x||. */\n" \
    "            float2 check = (float2)(0.0f, 0.0f);\n" \
    "            for (uint i = lo + get_local_id(0); i < hi; i += CG_LOCAL) {\n" \
    "                const float ri = b[i] - row_times(row, col, val, x, i);\n" \
    "                r_next[i] = ri;\n" \
    "                check += (float2)(ri * ri, x[i] * x[i]);\n" \
    "            }\n" \
    "            /* Also a barrier: r_next before other groups' rows read it. */\n" \
    "            const float2 truth = xwg_reduce_add_float2(check);\n" \
    "            gamma = truth.x;\n" \
    "            if (truth.x <= stop ||\n" \
    "                sqrt(truth.x) <= CG_FLOOR * FLT_EPSILON *\n" \
    "                                     (a_norm * sqrt(truth.y) + b_norm))\n" \
    "                break;\n" \
    "            mine = w_from_r(row, col, val, r_next, w_next, lo, hi);\n" \
    "            CG_SWAP(r, r_next);\n" \
    "            CG_SWAP(w, w_next);\n" \
    "            fresh = 1;\n" \
    "            k++;\n" \
    "            continue;\n" \
    "        }\n" \
    "        for (uint i = lo + get_local_id(0), j = 0u; i < hi;\n" \
    "             i += CG_LOCAL, j++) {\n" \
    "            const int waited = j < 32u ? (late >> j) & 1u\n" \
    "                                       : !row_within(row, col, i, lo, hi);\n" \
    "            if (waited)\n" \
    "                CG_KEEP(j, i, row_times3(row, col, val, r, w, s, i));\n" \
    "        }\n" \
    "        const float beta = fresh ? 0.0f : gamma / gamma_old;\n" \
    "        const float alpha =\n" \
    "            fresh ? gamma / dots.y\n" \
    "                  : gamma / (dots.y - beta * gamma / alpha_old);\n" \
    "        mine = (float2)(0.0f, 0.0f);\n" \
    "        for (uint i = lo + get_local_id(0), j = 0u; i < hi;\n" \
    "             i += CG_LOCAL, j++) {\n" \
    "            const float3 a = CG_KEPT(j, i); /* A r, A w, A s */\n" \
    "            const float pi = fma(beta, p[i], r[i]);\n" \
    "            const float si = fma(beta, s[i], w[i]);\n" \
    "            p[i] = pi;\n" \
    "            x[i] += alpha * pi;\n" \
    "            s_next[i] = si;\n" \
    "            const float ri = r[i] - alpha * si;\n" \
    "            const float wi = a.x - alpha * fma(beta, a.z, a.y);\n" \
    "            r_next[i] = ri;\n" \
    "            w_next[i] = wi;\n" \
    "            mine += (float2)(ri * ri, wi * ri);\n" \
    "        }\n" \
    "        CG_SWAP(r, r_next);\n" \
    "        CG_SWAP(w, w_next);\n" \
    "        CG_SWAP(s, s_next);\n" \
    "        gamma_old = gamma;\n" \
    "        alpha_old = alpha;\n" \
    "        fresh = 0;\n" \
    "        k++;\n" \
    "    }\n" \
    "    if (xwg_global_id() == 0) {\n" \
    "        result[0] = as_float(k);\n" \
    "        result[1] = gamma;\n" \
    "    }\n" \
    "}\n" \
    ""

#endif
