#!/usr/bin/env bash
# run_h200.sh - the H200 discovery measurements, run on the GPU machine
# through the device tool. Writes raw outputs under $OUT (or ./h200-out):
#   nvidia-*.json   xwg-discover --json on NVIDIA OpenCL, per protocol/window
#   pocl16.json     xwg-discover on the machine's PoCL (16 cores)
#   cuda-occupancy.csv  the CUDA occupancy calculator for the same sizes
# scripts/h200_to_csv.py then turns them into a CSV for results/record.py.
set -euo pipefail
out=${OUT:-./h200-out}
mkdir -p "$out"
source "$(dirname "$0")/h200_setup.sh"
cli=/tmp/xwg-build/xwg-discover
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"

sizes=64,128,256,512,1024
# 49144 = the 48 KiB the device reports less xwg's own 8 bytes ("max").
mems=0,16384,max
echo "== NVIDIA, default protocol" >&2
$cli --platform-name NVIDIA --local-size $sizes --local-mem $mems --repeat 5 \
     --json > "$out/nvidia-default.json"
echo "== NVIDIA, ticket lock" >&2
$cli --platform-name NVIDIA --local-size 64,256,1024 --repeat 5 \
     --protocol ticket --json > "$out/nvidia-ticket.json"
for w in 5 50; do
  echo "== NVIDIA, window ${w} us" >&2
  $cli --platform-name NVIDIA --local-size 64,256,1024 --repeat 5 \
       --window-us $w --json > "$out/nvidia-window$w.json"
done
echo "== PoCL on this machine's cores" >&2
timeout 300 $cli --platform-name Portable --local-size 64,256,1024 \
     --repeat 5 --json > "$out/pocl16.json" || echo "pocl failed" >&2

echo "== CUDA occupancy calculator" >&2
nvcc -O2 -arch=sm_90 -o /tmp/occupancy bench/cuda/occupancy.cu
/tmp/occupancy 0 16384 49144 > "$out/cuda-occupancy.csv"
cat "$out/cuda-occupancy.csv" >&2
