#!/usr/bin/env bash
# experiments/variants.sh BUILD_DIR PLATFORM CSV [SIZES] - the barrier's
# data-checked stress test (barrier_driver --only stress, every algorithm)
# on each variant that xwg-bench measures but xwg does not ship
# (experiments/bench.sh), so that none is kept in the tables
# unchecked. XWG_VARIANT_EPISODES x XWG_VARIANT_LAUNCHES episodes per
# algorithm (default 100000 x 10: the H200's 10^6). The `generic` rows of
# results/barrier-stress-h200.csv came from commit 5bfff81, when
# XWG_TUNE_PTX_GENERIC existed (run on NVIDIA only, with XWG_ATOMICS=ptx).
#   on the H200:  source scripts/nvidia_setup.sh &&
#                 experiments/variants.sh /tmp/xwg-build NVIDIA $OUT/v.csv
#   on PoCL:      XWG_VARIANT_EPISODES=100000 XWG_VARIANT_LAUNCHES=1 \
#                 XWG_VARIANT_LABEL=pocl-variant POCL_MAX_PTHREAD_COUNT=2 \
#                 experiments/variants.sh build Portable v.csv 64
# XWG_VARIANT_ONLY="TAG ..." runs those variants only.
# Rows are labelled $XWG_VARIANT_LABEL-TAG (default variant-TAG); record
# them into results/barrier-stress-h200.csv or -local.csv (results/record.py).
# With no arguments (scripts/run variants --platform nvidia): the GPU
# machine's build, NVIDIA, $OUT/variant-stress-h200.csv.
set -uo pipefail
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1
if [ $# -eq 0 ]; then
  source "$root/scripts/nvidia_setup.sh" || exit 1
  set -- /tmp/xwg-build NVIDIA "$out/variant-stress-h200.csv"
fi
build=$1 platform_name=$2 csv=$3 sizes=${4:-256 1024}
episodes=${XWG_VARIANT_EPISODES:-100000} launches=${XWG_VARIANT_LAUNCHES:-10}
status=0
run() { # TAG OPTIONS [ENVIRONMENT...]
  local tag=$1 options=$2 attempt rows
  shift 2
  # XWG_VARIANT_ONLY="TAG ...": those variants only.
  [ -z "${XWG_VARIANT_ONLY:-}" ] || [[ " $XWG_VARIANT_ONLY " == *" $tag "* ]] ||
    return 0
  rows=$(mktemp)
  for size in $sizes; do
    # --min-groups 2: a run that discovery gave one group proves nothing
    # (PoCL on 2 cores finds both about 9 times in 10); such a run is
    # repeated, up to 3 times, and only a run on 2 or more groups counts.
    for attempt in 1 2 3; do
      echo "== variant $tag, $size work-items per group (try $attempt)" >&2
      : > "$rows"
      env "$@" timeout 300 "$build/barrier_driver" \
          --platform-name "$platform_name" --local-size "$size" \
          --episodes "$episodes" --launches "$launches" \
          --only stress --min-groups 2 --build-options "$options" \
          --csv "$rows" --label "${XWG_VARIANT_LABEL:-variant}-$tag"
      grep -q "fewer groups than" "$rows" || break
    done
    grep -q ",fail," "$rows" && status=1
    cat "$rows" >> "$csv"
  done
  rm -f "$rows"
}
run collect0 -DXWG_TUNE_COLLECT=0
run collect2 -DXWG_TUNE_COLLECT=2
for f in 8 16 32 64 128; do run fanin$f -DXWG_TUNE_TREE_FANIN=${f}u; done
run flag4096 -DXWG_TUNE_FLAG_EVERY=4096u
run red -DXWG_TUNE_ARRIVE_RETURN=0
run cluster -DXWG_TUNE_TREE_FLAT_MAX=0u
run flat -DXWG_TUNE_TREE_FLAT_MAX=1000000u
# Each algorithm compiled alone, as on a context that fixes the barrier
# (the driver then runs that one only).
for a in xf counter tree; do run only-$a "" XWG_BARRIER=$a; done
run all -DXWG_BARRIERS=14u
exit $status
