// cg.cu - the CUDA comparator of xwg-cg (apps/cg): Conjugate Gradient in
// one cooperative kernel, the algorithm of xwg's cg_persistent
// (apps/cg/cg_kernels.h) written with CUDA's cooperative groups, in float:
// x0 = 0, r0 = b, p0 = b, beta0 = 0, and while k < max_iter and rr > stop
//
//     pass 1 (product): p' = r + beta p;  Ap' = A p';  part of (p', Ap')
//         grid.sync #1: alpha = rr / (p', Ap') needs every block's part
//     pass 2 (update):  x += alpha p';  r -= alpha Ap';  part of (r, r)
//         grid.sync #2: beta = next / rr and the stop test need every
//         block's part; and the next pass 1 reads other blocks' r
//
// Two grid syncs an iteration, where the style of CUDA's
// conjugateGradientMultiBlockCG sample, which this file followed before
// (p updated in place, then A p, then each dot product), takes six. p's
// update is fused into the product: row i forms p'[j] = fma(beta, p[j],
// r[j]) of each column j it reads, from r and the old p, and writes its
// own p'[i] to the other of two p buffers; the same fma everywhere, so
// row i's p'[i] and its neighbours' copies of it are the same bits. So no
// sync separates the update of p from the product: the old buffer is read
// by other blocks in pass 1 and written again (as the next p') in pass 1
// of the iteration after, two syncs later.
//
// Rows: block b owns the contiguous rows [b R, (b + 1) R) (R = ceil(n /
// blocks), fewer in the last blocks), and its thread t takes rows first +
// t, first + t + T, ... (T threads a block: a warp's rows are adjacent,
// so its loads coalesce and its neighbours' r and p mostly hit in L1).
// A thread reads other rows only in pass 1 (r and the old p at its rows'
// columns); everything else it reads or writes is its own rows. Where the
// block's R floats of Ap' fit in shared memory at the same occupancy,
// Ap'[i] stays in shared word i - first between the passes: written and
// read by the same thread, so no __syncthreads orders it, and 8 bytes a
// row an iteration never go to global memory (else they go to `ap`, read
// back by the same thread).
//
// Dot products: a warp reduce with __shfl_xor_sync, the warps' sums
// through shared memory to warp 0, one partial per block; then, across
// blocks, one atomicAdd per block into one float word of three in turn,
// grid.sync(), and every block reads that word: one value, so every block
// gets the same bits and leaves the loop at the same k (a block that left
// early would leave the others in grid.sync() forever). The sum is in the
// atomics' order, so it is not deterministic from run to run. Atomic
// rather than deterministic because it measured faster on an H100, in one
// run (run h100-cg-*, docs/performance.md): 29.9 / 29.3 / 32.1 us an
// iteration at 256 / 512 / 1024 threads on the tridiagonal system of 2^20
// rows, against 34.5 / 30.6 / 33.4 for the deterministic form, which
// -DCG_ATOMIC_SUM=0 builds: each block writes its partial to its word of
// a slot, grid.sync(), and every block sums all the partials in the same
// fixed order (thread t: partials t, t + T, ..., then the block tree).
//
// The matrix is read through the read-only path (__ldg: it never changes
// during the kernel); r, p, x and ap through ordinary loads, since other
// blocks write them during the kernel. Global bytes a row an iteration,
// with nnz / n entries a row (3 on the tridiagonal system): pass 1 reads
// row (4), col and val (8 nnz / n), its own r and old p (8; the
// neighbours' are cache hits), writes p' (4); pass 2 reads p', x, r
// (12), writes x and r (8): 36 + 8 nnz / n, 60 on the tridiagonal system
// (68 where Ap' does not fit in shared memory).
//
// The matrices and the host's checks are xwg-cg's own
// (apps/cg/cg_matrix.c), so both solve the same systems from x = 0 with
// b = 1, to ||r|| <= tol ||b||, and are checked alike: converged, and x
// against the host's double solve (within kappa times the true residuals
// where Gershgorin's bounds give kappa, else within 1e-3).
//
// Usage: cg [--matrix SPEC] [--tol T] [--max-iter N] [--threads N]
//           [--timing-iters N] [--label TEXT]
// --threads is a multiple of 32, at most 1024 (whole warps: the warp
// reduce takes all 32 lanes). Prints one CSV row in xwg-cg's columns
// (variant cuda-grid-sync) to stdout; a human line to stderr.
// --timing-iters N adds a solve of exactly N iterations, whose time gives
// ms_per_iter. Exits 1 when the check fails, 2 on a bad option.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "../../apps/cg/cg_matrix.h"
#include "cuda_timer.h"

#ifndef CG_ATOMIC_SUM
#define CG_ATOMIC_SUM 1
#endif

namespace cg = cooperative_groups;

// What the kernel reads, passed by value (it stays in the parameter bank).
struct cg_problem {
    unsigned n;              // rows (and columns)
    unsigned rows_per_block; // R: block b owns rows [b R, (b + 1) R) of n
    int keep_ap;             // 1: Ap' in shared memory (R floats a block)
    const unsigned *row, *col;
    const float *val;
    float *x, *r;
    float *p, *q;   // the old p and the next p', in turn (p holds b)
    float *ap;      // Ap' where keep_ap is 0
    float *sums;    // the cross-block sums' words (grid_sum)
    float stop;     // rr at which the solve has converged
    unsigned max_iter, fixed; // fixed: run max_iter iterations regardless
    float *result;  // k (as bits) and the final rr
};

// The rows [first, end) of this block.
struct block_rows {
    unsigned first, end;
};

__device__ block_rows this_block_rows(const cg_problem &P)
{
    const unsigned long long first =
        (unsigned long long)blockIdx.x * P.rows_per_block;
    block_rows b;
    b.first = first < P.n ? (unsigned)first : P.n;
    b.end = b.first + min(P.n - b.first, P.rows_per_block);
    return b;
}

// ---- dot products ----

__device__ float warp_sum(float v)
{
    for (int lanes = 16; lanes > 0; lanes >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, lanes);
    return v; // the same bits in every lane (float + commutes)
}

// The block's sum of v, in thread 0 (in fixed order). One __syncthreads:
// warp 0 reads warp_sums after it, so the caller must __syncthreads
// (grid.sync() does) before warp_sums is written again.
__device__ float block_sum_to_first(float v, float *warp_sums)
{
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_sum(v);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    float s = 0.0f;
    if (warp == 0) {
        s = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
        s = warp_sum(s);
    }
    return s;
}

// The block's sum of v, to every thread. scratch: 33 words; word 32 is
// read after the second __syncthreads and written again only after the
// first one of the next call.
__device__ float block_sum_to_all(float v, float *scratch)
{
    const float s = block_sum_to_first(v, scratch);
    if (threadIdx.x == 0)
        scratch[32] = s;
    __syncthreads();
    return scratch[32];
}

#if !CG_ATOMIC_SUM
// The grid's sum of every thread's `mine`, to every thread, the same bits
// in every block; includes one grid.sync(). P.sums: 2 x gridDim.x words,
// a slot of a partial per block for each of the two parities of `round`
// (the count of grid_sum calls before this one): slot round & 1 is read
// after this call's sync and written next in call round + 2, after the
// sync of call round + 1, which every block reaches only once it has read.
__device__ float grid_sum(float mine, unsigned round, const cg_problem &P,
                          cg::grid_group &grid, float *scratch)
{
    float *const slot = P.sums + (round & 1u) * gridDim.x;
    const float part = block_sum_to_first(mine, scratch);
    if (threadIdx.x == 0)
        slot[blockIdx.x] = part;
    grid.sync(); // every block's partial written before any block reads
    float s = 0.0f;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x)
        s += __ldcg(&slot[b]);
    return block_sum_to_all(s, scratch);
}
#else
// As above, by atomics (the sum in their order, not deterministic, but
// one word that every block reads). P.sums: 3 words, the first 0 at
// launch; call `round` adds to word round % 3 and zeroes word (round + 1)
// % 3, last read before the sync of call round - 1 and added to next
// after this call's sync.
__device__ float grid_sum(float mine, unsigned round, const cg_problem &P,
                          cg::grid_group &grid, float *scratch)
{
    const float part = block_sum_to_first(mine, scratch);
    if (threadIdx.x == 0) {
        atomicAdd(&P.sums[round % 3u], part);
        if (blockIdx.x == 0)
            P.sums[(round + 1u) % 3u] = 0.0f;
    }
    grid.sync(); // every block's atomicAdd done before any block reads
    return __ldcg(&P.sums[round % 3u]);
}
#endif

// ---- the passes ----

// p' at row j: the same fma wherever it is formed.
__device__ __forceinline__ float next_p(const float *r, const float *p,
                                        float beta, unsigned j)
{
    return fmaf(beta, p[j], r[j]);
}

// Row i of A p', from r and the old p (other blocks' rows among them).
__device__ float row_times_next_p(const cg_problem &P, const float *p,
                                  float beta, unsigned i)
{
    float s = 0.0f;
    const unsigned end = __ldg(&P.row[i + 1]);
    for (unsigned e = __ldg(&P.row[i]); e < end; e++)
        s = fmaf(__ldg(&P.val[e]), next_p(P.r, p, beta, __ldg(&P.col[e])),
                 s);
    return s;
}

// Pass 1 on the block's rows: p'[i] into `next`, Ap'[i] into ap_kept[i -
// first] or P.ap[i]. Returns this thread's part of (p', Ap').
__device__ float product_pass(const cg_problem &P, block_rows b,
                              const float *old, float *next, float beta,
                              float *ap_kept)
{
    float mine = 0.0f;
    for (unsigned i = b.first + threadIdx.x; i < b.end; i += blockDim.x) {
        const float s = row_times_next_p(P, old, beta, i);
        const float pi = next_p(P.r, old, beta, i);
        next[i] = pi;
        if (P.keep_ap)
            ap_kept[i - b.first] = s;
        else
            P.ap[i] = s;
        mine = fmaf(pi, s, mine);
    }
    return mine;
}

// Pass 2 on the block's rows, each thread on the rows it had in pass 1
// (so it reads back its own p' and Ap'). Returns its part of (r, r).
__device__ float update_pass(const cg_problem &P, block_rows b,
                             const float *next, float alpha,
                             const float *ap_kept)
{
    float mine = 0.0f;
    for (unsigned i = b.first + threadIdx.x; i < b.end; i += blockDim.x) {
        P.x[i] = fmaf(alpha, next[i], P.x[i]);
        const float api = P.keep_ap ? ap_kept[i - b.first] : P.ap[i];
        const float ri = fmaf(-alpha, api, P.r[i]);
        P.r[i] = ri;
        mine = fmaf(ri, ri, mine);
    }
    return mine;
}

// This thread's part of (r, r) at the start.
__device__ float residual_part(const cg_problem &P, block_rows b)
{
    float mine = 0.0f;
    for (unsigned i = b.first + threadIdx.x; i < b.end; i += blockDim.x)
        mine = fmaf(P.r[i], P.r[i], mine);
    return mine;
}

// The solve. Dynamic shared memory: R floats where P.keep_ap, else none.
__global__ void cg_kernel(const cg_problem P)
{
    extern __shared__ float ap_kept[];
    __shared__ float scratch[33];
    cg::grid_group grid = cg::this_grid();
    const block_rows b = this_block_rows(P);
    unsigned round = 0;
    float rr = grid_sum(residual_part(P, b), round++, P, grid, scratch);
    float beta = 0.0f;
    float *old = P.p, *next = P.q;
    unsigned k = 0;
    // rr, alpha and beta are the same bits in every block (grid_sum), so
    // every block leaves at the same k.
    while (k < P.max_iter && (P.fixed || rr > P.stop)) {
        const float pap = grid_sum(
            product_pass(P, b, old, next, beta, ap_kept), round++, P, grid,
            scratch); // sync #1
        const float alpha = rr / pap;
        const float rr_next = grid_sum(
            update_pass(P, b, next, alpha, ap_kept), round++, P, grid,
            scratch); // sync #2
        beta = rr_next / rr;
        rr = rr_next;
        float *const t = old;
        old = next;
        next = t;
        k++;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        P.result[0] = __uint_as_float(k);
        P.result[1] = rr;
    }
}

// ---- the host ----

struct device_cg {
    unsigned *row, *col;
    float *val, *x, *r, *p, *q, *ap, *sums, *result;
};

// The launch: blocks at full occupancy, and whether Ap' stays in shared
// memory (where R floats a block fit without losing a block an SM).
struct launch_shape {
    int blocks, threads;
    unsigned rows_per_block;
    size_t shared; // bytes of dynamic shared memory: R floats, or 0
};

static int blocks_per_sm(int threads, size_t shared)
{
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, cg_kernel,
                                                        threads, shared));
    return per_sm;
}

static launch_shape shape_launch(const cudaDeviceProp &prop, unsigned n,
                                 int threads)
{
    launch_shape s;
    const int per_sm = blocks_per_sm(threads, 0);
    s.threads = threads;
    s.blocks = per_sm * prop.multiProcessorCount;
    s.rows_per_block =
        s.blocks > 0 ? (unsigned)((n + (size_t)s.blocks - 1) / s.blocks) : 0;
    s.shared = 0;
    const size_t want = (size_t)s.rows_per_block * sizeof(float);
    if (s.blocks == 0 || want > prop.sharedMemPerBlockOptin)
        return s;
    if (want > prop.sharedMemPerBlock)
        CHECK(cudaFuncSetAttribute(cg_kernel,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)want));
    if (blocks_per_sm(threads, want) >= per_sm)
        s.shared = want;
    return s;
}

// One solve from x = 0, r = p = b: its time (ms, launch included), and
// its iterations and final rr.
static float solve(const csr_matrix &a, device_cg &d, const launch_shape &s,
                   const float *b, float stop, unsigned max_iter,
                   unsigned fixed, unsigned *iterations, float *rr)
{
    const size_t vec = (size_t)a.n * sizeof(float);
    CHECK(cudaMemset(d.x, 0, vec));
    CHECK(cudaMemcpy(d.r, b, vec, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d.p, b, vec, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d.sums, 0, sizeof(float))); // the atomic form's word 0
    cg_problem P;
    P.n = a.n;
    P.rows_per_block = s.rows_per_block;
    P.keep_ap = s.shared > 0;
    P.row = d.row;
    P.col = d.col;
    P.val = d.val;
    P.x = d.x;
    P.r = d.r;
    P.p = d.p;
    P.q = d.q;
    P.ap = d.ap;
    P.sums = d.sums;
    P.stop = stop;
    P.max_iter = max_iter;
    P.fixed = fixed;
    P.result = d.result;
    void *args[] = {&P};
    cudaEvent_t t0, t1;
    start_timer(&t0, &t1);
    CHECK(cudaLaunchCooperativeKernel((void *)cg_kernel, s.blocks, s.threads,
                                      args, s.shared, 0));
    float result[2];
    CHECK(cudaMemcpy(result, d.result, sizeof result,
                     cudaMemcpyDeviceToHost));
    float us = stop_timer_us(t0, t1);
    memcpy(iterations, &result[0], sizeof *iterations);
    *rr = result[1];
    return us / 1000.0f;
}

static void upload_matrix(const csr_matrix &a, device_cg &d, int blocks)
{
    const size_t vec = (size_t)a.n * sizeof(float);
    CHECK(cudaMalloc(&d.row, (a.n + 1) * sizeof(unsigned)));
    CHECK(cudaMalloc(&d.col, a.nnz * sizeof(unsigned)));
    CHECK(cudaMalloc(&d.val, a.nnz * sizeof(float)));
    CHECK(cudaMalloc(&d.x, vec));
    CHECK(cudaMalloc(&d.r, vec));
    CHECK(cudaMalloc(&d.p, vec));
    CHECK(cudaMalloc(&d.q, vec));
    CHECK(cudaMalloc(&d.ap, vec));
    // grid_sum's words: 2 x blocks (deterministic) or 3 (atomic).
    const size_t sums = CG_ATOMIC_SUM ? 3 : 2 * (size_t)blocks;
    CHECK(cudaMalloc(&d.sums, sums * sizeof(float)));
    CHECK(cudaMalloc(&d.result, 2 * sizeof(float)));
    CHECK(cudaMemcpy(d.row, a.row, (a.n + 1) * sizeof(unsigned),
                     cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d.col, a.col, a.nnz * sizeof(unsigned),
                     cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d.val, a.val, a.nnz * sizeof(float),
                     cudaMemcpyHostToDevice));
}

int main(int argc, char **argv)
{
    const char *spec = "tridiag:1048576", *label = "";
    double tol = 1e-5;
    unsigned max_iter = 10000, timing_iters = 0;
    int threads = 256;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--matrix")) spec = argv[i + 1];
        else if (!strcmp(argv[i], "--tol")) tol = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--max-iter")) max_iter = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--timing-iters"))
            timing_iters = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--label")) label = argv[i + 1];
        else {
            fprintf(stderr, "cg: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (threads < 32 || threads > 1024 || threads % 32 != 0) {
        fprintf(stderr, "cg: --threads %d is not a multiple of 32 up to "
                        "1024\n", threads);
        return 2;
    }
    csr_matrix a;
    char msg[256];
    if (csr_from_spec(&a, spec, msg, sizeof msg)) {
        fprintf(stderr, "cg: %s\n", msg);
        return 2;
    }
    float *b = (float *)malloc(a.n * sizeof(float)),
          *x = (float *)malloc(a.n * sizeof(float));
    double *ref = (double *)malloc(a.n * sizeof(double));
    for (unsigned i = 0; i < a.n; i++)
        b[i] = 1.0f;
    csr_host_cg(&a, b, tol / 1000, 100 * max_iter, ref);
    for (unsigned i = 0; i < a.n; i++)
        x[i] = (float)ref[i];
    const double ref_residual = csr_relative_residual(&a, b, x);
    double lo, hi;
    csr_gershgorin(&a, &lo, &hi);

    // Full occupancy, as the sample sizes its grid.
    int dev = 0;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    const launch_shape shape = shape_launch(prop, a.n, threads);
    const int blocks = shape.blocks;
    device_cg d;
    upload_matrix(a, d, blocks);

    const size_t vec = (size_t)a.n * sizeof(float);
    const float stop = (float)(tol * tol * a.n); // (b, b) = n
    unsigned iterations;
    float rr;
    solve(a, d, shape, b, stop, max_iter, 0, &iterations, &rr);
    float ms = solve(a, d, shape, b, stop, max_iter, 0, &iterations,
                     &rr); // the second: warm
    CHECK(cudaMemcpy(x, d.x, vec, cudaMemcpyDeviceToHost));
    const double residual = csr_relative_residual(&a, b, x);
    const double difference = csr_relative_difference(&a, x, ref);
    const double bound = csr_difference_bound(lo, hi, residual, ref_residual);
    const int verified = iterations < max_iter && difference <= bound;
    double per_iter = 0;
    if (timing_iters > 0) {
        unsigned k;
        float t = solve(a, d, shape, b, stop, timing_iters, 1, &k, &rr);
        per_iter = k == timing_iters ? t / timing_iters : 0;
    }
    fprintf(stderr,
            "%-14s cuda-grid-sync %9.3f ms  %5d blocks  %5u iterations  "
            "%8.4f ms/iteration  residual %.2e  host %.2e  %s\n",
            a.name, ms, blocks, iterations, per_iter, residual, difference,
            verified ? "verified" : "FAIL");
    printf("%s,\"%s\",%s,cuda-grid-sync,%u,%u,%d,%d,%u,%.3f,%u,%.5f,%.3e,"
           "%.3e,%d\n",
           label, prop.name, a.name, a.n, a.nnz, blocks, threads, iterations,
           ms, timing_iters, per_iter, residual, difference, verified);
    csr_free(&a);
    return verified ? 0 : 1;
}
