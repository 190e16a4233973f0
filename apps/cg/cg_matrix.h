/*
 * cg_matrix.h - sparse symmetric matrices for the Conjugate Gradient
 * solvers, in compressed sparse rows with float values: the generators
 * (the tridiagonal system of CUDA's CG sample, a 2D 5-point Laplacian),
 * a Matrix Market reader, and the host's double-precision checks.
 *
 * Plain C, shared by xwg-cg (apps/cg/xwg_cg.c) and the CUDA comparator
 * (bench/cuda/cg.cu), so that both solve the same matrices.
 */
#ifndef XWG_CG_MATRIX_H
#define XWG_CG_MATRIX_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct csr_matrix {
    uint32_t n;     /* rows (and columns) */
    uint32_t nnz;   /* stored entries */
    uint32_t *row;  /* n + 1 offsets into col and val */
    uint32_t *col;  /* nnz column indices, ascending within a row */
    float *val;     /* nnz values */
    char name[64];
} csr_matrix;

/* glibc's rand() (its TYPE_3 additive generator), on its own state: the
 * same sequence as srand(seed) then rand() with glibc, on any libc. */
typedef struct csr_rand {
    uint32_t word[34];
    uint32_t next;
} csr_rand;
void csr_rand_seed(csr_rand *g, uint32_t seed);
int32_t csr_rand_next(csr_rand *g); /* in [0, 2^31 - 1] */

/* The tridiagonal system of CUDA's CG sample (genTridiag in cuda-samples'
 * conjugateGradientMultiBlockCG), value for value: n rows, a diagonal of
 * (float)rand() / RAND_MAX + 10 and off-diagonals of (float)rand() /
 * RAND_MAX, symmetric, drawn in the sample's order from glibc's rand()
 * with its default seed 1 (csr_rand: the same on every machine). Returns
 * 0, or -1 when out of memory or n < 2. */
int csr_tridiagonal(csr_matrix *a, uint32_t n);
/* The 5-point Laplacian of a w x h grid (4 on the diagonal, -1 for each
 * neighbour, Dirichlet boundary). Returns 0, or -1. */
int csr_laplacian_2d(csr_matrix *a, uint32_t w, uint32_t h);
/* A Matrix Market coordinate file, real or integer, symmetric (stored as
 * its lower or upper triangle) or general (which must then be
 * symmetric). Returns 0, or -1 with a message that names the file and
 * line in err. */
int csr_read_matrix_market(csr_matrix *a, const char *path, char *err,
                           unsigned err_size);
/* "tridiag:N", "laplace:WxH" or "file:PATH". Returns 0, or -1 with a
 * message in err. */
int csr_from_spec(csr_matrix *a, const char *spec, char *err,
                  unsigned err_size);
void csr_free(csr_matrix *a);

/* y = A x, in double. */
void csr_multiply(const csr_matrix *a, const double *x, double *y);
/* ||b - A x||_2 / ||b||_2 for a float x, in double. */
double csr_relative_residual(const csr_matrix *a, const float *b,
                             const float *x);
/* ||x - ref||_2 / ||ref||_2 (||x - ref|| where ref is 0), in double. */
double csr_relative_difference(const csr_matrix *a, const float *x,
                               const double *ref);
/* The most that relative difference may be for a solve checked against
 * the host's: x - ref = A^-1 (r_ref - r), so within kappa times the two
 * relative residuals where Gershgorin's bounds [lo, hi] give kappa
 * (lo > 0), and within 1e-3 (three digits) elsewhere. */
double csr_difference_bound(double lo, double hi, double residual,
                            double ref_residual);
/* Gershgorin's bounds on the eigenvalues: every eigenvalue lies in
 * [*lo, *hi]. Where *lo > 0, the condition number is at most *hi / *lo. */
void csr_gershgorin(const csr_matrix *a, double *lo, double *hi);
/* Conjugate Gradient on the host in double, from x = 0, until
 * ||r|| <= tol ||b|| or max_iter iterations. Returns the iterations taken,
 * or -1 when out of memory. */
int csr_host_cg(const csr_matrix *a, const float *b, double tol,
                int max_iter, double *x);

#ifdef __cplusplus
}
#endif

#endif
