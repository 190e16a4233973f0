/*
 * references.c - the applications' answers computed plainly in C, by
 * other algorithms than the kernels' (a queue, Dijkstra, one pass in rank
 * order), against which xwg-apps checks every run.
 */
#include "references.h"

#include <stdlib.h>

void bfs_reference(const graph *g, uint32_t *level)
{
    uint32_t *queue = malloc(g->n * sizeof *queue), head = 0, tail = 0;
    for (uint32_t v = 0; v < g->n; v++)
        level[v] = INF;
    level[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        uint32_t v = queue[head++];
        for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++)
            if (level[g->col[e]] == INF) {
                level[g->col[e]] = level[v] + 1;
                queue[tail++] = g->col[e];
            }
    }
    free(queue);
}

/* Dijkstra with a bucket queue (Dial): weights are 1..255, so a vertex
 * settled at distance d only adds to buckets d + 1 .. d + 255, and 256
 * buckets used in a ring hold every pending distance. Entries whose
 * distance has since dropped are skipped when their bucket comes up. */
typedef struct bucket {
    uint32_t *v, count, cap;
} bucket;

static void bucket_push(bucket *b, uint32_t v)
{
    if (b->count == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->v = realloc(b->v, b->cap * sizeof *b->v);
    }
    b->v[b->count++] = v;
}

void sssp_reference(const graph *g, uint32_t *dist)
{
    bucket ring[256] = {{0}};
    for (uint32_t v = 0; v < g->n; v++)
        dist[v] = INF;
    dist[0] = 0;
    bucket_push(&ring[0], 0);
    uint64_t pending = 1;
    for (uint32_t d = 0; pending; d++) {
        bucket *b = &ring[d & 255u];
        /* Relaxing from d adds only to other buckets: b does not grow. */
        for (uint32_t i = 0; i < b->count; i++) {
            uint32_t v = b->v[i];
            if (dist[v] != d)
                continue; /* settled earlier at a shorter distance */
            for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++) {
                uint32_t u = g->col[e], nd = d + g->weight[e];
                if (nd < dist[u]) {
                    dist[u] = nd;
                    bucket_push(&ring[nd & 255u], u);
                    pending++;
                }
            }
        }
        pending -= b->count;
        b->count = 0;
    }
    for (int i = 0; i < 256; i++)
        free(ring[i].v);
}

/* MIS (colouring = 0) and colouring (= 1) without rounds: the kernels'
 * synchronous rounds decide a vertex once every neighbour that outranks it
 * is decided, so their result is what one pass in falling rank order
 * gives. MIS: the greedy set (in unless an outranking neighbour is in).
 * Colouring: the round v is decided in, one more than the latest round of
 * an outranking neighbour (0 if none). O(m + n log n), where simulating
 * the rounds took thousands of passes on R-MAT graphs. */
static uint32_t rank(uint32_t v)
{
    v ^= v >> 16;
    v *= 0x7feb352du;
    v ^= v >> 15;
    v *= 0x846ca68bu;
    return v ^ (v >> 16);
}

static int outranks(uint32_t v, uint32_t u)
{
    return rank(v) > rank(u) || (rank(v) == rank(u) && v > u);
}

static int by_falling_rank(const void *a, const void *b)
{
    uint32_t u = *(const uint32_t *)a, v = *(const uint32_t *)b;
    return u == v ? 0 : outranks(u, v) ? -1 : 1;
}

void select_reference(const graph *g, int colouring, uint32_t *state)
{
    uint32_t *order = malloc(g->n * sizeof *order);
    for (uint32_t v = 0; v < g->n; v++)
        order[v] = v;
    qsort(order, g->n, sizeof *order, by_falling_rank);
    for (uint32_t i = 0; i < g->n; i++) {
        uint32_t v = order[i], decided = colouring ? 0 : 1;
        /* Every neighbour that outranks v came earlier in order. */
        for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++) {
            uint32_t u = g->col[e];
            if (!outranks(u, v))
                continue;
            if (colouring && state[u] + 1 > decided)
                decided = state[u] + 1;
            if (!colouring && state[u] == 1)
                decided = 0;
        }
        state[v] = decided;
    }
    free(order);
}
