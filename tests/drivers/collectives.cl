/*
 * collectives.cl - the check of every collective, embedded at build time
 * as collectives_source behind collective_values.h, which defines the
 * layout and the values used here (collective_checks.c runs it).
 *
 * collectives: in each episode every collective, each result checked by
 * every work-item against the host's table (`expected`, COLLECTIVE_PHASES
 * rows of REDUCTIONS + 3 * table_groups + 3 words) or, for broadcasts,
 * against the value the kernel knows the sender passed. The table is for
 * `table_groups` participants: a launch that discovery gave another
 * count checks nothing and says so in errors[E_GROUPS], and the host
 * runs it again for that count. Each collective is also a barrier: the
 * data check reads another group's values stored before the first one.
 */

inline uint expected(uint e, uint slot) { return e * 0x9E3779B9u ^ slot; }
/* The sum of y % 7 over y < x. (The remainder as x - 7q: with x % 7
 * beside x / 7, clang emits a `freeze`, which Oclgrind's
 * uninitialised-value plugin cannot run.) */
inline uint prefix7(uint x) { uint q = x / 7u, r = x - 7u * q; return q * 21u + r * (r - 1u) / 2u; }
#define CHECK(kind, ok) bad[kind] += (ok) ? 0u : 1u
/* Its local size declared: without it NVIDIA's compiler gives the
 * kernel more registers than a group of 1024 may have on the H200. */
__kernel __attribute__((reqd_work_group_size(XWG_TEST_LOCAL, 1, 1)))
void collectives(__global uint *data, __global uint *errors,
                 __global const uint *table, uint table_groups,
                 uint episodes, XWG_STATE)
{
    XWG_DISCOVER();
    const uint g = xwg_group_id(), n = xwg_num_groups();
    const uint l = get_local_id(0), size = get_local_size(0);
    const uint gid = xwg_global_id();
    if (n != table_groups) {
        if (gid == 0) errors[E_GROUPS] = n;
        return;
    }
    uint bad[ERROR_KINDS] = {0};
    const uint row_words = REDUCTIONS + 3u * n + 3u;
    for (uint e = 0; e < episodes && !xwg_failed(); e++) {
        const uint p = e % COLLECTIVE_PHASES;
        __global const uint *row = table + p * row_words;
        data[gid] = expected(e, gid);
        CHECK(E_REDUCE, xwg_reduce_add_uint(value_uint(p, gid)) == row[R_ADD_U]);
        uint h = n > 1 ? (g + 1 + e % (n - 1)) % n : g;
        CHECK(E_BARRIER, data[h * size + l] == expected(e, h * size + l));
        CHECK(E_REDUCE, xwg_reduce_min_uint(value_uint(p, gid)) == row[R_MIN_U]);
        CHECK(E_REDUCE, xwg_reduce_max_uint(value_uint(p, gid)) == row[R_MAX_U]);
        CHECK(E_REDUCE, as_uint(xwg_reduce_add_int(value_int(p, gid))) == row[R_ADD_I]);
        CHECK(E_REDUCE, as_uint(xwg_reduce_min_int(value_int(p, gid))) == row[R_MIN_I]);
        CHECK(E_REDUCE, as_uint(xwg_reduce_max_int(value_int(p, gid))) == row[R_MAX_I]);
        CHECK(E_REDUCE, as_uint(xwg_reduce_add_float(value_float(p, gid))) == row[R_ADD_F]);
        CHECK(E_REDUCE, as_uint(xwg_reduce_min_float(value_float(p, gid))) == row[R_MIN_F]);
        CHECK(E_REDUCE, as_uint(xwg_reduce_max_float(value_float(p, gid))) == row[R_MAX_F]);
        /* The nonblocking all-reduce: the blocking one's bits, with work
         * between arrive and wait, and a barrier (the data check). */
        data[gid] = ~expected(e, gid);
        xwg_reduce_token t = xwg_reduce_add_float_arrive(value_float(p, gid));
        CHECK(E_BARRIER, data[gid] == ~expected(e, gid)); /* work between */
        CHECK(E_REDUCE, as_uint(xwg_reduce_add_float_wait(t)) == row[R_ADD_F]);
        CHECK(E_BARRIER, data[h * size + l] == ~expected(e, h * size + l));
        t = xwg_reduce_add_uint_arrive(value_uint(p, gid));
        CHECK(E_REDUCE, xwg_reduce_add_uint_wait(t) == row[R_ADD_U]);
        t = xwg_reduce_max_int_arrive(value_int(p, gid));
        CHECK(E_REDUCE, as_uint(xwg_reduce_max_int_wait(t)) == row[R_MAX_I]);
        t = xwg_reduce_min_float_arrive(value_float(p, gid));
        CHECK(E_REDUCE, as_uint(xwg_reduce_min_float_wait(t)) == row[R_MIN_F]);
        /* Two sums at once: each component has the float all-reduce's bits
         * (2x sums to exactly twice x's sum, in any one order), blocking and
         * nonblocking, the components swapped in the second. */
        const float vf = value_float(p, gid), sf = as_float(row[R_ADD_F]);
        float2 two = xwg_reduce_add_float2((float2)(vf, 2.0f * vf));
        CHECK(E_REDUCE, as_uint(two.x) == row[R_ADD_F] && two.y == 2.0f * sf);
        data[gid] = expected(e, gid) + 1u;
        t = xwg_reduce_add_float2_arrive((float2)(2.0f * vf, vf));
        CHECK(E_BARRIER, data[gid] == expected(e, gid) + 1u); /* work between */
        two = xwg_reduce_add_float2_wait(t);
        CHECK(E_REDUCE, two.x == 2.0f * sf && as_uint(two.y) == row[R_ADD_F]);
        CHECK(E_BARRIER, data[h * size + l] == expected(e, h * size + l) + 1u);
        const uint from = (e * 7u + 3u) % n;
        CHECK(E_BROADCAST, xwg_broadcast_uint(value_uint(p, g), from) == value_uint(p, from));
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
        /* The per-work-item scan, on values whose every partial sum is
         * exact (so any order gives these bits): x % 7 for work-item x
         * among the participants, as uint, as int less 3, and as float
         * times 2^-10 (sums below 2^14, multiples of 2^-10). */
        const uint before = prefix7(gid), all = prefix7(n * size);
        CHECK(E_SCAN, xwg_scan_exclusive_add_uint(gid % 7u, &tu) == before);
        CHECK(E_TOTAL, tu == all);
        CHECK(E_SCAN, xwg_scan_exclusive_add_int((int)(gid % 7u) - 3, &ti) ==
                      (int)(before - 3u * gid));
        CHECK(E_TOTAL, ti == (int)(all - 3u * n * size));
        CHECK(E_SCAN, xwg_scan_exclusive_add_float((float)(gid % 7u) / 1024.0f, &tf) ==
                      (float)before / 1024.0f);
        CHECK(E_TOTAL, tf == (float)all / 1024.0f);
    }
    for (uint k = 0; k < E_GROUPS; k++)
        if (bad[k]) atomic_add(&errors[k], min(bad[k], 1000u));
}
