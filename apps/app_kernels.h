/*
 * app_kernels.h - the OpenCL code of the applications. Each app has one
 * step function, used by both versions: a persistent kernel that loops
 * over steps with xwg_barrier() between them and checks for convergence
 * on the device, and a one-step kernel that the host launches once per
 * iteration (the multi-kernel version), reading the convergence flag
 * back after each.
 *
 * Convergence flags rotate over three slots: in iteration i the threads
 * set slot i % 3, read it after the barrier, and one thread clears slot
 * (i + 1) % 3, which nobody reads again before the barrier of i + 1.
 */
#ifndef XWG_APPS_KERNELS_H
#define XWG_APPS_KERNELS_H

static const char app_source[] =
    "#define INF 0xffffffffu\n"
    /* BFS, level-synchronous: vertices of level `it` label their unlabelled
     * neighbours it + 1. */
    "inline void bfs_step(uint gid, uint gsize, uint n,\n"
    "                     __global const uint *row, __global const uint *col,\n"
    "                     __global uint *level, uint it,\n"
    "                     __global uint *changed)\n"
    "{\n"
    "    for (uint v = gid; v < n; v += gsize) {\n"
    "        if (level[v] != it)\n"
    "            continue;\n"
    "        for (uint e = row[v]; e < row[v + 1]; e++) {\n"
    "            uint u = col[e];\n"
    "            if (level[u] == INF) {\n"
    "                atomic_min(&level[u], it + 1u);\n"
    "                *changed = 1u;\n"
    "            }\n"
    "        }\n"
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
    "                *changed = 1u;\n"
    "        }\n"
    "    }\n"
    "}\n"
    /* The persistent versions: all iterations in one kernel. */
    "__kernel void bfs_persistent(uint n, __global const uint *row,\n"
    "                             __global const uint *col,\n"
    "                             __global uint *level,\n"
    "                             __global uint *changed,\n"
    "                             __global uint *iterations, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    for (uint it = 0;; it++) {\n"
    "        if (xwg_global_id() == 0)\n"
    "            changed[(it + 1u) % 3u] = 0u;\n"
    "        bfs_step(xwg_global_id(), xwg_global_size(), n, row, col, level,\n"
    "                 it, &changed[it % 3u]);\n"
    "        xwg_barrier();\n"
    "        if (changed[it % 3u] == 0u || xwg_failed()) {\n"
    "            if (xwg_global_id() == 0)\n"
    "                *iterations = it + 1u;\n"
    "            break;\n"
    "        }\n"
    "    }\n"
    "}\n"
    "__kernel void sssp_persistent(uint n, __global const uint *row,\n"
    "                              __global const uint *col,\n"
    "                              __global const uint *weight,\n"
    "                              __global uint *dist,\n"
    "                              __global uint *changed,\n"
    "                              __global uint *iterations, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    for (uint it = 0;; it++) {\n"
    "        if (xwg_global_id() == 0)\n"
    "            changed[(it + 1u) % 3u] = 0u;\n"
    "        sssp_step(xwg_global_id(), xwg_global_size(), n, row, col,\n"
    "                  weight, dist, &changed[it % 3u]);\n"
    "        xwg_barrier();\n"
    "        if (changed[it % 3u] == 0u || xwg_failed()) {\n"
    "            if (xwg_global_id() == 0)\n"
    "                *iterations = it + 1u;\n"
    "            break;\n"
    "        }\n"
    "    }\n"
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
