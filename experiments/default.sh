#!/usr/bin/env bash
# experiments/default.sh [build_dir] - the default barrier against every
# shipped configuration, per device, into $OUT/barrier-default.csv
# (xwg-bench's columns; record it with results/record.py):
#   xwg-bench at 64, 256 and 1024 work-items, full occupancy: xf, counter
#   and tree (counter and tree from one program, xf from its own), the
#   default (a program built as a user's, with the set the context
#   calibrated), and the counter and the tree each compiled alone (+only,
#   a context that fixes the barrier); twice, interleaved with the
#   vendor's own barrier:
# scripts/run default --platform local|nvidia runs it:
#   local   PoCL (2 worker threads) and Intel's OpenCL runtime
#           (build/intel-opencl), with the relaunch rows, and on Intel
#           xwg-intel-barrier: intel_device_barrier() on xwg's discovered
#           groups and at the vendor's own count;
#   nvidia  the H200 (run through the device tool; nvidia_setup.sh
#           builds into /tmp/xwg-build) and CUDA's grid.sync()
#           (bench/cuda/gridsync.cu).
set -uo pipefail
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1
csv=$out/barrier-default.csv
rm -f "$csv"

# bench NAME ARGS...: xwg-bench on the platform NAME, rows into $csv.
bench() {
  local name=$1
  shift
  timeout 300 "$build/xwg-bench" --platform-name "$name" --csv "$csv" \
    --label xwg --local-sizes 64,256,1024 "$@" >&2
}
only() { # NAME ARGS...: the counter and the tree each compiled alone
  local name=$1 a
  shift
  for a in counter tree; do
    XWG_BARRIER=$a bench "$name" --barriers-only --algos $a --tag only "$@"
  done
}

if [ "$platform" = nvidia ]; then
  source "$root/scripts/nvidia_setup.sh" || exit 1
  build=/tmp/xwg-build
  nvcc -O3 -arch=sm_90 -o /tmp/gridsync "$root/bench/cuda/gridsync.cu" || exit 1
  for r in 1 2; do
    bench NVIDIA --barriers-only --algos xf,counter,tree,default
    only NVIDIA
    timeout 100 /tmp/gridsync 256 10256 | grep grid.sync >> "$csv"
  done
  exit 0
fi

build=${1:-$root/build}
pocl=$(icd_dir pocl)
intel=$(icd_dir intel)
export POCL_MAX_PTHREAD_COUNT=2
for r in 1 2; do
  OCL_ICD_VENDORS=$pocl bench Portable --algos xf,counter,tree,default
  OCL_ICD_VENDORS=$pocl only Portable
  OCL_ICD_VENDORS=$intel bench Intel --algos xf,counter,tree,default
  OCL_ICD_VENDORS=$intel only Intel
  # Intel's own barrier on xwg's groups (what discovery finds now), and
  # at the vendor's count: a hang there is reported, not waited for.
  groups=$(OCL_ICD_VENDORS=$intel "$build/xwg-discover" --json \
             --local-size 64 --repeat 1 |
           python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["occupancy"][0]["groups_median"])')
  OCL_ICD_VENDORS=$intel timeout 400 "$build/xwg-intel-barrier" \
    --groups "$groups" --label intel --csv "$csv" > /dev/null
done
