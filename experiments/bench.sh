#!/usr/bin/env bash
# experiments/bench.sh [build_dir] - the barrier benchmark, into
# $OUT/barrier-h200.csv (nvidia) or $OUT/barrier-pocl.csv (local), in
# xwg-bench's columns (label, device, variant, local_size, occupancy,
# groups, us). scripts/run bench --platform local|nvidia runs it:
#   local   xwg-bench on PoCL with 2 worker threads and 64 work-items per
#           group, beside two barriers among 2 host threads (a
#           pthread_barrier_t and a C11 spin barrier) measured in the same
#           run (build_dir: default build/);
#   nvidia  on the GPU machine, through the device tool:
#   xwg-bench on NVIDIA's OpenCL with the shipped settings (every size,
#   occupancy and algorithm; relaunch, and relaunch with a read-back; the
#   pingpong floor, in an xwg kernel and in a plain one), and the PTX
#   that NVIDIA's compiler made of it ($OUT/bench.ptx);
#   the variants at full occupancy: the cl20 path (C11 atomics as NVIDIA's
#   compiler builds them), how waits acquire (XWG_TUNE_COLLECT 0, 2; 1
#   ships), the tree's fan-in (8, 16, 32, 64, 128; 96 ships), the failed flag
#   read every 4096 polls (64 ships), the arrival as a `red` (one that
#   returns the old value ships), and the tree's wake always by cluster or
#   always flat (flat up to 2048 groups ships), each algorithm compiled
#   alone (a context that fixes the barrier: +only), and all three
#   compiled together (+all; default programs compile counter and tree);
#   the CUDA comparator (grid.sync(), empty relaunch, the CUDA pingpong);
#   both pingpongs also with their flags at 16 places in memory (whether
#   CUDA's faster floor is where its flags happen to sit), and xwg's
#   counter and tree barriers with their words at those places;
#   xwg-bench on the machine's PoCL (16 cores, 64 work-items;
#   XWG_BENCH_POCL=0 leaves it out).
# results/render.py draws its tables and plots (results/tables.toml).
# Labels are the series of results/barrier-h200.csv: xwg and cuda, and
# xwg on PoCL (a run of its own); results/README.md, "Adding a run".
set -uo pipefail
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1

if [ "$platform" = local ]; then
  build=${1:-$root/build}
  csv=$out/barrier-pocl.csv
  rm -f "$csv"
  OCL_ICD_VENDORS=$(icd_dir pocl) POCL_MAX_PTHREAD_COUNT=2 timeout 600 \
    "$build/xwg-bench" --local-sizes 64 --e1 2000 --e2 42000 --cpu-baselines \
    --csv "$csv" --label xwg
  exit
fi

label=xwg
csv="$out/barrier-h200.csv"
rm -f "$csv"
source "$root/scripts/nvidia_setup.sh" || exit 1
bench=/tmp/xwg-build/xwg-bench
echo "== xwg-bench, NVIDIA OpenCL, shipped settings" >&2
timeout 300 $bench --platform-name NVIDIA --csv "$csv" --label "$label" \
    --dump-binary "$out/bench.ptx" --placements 16 >&2
# The C11 atomics as NVIDIA's OpenCL compiler builds them.
variant cl20 xf,counter,tree "" XWG_ATOMICS=cl20
variant collect0 xf,counter,tree -DXWG_TUNE_COLLECT=0
variant collect2 xf,counter,tree -DXWG_TUNE_COLLECT=2
for f in 8 16 32 64 128; do variant fanin$f tree -DXWG_TUNE_TREE_FANIN=${f}u; done
# The failed flag read every 4096 polls. (The `generic` rows of
# barrier-h200.csv, label xwg-nvidia-5bfff81, PTX instructions without
# `.global`, came from that commit's XWG_TUNE_PTX_GENERIC, removed since:
# it changed nothing.)
variant flag4096 counter,tree -DXWG_TUNE_FLAG_EVERY=4096u
# The arrival at the grid counter as a `red` (the first version), and the
# tree's wake always by cluster or always flat (the shipped tree takes flat
# up to 2048 groups).
variant red counter,tree -DXWG_TUNE_ARRIVE_RETURN=0
variant cluster tree -DXWG_TUNE_TREE_FLAT_MAX=0u
variant flat tree -DXWG_TUNE_TREE_FLAT_MAX=1000000u
# Each algorithm compiled alone (the context fixes the barrier), and all
# three compiled together (default programs compile counter and tree).
for a in xf counter tree; do variant only $a "" XWG_BARRIER=$a; done
variant all counter,tree,default -DXWG_BARRIERS=14u
echo "== CUDA grid.sync(), relaunch, pingpong" >&2
nvcc -O3 -arch=sm_90 -o /tmp/gridsync "$root/bench/cuda/gridsync.cu" &&
    timeout 200 /tmp/gridsync 256 10256 16 >> "$csv"
if [ "${XWG_BENCH_POCL:-1}" = 1 ]; then
  echo "== xwg-bench, PoCL on the host's cores (64 work-items)" >&2
  timeout 200 $bench --platform-name Portable --local-sizes 64 --csv "$csv" \
      --label xwg >&2
fi
cat "$csv" >&2
