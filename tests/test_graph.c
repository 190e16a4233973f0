/*
 * test_graph.c - the applications' graphs (apps/graph.c), no device
 * needed: the CSR does not depend on how many threads built it, R-MAT
 * graphs are those the first, serial generator made, and the
 * segments that spread a vertex's edges over work-items cover every edge
 * once, at most max_edges at a time, with one segment even for a vertex
 * without edges.
 */
#include "graph.h"
#include "test_util.h"

#include <omp.h>
#include <string.h>

static void build(graph *g, const char *spec, int threads)
{
    char err[128];
    omp_set_num_threads(threads);
    ck_assert_msg(graph_from_spec(g, spec, 1, err, sizeof err) == 0, "%s", err);
}

START_TEST(csr_is_the_same_for_any_thread_count)
{
    /* Breaks if the threads' slices land in a row out of pair order. */
    graph one, many;
    build(&one, "rmat:12", 1);
    build(&many, "rmat:12", 3);
    ck_assert_uint_eq(one.n, many.n);
    ck_assert_uint_eq(one.m, many.m);
    ck_assert(!memcmp(one.row, many.row, (one.n + 1) * sizeof *one.row));
    ck_assert(!memcmp(one.col, many.col, one.m * sizeof *one.col));
    ck_assert(!memcmp(one.weight, many.weight, one.m * sizeof *one.weight));
    graph_free(&one);
    graph_free(&many);
}
END_TEST

/* FNV-1a over a CSR's offsets, neighbours and weights. */
static uint64_t csr_hash(const graph *g)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i <= g->n; i++)
        h = (h ^ g->row[i]) * 1099511628211ull;
    for (uint32_t i = 0; i < g->m; i++)
        h = (h ^ g->col[i] ^ ((uint64_t)g->weight[i] << 32)) *
            1099511628211ull;
    return h;
}

START_TEST(rmat_is_the_graph_of_the_serial_generator)
{
    /* The hash of R-MAT 12, seed 1, as the one-thread generator and CSR
     * builder of commit 31c9e9a made it: the study's graphs must not
     * change when the code that makes them gets faster. */
    graph g;
    build(&g, "rmat:12", 2);
    ck_assert_uint_eq(g.m, 130656);
    ck_assert_uint_eq(csr_hash(&g), 0x175c96e997e50ff7ull);
    graph_free(&g);
}
END_TEST

START_TEST(segments_cover_every_edge_once)
{
    graph g;
    segments sg;
    build(&g, "rmat:10", 2);
    ck_assert_int_eq(graph_segments(&g, 32, &sg), 0);
    uint32_t s = 0, long_rows = 0;
    for (uint32_t v = 0; v < g.n; v++) {
        uint32_t degree = g.row[v + 1] - g.row[v];
        uint32_t want = degree ? (degree + 31) / 32 : 1;
        long_rows += degree > 32;
        for (uint32_t k = 0; k < want; k++, s++) {
            ck_assert_uint_lt(s, sg.count);
            ck_assert_uint_eq(sg.vertex[s], v);
            ck_assert_uint_eq(sg.begin[s], g.row[v] + 32 * k);
        }
    }
    ck_assert_uint_eq(s, sg.count);
    ck_assert_uint_eq(sg.begin[sg.count], g.m);
    ck_assert_uint_gt(long_rows, 0); /* the graph has hubs to split */
    segments_free(&sg);
    graph_free(&g);
}
END_TEST

START_TEST(isolated_vertex_has_one_empty_segment)
{
    /* Vertex 2 of this 4-vertex graph has no edge. */
    const uint32_t src[] = {0, 1}, dst[] = {1, 3};
    graph g;
    segments sg;
    ck_assert_int_eq(graph_from_edges(&g, 4, src, dst, NULL, 2), 0);
    ck_assert_int_eq(graph_segments(&g, 32, &sg), 0);
    ck_assert_uint_eq(sg.count, 4);
    ck_assert_uint_eq(sg.vertex[2], 2);
    ck_assert_uint_eq(sg.begin[2], sg.begin[3]);
    segments_free(&sg);
    graph_free(&g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("graph");
    TCase *t = tcase_create("graph");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, csr_is_the_same_for_any_thread_count);
    tcase_add_test(t, rmat_is_the_graph_of_the_serial_generator);
    tcase_add_test(t, segments_cover_every_edge_once);
    tcase_add_test(t, isolated_vertex_has_one_empty_segment);
    suite_add_tcase(s, t);
    return test_run_suite(s);
}
