#!/usr/bin/env bash
# experiments/racecheck.sh [build_dir] - the seeded bugs of tests/racecheck
# on PoCL (2 worker threads) and on Intel's OpenCL runtime
# (build/intel-opencl): how often a plain run of each gives a wrong answer
# in 200 launches, and how many of 20 xwg-racecheck checks report it, into
# $OUT/racecheck-plain.csv (bench/racecheck_plain_runs.py's columns;
# record it with results/record.py). scripts/run racecheck runs it.
set -euo pipefail
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1
build=${1:-$root/build}
csv=$out/racecheck-plain.csv
rm -f "$csv"
plain() { # LABEL VENDORS [ENV...]
  local label=$1 vendors=$2
  shift 2
  env OCL_ICD_VENDORS="$vendors" "$@" python3 \
    "$root/bench/racecheck_plain_runs.py" --launches 200 --checks 20 \
    --label "$label" --csv "$csv" --racecheck "$build/xwg-racecheck" \
    "$build/tests/racecheck_driver" "$root"/tests/racecheck/*.cl
}
plain pocl "$(icd_dir pocl)" POCL_MAX_PTHREAD_COUNT=2
plain intel "$(icd_dir intel)"
