/*
 * references.h - the applications' answers in plain C (references.c), to
 * check the kernels' against. INF marks an unreached vertex.
 */
#ifndef XWG_APPS_REFERENCES_H
#define XWG_APPS_REFERENCES_H

#include "graph.h"

#define INF 0xffffffffu

/* BFS levels from vertex 0. */
void bfs_reference(const graph *g, uint32_t *level);
/* Shortest distances from vertex 0 (weights 1..255). */
void sssp_reference(const graph *g, uint32_t *dist);
/* MIS (colouring = 0: 1 in, 0 out) or colouring (= 1: the colour) with
 * the kernels' fixed priorities. */
void select_reference(const graph *g, int colouring, uint32_t *state);

#endif
