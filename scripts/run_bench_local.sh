#!/usr/bin/env bash
# run_bench_local.sh [build_dir] - xwg-bench on PoCL with 2 worker threads
# and 64 work-items per group, beside two barriers among 2 host threads (a
# pthread_barrier_t and a C11 spin barrier) measured in the same run, into
# $OUT/barrier-pocl.csv (default build/out; xwg-bench's columns; record it
# with results/record.py).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=${OUT:-$root/build/out}
mkdir -p "$out"
csv=$out/barrier-pocl.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/pocl" && cp /etc/OpenCL/vendors/pocl.icd "$tmp/pocl/"
rm -f "$csv"
OCL_ICD_VENDORS=$tmp/pocl POCL_MAX_PTHREAD_COUNT=2 timeout 600 \
  "$build/xwg-bench" --local-sizes 64 --e1 2000 --e2 42000 --cpu-baselines \
  --csv "$csv" --label xwg
