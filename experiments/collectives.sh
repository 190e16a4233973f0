#!/usr/bin/env bash
# experiments/collectives.sh - the split barrier and the collectives on the
# H200, run on the GPU machine through the device tool:
#   the data checks (tests/drivers/collective_checks.c) at full occupancy for 256
#   and 1024 work-items, per barrier algorithm: the split barrier's stress
#   (10^6 episodes), every collective against the host's reference
#   (10^5 episodes of 17 collectives each), and the four misuses;
#   the divergence check (-DXWG_CHECK_DIVERGENCE) at 64, 256 and 1024
#   work-items, and its known-bad build (--broken DIVERGENCE_UNCHECKED),
#   which must fail;
#   xwg-bench's barrier, split barrier and all-reduce rows per call, and
#   CUDA's all-reduce as CUDA users write it (bench/cuda/allreduce.cu)
#   beside grid.sync(), in the same run.
# Writes $OUT/collectives-stress-h200.csv (barrier_driver's columns) and
# $OUT/collectives-h200.csv (xwg-bench's columns: label, device, variant,
# local_size, occupancy, groups, us).
# Environment: EPISODES (collectives' episodes per algorithm, default
# 50000); SPLIT=0 leaves out the split barrier's stress; VARIANT="OPTIONS
# TAG" also benchmarks a build with OPTIONS added (rows tagged TAG),
# right after the default build, e.g. VARIANT="-DXWG_TUNE_WARP_COMBINE=0
# three-barrier". ONLY=divergence runs the divergence check alone.
set -uo pipefail
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1
source "$root/scripts/nvidia_setup.sh" || exit 1
driver=/tmp/xwg-build/barrier_driver
stress="$out/collectives-stress-h200.csv"
driver_csv "$stress"
status=0
echo "== divergence check at 64, 256 and 1024, and its known-bad build" >&2
for local in 64 256 1024; do
  timeout 60 $driver --platform-name NVIDIA --local-size $local \
      --only divergence --watchdog-ms 500 --csv "$stress" \
      --label nvidia || status=1
done
# Known-bad: must report FAIL rows (the divergent kernels succeed).
if timeout 60 $driver --platform-name NVIDIA --local-size 64 \
    --only divergence --watchdog-ms 500 --broken divergence_unchecked \
    --csv "$stress" --label nvidia-known-bad-divergence_unchecked; then
  echo "known-bad divergence check passed: the check proves nothing" >&2
  status=1
fi
[ "${ONLY:-}" = divergence ] && exit $status
for local in 256 1024; do
  echo "== split, collectives and misuse at $local" >&2
  if [ "${SPLIT:-1}" != 0 ]; then
    timeout 120 $driver --platform-name NVIDIA --local-size $local \
        --episodes 100000 --launches 10 --only split --csv "$stress" \
        --label nvidia || status=1
  fi
  timeout 200 $driver --platform-name NVIDIA --local-size $local \
      --episodes "${EPISODES:-50000}" --launches 2 --only collectives \
      --csv "$stress" --label nvidia || status=1
  timeout 60 $driver --platform-name NVIDIA --local-size $local \
      --only collective_misuse --csv "$stress" --label nvidia || status=1
done
bench="$out/collectives-h200.csv"
rm -f "$bench"
echo "== xwg-bench: barrier, split barrier, all-reduce" >&2
timeout 200 /tmp/xwg-build/xwg-bench --platform-name NVIDIA \
    --local-sizes 64,256,1024 --barriers-only --collectives \
    --algos counter,tree,default --csv "$bench" --label xwg >&2 ||
  status=1
if [ -n "${VARIANT:-}" ]; then
  set -- $VARIANT
  echo "== xwg-bench, variant $2: $1" >&2
  timeout 200 /tmp/xwg-build/xwg-bench --platform-name NVIDIA \
      --local-sizes 64,256,1024 --barriers-only --collectives \
      --algos default --build-options "$1" --tag "$2" --csv "$bench" \
      --label xwg >&2 || status=1
fi
echo "== CUDA: all-reduce and grid.sync()" >&2
nvcc -O3 -arch=sm_90 -o /tmp/allreduce bench/cuda/allreduce.cu &&
  timeout 60 /tmp/allreduce >> "$bench" || status=1
exit $status
