/*
 * xwg_litmus.c - the xwg-litmus command: which weak outcomes of the
 * classic litmus tests (MP, SB, LB, CoRR, and MP with plain data) a device
 * shows, with no fence
 * and with each of xwg's fence-scope helpers, for two testing threads in
 * different groups and in the same group.
 *
 * Each iteration is one launch (through xwg_launch, so every group is
 * co-resident) with thousands of test instances: the host places the
 * testing threads at random (random group pairs, random offsets), and
 * every thread first hammers scratch memory. Outcomes are counted over
 * --iterations launches. An outcome is "forbidden" where the fence on both
 * sides has a scope that includes both threads (and CoRR's is forbidden
 * always, by coherence); the table says so beside each count.
 */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */
#include "litmus_source.h" /* litmus_kernel.cl, embedded at build time */
#include "xwg_barrier.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Words between locations: 128 bytes, LINE in litmus_kernel.cl. */
#define LITMUS_LINE 32u

static const char *test_names[] = {"MP", "SB", "LB", "CoRR", "MP+plain"};
static const char *fence_names[] = {"none", "work_group", "device", "system"};
static const char *placement_names[] = {"inter", "intra"};
/* The weak outcome (r0, r1) of each test. */
static const int weak[5][2] = {{1, 0}, {0, 0}, {1, 1}, {1, 0}, {1, 0}};

typedef struct options {
    const char *platform;
    int tests[5], placements[2], fences[4];
    unsigned iterations, stress, seed;
    size_t local;
    int json, no_overlap;
} options;

typedef struct litmus {
    cl_context cl;
    cl_device_id device;
    cl_command_queue queue;
    xwg_context *xc;
    cl_kernel k;
    cl_uint groups; /* discovered */
    xwg_device_info info;
} litmus;

/* Forbidden: a fence on both sides whose scope holds both threads, or
 * coherence (CoRR). SB needs sequentially consistent fences (acq_rel ones,
 * which the cl20 path falls back to without seq_cst, allow its weak
 * outcome), and OpenCL 1.x's mem_fence promises nothing for it. */
static int sc_fences;

static int forbidden(int test, int placement, int fence)
{
    if (test == 3)
        return 1;
    if (fence == 0 || (test == 1 && !sc_fences))
        return 0;
    return fence >= 2 || placement == 1;
}

static unsigned next_random(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

/* Fills role[] for one iteration; returns the number of instances. */
static unsigned place(int placement, cl_uint groups, size_t local,
                      unsigned *rng, int *role)
{
    size_t items = (size_t)groups * local;
    for (size_t i = 0; i < items; i++)
        role[i] = -1;
    cl_uint *perm = malloc(groups * sizeof *perm);
    for (cl_uint g = 0; g < groups; g++)
        perm[g] = g;
    for (cl_uint g = groups - 1; g > 0; g--) { /* Fisher-Yates */
        cl_uint j = next_random(rng) % (g + 1), t = perm[g];
        perm[g] = perm[j];
        perm[j] = t;
    }
    unsigned inst = 0;
    /* Half the groups test (at least one pair or group); the rest stress. */
    if (placement == 0) {
        cl_uint pairs = groups / 4 > 0 ? groups / 4 : groups / 2;
        for (cl_uint p = 0; p < pairs; p++) {
            cl_uint a = perm[2 * p], b = perm[2 * p + 1];
            size_t shift = next_random(rng) % 4;
            for (size_t l = 0; l < local; l++, inst++) {
                role[a * local + l] = (int)(inst * 2);
                role[b * local + (l + shift) % local] = (int)(inst * 2 + 1);
            }
        }
    } else {
        cl_uint tested = groups / 2 > 0 ? groups / 2 : 1;
        for (cl_uint p = 0; p < tested; p++) {
            cl_uint g = perm[p];
            size_t shift = next_random(rng) % 4;
            size_t half = local / 2, upper = local - half;
            for (size_t l = 0; l < half; l++, inst++) {
                role[g * local + l] = (int)(inst * 2);
                role[g * local + half + (l + shift) % upper] =
                    (int)(inst * 2 + 1);
            }
        }
    }
    free(perm);
    return inst;
}

/* Runs one test variant; counts[r0 * 2 + r1]. */
static int run_variant(litmus *L, const options *o, int test, int placement,
                       int fence, unsigned long long counts[4])
{
    size_t items = (size_t)L->groups * o->local;
    int *role = malloc(items * sizeof *role);
    unsigned max_inst = (unsigned)(items / 2 + 1);
    cl_uint *out = malloc(max_inst * 2 * sizeof *out);
    unsigned char *skip = malloc(max_inst); /* instances that did not run */
    int err;
    size_t mem_words = (size_t)max_inst * 2 * LITMUS_LINE;
    cl_uint scratch_words = 1u << 16;
    cl_mem mem = clCreateBuffer(L->cl, CL_MEM_READ_WRITE,
                                mem_words * sizeof(cl_uint), NULL, &err);
    cl_mem dout = clCreateBuffer(L->cl, CL_MEM_READ_WRITE,
                                 max_inst * 2 * sizeof *out, NULL, &err);
    cl_mem drole = clCreateBuffer(L->cl, CL_MEM_READ_ONLY,
                                  items * sizeof *role, NULL, &err);
    cl_mem scratch = clCreateBuffer(L->cl, CL_MEM_READ_WRITE,
                                    scratch_words * sizeof(cl_uint), NULL, &err);
    unsigned rng = o->seed * 2654435761u + (unsigned)(test * 16 + placement * 4 + fence);
    const cl_uint zero = 0, unset = 0xffffffffu;
    cl_uint t = (cl_uint)test, f = (cl_uint)fence, stress = o->stress;
    clEnqueueFillBuffer(L->queue, scratch, &zero, sizeof zero, 0,
                        scratch_words * sizeof(cl_uint), 0, NULL, NULL);
    clSetKernelArg(L->k, 0, sizeof mem, &mem);
    clSetKernelArg(L->k, 1, sizeof dout, &dout);
    clSetKernelArg(L->k, 2, sizeof drole, &drole);
    clSetKernelArg(L->k, 3, sizeof scratch, &scratch);
    clSetKernelArg(L->k, 4, sizeof scratch_words, &scratch_words);
    clSetKernelArg(L->k, 5, sizeof t, &t);
    clSetKernelArg(L->k, 6, sizeof f, &f);
    clSetKernelArg(L->k, 7, sizeof stress, &stress);
    err = XWG_SUCCESS;
    for (unsigned it = 0; err == XWG_SUCCESS && it < o->iterations; it++) {
        unsigned inst = place(placement, L->groups, o->local, &rng, role);
        memset(skip, 0, max_inst);
        clEnqueueWriteBuffer(L->queue, drole, CL_FALSE, 0, items * sizeof *role,
                             role, 0, NULL, NULL);
        clEnqueueFillBuffer(L->queue, mem, &zero, sizeof zero, 0,
                            mem_words * sizeof(cl_uint), 0, NULL, NULL);
        clEnqueueFillBuffer(L->queue, dout, &unset, sizeof unset, 0,
                            max_inst * 2 * sizeof *out, 0, NULL, NULL);
        /* The known-bad harness runs the two threads in two launches. */
        for (cl_uint phase = o->no_overlap ? 1 : 0;
             err == XWG_SUCCESS && phase <= (o->no_overlap ? 2u : 0u);
             phase++) {
            clSetKernelArg(L->k, 8, sizeof phase, &phase);
            xwg_launch_options lo = XWG_LAUNCH_OPTIONS_INIT;
            lo.groups = L->groups;
            xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
            err = xwg_launch_ex(L->xc, L->queue, L->k, o->local, &lo, &info);
            /* Roles at or past the participants' work-items did not run. */
            size_t ran = (size_t)info.groups * o->local;
            for (size_t i = ran; err == XWG_SUCCESS && i < items; i++)
                if (role[i] >= 0)
                    skip[role[i] >> 1] = 1;
        }
        clEnqueueReadBuffer(L->queue, dout, CL_TRUE, 0,
                            inst * 2 * sizeof *out, out, 0, NULL, NULL);
        /* Instances whose threads did not take part (a group that the
         * in-kernel protocol did not admit) left their outputs unset. */
        for (unsigned i = 0; i < inst; i++)
            if (!skip[i] && out[2 * i] <= 1 && out[2 * i + 1] <= 1)
                counts[out[2 * i] * 2 + out[2 * i + 1]]++;
    }
    clReleaseMemObject(mem);
    clReleaseMemObject(dout);
    clReleaseMemObject(drole);
    clReleaseMemObject(scratch);
    free(role);
    free(out);
    free(skip);
    return err;
}

/* Parses "a,b,c" against names (case-insensitive); sets on[i]. */
static int parse_set(const char *list, const char **names, int n, int *on)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", list);
    memset(on, 0, n * sizeof *on);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        int found = 0;
        for (int i = 0; i < n; i++)
            if (!strcasecmp(tok, names[i]) ||
                (!strcmp(names[i], "work_group") && !strcasecmp(tok, "wg")))
                on[i] = found = 1;
        if (!found)
            return -1;
    }
    return 0;
}

static const char usage[] =
    "usage: xwg-litmus [options]\n"
    "Counts the outcomes of the litmus tests MP, SB, LB and CoRR, with no\n"
    "fence and with xwg's work-group, device and system fences, for two\n"
    "threads in different groups (inter) and in one group (intra).\n"
    "  --platform-name S   the platform whose name or vendor contains S\n"
    "  --tests L           mp,sb,lb,corr,mp+plain (default: all)\n"
    "  --placements L      inter,intra (default: both)\n"
    "  --fences L          none,wg,device,system (default: all)\n"
    "  --iterations N      launches per variant (default 100)\n"
    "  --local-size N      work-items per group (default 256)\n"
    "  --stress N          scratch updates per thread first (default 32)\n"
    "  --seed N            placement seed (default 1)\n"
    "  --no-overlap        KNOWN-BAD harness: the two threads run in two\n"
    "                      launches, so weak outcomes cannot appear\n"
    "  --json, --help, --version\n";

int main(int argc, char **argv)
{
    options o = {NULL, {1, 1, 1, 1, 1}, {1, 1}, {1, 1, 1, 1}, 100, 32, 1, 256,
                 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "--help")) { fputs(usage, stdout); return 0; }
        if (!strcmp(a, "--version")) {
            printf("xwg-litmus %s\n", xwg_version_string());
            return 0;
        }
        if (!strcmp(a, "--json")) { o.json = 1; continue; }
        if (!strcmp(a, "--no-overlap")) { o.no_overlap = 1; continue; }
        if (v == NULL) {
            fprintf(stderr, "xwg-litmus: unknown option or missing value: "
                            "%s (try --help)\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--platform-name")) o.platform = v;
        else if (!strcmp(a, "--tests")) bad = parse_set(v, test_names, 5, o.tests);
        else if (!strcmp(a, "--placements")) bad = parse_set(v, placement_names, 2, o.placements);
        else if (!strcmp(a, "--fences")) bad = parse_set(v, fence_names, 4, o.fences);
        else if (!strcmp(a, "--iterations")) bad = (o.iterations = strtoul(v, NULL, 10)) == 0;
        else if (!strcmp(a, "--local-size")) bad = (o.local = strtoul(v, NULL, 10)) < 2;
        else if (!strcmp(a, "--stress")) o.stress = strtoul(v, NULL, 10);
        else if (!strcmp(a, "--seed")) o.seed = strtoul(v, NULL, 10);
        else bad = 1;
        if (bad) {
            fprintf(stderr, "xwg-litmus: bad option %s %s (try --help)\n", a, v);
            return 2;
        }
    }

    litmus L = {0};
    cl_platform_id p;
    int err = xwg_find_device(o.platform, &p, &L.device);
    if (err != XWG_SUCCESS) {
        fprintf(stderr, "xwg-litmus: no device: %s\n", xwg_status_string(err));
        return 1;
    }
    L.cl = clCreateContext(NULL, 1, &L.device, NULL, NULL, &err);
    L.queue = clCreateCommandQueueWithProperties(L.cl, L.device, NULL, &err);
    /* Litmus tests exist to show weak behaviour: run on any device. */
    xwg_options xo;
    xwg_options_init(&xo);
    xo.self_test = XWG_SELF_TEST_REPORT;
    cl_program prog = NULL;
    char *log = NULL;
    if ((err = xwg_context_create(L.cl, L.device, &xo, &L.xc)) != XWG_SUCCESS ||
        (err = xwg_program_build(L.xc, litmus_source, NULL, &prog, &log)) !=
            XWG_SUCCESS) {
        fprintf(stderr, "xwg-litmus: %s\n%s", xwg_status_string(err),
                log ? log : "");
        return 1;
    }
    L.k = clCreateKernel(prog, "litmus", &err);
    L.info.size = sizeof L.info;
    xwg_context_query(L.xc, &L.info);
    sc_fences = L.info.atomics_path != XWG_ATOMICS_CL12 &&
                ((L.info.opencl_c_max >= 200 && L.info.opencl_c_max < 300) ||
                 (L.info.atomic_fence_capabilities &
                  CL_DEVICE_ATOMIC_ORDER_SEQ_CST));
    if (o.local > L.info.max_work_group_size)
        o.local = L.info.max_work_group_size;
    /* Discovery needs the arguments set; any valid buffers do. */
    cl_mem dummy = clCreateBuffer(L.cl, CL_MEM_READ_WRITE, 64, NULL, &err);
    cl_uint zero = 0, one = 1;
    for (cl_uint a = 0; a < 4; a++)
        clSetKernelArg(L.k, a, sizeof dummy, &dummy);
    clSetKernelArg(L.k, 4, sizeof one, &one);
    for (cl_uint a = 5; a < 9; a++)
        clSetKernelArg(L.k, a, sizeof zero, &zero);
    xwg_occupancy occ = XWG_OCCUPANCY_INIT;
    err = xwg_discover(L.xc, L.k, o.local, &occ);
    /* Discovery may find one group where two fit (a worker thread that
     * starts late: PoCL on 2 busy cores). Tests between groups need two:
     * look again a few times before running without them. */
    for (int again = 0; err == XWG_SUCCESS && o.placements[0] &&
                        occ.groups < 2 && again < 5; again++)
        err = xwg_discover_uncached(L.xc, L.k, o.local, &occ);
    if (err != XWG_SUCCESS) {
        fprintf(stderr, "xwg-litmus: discovery: %s\n", xwg_status_string(err));
        return 1;
    }
    if (o.placements[0] && occ.groups < 2)
        fprintf(stderr, "xwg-litmus: one group runs at a time here: the "
                        "tests between groups are left out\n");
    L.groups = occ.groups;
    clReleaseMemObject(dummy);

    if (o.json)
        printf("[");
    else
        printf("%s (%s path), %u groups of %zu, %u iterations%s\n"
               "%-5s %-6s %-11s %10s %10s %10s %10s  %s\n",
               L.info.device_name,
               xwg_atomics_path_name(L.info.atomics_path),
               L.groups, o.local, o.iterations,
               o.no_overlap ? " (KNOWN-BAD no-overlap harness)" : "", "test",
               "place", "fence", "r=00", "r=01", "r=10", "r=11",
               "weak outcome");
    int first = 1, status = 0;
    for (int t = 0; t < 5; t++)
        for (int pl = 0; pl < 2; pl++)
            for (int f = 0; f < 4; f++) {
                if (!o.tests[t] || !o.placements[pl] || !o.fences[f])
                    continue;
                if (pl == 0 && L.groups < 2)
                    continue; /* no second group to place a thread in */
                unsigned long long c[4] = {0};
                err = run_variant(&L, &o, t, pl, f, c);
                if (err != XWG_SUCCESS) {
                    fprintf(stderr, "xwg-litmus: %s %s %s: %s\n",
                            test_names[t], placement_names[pl],
                            fence_names[f], xwg_status_string(err));
                    status = 1;
                    continue;
                }
                unsigned long long w = c[weak[t][0] * 2 + weak[t][1]];
                unsigned long long total = c[0] + c[1] + c[2] + c[3];
                const char *verdict =
                    forbidden(t, pl, f) ? "forbidden" : "allowed";
                if (o.json)
                    printf("%s\n {\"device\": \"%s\", \"path\": \"%s\", "
                           "\"test\": \"%s\", \"placement\": \"%s\", "
                           "\"fence\": \"%s\", \"outcomes\": {\"00\": %llu, "
                           "\"01\": %llu, \"10\": %llu, \"11\": %llu}, "
                           "\"weak\": %llu, \"runs\": %llu, \"weak_is\": "
                           "\"%s\", \"iterations\": %u}",
                           first ? "" : ",", L.info.device_name,
                           xwg_atomics_path_name(L.info.atomics_path),
                           test_names[t], placement_names[pl], fence_names[f],
                           c[0], c[1], c[2], c[3], w, total, verdict,
                           o.iterations);
                else
                    printf("%-5s %-6s %-11s %10llu %10llu %10llu %10llu  "
                           "%llu (%s%s)\n",
                           test_names[t], placement_names[pl], fence_names[f],
                           c[0], c[1], c[2], c[3], w, verdict,
                           w && forbidden(t, pl, f) ? ", SEEN" : "");
                fflush(stdout);
                first = 0;
            }
    if (o.json)
        printf("\n]\n");
    clReleaseKernel(L.k);
    clReleaseProgram(prog);
    xwg_context_release(L.xc);
    clReleaseCommandQueue(L.queue);
    clReleaseContext(L.cl);
    return status;
}
