/*
 * collective_kernels.h - the kernels that test the split-phase barrier
 * and the collectives (collective_checks.c runs them), and the
 * values they combine, shared with the host's reference.
 */
#ifndef XWG_COLLECTIVE_KERNELS_H
#define XWG_COLLECTIVE_KERNELS_H

/* The values of phase p (episode e's phase is e % COLLECTIVE_PHASES) for
 * work-item x among the participants, or for group x: C that is also
 * OpenCL C, so that the kernel (which gets its text) and the host
 * reference (which compiles it) compute the same bits. The floats are
 * multiples of 2^-10 below 16 in magnitude, exact, with sums that are
 * not. */
typedef unsigned int uint;
#define COLLECTIVE_VALUES                                                      \
    static inline uint value_hash(uint p, uint x, uint salt)                   \
    {                                                                          \
        uint h = (x + 1u) * 0x9E3779B9u ^ (p + 1u) * 0x85EBCA6Bu ^ salt;       \
        h ^= h >> 15;                                                          \
        h *= 0x2C1B3C6Du;                                                      \
        h ^= h >> 12;                                                          \
        return h;                                                              \
    }                                                                          \
    static inline uint value_uint(uint p, uint x)                              \
    {                                                                          \
        return value_hash(p, x, 1u);                                           \
    }                                                                          \
    static inline int value_int(uint p, uint x)                                \
    {                                                                          \
        return (int)value_hash(p, x, 2u);                                      \
    }                                                                          \
    static inline float value_float(uint p, uint x)                            \
    {                                                                          \
        return (float)((int)(value_hash(p, x, 3u) & 0x3fffu) - 8192) *         \
               (1.0f / 1024.0f);                                               \
    }
COLLECTIVE_VALUES

/* The layout of the expected table and of the error counters, as C that
 * is also OpenCL C: the host compiles it, and the kernels get its text.
 * Per phase: the nine all-reduces, then per group the three scans'
 * results (uint, int, float), then the three totals. */
#define COLLECTIVE_LAYOUT                                                      \
    enum { COLLECTIVE_PHASES = 16 };                                           \
    enum { R_ADD_U, R_MIN_U, R_MAX_U, R_ADD_I, R_MIN_I, R_MAX_I,              \
           R_ADD_F, R_MIN_F, R_MAX_F, REDUCTIONS };                            \
    enum { E_REDUCE, E_BROADCAST, E_SCAN, E_TOTAL, E_BARRIER, E_GROUPS,       \
           ERROR_KINDS };
COLLECTIVE_LAYOUT
#define COLLECTIVE_STR_(...) #__VA_ARGS__
#define COLLECTIVE_STR(...) COLLECTIVE_STR_(__VA_ARGS__)

/* split: the stress kernel's check (tests/barrier_kernels.h) through the
 * split barrier: every work-item stores, arrives, does work that touches
 * no shared data, waits, and reads another group's values, a different
 * group each episode. The next episode's stores are kept after those
 * reads by an xwg_barrier(), so that the two kinds of call also mix. */
static const char split_source[] =
    "inline uint expected(uint e, uint slot) { return e * 0x9E3779B9u ^ slot; }\n"
    "__kernel void split(__global uint *data, __global uint *errors,\n"
    "                    __global uint *work, uint episodes, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    const uint g = xwg_group_id(), n = xwg_num_groups();\n"
    "    const uint l = get_local_id(0), size = get_local_size(0);\n"
    "    uint bad = 0, overlap = 0;\n"
    "    for (uint e = 1; e <= episodes && !xwg_failed(); e++) {\n"
    "        data[g * size + l] = expected(e, g * size + l);\n"
    "        xwg_token t = xwg_barrier_arrive();\n"
    "        for (uint k = 0; k < 16u; k++)   /* work between the two */\n"
    "            overlap = overlap * 31u + expected(e, k ^ l);\n"
    "        xwg_barrier_wait(t);\n"
    "        uint h = n > 1 ? (g + 1 + e % (n - 1)) % n : g;\n"
    "        if (data[h * size + l] != expected(e, h * size + l))\n"
    "            bad++;\n"
    "        xwg_barrier();\n"
    "    }\n"
    "    work[g * size + l] = overlap; /* keeps the work */\n"
    "    if (bad)\n"
    "        atomic_add(errors, min(bad, 1000u));\n"
    "}\n";

/* collectives: in each episode every collective, each result checked by
 * every work-item against the host's table (`expected`, COLLECTIVE_PHASES
 * rows of REDUCTIONS + 3 * table_groups + 3 words) or, for broadcasts,
 * against the value the kernel knows the sender passed. The table is for
 * `table_groups` participants: a launch that discovery gave another
 * count checks nothing and says so in errors[E_GROUPS], and the host
 * runs it again for that count. Each collective is also a barrier: the
 * data check reads another group's values stored before the first one. */
static const char collectives_source[] =
    COLLECTIVE_STR(COLLECTIVE_LAYOUT) "\n"
    COLLECTIVE_STR(COLLECTIVE_VALUES) "\n"
    "inline uint expected(uint e, uint slot) { return e * 0x9E3779B9u ^ slot; }\n"
    /* The sum of y % 7 over y < x. (The remainder as x - 7q: with x % 7
     * beside x / 7, clang emits a `freeze`, which Oclgrind's
     * uninitialised-value plugin cannot run.) */
    "inline uint prefix7(uint x) { uint q = x / 7u, r = x - 7u * q; return q * 21u + r * (r - 1u) / 2u; }\n"
    "#define CHECK(kind, ok) bad[kind] += (ok) ? 0u : 1u\n"
    /* Its local size declared: without it NVIDIA's compiler gives the
     * kernel more registers than a group of 1024 may have on the H200. */
    "__kernel __attribute__((reqd_work_group_size(XWG_TEST_LOCAL, 1, 1)))\n"
    "void collectives(__global uint *data, __global uint *errors,\n"
    "                 __global const uint *table, uint table_groups,\n"
    "                 uint episodes, XWG_STATE)\n"
    "{\n"
    "    XWG_DISCOVER();\n"
    "    const uint g = xwg_group_id(), n = xwg_num_groups();\n"
    "    const uint l = get_local_id(0), size = get_local_size(0);\n"
    "    const uint gid = xwg_global_id();\n"
    "    if (n != table_groups) {\n"
    "        if (gid == 0) errors[E_GROUPS] = n;\n"
    "        return;\n"
    "    }\n"
    "    uint bad[ERROR_KINDS] = {0};\n"
    "    const uint row_words = REDUCTIONS + 3u * n + 3u;\n"
    "    for (uint e = 0; e < episodes && !xwg_failed(); e++) {\n"
    "        const uint p = e % COLLECTIVE_PHASES;\n"
    "        __global const uint *row = table + p * row_words;\n"
    "        data[gid] = expected(e, gid);\n"
    "        CHECK(E_REDUCE, xwg_reduce_add_uint(value_uint(p, gid)) == row[R_ADD_U]);\n"
    "        uint h = n > 1 ? (g + 1 + e % (n - 1)) % n : g;\n"
    "        CHECK(E_BARRIER, data[h * size + l] == expected(e, h * size + l));\n"
    "        CHECK(E_REDUCE, xwg_reduce_min_uint(value_uint(p, gid)) == row[R_MIN_U]);\n"
    "        CHECK(E_REDUCE, xwg_reduce_max_uint(value_uint(p, gid)) == row[R_MAX_U]);\n"
    "        CHECK(E_REDUCE, as_uint(xwg_reduce_add_int(value_int(p, gid))) == row[R_ADD_I]);\n"
    "        CHECK(E_REDUCE, as_uint(xwg_reduce_min_int(value_int(p, gid))) == row[R_MIN_I]);\n"
    "        CHECK(E_REDUCE, as_uint(xwg_reduce_max_int(value_int(p, gid))) == row[R_MAX_I]);\n"
    "        CHECK(E_REDUCE, as_uint(xwg_reduce_add_float(value_float(p, gid))) == row[R_ADD_F]);\n"
    "        CHECK(E_REDUCE, as_uint(xwg_reduce_min_float(value_float(p, gid))) == row[R_MIN_F]);\n"
    "        CHECK(E_REDUCE, as_uint(xwg_reduce_max_float(value_float(p, gid))) == row[R_MAX_F]);\n"
    /* The nonblocking all-reduce: the blocking one's bits, with work
     * between arrive and wait, and a barrier (the data check). */
    "        data[gid] = ~expected(e, gid);\n"
    "        xwg_reduce_token t = xwg_reduce_add_float_arrive(value_float(p, gid));\n"
    "        CHECK(E_BARRIER, data[gid] == ~expected(e, gid)); /* work between */\n"
    "        CHECK(E_REDUCE, as_uint(xwg_reduce_add_float_wait(t)) == row[R_ADD_F]);\n"
    "        CHECK(E_BARRIER, data[h * size + l] == ~expected(e, h * size + l));\n"
    "        t = xwg_reduce_add_uint_arrive(value_uint(p, gid));\n"
    "        CHECK(E_REDUCE, xwg_reduce_add_uint_wait(t) == row[R_ADD_U]);\n"
    "        t = xwg_reduce_max_int_arrive(value_int(p, gid));\n"
    "        CHECK(E_REDUCE, as_uint(xwg_reduce_max_int_wait(t)) == row[R_MAX_I]);\n"
    "        t = xwg_reduce_min_float_arrive(value_float(p, gid));\n"
    "        CHECK(E_REDUCE, as_uint(xwg_reduce_min_float_wait(t)) == row[R_MIN_F]);\n"
    /* Two sums at once: each component has the float all-reduce's bits
     * (2x sums to exactly twice x's sum, in any one order), blocking and
     * nonblocking, the components swapped in the second. */
    "        const float vf = value_float(p, gid), sf = as_float(row[R_ADD_F]);\n"
    "        float2 two = xwg_reduce_add_float2((float2)(vf, 2.0f * vf));\n"
    "        CHECK(E_REDUCE, as_uint(two.x) == row[R_ADD_F] && two.y == 2.0f * sf);\n"
    "        data[gid] = expected(e, gid) + 1u;\n"
    "        t = xwg_reduce_add_float2_arrive((float2)(2.0f * vf, vf));\n"
    "        CHECK(E_BARRIER, data[gid] == expected(e, gid) + 1u); /* work between */\n"
    "        two = xwg_reduce_add_float2_wait(t);\n"
    "        CHECK(E_REDUCE, two.x == 2.0f * sf && as_uint(two.y) == row[R_ADD_F]);\n"
    "        CHECK(E_BARRIER, data[h * size + l] == expected(e, h * size + l) + 1u);\n"
    "        const uint from = (e * 7u + 3u) % n;\n"
    "        CHECK(E_BROADCAST, xwg_broadcast_uint(value_uint(p, g), from) == value_uint(p, from));\n"
    "        CHECK(E_BROADCAST, xwg_broadcast_int(value_int(p, g), from) == value_int(p, from));\n"
    "        CHECK(E_BROADCAST, as_uint(xwg_broadcast_float(value_float(p, g), from)) ==\n"
    "                           as_uint(value_float(p, from)));\n"
    "        __global const uint *scan = row + REDUCTIONS + 3u * g;\n"
    "        __global const uint *total = row + REDUCTIONS + 3u * n;\n"
    "        uint tu; int ti; float tf;\n"
    "        CHECK(E_SCAN, xwg_scan_groups_exclusive_add_uint(value_uint(p, g) & 0xffffu, &tu) == scan[0]);\n"
    "        CHECK(E_TOTAL, tu == total[0]);\n"
    "        CHECK(E_SCAN, as_uint(xwg_scan_groups_exclusive_add_int(value_int(p, g), &ti)) == scan[1]);\n"
    "        CHECK(E_TOTAL, as_uint(ti) == total[1]);\n"
    "        CHECK(E_SCAN, as_uint(xwg_scan_groups_exclusive_add_float(value_float(p, g), &tf)) == scan[2]);\n"
    "        CHECK(E_TOTAL, as_uint(tf) == total[2]);\n"
    /* The per-work-item scan, on values whose every partial sum is
     * exact (so any order gives these bits): x % 7 for work-item x
     * among the participants, as uint, as int less 3, and as float
     * times 2^-10 (sums below 2^14, multiples of 2^-10). */
    "        const uint before = prefix7(gid), all = prefix7(n * size);\n"
    "        CHECK(E_SCAN, xwg_scan_exclusive_add_uint(gid % 7u, &tu) == before);\n"
    "        CHECK(E_TOTAL, tu == all);\n"
    "        CHECK(E_SCAN, xwg_scan_exclusive_add_int((int)(gid % 7u) - 3, &ti) ==\n"
    "                      (int)(before - 3u * gid));\n"
    "        CHECK(E_TOTAL, ti == (int)(all - 3u * n * size));\n"
    "        CHECK(E_SCAN, xwg_scan_exclusive_add_float((float)(gid % 7u) / 1024.0f, &tf) ==\n"
    "                      (float)before / 1024.0f);\n"
    "        CHECK(E_TOTAL, tf == (float)all / 1024.0f);\n"
    "    }\n"
    "    for (uint k = 0; k < E_GROUPS; k++)\n"
    "        if (bad[k]) atomic_add(&errors[k], min(bad[k], 1000u));\n"
    "}\n";

/* The misuses the kernel can see, one kernel each; every one must end in
 * XWG_ERROR_BARRIER_MISUSE, not in a hang or a success. */
static const char collective_misuse_source[] =
    "__kernel void arrive_twice(XWG_STATE) {\n"
    "    XWG_DISCOVER();\n"
    "    xwg_token a = xwg_barrier_arrive();\n"
    "    xwg_token b = xwg_barrier_arrive();\n"
    "    xwg_barrier_wait(b);\n"
    "    (void)a;\n"
    "}\n"
    "__kernel void wait_without_arrive(XWG_STATE) {\n"
    "    XWG_DISCOVER();\n"
    "    xwg_barrier_wait(0u);\n"
    "}\n"
    "__kernel void barrier_while_arrived(XWG_STATE) {\n"
    "    XWG_DISCOVER();\n"
    "    xwg_token t = xwg_barrier_arrive();\n"
    "    xwg_barrier();\n"
    "    xwg_barrier_wait(t);\n"
    "}\n"
    "__kernel void reduce_wait_mismatch(__global uint *out, XWG_STATE) {\n"
    "    XWG_DISCOVER();\n"
    "    xwg_reduce_token t = xwg_reduce_add_uint_arrive(1u);\n"
    "    uint x = xwg_reduce_max_uint_wait(t);\n"
    "    if (xwg_global_id() == 0) out[0] = x;\n"
    "}\n"
    "__kernel void collective_while_reducing(__global uint *out, XWG_STATE) {\n"
    "    XWG_DISCOVER();\n"
    "    xwg_reduce_token t = xwg_reduce_add_uint_arrive(1u);\n"
    "    uint y = xwg_reduce_add_uint(1u);\n"
    "    uint x = xwg_reduce_add_uint_wait(t);\n"
    "    if (xwg_global_id() == 0) out[0] = x + y;\n"
    "}\n"
    "__kernel void reduce_wait_mismatch_float2(__global uint *out, XWG_STATE) {\n"
    "    XWG_DISCOVER();\n"
    "    xwg_reduce_token t = xwg_reduce_add_float_arrive(1.0f);\n"
    "    float2 x = xwg_reduce_add_float2_wait(t);\n"
    "    if (xwg_global_id() == 0) out[0] = as_uint(x.x);\n"
    "}\n"
    "__kernel void broadcast_from_nobody(__global uint *out, XWG_STATE) {\n"
    "    XWG_DISCOVER();\n"
    "    uint x = xwg_broadcast_uint(1u, xwg_num_groups());\n"
    "    if (xwg_global_id() == 0) out[0] = x;\n"
    "}\n";

#endif
