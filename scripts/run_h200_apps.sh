#!/usr/bin/env bash
# run_h200_apps.sh - the graph applications on the H200 (NVIDIA OpenCL),
# both versions, through the device tool, into $OUT/study-h200.csv (the
# columns of results/study.csv). The grid graphs are the high-diameter
# case (thousands of iterations, where a launch per iteration costs most);
# the R-MAT graphs run from scale 10 up. Graphs are the arguments (default:
# grids 256 and 1024, R-MAT 10 to 22); a device command lasts at most 10
# minutes, so the largest scales go in a call of their own:
#   scripts/run_h200_apps.sh rmat:24
#   XWG_APPS_REPEAT=1 XWG_APPS_TIMEOUT=540 scripts/run_h200_apps.sh rmat:26
# (scale 26: 483 s in one command on 2026-11-30). Rows are appended to
# $OUT/study-h200.csv: the device tool gives every command an empty $OUT;
# elsewhere, start from an empty one, or earlier rows count in the medians.
# Then, here: record the file as a run of its own with results/record.py
# (results/README.md, "Adding a run"), and python3 results/render.py.
set -uo pipefail
out=${OUT:-./h200-out}
mkdir -p "$out"
source "$(dirname "$0")/h200_setup.sh" || exit 1
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
      --platform-name NVIDIA --graph "$g" --repeat "${XWG_APPS_REPEAT:-3}" --csv "$csv" \
      --label nvidia-h200 >&2 || status=1
done
exit $status
