/*
 * graph_read.c - user graphs from files: Matrix Market coordinate format
 * (.mtx; "general" or "symmetric"; pattern, integer or real values) and
 * DIMACS shortest-path format (.gr; "p sp N M" and "a U V W" lines). Every
 * edge is made undirected, self-loops are dropped; weights are clamped to
 * [1, 255] (absent: 1).
 * Malformed input gets a message with the file's line number.
 */
#define _POSIX_C_SOURCE 200809L
#include "graph.h"
#include "text_lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...)                                                              \
    do {                                                                       \
        snprintf(err, err_size, __VA_ARGS__);                                  \
        goto done;                                                             \
    } while (0)

static uint32_t clamp_weight(double w)
{
    return !(w >= 1) ? 1 : w > 255 ? 255 : (uint32_t)w; /* NaN: 1 */
}

/* The most edges a file may declare: CSR offsets are 32-bit, and every
 * edge is stored both ways. */
#define MAX_EDGES (1ul << 30)

int graph_read_file(graph *g, const char *path, char *err, unsigned err_size)
{
    memset(g, 0, sizeof *g);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        snprintf(err, err_size, "%s: cannot open", path);
        return -1;
    }
    int ok = -1, mm = 0, dimacs = 0, symmetric = 0;
    unsigned long line = 0, n = 0, declared = 0, seen = 0, kept = 0;
    uint32_t *src = NULL, *dst = NULL, *w = NULL;
    text_lines in = {.f = f, .path = path};
    char *p;
    err[0] = '\0';
    while ((p = text_next_line(&in, err, err_size)) != NULL) {
        line = in.line;
        if (line == 1 && !strncmp(p, "%%MatrixMarket", 14)) {
            if (!strstr(p, "coordinate"))
                FAIL("%s:%lu: only the coordinate Matrix Market format is read",
                     path, line);
            mm = 1;
            symmetric = strstr(p, "symmetric") != NULL;
            continue;
        }
        if (*p == '%' || *p == 'c' || *p == '\n' || *p == '\r' || *p == '\0')
            continue; /* comments and blank lines */
        if (!mm && !dimacs) {
            if (sscanf(p, "p sp %lu %lu", &n, &declared) == 2) {
                dimacs = 1;
                if (declared > MAX_EDGES)
                    FAIL("%s:%lu: %lu edges declared, at most %lu are read",
                         path, line, declared, MAX_EDGES);
            } else
                FAIL("%s:%lu: neither a Matrix Market header nor a DIMACS "
                     "'p sp N M' line", path, line);
        } else if (mm && n == 0) {
            unsigned long rows, cols;
            if (sscanf(p, "%lu %lu %lu", &rows, &cols, &declared) != 3 ||
                rows != cols || rows == 0 || declared > MAX_EDGES)
                FAIL("%s:%lu: expected 'N N NNZ' for a square matrix of at "
                     "most %lu entries", path, line, MAX_EDGES);
            n = rows;
        } else {
            unsigned long u, v;
            double weight = 1;
            int fields = dimacs ? sscanf(p, "a %lu %lu %lf", &u, &v, &weight)
                                : sscanf(p, "%lu %lu %lf", &u, &v, &weight);
            if (fields < 2 || (dimacs && fields < 3))
                FAIL("%s:%lu: malformed edge line", path, line);
            if (u < 1 || v < 1 || u > n || v > n)
                FAIL("%s:%lu: vertex out of range 1..%lu", path, line, n);
            if (seen == declared)
                FAIL("%s:%lu: more edges than the %lu declared", path, line,
                     declared);
            if (src == NULL) {
                src = malloc(declared * sizeof *src);
                dst = malloc(declared * sizeof *dst);
                w = malloc(declared * sizeof *w);
                if (!src || !dst || !w)
                    FAIL("%s: out of memory for %lu edges", path, declared);
            }
            seen++;
            if (u == v)
                continue; /* a self-loop (a diagonal entry): no edge */
            src[kept] = (uint32_t)(u - 1);
            dst[kept] = (uint32_t)(v - 1);
            w[kept++] = clamp_weight(weight);
        }
    }
    if (err[0] != '\0')
        goto done; /* a line too long */
    if (!mm && !dimacs)
        FAIL("%s: empty, or no header", path);
    if (n == 0 || n > (1u << 28))
        FAIL("%s: bad vertex count %lu", path, n);
    if (seen != declared)
        FAIL("%s: %lu edges declared, %lu found", path, declared, seen);
    (void)symmetric; /* every edge is stored both ways in any case */
    if (kept == 0)
        FAIL("%s: no edges", path);
    if (graph_from_edges(g, (uint32_t)n, src, dst, w, (uint32_t)kept))
        FAIL("%s: out of memory", path);
    const char *base = strrchr(path, '/');
    snprintf(g->name, sizeof g->name, "%s", base ? base + 1 : path);
    ok = 0;
done:
    free(src);
    free(dst);
    free(w);
    fclose(f);
    return ok;
}
