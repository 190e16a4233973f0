/*
 * collectives.cl - the check of every collective, embedded at build time
 * as collectives_source behind collective_values.h, which defines the
 * layout and the values used here (collective_checks.c runs it).
 *
 * Three kernels, one per family of collectives, each running the same
 * episodes (begin_episode) with its family's checks: collectives_reduce
 * (the blocking all-reduces), collectives_nonblocking (the nonblocking
 * all-reduces, with work between arrive and wait) and collectives_scan
 * (the broadcasts and the scans). Each result is checked by every
 * work-item against the host's table (`expected`, COLLECTIVE_PHASES rows
 * of REDUCTIONS + 3 * table_groups + 3 words) or, for broadcasts,
 * against the value the kernel knows the sender passed. The table is for
 * `table_groups` participants: a launch that discovery gave another
 * count checks nothing and says so in errors[E_GROUPS], and the host
 * runs it again for that count. Each family's first collective is also a
 * barrier: the data check reads another group's values stored before it.
 * (Three kernels rather than one: every collective inlines its
 * work-group tree, and the compilers' time grows faster than the code.
 * One kernel of all of them took 15.9 s in PoCL's kernel compiler (its
 * work-group function and codegen, per local size) and 32 s in Intel's;
 * the three take 8.1 s and 14-18 s.)
 */

inline uint expected(uint e, uint slot) { return e * 0x9E3779B9u ^ slot; }
/* The sum of y % 7 over y < x. (The remainder as x - 7q: with x % 7
 * beside x / 7, clang emits a `freeze`, which Oclgrind's
 * uninitialised-value plugin cannot run.) */
inline uint prefix7(uint x) { uint q = x / 7u, r = x - 7u * q; return q * 21u + r * (r - 1u) / 2u; }
#define CHECK(kind, ok) bad[kind] += (ok) ? 0u : 1u

/* What one work-item checks in an episode: where it is, the episode's
 * table row, and another group's slot that the data check reads. */
typedef struct episode {
    uint e, p, g, n, size, gid, other;
    __global const uint *row;
} episode;

/* Sets x for episode e, or returns 0 once the episodes are done (or a
 * wait failed). Episode 0 first says where the work-item is, and ends the
 * kernel at once, with errors[E_GROUPS] set to the count, if discovery
 * gave another count than the table's. */
inline int begin_episode(xwg_self self, episode *x, uint e, uint episodes,
                         __global const uint *table, uint table_groups,
                         __global uint *errors)
{
    if (e == 0) {
        x->g = xwg_group_id_of(self);
        x->n = xwg_num_groups_of(self);
        x->size = get_local_size(0);
        x->gid = xwg_global_id_of(self);
        if (x->n != table_groups) {
            if (x->gid == 0) errors[E_GROUPS] = x->n;
            return 0;
        }
    }
    if (e >= episodes || xwg_failed_of(self))
        return 0;
    const uint h = x->n > 1 ? (x->g + 1 + e % (x->n - 1)) % x->n : x->g;
    x->e = e;
    x->p = e % COLLECTIVE_PHASES;
    x->other = h * x->size + get_local_id(0);
    x->row = table + x->p * (REDUCTIONS + 3u * x->n + 3u);
    return 1;
}

/* What a work-item found, into errors[] (each kind capped at 1000). */
inline void add_errors(__global uint *errors, const uint *bad)
{
    for (uint k = 0; k < E_GROUPS; k++)
        if (bad[k]) atomic_add(&errors[k], min(bad[k], 1000u));
}

/* The kernels call the collectives by their short forms, as a kernel body
 * does (the helper functions' _of forms run in kernel_api_doc_example).
 * Each kernel's local size is declared: without it NVIDIA's compiler
 * gives the kernel more registers than a group of 1024 may have on the
 * H200. */
#define COLLECTIVES_ATTRIBUTES __attribute__((reqd_work_group_size(XWG_TEST_LOCAL, 1, 1)))

/* The blocking all-reduces, the first one also a barrier; then two sums
 * at once, each component with the float all-reduce's bits (2x sums to
 * exactly twice x's sum, in any one order). */
__kernel COLLECTIVES_ATTRIBUTES
void collectives_reduce(__global uint *data, __global uint *errors,
                        __global const uint *table, uint table_groups,
                        uint episodes, XWG_STATE)
{
    XWG_DISCOVER();
    uint bad[ERROR_KINDS] = {0};
    episode x;
    for (uint e = 0; begin_episode(XWG_SELF, &x, e, episodes, table,
                                   table_groups, errors); e++) {
        const uint p = x.p, gid = x.gid;
        __global const uint *row = x.row;
        data[gid] = expected(e, gid);
        CHECK(E_REDUCE, xwg_reduce_add_uint(value_uint(p, gid)) == row[R_ADD_U]);
        CHECK(E_BARRIER, data[x.other] == expected(e, x.other));
        CHECK(E_REDUCE, xwg_reduce_min_uint(value_uint(p, gid)) == row[R_MIN_U]);
        CHECK(E_REDUCE, xwg_reduce_max_uint(value_uint(p, gid)) == row[R_MAX_U]);
        CHECK(E_REDUCE, as_uint(xwg_reduce_add_int(value_int(p, gid))) == row[R_ADD_I]);
        CHECK(E_REDUCE, as_uint(xwg_reduce_min_int(value_int(p, gid))) == row[R_MIN_I]);
        CHECK(E_REDUCE, as_uint(xwg_reduce_max_int(value_int(p, gid))) == row[R_MAX_I]);
        CHECK(E_REDUCE, as_uint(xwg_reduce_add_float(value_float(p, gid))) == row[R_ADD_F]);
        CHECK(E_REDUCE, as_uint(xwg_reduce_min_float(value_float(p, gid))) == row[R_MIN_F]);
        CHECK(E_REDUCE, as_uint(xwg_reduce_max_float(value_float(p, gid))) == row[R_MAX_F]);
        const float vf = value_float(p, gid), sf = as_float(row[R_ADD_F]);
        float2 two = xwg_reduce_add_float2((float2)(vf, 2.0f * vf));
        CHECK(E_REDUCE, as_uint(two.x) == row[R_ADD_F] && two.y == 2.0f * sf);
    }
    add_errors(errors, bad);
}

/* The nonblocking all-reduces: the blocking ones' bits, with work between
 * arrive and wait, and two of them also barriers (the data checks); the
 * two sums at once with their components swapped. Each data check's
 * reads come before a later reduction's wait, and so before any group's
 * next write of its slot. */
__kernel COLLECTIVES_ATTRIBUTES
void collectives_nonblocking(__global uint *data, __global uint *errors,
                             __global const uint *table, uint table_groups,
                             uint episodes, XWG_STATE)
{
    XWG_DISCOVER();
    uint bad[ERROR_KINDS] = {0};
    episode x;
    for (uint e = 0; begin_episode(XWG_SELF, &x, e, episodes, table,
                                   table_groups, errors); e++) {
        const uint p = x.p, gid = x.gid;
        __global const uint *row = x.row;
        data[gid] = ~expected(e, gid);
        xwg_reduce_token t = xwg_reduce_add_float_arrive(value_float(p, gid));
        CHECK(E_BARRIER, data[gid] == ~expected(e, gid)); /* work between */
        CHECK(E_REDUCE, as_uint(xwg_reduce_add_float_wait(t)) == row[R_ADD_F]);
        CHECK(E_BARRIER, data[x.other] == ~expected(e, x.other));
        t = xwg_reduce_add_uint_arrive(value_uint(p, gid));
        CHECK(E_REDUCE, xwg_reduce_add_uint_wait(t) == row[R_ADD_U]);
        t = xwg_reduce_max_int_arrive(value_int(p, gid));
        CHECK(E_REDUCE, as_uint(xwg_reduce_max_int_wait(t)) == row[R_MAX_I]);
        const float vf = value_float(p, gid), sf = as_float(row[R_ADD_F]);
        data[gid] = expected(e, gid) + 1u;
        t = xwg_reduce_add_float2_arrive((float2)(2.0f * vf, vf));
        CHECK(E_BARRIER, data[gid] == expected(e, gid) + 1u); /* work between */
        float2 two = xwg_reduce_add_float2_wait(t);
        CHECK(E_REDUCE, two.x == 2.0f * sf && as_uint(two.y) == row[R_ADD_F]);
        CHECK(E_BARRIER, data[x.other] == expected(e, x.other) + 1u);
        t = xwg_reduce_min_float_arrive(value_float(p, gid));
        CHECK(E_REDUCE, as_uint(xwg_reduce_min_float_wait(t)) == row[R_MIN_F]);
    }
    add_errors(errors, bad);
}

/* The broadcasts, the first one also a barrier (the data check, on a
 * value that neither other kernel leaves in data), the scans of one value
 * per group, and the per-work-item scans, on values whose every partial
 * sum is exact (so any order gives these bits): x % 7 for work-item x
 * among the participants, as uint, as int less 3, and as float times
 * 2^-10 (sums below 2^14, multiples of 2^-10). */
#define SCAN_MARK 0xA5A5A5A5u
__kernel COLLECTIVES_ATTRIBUTES
void collectives_scan(__global uint *data, __global uint *errors,
                      __global const uint *table, uint table_groups,
                      uint episodes, XWG_STATE)
{
    XWG_DISCOVER();
    uint bad[ERROR_KINDS] = {0};
    episode x;
    for (uint e = 0; begin_episode(XWG_SELF, &x, e, episodes, table,
                                   table_groups, errors); e++) {
        const uint p = x.p, g = x.g, n = x.n, gid = x.gid;
        __global const uint *row = x.row;
        data[gid] = expected(e, gid) ^ SCAN_MARK;
        const uint from = (e * 7u + 3u) % n;
        CHECK(E_BROADCAST, xwg_broadcast_uint(value_uint(p, g), from) == value_uint(p, from));
        CHECK(E_BARRIER, data[x.other] == (expected(e, x.other) ^ SCAN_MARK));
        CHECK(E_BROADCAST, xwg_broadcast_int(value_int(p, g), from) == value_int(p, from));
        CHECK(E_BROADCAST, as_uint(xwg_broadcast_float(value_float(p, g), from)) ==
                           as_uint(value_float(p, from)));
        __global const uint *scan = row + REDUCTIONS + 3u * g;
        __global const uint *total = row + REDUCTIONS + 3u * n;
        uint tu; int ti; float tf;
        CHECK(E_SCAN, xwg_scan_groups_exclusive_add_uint(value_uint(p, g) & 0xffffu, &tu) == scan[0]);
        CHECK(E_TOTAL, tu == total[0]);
        CHECK(E_SCAN, as_uint(xwg_scan_groups_exclusive_add_int(value_int(p, g), &ti)) == scan[1]);
        CHECK(E_TOTAL, as_uint(ti) == total[1]);
        CHECK(E_SCAN, as_uint(xwg_scan_groups_exclusive_add_float(value_float(p, g), &tf)) == scan[2]);
        CHECK(E_TOTAL, as_uint(tf) == total[2]);
        const uint before = prefix7(gid), all = prefix7(n * x.size);
        CHECK(E_SCAN, xwg_scan_exclusive_add_uint(gid % 7u, &tu) == before);
        CHECK(E_TOTAL, tu == all);
        CHECK(E_SCAN, xwg_scan_exclusive_add_int((int)(gid % 7u) - 3, &ti) ==
                      (int)(before - 3u * gid));
        CHECK(E_TOTAL, ti == (int)(all - 3u * n * x.size));
        CHECK(E_SCAN, xwg_scan_exclusive_add_float((float)(gid % 7u) / 1024.0f, &tf) ==
                      (float)before / 1024.0f);
        CHECK(E_TOTAL, tf == (float)all / 1024.0f);
    }
    add_errors(errors, bad);
}
