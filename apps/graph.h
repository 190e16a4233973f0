/*
 * graph.h - graphs for the applications: compressed sparse rows, and the
 * generators of the study (Kronecker / R-MAT with the Graph500
 * parameters, and a 2D grid).
 */
#ifndef XWG_APPS_GRAPH_H
#define XWG_APPS_GRAPH_H

#include <stdint.h>

typedef struct graph {
    uint32_t n;      /* vertices */
    uint32_t m;      /* directed edges (an undirected edge counts twice) */
    uint32_t *row;   /* n + 1 offsets into col */
    uint32_t *col;   /* m neighbours */
    uint32_t *weight; /* m weights in [1, 255] */
    char name[64];
} graph;

/* R-MAT, scale s (2^s vertices), 16 edges per vertex, A B C = 0.57 0.19
 * 0.19, made undirected, self-loops dropped; deterministic in seed.
 * Returns 0, or -1 when out of memory. */
int graph_rmat(graph *g, unsigned scale, uint64_t seed);
/* A w x h grid, each vertex joined to its 4 neighbours. */
int graph_grid(graph *g, uint32_t w, uint32_t h);
/* A graph from a Matrix Market (.mtx) or DIMACS (.gr) file; see
 * graph_read.c. Returns 0, or -1 with a message naming the line. */
int graph_read_file(graph *g, const char *path, char *err, unsigned err_size);
/* CSR from pairs (stored both ways); weights may be NULL. */
int graph_from_edges(graph *g, uint32_t n, const uint32_t *src,
                     const uint32_t *dst, const uint32_t *weights,
                     uint32_t pairs);
/* "rmat:S", "grid:WxH" or "file:PATH". Returns 0, or -1 with a message in
 * err. */
int graph_from_spec(graph *g, const char *spec, uint64_t seed, char *err,
                    unsigned err_size);
void graph_free(graph *g);

/* A graph's adjacency cut into pieces of at most max_edges edges, so that
 * a hub's thousands of edges spread over many work-items instead of
 * serialising one (R-MAT's largest degrees are 10^4 to 10^5). Segment s
 * is vertex[s]'s edges begin[s] .. begin[s + 1] - 1; a vertex's segments
 * are consecutive, and a vertex without edges has one, empty. */
typedef struct segments {
    uint32_t count;
    uint32_t *vertex; /* count */
    uint32_t *begin;  /* count + 1 */
} segments;

/* Returns 0, or -1 when out of memory or max_edges is 0. */
int graph_segments(const graph *g, uint32_t max_edges, segments *out);
void segments_free(segments *s);

#endif
