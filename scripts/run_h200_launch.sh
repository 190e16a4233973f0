#!/usr/bin/env bash
# run_h200_launch.sh [OLD_TREE] - what a launch through xwg costs on the GPU
# machine, into $OUT (NAME: $NAME, default "launch"; "" in file names for
# the default):
#   clcost-waits-h200[-NAME].txt  results/raw/h200/clcost.c's "waits", twice:
#       whole launches of 1056 groups of 256, each with one way of writing
#       state before it and of waiting for it after, and xwg_launch_ex()
#       itself;
#   barrier-h200.csv  xwg-bench at 256 work-items, twice, labels
#       xwg-nvidia-NAME1 and -NAME2 (its relaunch/xwg rows).
# With OLD_TREE, a source tree of an earlier commit (for example
# `git archive COMMIT | tar -x -C scratch/old`, passed with the device
# tool's carry), the same again built from it, into
# clcost-waits-h200[-NAME]-old.txt and labels xwg-nvidia-old-NAME1, -2; each
# program runs twice, alternating with the other build, so that drift
# hits both alike. clcost.c comes from this tree for both builds (older
# ones may lack "waits"). Run from the repository root.
set -uo pipefail
source "$(dirname "$0")/h200_bench_common.sh" || exit 1 # $out, $csv, $bench
old=${1:-}
name=${NAME:-launch}
suffix=$([ "$name" = launch ] || echo "-$name")
if [ -n "$old" ]; then
  rm -rf /tmp/xwg-old # a build of another tree, from an earlier call
  cmake -S "$old" -B /tmp/xwg-old -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DXWG_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/xwg-old \
        >/dev/null || exit 1
fi
build_clcost() { # BUILD_DIR INCLUDE_DIR: BUILD_DIR/clcost
  gcc -O2 -I"$2" results/raw/h200/clcost.c "$1/libxwg.a" -lOpenCL -lpthread \
      -lm -o "$1/clcost"
}
build_clcost /tmp/xwg-build include || exit 1
[ -z "$old" ] || build_clcost /tmp/xwg-old "$old/include" || exit 1
new_txt="$out/clcost-waits-h200$suffix.txt"
old_txt="$out/clcost-waits-h200$suffix-old.txt"
rm -f "$new_txt" "$old_txt"
for i in 1 2; do
  /tmp/xwg-build/clcost NVIDIA waits >> "$new_txt" || exit 1
  [ -z "$old" ] || /tmp/xwg-old/clcost NVIDIA waits >> "$old_txt" || exit 1
done
for i in 1 2; do
  if [ -n "$old" ]; then
    timeout 200 /tmp/xwg-old/xwg-bench --platform-name NVIDIA \
        --local-sizes 256 --label "xwg-nvidia-old-$name$i" --csv "$csv" >&2 \
        || exit 1
  fi
  timeout 200 $bench --platform-name NVIDIA \
      --local-sizes 256 --label "xwg-nvidia-$name$i" --csv "$csv" >&2 || exit 1
done
grep -h "relaunch/xwg,\|discovery" "$csv"
