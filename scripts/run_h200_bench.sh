#!/usr/bin/env bash
# run_h200_bench.sh - the barrier benchmark on the GPU machine, through the
# device tool: xwg-bench on NVIDIA's OpenCL and on the machine's PoCL, and
# the CUDA comparator (grid.sync(), empty relaunch) on the same GPU, into
# $OUT/barrier-h200.csv (columns: label, device, variant, local_size,
# occupancy, groups, us). results/make_report.py turns it into the
# performance section and its plot.
set -uo pipefail
out=${OUT:-./h200-out}
mkdir -p "$out"
source "$(dirname "$0")/h200_setup.sh" || exit 1
csv="$out/barrier-h200.csv"
rm -f "$csv"
echo "== xwg-bench, NVIDIA OpenCL" >&2
timeout 400 /tmp/xwg-build/xwg-bench --platform-name NVIDIA --csv "$csv" \
    --label xwg-nvidia >&2
echo "== CUDA grid.sync() and relaunch" >&2
nvcc -O3 -arch=sm_90 -o /tmp/gridsync bench/cuda/gridsync.cu &&
    timeout 200 /tmp/gridsync >> "$csv"
echo "== xwg-bench, PoCL on the host's cores (64 work-items)" >&2
timeout 200 /tmp/xwg-build/xwg-bench --platform-name Portable \
    --local-sizes 64 --csv "$csv" --label xwg-pocl16 >&2
cat "$csv" >&2
