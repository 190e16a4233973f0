#!/usr/bin/env bash
# run_h200_apps.sh - the graph applications on the H200 (NVIDIA OpenCL),
# both versions, through the device tool, into $OUT/study-h200.csv (the
# columns of results/study.csv). The grid graphs are the high-diameter
# case (thousands of iterations, where a launch per iteration costs most);
# the R-MAT graphs run from scale 10 to 20. Then, here:
#   cat study-h200.csv >> results/study.csv && python3 results/make_report.py
set -uo pipefail
out=${OUT:-./h200-out}
mkdir -p "$out"
source "$(dirname "$0")/h200_setup.sh" || exit 1
csv="$out/study-h200.csv"
rm -f "$csv"
status=0
for g in grid:256x256 grid:1024x1024 rmat:10 rmat:14 rmat:18 rmat:20; do
  echo "== NVIDIA $g" >&2
  timeout 150 /tmp/xwg-build/xwg-apps --platform-name NVIDIA --graph "$g" \
      --repeat 3 --csv "$csv" --label nvidia-h200 >&2 || status=1
done
exit $status
