#!/usr/bin/env bash
# test.sh - builds xwg and runs every test: the whole ctest suite on a
# normal build, then the host tests again under AddressSanitizer (recall
# and the consumer-package tests stay out of that run: co-residency
# collapses under a sanitizer). Exits non-zero if anything fails.
#
# Its builds are its own: build-test/ (RelWithDebInfo, so that a failure
# has a backtrace worth reading; XWG_TEST_BUILD_DIR names another) and
# build-asan/. build/ is the user's: a build type cached there would stay
# for the README's install, which must be Release by default.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${XWG_TEST_BUILD_DIR:-build-test}
# Both runs share one program cache (docs/host-api.md, xwg_program_build):
# the suites build the same programs in hundreds of processes, and
# Intel's runtime would compile each one every time. Each program is
# still compiled from source once, by its first build; the cache's own
# tests use folders of their own.
export XWG_PROGRAM_CACHE=${XWG_PROGRAM_CACHE:-$PWD/$build/program-cache}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build"
ctest --test-dir "$build" --output-on-failure -j2

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DXWG_ASAN=ON
cmake --build build-asan
# LeakSanitizer walks the dynamic TLS blocks of every thread at exit;
# with PoCL's dlopen'd LLVM it can read a bogus block and crash its own
# tracer ("Tracer caught signal 11", a test then fails with no finding),
# and whether it does depends on the process's layout, down to the length
# of the checkout's path. Not tracking those blocks can only add reports
# (a pointer held there alone would look leaked), never hide one.
# The implementations' own leaks (PoCL's compile of a kernel that its cache
# does not hold, Intel's program build) are suppressed: tests/lsan_runtimes.supp.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}intercept_tls_get_addr=0 \
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$PWD/tests/lsan_runtimes.supp \
  ctest --test-dir build-asan --output-on-failure -L host -j2
