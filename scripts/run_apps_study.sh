#!/usr/bin/env bash
# run_apps_study.sh [build_dir] - the graph applications on the local
# implementations, both versions, into $OUT/study.csv (default build/out;
# columns:
# implementation, device, app, graph, variant, time_ms, groups,
# iterations, verified). PoCL with 2 worker threads; Oclgrind on an 8 x 8
# grid and R-MAT scale 7 with its race checkers (timings there are a
# simulator's); Mesa rusticl is refused by xwg's barrier self-test, which
# the CSV records.
# The file starts afresh. The H200's rows come from scripts/run_h200_apps.sh,
# a run of their own. Record the file with results/record.py
# (results/README.md, "Adding a run").
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=${OUT:-$root/build/out}
mkdir -p "$out"
csv=$out/study.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "implementation,device,app,graph,variant,time_ms,groups,iterations,verified" > "$csv"
mkdir -p "$tmp/pocl" "$tmp/rusticl"
cp /etc/OpenCL/vendors/pocl.icd "$tmp/pocl/" 2>/dev/null
cp /etc/OpenCL/vendors/rusticl.icd "$tmp/rusticl/" 2>/dev/null
for g in grid:128x128 grid:256x256 rmat:12 rmat:14 rmat:16; do
  echo "== PoCL $g" >&2
  OCL_ICD_VENDORS=$tmp/pocl POCL_MAX_PTHREAD_COUNT=2 timeout 900 \
    "$build/xwg-apps" --graph "$g" --repeat 3 --csv "$csv" --label pocl-2threads >&2
done
echo "== Oclgrind (small graphs; its race and uninitialised-value checkers)" >&2
if command -v oclgrind >/dev/null; then
  # Oclgrind runs its own ICD; the classifier fails the run on any report
  # the barrier cannot explain (tests/oclgrind_reports.py).
  # rmat:7 has hubs of several segments, which decide through atomics.
  for g in grid:8x8 rmat:7; do
    timeout 900 python3 "$root/tests/oclgrind_reports.py" -- oclgrind \
        --data-races --uninitialized --max-errors 100000000 --num-threads 2 \
        "$build/xwg-apps" --graph $g --local-size 16 --csv "$csv" \
        --label oclgrind-2threads >&2 ||
      echo "run_apps_study: Oclgrind reported real races or wrong answers" >&2
  done
fi
echo "== rusticl (expected: refused)" >&2
if ! RUSTICL_ENABLE=llvmpipe OCL_ICD_VENDORS=$tmp/rusticl timeout 300 \
    "$build/xwg-apps" --graph grid:32x32 --label rusticl >&2; then
  echo "rusticl-llvmpipe,\"llvmpipe\",all,grid32x32,refused,,,,0" >> "$csv"
fi
echo "run_apps_study: $(($(wc -l < "$csv") - 1)) rows" >&2
