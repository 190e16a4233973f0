/*
 * graph.c - building graphs in compressed sparse rows.
 */
#include "graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* splitmix64: a small, good, seedable generator. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *s) { return (next(s) >> 11) * (1.0 / 9007199254740992.0); }

/* A deterministic weight for the edge (u, v), the same both ways. */
static uint32_t edge_weight(uint32_t u, uint32_t v)
{
    uint64_t a = u < v ? u : v, b = u < v ? v : u, s = a * 0x100000001B3ull ^ b;
    return 1 + (uint32_t)(next(&s) % 255);
}

/* How many threads build a CSR: each holds n counters, so at most 16
 * (4 GiB of counters at R-MAT scale 26). */
static int threads(void)
{
#ifdef _OPENMP
    int t = omp_get_max_threads();
    return t < 16 ? t : 16;
#else
    return 1;
#endif
}

/* CSR from an edge list (each pair given once, stored both ways), with
 * the given weights or, where weights is NULL, edge_weight(). Each of T
 * threads takes one slice of the pairs and counts its own entries per
 * vertex (count[t * n + v]); turned into offsets, those counts give every
 * thread its own places in each row, so the rows come out in pair order,
 * as one thread would fill them, however many threads there are. */
int graph_from_edges(graph *g, uint32_t n, const uint32_t *src,
                     const uint32_t *dst, const uint32_t *weights,
                     uint32_t pairs)
{
    const int T = threads();
    g->n = n;
    g->m = 2 * pairs;
    g->row = calloc((size_t)n + 1, sizeof *g->row);
    g->col = malloc((size_t)g->m * sizeof *g->col);
    g->weight = malloc((size_t)g->m * sizeof *g->weight);
    uint32_t *count = calloc((size_t)T * n, sizeof *count);
    if (!g->row || !g->col || !g->weight || !count) {
        free(count);
        graph_free(g);
        return -1;
    }
#define SLICE(t) ((uint32_t)((uint64_t)pairs * (t) / T))
#ifdef _OPENMP
#pragma omp parallel for schedule(static, 1) num_threads(T)
#endif
    for (int t = 0; t < T; t++) {
        uint32_t *mine = count + (size_t)t * n;
        for (uint32_t i = SLICE(t); i < SLICE(t + 1); i++)
            mine[src[i]]++, mine[dst[i]]++;
    }
    /* Per vertex: each slice's offset within the row, and the degree. */
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (uint32_t v = 0; v < n; v++) {
        uint32_t before = 0;
        for (int t = 0; t < T; t++) {
            uint32_t c = count[(size_t)t * n + v];
            count[(size_t)t * n + v] = before;
            before += c;
        }
        g->row[v + 1] = before;
    }
    for (uint32_t v = 0; v < n; v++)
        g->row[v + 1] += g->row[v];
#ifdef _OPENMP
#pragma omp parallel for schedule(static, 1) num_threads(T)
#endif
    for (int t = 0; t < T; t++) {
        uint32_t *place = count + (size_t)t * n;
        for (uint32_t i = SLICE(t); i < SLICE(t + 1); i++) {
            uint32_t u = src[i], v = dst[i];
            uint32_t w = weights ? weights[i] : edge_weight(u, v);
            uint32_t a = g->row[u] + place[u]++, b = g->row[v] + place[v]++;
            g->col[a] = v, g->weight[a] = w;
            g->col[b] = u, g->weight[b] = w;
        }
    }
#undef SLICE
    free(count);
    return 0;
}

/* The end points of R-MAT edge e: one quadrant choice per bit, each from
 * one draw. splitmix64's state advances by a constant per draw, so edge e
 * starts from seed + e * scale * step whichever thread makes it: the
 * graph does not depend on how many threads there are. */
static void rmat_edge(uint64_t seed, unsigned scale, uint64_t e, uint32_t *u,
                      uint32_t *v)
{
    uint64_t s = seed + e * scale * 0x9E3779B97F4A7C15ull;
    *u = *v = 0;
    for (unsigned bit = 0; bit < scale; bit++) {
        double r = uniform(&s);
        /* Graph500: A = 0.57, B = 0.19, C = 0.19, D = 0.05. */
        int right = r >= 0.57 && (r < 0.76 || r >= 0.95);
        int down = r >= 0.76;
        *u |= (uint32_t)down << bit;
        *v |= (uint32_t)right << bit;
    }
}

int graph_rmat(graph *g, unsigned scale, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    uint32_t n = 1u << scale, wanted = 16u * n, pairs = 0;
    uint32_t *src = malloc(wanted * sizeof *src), *dst = malloc(wanted * sizeof *dst);
    if (!src || !dst) {
        free(src);
        free(dst);
        return -1;
    }
    /* Large scales take a billion draws: every core makes some. */
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (uint32_t e = 0; e < wanted; e++)
        rmat_edge(seed, scale, e, &src[e], &dst[e]);
    for (uint32_t e = 0; e < wanted; e++) /* self-loops dropped */
        if (src[e] != dst[e])
            src[pairs] = src[e], dst[pairs++] = dst[e];
    int err = graph_from_edges(g, n, src, dst, NULL, pairs);
    free(src);
    free(dst);
    snprintf(g->name, sizeof g->name, "rmat%u", scale);
    return err;
}

int graph_grid(graph *g, uint32_t w, uint32_t h)
{
    memset(g, 0, sizeof *g);
    uint32_t n = w * h, pairs = 0, cap = 2 * n;
    uint32_t *src = malloc(cap * sizeof *src), *dst = malloc(cap * sizeof *dst);
    if (!src || !dst) {
        free(src);
        free(dst);
        return -1;
    }
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t v = y * w + x;
            if (x + 1 < w)
                src[pairs] = v, dst[pairs++] = v + 1;
            if (y + 1 < h)
                src[pairs] = v, dst[pairs++] = v + w;
        }
    int err = graph_from_edges(g, n, src, dst, NULL, pairs);
    free(src);
    free(dst);
    snprintf(g->name, sizeof g->name, "grid%ux%u", w, h);
    return err;
}

int graph_from_spec(graph *g, const char *spec, uint64_t seed, char *err,
                    unsigned err_size)
{
    unsigned a = 0, b = 0;
    char tail;
    if (sscanf(spec, "rmat:%u%c", &a, &tail) == 1 && a >= 4 && a <= 26)
        return graph_rmat(g, a, seed) ? (snprintf(err, err_size, "out of memory"), -1) : 0;
    if (sscanf(spec, "grid:%ux%u%c", &a, &b, &tail) == 2 && a >= 2 && b >= 2 &&
        (uint64_t)a * b <= (1u << 28))
        return graph_grid(g, a, b) ? (snprintf(err, err_size, "out of memory"), -1) : 0;
    if (!strncmp(spec, "file:", 5))
        return graph_read_file(g, spec + 5, err, err_size);
    snprintf(err, err_size,
             "bad graph '%s' (rmat:SCALE with 4..26, grid:WxH or file:PATH)",
             spec);
    return -1;
}

int graph_segments(const graph *g, uint32_t max_edges, segments *out)
{
    uint64_t count = 0;
    out->vertex = out->begin = NULL;
    if (max_edges == 0)
        return -1;
    for (uint32_t v = 0; v < g->n; v++) {
        uint32_t degree = g->row[v + 1] - g->row[v];
        count += degree ? (degree + max_edges - 1) / max_edges : 1;
    }
    if (count > UINT32_MAX - 1) /* begin[] holds count + 1 offsets */
        return -1;
    out->count = (uint32_t)count;
    out->vertex = malloc(count * sizeof *out->vertex);
    out->begin = malloc((count + 1) * sizeof *out->begin);
    if (!out->vertex || !out->begin) {
        segments_free(out);
        return -1;
    }
    uint32_t s = 0;
    for (uint32_t v = 0; v < g->n; v++) {
        uint32_t e = g->row[v];
        do { /* at least one segment, empty for an isolated vertex */
            out->vertex[s] = v;
            out->begin[s++] = e;
            e = g->row[v + 1] - e > max_edges ? e + max_edges : g->row[v + 1];
        } while (e < g->row[v + 1]);
    }
    out->begin[s] = g->m;
    return 0;
}

void segments_free(segments *s)
{
    free(s->vertex);
    free(s->begin);
    s->vertex = s->begin = NULL;
}

void graph_free(graph *g)
{
    free(g->row);
    free(g->col);
    free(g->weight);
    g->row = g->col = g->weight = NULL;
}
