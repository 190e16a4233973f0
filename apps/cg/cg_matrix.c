/*
 * cg_matrix.c - the matrices of the CG solvers and the host's checks
 * (cg_matrix.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "cg_matrix.h"
#include "../text_lines.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void csr_free(csr_matrix *a)
{
    free(a->row);
    free(a->col);
    free(a->val);
    memset(a, 0, sizeof *a);
}

static int csr_alloc(csr_matrix *a, uint32_t n, uint32_t nnz)
{
    memset(a, 0, sizeof *a);
    a->n = n;
    a->nnz = nnz;
    a->row = malloc(((size_t)n + 1) * sizeof *a->row);
    a->col = malloc((size_t)nnz * sizeof *a->col);
    a->val = malloc((size_t)nnz * sizeof *a->val);
    if (a->row == NULL || a->col == NULL || a->val == NULL) {
        csr_free(a);
        return -1;
    }
    return 0;
}

void csr_rand_seed(csr_rand *g, uint32_t seed)
{
    /* glibc's srandom_r for TYPE_3: r[0] = seed (0 taken as 1), r[i] =
     * 16807 r[i-1] mod (2^31 - 1) for i < 31 (Schrage's method, as
     * glibc computes it), r[31 .. 33] = r[0 .. 2]; then 310 outputs are
     * thrown away. */
    int32_t r = seed == 0 ? 1 : (int32_t)seed;
    g->word[0] = (uint32_t)r;
    for (int i = 1; i < 31; i++) {
        const int32_t hi = r / 127773, lo = r % 127773;
        r = 16807 * lo - 2836 * hi;
        if (r < 0)
            r += 2147483647;
        g->word[i] = (uint32_t)r;
    }
    for (int i = 31; i < 34; i++)
        g->word[i] = g->word[i - 31];
    g->next = 34;
    for (int i = 0; i < 310; i++)
        (void)csr_rand_next(g);
}

int32_t csr_rand_next(csr_rand *g)
{
    /* r[i] = r[i-31] + r[i-3] (mod 2^32), output r[i] >> 1; the ring
     * holds r[i-34 .. i-1], word i % 34 being r[i-34], which this
     * overwrites. */
    const uint32_t i = g->next++;
    const uint32_t v = g->word[(i - 31) % 34] + g->word[(i - 3) % 34];
    g->word[i % 34] = v;
    return (int32_t)(v >> 1);
}

/* (float)rand() / RAND_MAX, as C evaluates it in the sample: both
 * operands rounded to float, the quotient in float. */
static float uniform_as_sample(csr_rand *g)
{
    return (float)csr_rand_next(g) / (float)2147483647;
}

int csr_tridiagonal(csr_matrix *a, uint32_t n)
{
    if (n < 2 || n > (1u << 30) || csr_alloc(a, n, 3 * n - 2))
        return -1;
    /* genTridiag's draws, in its order: each row's diagonal, then the
     * value joining it to the next row (the same above and below the
     * diagonal), from rand() with the default seed 1. */
    csr_rand g;
    csr_rand_seed(&g, 1);
    float below = 0;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        a->row[i] = k;
        if (i > 0) {
            a->col[k] = i - 1;
            a->val[k++] = below;
        }
        a->col[k] = i;
        a->val[k++] = uniform_as_sample(&g) + 10.0f;
        if (i + 1 < n) {
            below = uniform_as_sample(&g);
            a->col[k] = i + 1;
            a->val[k++] = below;
        }
    }
    a->row[n] = k;
    snprintf(a->name, sizeof a->name, "tridiag:%u", n);
    return 0;
}

int csr_laplacian_2d(csr_matrix *a, uint32_t w, uint32_t h)
{
    if (w == 0 || h == 0 || (uint64_t)w * h > (1u << 28) ||
        csr_alloc(a, w * h, 5 * w * h))
        return -1;
    uint32_t k = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t i = y * w + x;
            a->row[i] = k;
            /* Columns in ascending order: up, left, centre, right, down. */
            if (y > 0) {
                a->col[k] = i - w;
                a->val[k++] = -1.0f;
            }
            if (x > 0) {
                a->col[k] = i - 1;
                a->val[k++] = -1.0f;
            }
            a->col[k] = i;
            a->val[k++] = 4.0f;
            if (x + 1 < w) {
                a->col[k] = i + 1;
                a->val[k++] = -1.0f;
            }
            if (y + 1 < h) {
                a->col[k] = i + w;
                a->val[k++] = -1.0f;
            }
        }
    a->row[a->n] = k;
    a->nnz = k;
    snprintf(a->name, sizeof a->name, "laplace:%ux%u", w, h);
    return 0;
}

/* ---- Matrix Market ----------------------------------------------------------- */

typedef struct entry {
    uint32_t r, c;
    float v;
} entry;

static int by_row_then_column(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    if (a->r != b->r)
        return a->r < b->r ? -1 : 1;
    return a->c < b->c ? -1 : a->c > b->c;
}

/* Entries sorted by row and column into a; duplicates and a general
 * matrix that is not symmetric are refused (message in err). */
static int csr_from_entries(csr_matrix *a, uint32_t n, entry *e, size_t count,
                            const char *path, char *err, unsigned err_size)
{
    qsort(e, count, sizeof *e, by_row_then_column);
    for (size_t k = 1; k < count; k++)
        if (e[k].r == e[k - 1].r && e[k].c == e[k - 1].c) {
            snprintf(err, err_size, "%s: entry (%u, %u) given twice", path,
                     e[k].r + 1, e[k].c + 1);
            return -1;
        }
    if (count > 0xffffffffu || csr_alloc(a, n, (uint32_t)count)) {
        snprintf(err, err_size, "%s: out of memory for %zu entries", path,
                 count);
        return -1;
    }
    size_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        a->row[i] = (uint32_t)k;
        for (; k < count && e[k].r == i; k++) {
            a->col[k] = e[k].c;
            a->val[k] = e[k].v;
        }
    }
    a->row[n] = (uint32_t)count;
    /* Symmetric: every (i, j, v) has its (j, i, v). */
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k2 = a->row[i]; k2 < a->row[i + 1]; k2++) {
            uint32_t j = a->col[k2], lo = a->row[j], hi = a->row[j + 1];
            while (lo < hi) { /* binary search for column i in row j */
                uint32_t mid = lo + (hi - lo) / 2;
                if (a->col[mid] < i)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo == a->row[j + 1] || a->col[lo] != i ||
                a->val[lo] != a->val[k2]) {
                snprintf(err, err_size,
                         "%s: not symmetric: entry (%u, %u) has no equal "
                         "(%u, %u)",
                         path, i + 1, j + 1, j + 1, i + 1);
                csr_free(a);
                return -1;
            }
        }
    return 0;
}

#define FAIL(...)                                                              \
    do {                                                                       \
        snprintf(err, err_size, __VA_ARGS__);                                  \
        goto done;                                                             \
    } while (0)

int csr_read_matrix_market(csr_matrix *a, const char *path, char *err,
                           unsigned err_size)
{
    memset(a, 0, sizeof *a);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        snprintf(err, err_size, "%s: cannot open", path);
        return -1;
    }
    int ok = -1, symmetric = 0;
    unsigned long line = 0, n = 0, declared = 0, seen = 0;
    entry *e = NULL;
    size_t count = 0;
    text_lines in = {.f = f, .path = path};
    char *p;
    err[0] = '\0';
    while ((p = text_next_line(&in, err, err_size)) != NULL) {
        line = in.line;
        if (line == 1) {
            if (strncmp(p, "%%MatrixMarket", 14) != 0 ||
                strstr(p, "coordinate") == NULL)
                FAIL("%s:1: not a Matrix Market coordinate file", path);
            if (strstr(p, "real") == NULL && strstr(p, "integer") == NULL)
                FAIL("%s:1: CG needs real or integer values (pattern and "
                     "complex files are not read)", path);
            symmetric = strstr(p, "symmetric") != NULL;
            if (!symmetric && strstr(p, "general") == NULL)
                FAIL("%s:1: only symmetric and general matrices are read",
                     path);
            continue;
        }
        if (*p == '%' || *p == '\n' || *p == '\0')
            continue;
        if (n == 0) {
            unsigned long rows, cols;
            if (sscanf(p, "%lu %lu %lu", &rows, &cols, &declared) != 3 ||
                rows != cols || rows == 0 || rows > (1ul << 28) ||
                declared > (1ul << 30))
                FAIL("%s:%lu: expected 'N N NNZ' for a square matrix of at "
                     "most 2^28 rows and 2^30 entries", path, line);
            n = rows;
            e = malloc(2 * declared * sizeof *e + 1);
            if (e == NULL)
                FAIL("%s: out of memory for %lu entries", path, declared);
            continue;
        }
        unsigned long r, c;
        double v;
        if (sscanf(p, "%lu %lu %lf", &r, &c, &v) != 3)
            FAIL("%s:%lu: expected 'ROW COLUMN VALUE'", path, line);
        if (r < 1 || c < 1 || r > n || c > n)
            FAIL("%s:%lu: index out of range 1..%lu", path, line, n);
        if (!isfinite(v))
            FAIL("%s:%lu: value is not finite", path, line);
        if (++seen > declared)
            FAIL("%s:%lu: more entries than the %lu declared", path, line,
                 declared);
        e[count++] = (entry){(uint32_t)(r - 1), (uint32_t)(c - 1), (float)v};
        if (symmetric && r != c)
            e[count++] = (entry){(uint32_t)(c - 1), (uint32_t)(r - 1),
                                 (float)v};
    }
    if (err[0] != '\0')
        goto done; /* a line too long */
    if (line == 0)
        FAIL("%s: empty", path);
    if (n == 0)
        FAIL("%s: no size line", path);
    if (seen != declared)
        FAIL("%s: %lu entries declared, %lu found", path, declared, seen);
    if (csr_from_entries(a, (uint32_t)n, e, count, path, err, err_size))
        goto done;
    const char *base = strrchr(path, '/');
    snprintf(a->name, sizeof a->name, "%s", base ? base + 1 : path);
    ok = 0;
done:
    free(e);
    fclose(f);
    return ok;
}

int csr_from_spec(csr_matrix *a, const char *spec, char *err,
                  unsigned err_size)
{
    unsigned n, w, h;
    char tail;
    if (sscanf(spec, "tridiag:%u%c", &n, &tail) == 1) {
        if (csr_tridiagonal(a, n) == 0)
            return 0;
        snprintf(err, err_size, "%s: N must be 2 to 2^30 (and fit memory)",
                 spec);
        return -1;
    }
    if (sscanf(spec, "laplace:%ux%u%c", &w, &h, &tail) == 2) {
        if (csr_laplacian_2d(a, w, h) == 0)
            return 0;
        snprintf(err, err_size,
                 "%s: W x H must be 1 to 2^28 (and fit memory)", spec);
        return -1;
    }
    if (strncmp(spec, "file:", 5) == 0)
        return csr_read_matrix_market(a, spec + 5, err, err_size);
    snprintf(err, err_size,
             "%s: expected tridiag:N, laplace:WxH or file:PATH", spec);
    return -1;
}

/* ---- The host's checks --------------------------------------------------------- */

void csr_multiply(const csr_matrix *a, const double *x, double *y)
{
    for (uint32_t i = 0; i < a->n; i++) {
        double s = 0;
        for (uint32_t k = a->row[i]; k < a->row[i + 1]; k++)
            s += (double)a->val[k] * x[a->col[k]];
        y[i] = s;
    }
}

double csr_relative_residual(const csr_matrix *a, const float *b,
                             const float *x)
{
    double rr = 0, bb = 0;
    for (uint32_t i = 0; i < a->n; i++) {
        double s = 0;
        for (uint32_t k = a->row[i]; k < a->row[i + 1]; k++)
            s += (double)a->val[k] * x[a->col[k]];
        rr += (b[i] - s) * (b[i] - s);
        bb += (double)b[i] * b[i];
    }
    return bb > 0 ? sqrt(rr / bb) : sqrt(rr);
}

double csr_relative_difference(const csr_matrix *a, const float *x,
                               const double *ref)
{
    double dd = 0, rr = 0;
    for (uint32_t i = 0; i < a->n; i++) {
        dd += (x[i] - ref[i]) * (x[i] - ref[i]);
        rr += ref[i] * ref[i];
    }
    return rr > 0 ? sqrt(dd / rr) : sqrt(dd);
}

double csr_difference_bound(double lo, double hi, double residual,
                            double ref_residual)
{
    return lo > 0 ? hi / lo * (residual + ref_residual) * 1.01 : 1e-3;
}

void csr_gershgorin(const csr_matrix *a, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (uint32_t i = 0; i < a->n; i++) {
        double centre = 0, radius = 0;
        for (uint32_t k = a->row[i]; k < a->row[i + 1]; k++)
            if (a->col[k] == i)
                centre = a->val[k];
            else
                radius += fabs(a->val[k]);
        *lo = fmin(*lo, centre - radius);
        *hi = fmax(*hi, centre + radius);
    }
}

static double dot(const double *x, const double *y, uint32_t n)
{
    double s = 0;
    for (uint32_t i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

int csr_host_cg(const csr_matrix *a, const float *b, double tol,
                int max_iter, double *x)
{
    const uint32_t n = a->n;
    double *r = malloc(n * sizeof *r), *p = malloc(n * sizeof *p),
           *ap = malloc(n * sizeof *ap);
    if (r == NULL || p == NULL || ap == NULL) {
        free(r);
        free(p);
        free(ap);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        x[i] = 0;
        r[i] = p[i] = b[i];
    }
    double rr = dot(r, r, n), stop = tol * tol * rr;
    int k = 0;
    while (k < max_iter && rr > stop) {
        csr_multiply(a, p, ap);
        double alpha = rr / dot(p, ap, n);
        for (uint32_t i = 0; i < n; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
        }
        double next = dot(r, r, n);
        for (uint32_t i = 0; i < n; i++)
            p[i] = r[i] + next / rr * p[i];
        rr = next;
        k++;
    }
    free(r);
    free(p);
    free(ap);
    return k;
}
