/*
 * cg_pipelined.cl - the OpenCL code of xwg-cg's pipelined solver, embedded
 * after cg_kernels.cl into cg_source (CMakeLists.txt): CG with
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

/* Built only with xwg's library, as cg_kernels.cl's persistent version. */
#ifdef XWG_STATE

/* The most a converged solve's backward error may be, in float
 * epsilons (above). */
#define CG_FLOOR 4.0f

/* Row i of A v. */
inline float row_times(__global const uint *row, __global const uint *col,
                       __global const float *val, __global const float *v,
                       uint i)
{
    float s = 0.0f;
    for (uint e = row[i]; e < row[i + 1u]; e++)
        s += val[e] * v[col[e]];
    return s;
}

/* Row i of A r, A w and A s, in one pass over the row (three sums, not a
 * float3 one: Oclgrind 21.10's --uninitialized checker crashes on that). */
inline float3 row_times3(__global const uint *row, __global const uint *col,
                         __global const float *val, __global const float *r,
                         __global const float *w, __global const float *s,
                         uint i)
{
    float ar = 0.0f, aw = 0.0f, as = 0.0f;
    for (uint e = row[i]; e < row[i + 1u]; e++) {
        const uint c = col[e];
        const float v = val[e];
        ar += v * r[c];
        aw += v * w[c];
        as += v * s[c];
    }
    return (float3)(ar, aw, as);
}

/* Whether row i reads only columns in [lo, hi): its first and last, the
 * columns ascending. */
inline int row_within(__global const uint *row, __global const uint *col,
                      uint i, uint lo, uint hi)
{
    const uint first = row[i], end = row[i + 1u];
    return first == end || (col[first] >= lo && col[end - 1u] < hi);
}

/* w = A r at the group's rows, and its partials of (r, r) and (w, r). */
inline float2 w_from_r(__global const uint *row, __global const uint *col,
                       __global const float *val, __global const float *r,
                       __global float *w, uint lo, uint hi)
{
    float2 mine = (float2)(0.0f, 0.0f);
    for (uint i = lo + get_local_id(0); i < hi; i += CG_LOCAL) {
        const float wi = row_times(row, col, val, r, i), ri = r[i];
        w[i] = wi;
        mine += (float2)(ri * ri, wi * ri);
    }
    return mine;
}

/* Test-only, known-bad (tests/CMakeLists.txt): every row's product before
 * the wait, reading other groups' vectors before they are ordered. */
#ifdef CG_TEST_BROKEN_ALL_EARLY
#define CG_EARLY(within) 1
#else
#define CG_EARLY(within) (within)
#endif

/* The work-item's j-th row's products: in local memory where its rows fit
 * (CG_PIPELINED_ROWS, from the host), else in the global `products`. */
#define CG_KEEP(j, i, v)                                                  \
    do {                                                                  \
        const float3 v_ = (v);                                            \
        if (kept) {                                                       \
            own[(3u * (j)) * CG_LOCAL] = v_.x;                            \
            own[(3u * (j) + 1u) * CG_LOCAL] = v_.y;                       \
            own[(3u * (j) + 2u) * CG_LOCAL] = v_.z;                       \
        } else {                                                          \
            products[i] = v_.x;                                           \
            products[n + (i)] = v_.y;                                     \
            products[2u * n + (i)] = v_.z;                                \
        }                                                                 \
    } while (0)
#define CG_KEPT(j, i)                                                     \
    (kept ? (float3)(own[(3u * (j)) * CG_LOCAL],                          \
                     own[(3u * (j) + 1u) * CG_LOCAL],                     \
                     own[(3u * (j) + 2u) * CG_LOCAL])                     \
          : (float3)(products[i], products[n + (i)],                      \
                     products[2u * n + (i)]))
#define CG_SWAP(a, b)                                                     \
    do {                                                                  \
        __global float *const t_ = a;                                     \
        a = b;                                                            \
        b = t_;                                                           \
    } while (0)

__kernel __attribute__((reqd_work_group_size(CG_LOCAL, 1, 1)))
void cg_pipelined(uint n, __global const uint *row, __global const uint *col,
                  __global const float *val, __global const float *b,
                  __global float *x, __global float *p, __global float *r,
                  __global float *r_next, __global float *w,
                  __global float *w_next, __global float *s,
                  __global float *s_next, __global float *products,
                  float stop, float a_norm, float b_norm, uint max_iter,
                  uint fixed, __global float *result, XWG_STATE)
{
    XWG_DISCOVER();
    __local float kept_products[CG_PIPELINED_ROWS > 0
                                    ? 3 * CG_PIPELINED_ROWS * CG_LOCAL
                                    : 1];
    __local float *const own = kept_products + get_local_id(0);
    const uint groups = xwg_num_groups(), g = xwg_group_id();
    const uint lo = (uint)((ulong)n * g / groups),
               hi = (uint)((ulong)n * (g + 1u) / groups);
    /* Uniform: the most rows a group has, over CG_LOCAL. */
    const uint most = (n + groups - 1u) / groups;
    const int kept = (most + CG_LOCAL - 1u) / CG_LOCAL <= CG_PIPELINED_ROWS;
    float2 mine = w_from_r(row, col, val, r, w, lo, hi);
    float gamma = 0.0f, gamma_old = 0.0f, alpha_old = 0.0f;
    int fresh = 1;
    uint k = 0u;
    for (;;) {
        const xwg_reduce_token t = xwg_reduce_add_float2_arrive(mine);
        /* The group's own r, w and s, written by its work-items, before
         * its rows read them. */
        barrier(CLK_GLOBAL_MEM_FENCE);
        /* Bit j: the work-item's j-th row waits for the all-reduce (rows
         * past the 32nd are tested again after it). */
        uint late = 0u;
        for (uint i = lo + get_local_id(0), j = 0u; i < hi;
             i += CG_LOCAL, j++) {
            if (CG_EARLY(row_within(row, col, i, lo, hi)))
                CG_KEEP(j, i, row_times3(row, col, val, r, w, s, i));
            else if (j < 32u)
                late |= 1u << j;
        }
        const float2 dots = xwg_reduce_add_float2_wait(t);
        gamma = dots.x;
        /* Every work-item has the same bits of gamma, so all take the
         * same branch. */
        if (!CG_RUNNING(k, gamma) || xwg_failed()) {
            if (k >= max_iter || xwg_failed())
                break;
            /* The recurrence says converged: the true residual, into
             * r_next, and ||x||. */
            float2 check = (float2)(0.0f, 0.0f);
            for (uint i = lo + get_local_id(0); i < hi; i += CG_LOCAL) {
                const float ri = b[i] - row_times(row, col, val, x, i);
                r_next[i] = ri;
                check += (float2)(ri * ri, x[i] * x[i]);
            }
            /* Also a barrier: r_next before other groups' rows read it. */
            const float2 truth = xwg_reduce_add_float2(check);
            gamma = truth.x;
            if (truth.x <= stop ||
                sqrt(truth.x) <= CG_FLOOR * FLT_EPSILON *
                                     (a_norm * sqrt(truth.y) + b_norm))
                break;
            mine = w_from_r(row, col, val, r_next, w_next, lo, hi);
            CG_SWAP(r, r_next);
            CG_SWAP(w, w_next);
            fresh = 1;
            k++;
            continue;
        }
        for (uint i = lo + get_local_id(0), j = 0u; i < hi;
             i += CG_LOCAL, j++) {
            const int waited = j < 32u ? (late >> j) & 1u
                                       : !row_within(row, col, i, lo, hi);
            if (waited)
                CG_KEEP(j, i, row_times3(row, col, val, r, w, s, i));
        }
        const float beta = fresh ? 0.0f : gamma / gamma_old;
        const float alpha =
            fresh ? gamma / dots.y
                  : gamma / (dots.y - beta * gamma / alpha_old);
        mine = (float2)(0.0f, 0.0f);
        for (uint i = lo + get_local_id(0), j = 0u; i < hi;
             i += CG_LOCAL, j++) {
            const float3 a = CG_KEPT(j, i); /* A r, A w, A s */
            const float pi = fma(beta, p[i], r[i]);
            const float si = fma(beta, s[i], w[i]);
            p[i] = pi;
            x[i] += alpha * pi;
            s_next[i] = si;
            const float ri = r[i] - alpha * si;
            const float wi = a.x - alpha * fma(beta, a.z, a.y);
            r_next[i] = ri;
            w_next[i] = wi;
            mine += (float2)(ri * ri, wi * ri);
        }
        CG_SWAP(r, r_next);
        CG_SWAP(w, w_next);
        CG_SWAP(s, s_next);
        gamma_old = gamma;
        alpha_old = alpha;
        fresh = 0;
        k++;
    }
    if (xwg_global_id() == 0) {
        result[0] = as_float(k);
        result[1] = gamma;
    }
}

#endif
