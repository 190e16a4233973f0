/*
 * app_kernels.cl - the OpenCL code of the graph applications (xwg-apps,
 * apps/xwg_apps.c), embedded into the program at build time as
 * app_source (CMakeLists.txt, xwg_embed_cl). Each app has one step
 * function, used by both versions: a persistent kernel that loops over
 * steps with xwg_barrier() between them and checks for convergence on the
 * device, and a one-step kernel that the host launches once per iteration
 * (the multi-kernel version), reading the convergence flag back after
 * each.
 *
 * A persistent loop stops after n + 2 iterations whatever the flags say:
 * no correct run needs that many, and a broken barrier (the known-bad
 * test build) must end, not spin forever without waiting anywhere.
 *
 * Work is spread by segment, not by vertex (apps/graph.h): a work-item
 * takes a piece of at most a few dozen edges of one vertex, so that an
 * R-MAT hub does not hold every iteration up behind one work-item. On a
 * grid each vertex is one segment.
 *
 * Convergence flags rotate over three slots: in iteration i the threads
 * set slot i % 3, read it after the barrier, and one thread clears slot
 * (i + 1) % 3, which nobody reads again before the barrier of i + 1.
 */

#define INF 0xffffffffu
/* The loop of every persistent kernel: FIRST, a barrier, the shared
 * convergence check (leave when nobody changed anything, or the
 * watchdog fired), then SECOND (more phases and their barriers).
 * COUNT is what *iterations gets on leaving. */
#define PERSISTENT_LOOP(FIRST, SECOND, COUNT)                       \
    XWG_DISCOVER();                                                  \
    for (uint it = 0; it <= n + 1u; it++) { /* none needs more */    \
        if (xwg_global_id() == 0)                                    \
            changed[(it + 1u) % 3u] = 0u;                            \
        FIRST;                                                       \
        xwg_barrier();                                               \
        if (changed[it % 3u] == 0u || xwg_failed()) {                \
            if (xwg_global_id() == 0)                                \
                *iterations = COUNT;                                 \
            break;                                                   \
        }                                                            \
        SECOND;                                                      \
    }
/* The arguments every step takes: the vertex count, and the
 * segments with the edges they cut. */
#define SEGMENT_PARAMS uint n, uint segs,                            \
    __global const uint *seg_vertex, __global const uint *seg_begin, \
    __global const uint *col
#define SEGMENT_ARGS n, segs, seg_vertex, seg_begin, col
/* A step notes locally whether it changed anything and tells the
 * shared flag once: one atomic per work-item, not one per update. */
#define SAY_CHANGED(any, flag) \
    do { if (any) atomic_xchg(flag, 1u); } while (0)
/* BFS, level-synchronous: vertices of level `it` label their unlabelled
 * neighbours it + 1. */
inline void bfs_step(uint gid, uint gsize, SEGMENT_PARAMS,
                     __global uint *level, uint it,
                     __global uint *changed)
{
    /* Levels are read and lowered with atomics: other work-items lower
     * them in the same iteration. */
    uint any = 0u;
    for (uint s = gid; s < segs; s += gsize) {
        if (atomic_or(&level[seg_vertex[s]], 0u) != it)
            continue;
        for (uint e = seg_begin[s]; e < seg_begin[s + 1]; e++)
            any |= atomic_min(&level[col[e]], it + 1u) > it + 1u;
    }
    SAY_CHANGED(any, changed);
}
/* SSSP, Bellman-Ford: every reached vertex relaxes its edges. */
inline void sssp_step(uint gid, uint gsize, SEGMENT_PARAMS,
                      __global const uint *weight, __global uint *dist,
                      __global uint *changed)
{
    uint any = 0u;
    for (uint s = gid; s < segs; s += gsize) {
        /* racing with atomic_min */
        uint d = atomic_or(&dist[seg_vertex[s]], 0u);
        if (d == INF)
            continue;
        for (uint e = seg_begin[s]; e < seg_begin[s + 1]; e++) {
            uint u = col[e], nd = d + weight[e];
            if (nd < atomic_or(&dist[u], 0u) &&
                atomic_min(&dist[u], nd) > nd)
                any = 1u;
        }
    }
    SAY_CHANGED(any, changed);
}
/* MIS (Luby, fixed priorities) and colouring (Jones-Plassmann): in
 * phase 0 every undecided vertex that outranks all its undecided
 * neighbours becomes a candidate; in phase 1 MIS takes the candidates
 * and excludes their neighbours, colouring gives them this round's
 * colour. state: INF undecided; MIS: 1 in, 0 out; colouring: the
 * colour. Rounds are synchronous, so the result is deterministic.
 *
 * A vertex's segments decide together through mark[v], by atomic_max:
 * in round r each segment of an undecided v offers 2r + 1 (no
 * undecided neighbour outranks v among its edges) or 2r + 2 (one
 * does); both exceed anything of an earlier round, so after phase 0
 * v is a candidate exactly when mark[v] == 2r + 1. atomic_max orders
 * nothing (OpenCL's atomic_* functions are relaxed): the barrier (or
 * the kernel's end) between the phases is what makes phase 0's marks
 * visible to phase 1's plain reads. A hub's segments each scan until
 * their own first blocker, more work in all than one work-item
 * stopping at the hub's first, but spread.
 *
 * Phase 1 writes a candidate's state[v] plainly (v's first segment)
 * while others exclude neighbours with atomic_xchg. No race: the
 * adjacency is symmetric without self-loops (apps/graph.c stores every
 * edge both ways and drops loops), so a candidate's neighbours are
 * never candidates (the undecided ones are outranked by it), and
 * nobody excludes a candidate. */
inline uint rank(uint v) { v ^= v >> 16; v *= 0x7feb352du;
    v ^= v >> 15; v *= 0x846ca68bu; return v ^ (v >> 16); }
inline int outranks(uint v, uint u) {
    return rank(v) > rank(u) || (rank(v) == rank(u) && v > u); }
inline int first_segment(uint s, uint v,
                         __global const uint *seg_vertex) {
    return s == 0u || seg_vertex[s - 1u] != v; }
inline void select_step(uint gid, uint gsize, SEGMENT_PARAMS,
                        __global uint *state, __global uint *mark,
                        uint phase, uint round, uint colouring,
                        __global uint *changed)
{
    const uint candidate = 2u * round + 1u, blocked = candidate + 1u;
    uint any = 0u;
    for (uint s = gid; s < segs; s += gsize) {
        uint v = seg_vertex[s];
        if (phase == 0u) {
            if (state[v] != INF)
                continue;
            uint best = 1u;
            for (uint e = seg_begin[s]; best && e < seg_begin[s + 1]; e++)
                if (state[col[e]] == INF && !outranks(v, col[e]))
                    best = 0u;
            atomic_max(&mark[v], best ? candidate : blocked);
            any = 1u;
        } else if (mark[v] == candidate) {
            if (first_segment(s, v, seg_vertex))
                state[v] = colouring ? round : 1u;
            if (!colouring) /* no neighbour is a candidate */
                for (uint e = seg_begin[s]; e < seg_begin[s + 1]; e++)
                    atomic_xchg(&state[col[e]], 0u);
        }
    }
    SAY_CHANGED(any, changed);
}
__kernel void select_persistent(SEGMENT_PARAMS, __global uint *state,
                                __global uint *mark, uint colouring,
                                __global uint *changed,
                                __global uint *iterations, XWG_STATE)
{
    PERSISTENT_LOOP(select_step(xwg_global_id(), xwg_global_size(),
                                SEGMENT_ARGS, state, mark, 0u, it,
                                colouring, &changed[it % 3u]),
                    select_step(xwg_global_id(), xwg_global_size(),
                                SEGMENT_ARGS, state, mark, 1u, it,
                                colouring, &changed[it % 3u]);
                    xwg_barrier(), it);
}
__kernel void select_one(SEGMENT_PARAMS, __global uint *state,
                         __global uint *mark, uint colouring,
                         uint phase, uint round, __global uint *changed)
{
    select_step(get_global_id(0), get_global_size(0), SEGMENT_ARGS,
                state, mark, phase, round, colouring, changed);
}
/* The persistent versions: all iterations in one kernel. */
__kernel void bfs_persistent(SEGMENT_PARAMS, __global uint *level,
                             __global uint *changed,
                             __global uint *iterations, XWG_STATE)
{
    PERSISTENT_LOOP(bfs_step(xwg_global_id(), xwg_global_size(),
                             SEGMENT_ARGS, level, it, &changed[it % 3u]),
                    (void)0, it + 1u);
}
__kernel void sssp_persistent(SEGMENT_PARAMS,
                              __global const uint *weight,
                              __global uint *dist,
                              __global uint *changed,
                              __global uint *iterations, XWG_STATE)
{
    PERSISTENT_LOOP(sssp_step(xwg_global_id(), xwg_global_size(),
                              SEGMENT_ARGS, weight, dist,
                              &changed[it % 3u]),
                    (void)0, it + 1u);
}
/* The one-step versions, launched once per iteration. */
__kernel void bfs_one(SEGMENT_PARAMS, __global uint *level, uint it,
                      __global uint *changed)
{
    bfs_step(get_global_id(0), get_global_size(0), SEGMENT_ARGS, level,
             it, changed);
}
__kernel void sssp_one(SEGMENT_PARAMS, __global const uint *weight,
                       __global uint *dist, __global uint *changed)
{
    sssp_step(get_global_id(0), get_global_size(0), SEGMENT_ARGS,
              weight, dist, changed);
}
