/*
 * app_kernels.h - the OpenCL code of the applications. Each app has one
 * step function, used by both versions: a persistent kernel that loops
 * over steps with xwg_barrier() between them and checks for convergence
 * on the device, and a one-step kernel that the host launches once per
 * iteration (the multi-kernel version), reading the convergence flag
 * back after each.
 *
 * A persistent loop stops after n + 2 iterations whatever the flags say:
 * no correct run needs that many, and a broken barrier (the known-bad
 * test build) must end, not spin forever without waiting anywhere.
 *
 * Convergence flags rotate over three slots: in iteration i the threads
 * set slot i % 3, read it after the barrier, and one thread clears slot
 * (i + 1) % 3, which nobody reads again before the barrier of i + 1.
 */
#ifndef XWG_APPS_KERNELS_H
#define XWG_APPS_KERNELS_H

static const char app_source[] =
    "#define INF 0xffffffffu\n"
    /* The loop of every persistent kernel: FIRST, a barrier, the shared
     * convergence check (leave when nobody changed anything, or the
     * watchdog fired), then SECOND (more phases and their barriers).
     * COUNT is what *iterations gets on leaving. */
    "#define PERSISTENT_LOOP(FIRST, SECOND, COUNT)                       \\\n"
    "    XWG_DISCOVER();                                                  \\\n"
    "    for (uint it = 0; it <= n + 1u; it++) { /* none needs more */    \\\n"
    "        if (xwg_global_id() == 0)                                    \\\n"
    "            changed[(it + 1u) % 3u] = 0u;                            \\\n"
    "        FIRST;                                                       \\\n"
    "        xwg_barrier();                                               \\\n"
    "        if (changed[it % 3u] == 0u || xwg_failed()) {                \\\n"
    "            if (xwg_global_id() == 0)                                \\\n"
    "                *iterations = COUNT;                                 \\\n"
    "            break;                                                   \\\n"
    "        }                                                            \\\n"
    "        SECOND;                                                      \\\n"
    "    }\n"
    /* BFS, level-synchronous: vertices of level `it` label their unlabelled
     * neighbours it + 1. */
    "inline void bfs_step(uint gid, uint gsize, uint n,\n"
    "                     __global const uint *row, __global const uint *col,\n"
    "                     __global uint *level, uint it,\n"
    "                     __global uint *changed)\n"
    "{\n"
    /* Levels are read and lowered with atomics: other work-items lower
     * them in the same iteration. */
    "    for (uint v = gid; v < n; v += gsize) {\n"
    "        if (atomic_or(&level[v], 0u) != it)\n"
    "            continue;\n"
    "        for (uint e = row[v]; e < row[v + 1]; e++)\n"
    "            if (atomic_min(&level[col[e]], it + 1u) > it + 1u)\n"
    "                atomic_xchg(changed, 1u);\n"
    "    }\n"
    "}\n"
    /* SSSP, Bellman-Ford: every reached vertex relaxes its edges. */
    "inline void sssp_step(uint gid, uint gsize, uint n,\n"
    "                      __global const uint *row, __global const uint *col,\n"
    "                      __global const uint *weight, __global uint *dist,\n"
    "                      __global uint *changed)\n"
    "{\n"
    "    for (uint v = gid; v < n; v += gsize) {\n"
    "        uint d = atomic_or(&dist[v], 0u); /* racing with atomic_min */\n"
    "        if (d == INF)\n"
    "            continue;\n"
    "        for (uint e = row[v]; e < row[v + 1]; e++) {\n"
    "            uint u = col[e], nd = d + weight[e];\n"
    "            if (nd < atomic_or(&dist[u], 0u) &&\n"
    "                atomic_min(&dist[u], nd) > nd)\n"
    "                atomic_xchg(changed, 1u);\n"
    "        }\n"
    "    }\n"
    "}\n"
    /* MIS (Luby, fixed priorities) and colouring (Jones-Plassmann): in
     * phase 0 every undecided vertex that outranks all its undecided
     * neighbours becomes a candidate; in phase 1 MIS takes the candidates
     * and excludes their neighbours, colouring gives them this round's
     * colour. state: INF undecided; MIS: 1 in, 0 out; colouring: the
     * colour. Rounds are synchronous, so the result is deterministic. */
    "inline uint rank(uint v) { v ^= v >> 16; v *= 0x7feb352du;\n"
    "    v ^= v >> 15; v *= 0x846ca68bu; return v ^ (v >> 16); }\n"
    "inline int outranks(uint v, uint u) {\n"
    "    return rank(v) > rank(u) || (rank(v) == rank(u) && v > u); }\n"
    "inline void select_step(uint gid, uint gsize, uint n,\n"
    "                        __global const uint *row,\n"
    "                        __global const uint *col, __global uint *state,\n"
    "                        __global uint *candidate, uint phase,\n"
    "                        uint round, uint colouring,\n"
    "                        __global uint *changed)\n"
    "{\n"
    "    for (uint v = gid; v < n; v += gsize) {\n"
    "        if (phase == 0u) {\n"
    "            uint best = state[v] == INF;\n"
    "            for (uint e = row[v]; best && e < row[v + 1]; e++)\n"
    "                if (state[col[e]] == INF && !outranks(v, col[e]))\n"
    "                    best = 0u;\n"
    "            candidate[v] = best;\n"
    "            if (state[v] == INF)\n"
    "                atomic_xchg(changed, 1u);\n"
    "        } else if (candidate[v]) {\n"
    "            state[v] = colouring ? round : 1u;\n"
    "            if (!colouring)\n"
    "                for (uint e = row[v]; e < row[v + 1]; e++)\n"
    "                    atomic_xchg(&state[col[e]], 0u); /* not a candidate */\n"
    "        }\n"
    "    }\n"
    "}\n"
    "__kernel void select_persistent(uint n, __global const uint *row,\n"
    "                                __global const uint *col,\n"
    "                                __global uint *state,\n"
    "                                __global uint *candidate,\n"
    "                                uint colouring, __global uint *changed,\n"
    "                                __global uint *iterations, XWG_STATE)\n"
    "{\n"
    "    PERSISTENT_LOOP(select_step(xwg_global_id(), xwg_global_size(), n,\n"
    "                                row, col, state, candidate, 0u, it,\n"
    "                                colouring, &changed[it % 3u]),\n"
    "                    select_step(xwg_global_id(), xwg_global_size(), n,\n"
    "                                row, col, state, candidate, 1u, it,\n"
    "                                colouring, &changed[it % 3u]);\n"
    "                    xwg_barrier(), it);\n"
    "}\n"
    "__kernel void select_one(uint n, __global const uint *row,\n"
    "                         __global const uint *col, __global uint *state,\n"
    "                         __global uint *candidate, uint colouring,\n"
    "                         uint phase, uint round, __global uint *changed)\n"
    "{\n"
    "    select_step(get_global_id(0), get_global_size(0), n, row, col,\n"
    "                state, candidate, phase, round, colouring, changed);\n"
    "}\n"
    /* The persistent versions: all iterations in one kernel. */
    "__kernel void bfs_persistent(uint n, __global const uint *row,\n"
    "                             __global const uint *col,\n"
    "                             __global uint *level,\n"
    "                             __global uint *changed,\n"
    "                             __global uint *iterations, XWG_STATE)\n"
    "{\n"
    "    PERSISTENT_LOOP(bfs_step(xwg_global_id(), xwg_global_size(), n, row,\n"
    "                             col, level, it, &changed[it % 3u]),\n"
    "                    (void)0, it + 1u);\n"
    "}\n"
    "__kernel void sssp_persistent(uint n, __global const uint *row,\n"
    "                              __global const uint *col,\n"
    "                              __global const uint *weight,\n"
    "                              __global uint *dist,\n"
    "                              __global uint *changed,\n"
    "                              __global uint *iterations, XWG_STATE)\n"
    "{\n"
    "    PERSISTENT_LOOP(sssp_step(xwg_global_id(), xwg_global_size(), n, row,\n"
    "                              col, weight, dist, &changed[it % 3u]),\n"
    "                    (void)0, it + 1u);\n"
    "}\n"
    /* The one-step versions, launched once per iteration. */
    "__kernel void bfs_one(uint n, __global const uint *row,\n"
    "                      __global const uint *col, __global uint *level,\n"
    "                      uint it, __global uint *changed)\n"
    "{\n"
    "    bfs_step(get_global_id(0), get_global_size(0), n, row, col, level,\n"
    "             it, changed);\n"
    "}\n"
    "__kernel void sssp_one(uint n, __global const uint *row,\n"
    "                       __global const uint *col,\n"
    "                       __global const uint *weight, __global uint *dist,\n"
    "                       __global uint *changed)\n"
    "{\n"
    "    sssp_step(get_global_id(0), get_global_size(0), n, row, col, weight,\n"
    "              dist, changed);\n"
    "}\n";

#endif
