/*
 * test_program_cache.c - XWG_PROGRAM_CACHE (src/host/program_cache.c):
 * a build stored once is loaded, not compiled, by the next build of the
 * same source and options, in this process or another; the loaded
 * program launches as the compiled one does (on Intel's runtime, whose
 * binaries carry no argument info, through the parameters the cache
 * recorded); a broken, foreign or failed build is never taken; and a
 * loaded program is the caller's alone. PoCL, which keeps a cache of its
 * own, is left out: there nothing is stored.
 *
 * A hit is told apart from a miss without a clock: a miss writes its
 * entry again (a new file renamed into place: a new inode), a hit leaves
 * the file as it was.
 *
 * Each test works in a folder of its own under /tmp, set in its own
 * process (Check forks per test), and removes it.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, setenv */
#include "good_source.h" /* api_good.cl */
#include "test_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

/* A fresh cache folder, named in the environment. */
static void cache_on(void)
{
    snprintf(dir, sizeof dir, "/tmp/xwg-cache-test-XXXXXX");
    ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp failed");
    setenv("XWG_PROGRAM_CACHE", dir, 1);
}

/* The entries (*.xwgbin) the folder held at the last snapshot(): the
 * context's own programs (the self-test's, the calibration's) are stored
 * there too, so a test counts only the entries its builds added. */
#define SEEN_MAX 64
static char seen[SEEN_MAX][256];
static int seen_len;

static int is_entry(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot != NULL && strcmp(dot, ".xwgbin") == 0;
}

static int was_seen(const char *name)
{
    for (int i = 0; i < seen_len; i++)
        if (strcmp(seen[i], name) == 0)
            return 1;
    return 0;
}

static void snapshot(void)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "%s is gone", dir);
    seen_len = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (is_entry(e->d_name) && seen_len < SEEN_MAX)
            snprintf(seen[seen_len++], sizeof seen[0], "%s", e->d_name);
    closedir(d);
}

/* The entries added since the snapshot; the path of one into path. */
static int added(char *path, size_t size)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "%s is gone", dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (is_entry(e->d_name) && !was_seen(e->d_name)) {
            n++;
            if (path != NULL)
                snprintf(path, size, "%s/%s", dir, e->d_name);
        }
    }
    closedir(d);
    return n;
}

static void cache_off(void)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
        char path[400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_name[0] != '.')
            remove(path);
    }
    if (d != NULL)
        closedir(d);
    rmdir(dir);
    unsetenv("XWG_PROGRAM_CACHE");
}

static ino_t inode_of(const char *path)
{
    struct stat st;
    ck_assert_msg(stat(path, &st) == 0, "%s is gone", path);
    return st.st_ino;
}

static cl_program build(test_env *env, const char *source,
                        const char *options)
{
    cl_program prog = NULL;
    char *log = NULL;
    int err = xwg_program_build(env->xc, source, options, &prog, &log);
    ck_assert_msg(err == XWG_SUCCESS, "build: %s\n%s", xwg_status_name(err),
                  log ? log : "");
    free(log);
    return prog;
}

/* Launches kernel k of prog (XWG_STATE second) and checks that every group
 * recorded the group count: the state parameter was found where it is. */
static void launches_right(test_env *env, cl_program prog)
{
    int err;
    cl_kernel k = clCreateKernel(prog, "k", &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    cl_mem out = test_buffer(env, 64 * sizeof(cl_uint));
    test_fill(env, out, 0, 64);
    clSetKernelArg(k, 0, sizeof out, &out);
    xwg_launch_info info = XWG_LAUNCH_INFO_INIT;
    err = xwg_launch_ex(env->xc, env->queue, k, 16, NULL, &info);
    ck_assert_msg(err == XWG_SUCCESS, "launch: %s (%s)", xwg_status_name(err),
                  xwg_last_error());
    cl_uint got[64];
    test_read_words(env, out, got, 64);
    ck_assert_msg(info.groups >= 1 && info.groups <= 64, "%u groups",
                  info.groups);
    for (cl_uint g = 0; g < info.groups; g++)
        ck_assert_msg(got[g] == info.groups, "group %u wrote %u, not %u", g,
                      got[g], info.groups);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

START_TEST(a_second_build_is_loaded_and_launches)
{
    cache_on();
    test_env env;
    test_env_open(&env, NULL);
    char path[400];
    snapshot();
    cl_program first = build(&env, good_source, "-DCACHE_TEST=1");
    ck_assert_int_eq(added(path, sizeof path), 1);
    ino_t stored = inode_of(path);
    launches_right(&env, first);
    clReleaseProgram(first);

    cl_program second = build(&env, good_source, "-DCACHE_TEST=1");
    ck_assert_msg(inode_of(path) == stored,
                  "the second build wrote its entry again: a miss");
    ck_assert_int_eq(added(NULL, 0), 1);
    launches_right(&env, second);
    clReleaseProgram(second);
    test_env_close(&env);

    /* Another process's context (here: a new one) loads it too. */
    test_env_open(&env, NULL);
    cl_program third = build(&env, good_source, "-DCACHE_TEST=1");
    ck_assert_msg(inode_of(path) == stored, "a new context missed");
    launches_right(&env, third);
    clReleaseProgram(third);
    test_env_close(&env);
    cache_off();
}
END_TEST

START_TEST(the_key_holds_options_and_source)
{
    cache_on();
    test_env env;
    test_env_open(&env, NULL);
    snapshot();
    clReleaseProgram(build(&env, good_source, "-DCACHE_TEST=1"));
    clReleaseProgram(build(&env, good_source, "-DCACHE_TEST=2"));
    char other[4096];
    snprintf(other, sizeof other, "%s\n/* another source */\n", good_source);
    clReleaseProgram(build(&env, other, "-DCACHE_TEST=1"));
    ck_assert_int_eq(added(NULL, 0), 3);
    test_env_close(&env);
    cache_off();
}
END_TEST

START_TEST(a_broken_entry_is_a_miss_and_is_written_again)
{
    cache_on();
    test_env env;
    test_env_open(&env, NULL);
    char path[400];
    snapshot();
    clReleaseProgram(build(&env, good_source, "-DCACHE_TEST=3"));
    ck_assert_int_eq(added(path, sizeof path), 1);
    struct stat whole;
    ck_assert_int_eq(stat(path, &whole), 0);
    /* Cut in half: the binary is short. */
    ck_assert_int_eq(truncate(path, whole.st_size / 2), 0);
    cl_program prog = build(&env, good_source, "-DCACHE_TEST=3");
    struct stat again;
    ck_assert_int_eq(stat(path, &again), 0);
    ck_assert_msg(again.st_size == whole.st_size,
                  "the short entry was not written again (%lld of %lld bytes)",
                  (long long)again.st_size, (long long)whole.st_size);
    launches_right(&env, prog);
    clReleaseProgram(prog);
    /* Another key in the file (its first byte after the magic changed):
     * taken for no other program's. */
    FILE *f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    fseek(f, 20 + 8, SEEK_SET);
    int c = fgetc(f);
    fseek(f, 20 + 8, SEEK_SET);
    fputc(c ^ 1, f);
    fclose(f);
    ino_t foreign = inode_of(path);
    prog = build(&env, good_source, "-DCACHE_TEST=3");
    ck_assert_msg(inode_of(path) != foreign, "another key's entry was taken");
    launches_right(&env, prog);
    clReleaseProgram(prog);
    test_env_close(&env);
    cache_off();
}
END_TEST

START_TEST(a_failed_build_is_not_stored)
{
    cache_on();
    test_env env;
    test_env_open(&env, NULL);
    snapshot();
    cl_program prog = NULL;
    char *log = NULL;
    int err = xwg_program_build(env.xc, "__kernel void k( { }", NULL, &prog,
                                &log);
    free(log);
    ck_assert_int_eq(err, XWG_ERROR_BUILD_FAILED);
    ck_assert_int_eq(added(NULL, 0), 0);
    test_env_close(&env);
    cache_off();
}
END_TEST

START_TEST(without_the_variable_nothing_is_written)
{
    cache_on();
    unsetenv("XWG_PROGRAM_CACHE");
    test_env env;
    test_env_open(&env, NULL);
    snapshot();
    clReleaseProgram(build(&env, good_source, "-DCACHE_TEST=4"));
    ck_assert_int_eq(added(NULL, 0), 0);
    test_env_close(&env);
    cache_off();
}
END_TEST

/* A loaded program is the caller's alone, as a compiled one is; and a
 * kernel of it launches through another context of the same OpenCL
 * context (the parameter that the cache recorded is the process's). */
START_TEST(a_loaded_program_is_the_callers_alone)
{
    cache_on();
    test_env env;
    test_env_open(&env, NULL);
    clReleaseProgram(build(&env, good_source, "-DCACHE_TEST=5"));
    cl_program loaded = build(&env, good_source, "-DCACHE_TEST=5");
    ck_assert_uint_eq(test_refcount_program(loaded), 1);
    xwg_context *other = NULL;
    ck_assert_int_eq(xwg_context_create(env.cl, env.device, NULL, &other),
                     XWG_SUCCESS);
    xwg_context *own = env.xc;
    env.xc = other;
    launches_right(&env, loaded);
    env.xc = own;
    xwg_context_release(other);
    ck_assert_uint_eq(test_refcount_program(loaded), 1);
    clReleaseProgram(loaded);
    test_env_close(&env);
    cache_off();
}
END_TEST

/* PoCL is left to its own cache (program_cache.c says why): nothing is
 * stored, and builds work as ever. */
START_TEST(pocl_is_left_to_its_own_cache)
{
    cache_on();
    test_env env;
    test_env_open(&env, NULL);
    snapshot();
    cl_program prog = build(&env, good_source, "-DCACHE_TEST=6");
    launches_right(&env, prog);
    clReleaseProgram(prog);
    ck_assert_int_eq(added(NULL, 0), 0);
    test_env_close(&env);
    cache_off();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("program_cache");
    TCase *tc = tcase_create("cache");
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    /* XWG_TEST_CACHE_SKIPPED=1: a platform the cache leaves out (ctest
     * sets it for PoCL). */
    if (test_env_int("XWG_TEST_CACHE_SKIPPED", 0)) {
        tcase_add_test(tc, pocl_is_left_to_its_own_cache);
        return test_run_suite(s);
    }
    tcase_add_test(tc, a_second_build_is_loaded_and_launches);
    tcase_add_test(tc, the_key_holds_options_and_source);
    tcase_add_test(tc, a_broken_entry_is_a_miss_and_is_written_again);
    tcase_add_test(tc, a_failed_build_is_not_stored);
    tcase_add_test(tc, without_the_variable_nothing_is_written);
    tcase_add_test(tc, a_loaded_program_is_the_callers_alone);
    return test_run_suite(s);
}
