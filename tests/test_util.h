/*
 * test_util.h - what the Check suites share: an OpenCL context on the
 * implementation the test's environment selects (ctest sets
 * OCL_ICD_VENDORS per test), and reference-count helpers that prove a call
 * leaked nothing. Every OpenCL object is made inside a test, never in the
 * parent process: Check forks per test, and a PoCL context made before the
 * fork hangs the child.
 */
#ifndef XWG_TEST_UTIL_H
#define XWG_TEST_UTIL_H

#include "xwg_barrier.h"

#include <check.h>

typedef struct test_env {
    cl_platform_id platform;
    cl_device_id device;
    cl_context cl;
    cl_command_queue queue;
    xwg_context *xc;
} test_env;

/* Opens the first device of the platform named by XWG_TEST_PLATFORM (or
 * the first platform) with an xwg context (opts may be NULL). Fails the
 * test on error. */
void test_env_open(test_env *env, const xwg_options *opts);
void test_env_close(test_env *env);

/* Builds source with xwg_program_build and creates kernel `name`; fails
 * the test (printing the build log) on error. extra_options may be NULL. */
cl_kernel test_build_kernel(test_env *env, const char *source,
                            const char *name, const char *extra_options);

/* A read-write buffer of `bytes` (fails the test if it cannot be made);
 * `words` words of it set to `value`, waited for; its first `words` words
 * read back. */
cl_mem test_buffer(test_env *env, size_t bytes);
void test_fill(test_env *env, cl_mem m, cl_uint value, size_t words);
void test_read_words(test_env *env, cl_mem m, cl_uint *out, size_t words);

cl_uint test_refcount_context(cl_context c);
/* The context's count once it has fallen to `at_most`, or after 5 s.
 * Runtimes drop some references from worker threads (rusticl releases a
 * queue's references when its thread gets to it), so a count read at once
 * can be high for a moment; a leak stays high. */
cl_uint test_settled_refcount_context(cl_context c, cl_uint at_most);
cl_uint test_refcount_kernel(cl_kernel k);
/* The same for a kernel, whose finished commands can hold it a moment. */
cl_uint test_settled_refcount_kernel(cl_kernel k, cl_uint at_most);
cl_uint test_refcount_program(cl_program p);
cl_uint test_refcount_mem(cl_mem m);

/* Runs every test of the suite (forking per test); the exit status for
 * main: 0 if all passed. */
int test_run_suite(Suite *suite);

/* Sets opts to launch `groups` groups, each a participant, whatever
 * discovery would find (skip_discovery): a test's way to run more than one
 * group on a busy machine, where the implementation runs that many groups
 * at once on every launch (PoCL: a thread per group). Where co-residency is
 * decided launch by launch (XWG_TEST_RESIDENCY=per-launch: Intel's runtime
 * sometimes runs one group of two after the other, so a forced launch can
 * wait for the watchdog), discovery stays on: `groups` are launched and the
 * in-kernel protocol admits those that run together. */
void test_force_groups(xwg_launch_options *opts, cl_uint groups);

/* An integer from the environment, or fallback. */
int test_env_int(const char *name, int fallback);

/* The build options of the known-bad variant that XWG_TEST_BROKEN names
 * (tests/known_bad.h, in any case): " -DXWG_TEST_BROKEN_NAME", or "" where
 * it is unset or empty. An unknown name fails the test. */
const char *test_broken_options(void);

#endif
