#!/usr/bin/env bash
# experiments/apps.sh [build_dir | GRAPH...] - the graph applications, both
# versions (the barrier against a launch per iteration), in the columns of
# results/study.csv (implementation, device, app, graph, variant, time_ms,
# groups, iterations, verified). scripts/run apps --platform local|nvidia
# runs it:
#   local   into $OUT/study.csv (default build/out), started afresh: PoCL
#           with 2 worker threads; Oclgrind on an 8 x 8 grid and R-MAT
#           scale 7 with its race checkers (timings there are a
#           simulator's); Mesa rusticl is refused by xwg's barrier
#           self-test, which the CSV records;
#   nvidia  the GPU machine (NVIDIA's OpenCL), through the device tool,
#           rows appended to $OUT/study-h200.csv: the device tool gives
#           every command an empty $OUT; elsewhere, start from an empty
#           one, or earlier rows count in the medians. The grid graphs are
#           the high-diameter case (thousands of iterations, where a launch
#           per iteration costs most); the R-MAT graphs run from scale 10
#           up. Graphs are the arguments (default: grids 256 and 1024,
#           R-MAT 10 to 22); a device command lasts at most 10 minutes, so
#           the largest scales go in a call of their own:
#             scripts/run apps --platform nvidia -- rmat:24
#             XWG_APPS_REPEAT=1 XWG_APPS_TIMEOUT=540 \
#               scripts/run apps --platform nvidia -- rmat:26
#           (scale 26: 483 s in one command on 2026-11-30).
# Record each file as a run of its own with results/record.py
# (results/README.md, "Adding a run"), then python3 results/render.py.
set -uo pipefail
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1
if [ "$platform" = nvidia ]; then
  source "$root/scripts/nvidia_setup.sh" || exit 1
  csv="$out/study-h200.csv"
  [ -s "$csv" ] ||
    echo "implementation,device,app,graph,variant,time_ms,groups,iterations,verified" > "$csv"
  graphs=("$@")
  [ ${#graphs[@]} -gt 0 ] ||
    graphs=(grid:256x256 grid:1024x1024 rmat:10 rmat:14 rmat:18 rmat:20 rmat:22)
  status=0
  for g in "${graphs[@]}"; do
    echo "== NVIDIA $g" >&2
    timeout "${XWG_APPS_TIMEOUT:-250}" /tmp/xwg-build/xwg-apps \
        --platform-name NVIDIA --graph "$g" --repeat "${XWG_APPS_REPEAT:-3}" \
        --csv "$csv" --label nvidia-h200 >&2 || status=1
  done
  exit $status
fi
build=${1:-$root/build}
csv=$out/study.csv
echo "implementation,device,app,graph,variant,time_ms,groups,iterations,verified" > "$csv"
pocl=$(icd_dir pocl)
for g in grid:128x128 grid:256x256 rmat:12 rmat:14 rmat:16; do
  echo "== PoCL $g" >&2
  OCL_ICD_VENDORS=$pocl POCL_MAX_PTHREAD_COUNT=2 timeout 900 \
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
      echo "apps: Oclgrind reported real races or wrong answers" >&2
  done
fi
echo "== rusticl (expected: refused)" >&2
if ! RUSTICL_ENABLE=llvmpipe OCL_ICD_VENDORS=$(icd_dir rusticl) timeout 300 \
    "$build/xwg-apps" --graph grid:32x32 --label rusticl >&2; then
  echo "rusticl-llvmpipe,\"llvmpipe\",all,grid32x32,refused,,,,0" >> "$csv"
fi
echo "apps: $(($(wc -l < "$csv") - 1)) rows" >&2
