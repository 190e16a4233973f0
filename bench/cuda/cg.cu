// cg.cu - the CUDA comparator of xwg-cg (apps/cg): Conjugate Gradient in
// one cooperative kernel, written the way CUDA's conjugateGradientMultiBlockCG
// sample writes it: grid-stride loops, dot products as a warp reduce
// (cg::reduce), one atomicAdd per block into a double, and grid.sync()
// around every step, six per iteration. The matrices and the host's
// checks are xwg-cg's own (apps/cg/cg_matrix.c), so both solve the same
// systems from x = 0 with b = 1, to ||r|| <= tol ||b||, and are checked
// alike: converged, and x against the host's double solve (within kappa
// times the true residuals where Gershgorin's bounds give kappa, else
// within 1e-3).
//
// Usage: cg [--matrix SPEC] [--tol T] [--max-iter N] [--threads N]
//           [--timing-iters N] [--label TEXT]
// Prints one CSV row in xwg-cg's columns (variant cuda-grid-sync) to
// stdout; a human line to stderr. --timing-iters N adds a solve of
// exactly N iterations, whose time gives ms_per_iter. Exits 1 when the
// check fails.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "../../apps/cg/cg_matrix.h"
#include "cuda_timer.h"

namespace cg = cooperative_groups;

// (r, r) or (p, Ap) over the grid into *result, which must be 0 on entry
// and is complete after the caller's next grid.sync().
__device__ void dot_product(const float *a, const float *b, double *result,
                            unsigned n, cg::thread_block &block,
                            cg::grid_group &grid)
{
    __shared__ double warp_sums[32];
    double mine = 0.0;
    for (unsigned i = grid.thread_rank(); i < n; i += grid.size())
        mine += (double)(a[i] * b[i]);
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    double s = cg::reduce(warp, mine, cg::plus<double>());
    if (warp.thread_rank() == 0)
        warp_sums[warp.meta_group_rank()] = s;
    block.sync();
    if (block.thread_rank() == 0) {
        double t = 0.0;
        for (unsigned w = 0; w < warp.meta_group_size(); w++)
            t += warp_sums[w];
        atomicAdd(result, t);
    }
}

__global__ void cg_kernel(unsigned n, const unsigned *row, const unsigned *col,
                          const float *val, float *x, float *r, float *p,
                          float *ap, double *dot, float stop,
                          unsigned max_iter, unsigned fixed, float *result)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    const unsigned first = grid.thread_rank(), step = grid.size();
    if (first == 0)
        dot[0] = 0.0;
    grid.sync();
    dot_product(r, r, &dot[0], n, block, grid);
    grid.sync();
    float rr = (float)dot[0], rr_old = 0.0f;
    unsigned k = 0;
    while (k < max_iter && (fixed || rr > stop)) {
        if (k > 0) {
            const float beta = rr / rr_old;
            for (unsigned i = first; i < n; i += step)
                p[i] = r[i] + beta * p[i];
        }
        grid.sync();
        for (unsigned i = first; i < n; i += step) {
            float s = 0.0f;
            for (unsigned e = row[i]; e < row[i + 1]; e++)
                s += val[e] * p[col[e]];
            ap[i] = s;
        }
        if (first == 0)
            dot[1] = 0.0;
        grid.sync();
        dot_product(p, ap, &dot[1], n, block, grid);
        grid.sync();
        const float alpha = rr / (float)dot[1];
        for (unsigned i = first; i < n; i += step) {
            x[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
        }
        rr_old = rr;
        grid.sync();
        if (first == 0)
            dot[0] = 0.0;
        grid.sync();
        dot_product(r, r, &dot[0], n, block, grid);
        grid.sync();
        rr = (float)dot[0];
        k++;
    }
    if (first == 0) {
        result[0] = __uint_as_float(k);
        result[1] = rr;
    }
}

struct device_cg {
    unsigned *row, *col;
    float *val, *x, *r, *p, *ap, *result;
    double *dot;
};

// One solve from x = 0, r = p = b: its time (ms, launch included), and
// its iterations and final rr.
static float solve(const csr_matrix &a, device_cg &d, const float *b,
                   int blocks, int threads, float stop, unsigned max_iter,
                   unsigned fixed, unsigned *iterations, float *rr)
{
    const size_t vec = (size_t)a.n * sizeof(float);
    CHECK(cudaMemset(d.x, 0, vec));
    CHECK(cudaMemcpy(d.r, b, vec, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d.p, b, vec, cudaMemcpyHostToDevice));
    unsigned n = a.n;
    void *args[] = {&n,    &d.row, &d.col, &d.val, &d.x,        &d.r,  &d.p,
                    &d.ap, &d.dot, &stop,  &max_iter, &fixed, &d.result};
    cudaEvent_t t0, t1;
    start_timer(&t0, &t1);
    CHECK(cudaLaunchCooperativeKernel((void *)cg_kernel, blocks, threads,
                                      args, 0, 0));
    float result[2];
    CHECK(cudaMemcpy(result, d.result, sizeof result,
                     cudaMemcpyDeviceToHost));
    float us = stop_timer_us(t0, t1);
    memcpy(iterations, &result[0], sizeof *iterations);
    *rr = result[1];
    return us / 1000.0f;
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

    device_cg d;
    const size_t vec = (size_t)a.n * sizeof(float);
    CHECK(cudaMalloc(&d.row, (a.n + 1) * sizeof(unsigned)));
    CHECK(cudaMalloc(&d.col, a.nnz * sizeof(unsigned)));
    CHECK(cudaMalloc(&d.val, a.nnz * sizeof(float)));
    CHECK(cudaMalloc(&d.x, vec));
    CHECK(cudaMalloc(&d.r, vec));
    CHECK(cudaMalloc(&d.p, vec));
    CHECK(cudaMalloc(&d.ap, vec));
    CHECK(cudaMalloc(&d.dot, 2 * sizeof(double)));
    CHECK(cudaMalloc(&d.result, 2 * sizeof(float)));
    CHECK(cudaMemcpy(d.row, a.row, (a.n + 1) * sizeof(unsigned),
                     cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d.col, a.col, a.nnz * sizeof(unsigned),
                     cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d.val, a.val, a.nnz * sizeof(float),
                     cudaMemcpyHostToDevice));

    // Full occupancy, as the sample sizes its grid.
    int dev = 0, per_sm = 0;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, cg_kernel, threads, 0));
    const int blocks = per_sm * prop.multiProcessorCount;

    const float stop = (float)(tol * tol * a.n); // (b, b) = n
    unsigned iterations;
    float rr;
    solve(a, d, b, blocks, threads, stop, max_iter, 0, &iterations, &rr);
    float ms = solve(a, d, b, blocks, threads, stop, max_iter, 0, &iterations,
                     &rr); // the second: warm
    CHECK(cudaMemcpy(x, d.x, vec, cudaMemcpyDeviceToHost));
    const double residual = csr_relative_residual(&a, b, x);
    const double difference = csr_relative_difference(&a, x, ref);
    const double bound = csr_difference_bound(lo, hi, residual, ref_residual);
    const int verified = iterations < max_iter && difference <= bound;
    double per_iter = 0;
    if (timing_iters > 0) {
        unsigned k;
        float t = solve(a, d, b, blocks, threads, stop, timing_iters, 1, &k,
                        &rr);
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
