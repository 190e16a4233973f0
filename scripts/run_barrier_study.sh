#!/usr/bin/env bash
# run_barrier_study.sh [build_dir] - the barrier's stress evidence on the
# local OpenCL implementations, into $OUT/barrier-stress-local.csv (default
# build/out; barrier_driver's columns, as scripts/run_h200_barrier.sh's;
# record it with results/record.py):
#   PoCL, 2 worker threads, 1024 work-items: 10^5 checked episodes per
#     barrier algorithm, the Jacobi stencil, the watchdog cases;
#   Mesa rusticl: refused by default; then forced past its self-test, to
#     record the wrong values it gives;
#   Oclgrind, 2 worker threads, 16 work-items: stress and Jacobi.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
driver=$build/barrier_driver
out=${OUT:-$root/build/out}
mkdir -p "$out"
csv=$out/barrier-stress-local.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "label,device,path,test,variant,local_size,groups,episodes,errors,seconds,result,note" > "$csv"

vendor() { mkdir -p "$tmp/$1" && cp "/etc/OpenCL/vendors/$1.icd" "$tmp/$1/"; }

if [ -f /etc/OpenCL/vendors/pocl.icd ]; then
  vendor pocl
  echo "== PoCL, 2 threads" >&2
  OCL_ICD_VENDORS=$tmp/pocl POCL_MAX_PTHREAD_COUNT=2 timeout 900 "$driver" \
    --local-size 1024 --episodes 20000 --launches 5 --csv "$csv" --label pocl-2threads
fi
if [ -f /etc/OpenCL/vendors/rusticl.icd ]; then
  vendor rusticl
  echo "== Mesa rusticl (expected: refused)" >&2
  RUSTICL_ENABLE=llvmpipe OCL_ICD_VENDORS=$tmp/rusticl timeout 300 "$driver" \
    --local-size 64 --only stress --episodes 1000 --launches 1 --csv "$csv" \
    --label rusticl
  echo "== Mesa rusticl, forced past its self-test" >&2
  RUSTICL_ENABLE=llvmpipe OCL_ICD_VENDORS=$tmp/rusticl XWG_SELF_TEST=report \
    timeout 300 "$driver" --local-size 64 --only stress --episodes 1000 \
    --launches 2 --csv "$csv" --label rusticl-forced
fi
if command -v oclgrind >/dev/null; then
  mkdir -p "$tmp/none"
  for only in stress jacobi; do
    echo "== Oclgrind, 2 threads, $only" >&2
    OCL_ICD_VENDORS=$tmp/none timeout 900 oclgrind --num-threads 2 "$driver" \
      --local-size 16 --episodes 100 --launches 2 --jacobi-iters 100 \
      --only $only --csv "$csv" --label oclgrind-2threads
  done
fi
echo "run_barrier_study: $(($(wc -l < "$csv") - 1)) rows in $csv" >&2
