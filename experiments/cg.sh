#!/usr/bin/env bash
# experiments/cg.sh - the CG solvers on the H200, run on the GPU machine
# through the device tool, in one run: xwg-cg's persistent, pipelined and
# multi-kernel versions (apps/cg) and the CUDA cooperative-groups version
# (bench/cuda/cg.cu) on the tridiagonal system of 2^20 rows (CUDA's
# sample's) at 256, 512 and 1024 work-items and the 1024 x 1024
# Laplacian at 256; then the sample's own stopping rule (||r|| <= 1e-5),
# whose iterations go to the log. Each row: a checked solve to tol 1e-5 (the Laplacian 1e-4:
# float CG on it cannot go much lower), its time launch included, and a
# solve of exactly ITERS iterations for the time per iteration.
# Writes $OUT/triad.txt (bench/cuda/triad.cu: the memory floor) and
# $OUT/cg-h200.csv in xwg-cg's columns: label, device, matrix,
# variant, n, nnz, groups, local, iterations, solve_ms, timing_iters,
# ms_per_iter, residual, host_difference, verified.
# VARIANTS="LABEL=OPTIONS ..." also runs xwg-cg's persistent version built
# with each OPTIONS added (for example keep0=-DCG_KEEP=0), labelled LABEL,
# beside the rest, in the same run.
# PLATFORM=Portable runs xwg-cg alone on the GPU machine's PoCL (its 16
# cores) into $OUT/cg-pocl.csv, on matrices a CPU solves in seconds:
# the tridiagonal system of 2^16 rows and the 256 x 256 Laplacian, with
# ITERS (default there 100) iterations for the time per iteration.
set -uo pipefail
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1
source "$root/scripts/nvidia_setup.sh" || exit 1
platform_name=${PLATFORM:-NVIDIA}
if [ "$platform_name" != NVIDIA ]; then
  csv="$out/cg-pocl.csv"
  echo "label,device,matrix,variant,n,nnz,groups,local,iterations,solve_ms,timing_iters,ms_per_iter,residual,host_difference,verified" > "$csv"
  status=0
  for run in "tridiag:65536 1e-5 64" "laplace:256x256 1e-4 64"; do
    set -- $run
    timeout 250 /tmp/xwg-build/xwg-cg --platform-name "$platform_name" \
        --matrix "$1" --tol "$2" --local-size "$3" \
        --timing-iters "${ITERS:-100}" --repeat 3 --csv "$csv" \
        --label xwg >&2 || status=1
  done
  exit $status
fi
iters=${ITERS:-1000}
csv="$out/cg-h200.csv"
echo "label,device,matrix,variant,n,nnz,groups,local,iterations,solve_ms,timing_iters,ms_per_iter,residual,host_difference,verified" > "$csv"
nvcc -O3 -arch=sm_90 -o /tmp/cg bench/cuda/cg.cu apps/cg/cg_matrix.c || exit 1
# The memory floor the solvers' bytes a row are set against.
nvcc -O3 -arch=sm_90 -o /tmp/triad bench/cuda/triad.cu &&
  /tmp/triad | tee "$out/triad.txt" >&2 || exit 1
status=0
for run in "tridiag:1048576 1e-5 256" "tridiag:1048576 1e-5 512" \
           "tridiag:1048576 1e-5 1024" "laplace:1024x1024 1e-4 256"; do
  set -- $run
  echo "== $1 at $3 (tol $2)" >&2
  timeout 200 /tmp/xwg-build/xwg-cg --platform-name NVIDIA --matrix "$1" \
      --tol "$2" --local-size "$3" --timing-iters "$iters" --repeat 3 \
      --csv "$csv" --label xwg >&2 || status=1
  timeout 200 /tmp/cg --matrix "$1" --tol "$2" --threads "$3" \
      --timing-iters "$iters" --label cuda >> "$csv" || status=1
  for variant in ${VARIANTS:-}; do
    timeout 200 /tmp/xwg-build/xwg-cg --platform-name NVIDIA --matrix "$1" \
        --tol "$2" --local-size "$3" --timing-iters "$iters" --repeat 3 \
        --variant persistent --options "${variant#*=}" --csv "$csv" \
        --label "${variant%%=*}" >&2 || status=1
  done
done
echo "== CUDA's sample's stop: ||r|| <= 1e-5" >&2
timeout 100 /tmp/xwg-build/xwg-cg --platform-name NVIDIA \
    --matrix tridiag:1048576 --stop absolute --tol 1e-5 --local-size 512 >&2 \
  || status=1
exit $status
