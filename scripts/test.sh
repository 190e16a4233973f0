#!/usr/bin/env bash
# test.sh - builds xwg and runs every test: the whole ctest suite on a
# normal build, then the host tests again under AddressSanitizer (recall
# and the consumer-package tests stay out of that run: co-residency
# collapses under a sanitizer). Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build
ctest --test-dir build --output-on-failure -j2

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DXWG_ASAN=ON
cmake --build build-asan
ctest --test-dir build-asan --output-on-failure -L host -j2
