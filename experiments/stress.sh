#!/usr/bin/env bash
# experiments/stress.sh [build_dir] - the barrier's stress evidence, in
# barrier_driver's columns (see the header line). scripts/run stress
# --platform local|nvidia runs it:
#   local   the local OpenCL implementations, into
#           $OUT/barrier-stress-local.csv (default build/out):
#             PoCL, 2 worker threads, 1024 work-items: 10^5 checked
#               episodes per barrier algorithm, the Jacobi stencil, the
#               watchdog cases;
#             Mesa rusticl: refused by default; then forced past its
#               self-test, to record the wrong values it gives;
#             Oclgrind, 2 worker threads, 16 work-items: stress and Jacobi.
#   nvidia  the GPU machine, through the device tool, into
#           $OUT/barrier-stress-h200.csv: for 64, 256 and 1024 work-items
#           per group at full occupancy, per barrier algorithm, 10^6
#           data-checked episodes, the Jacobi stencil against its C
#           reference, and the three watchdog misuse cases. Then the
#           known-bad barriers RELAXED_RELEASE and ALL_RELAXED,
#           which x86 and Oclgrind cannot expose, and the cl12 path forced
#           past its failed self-test. The library picks the ptx path
#           there; the cl20 path gets the same 10^6 episodes per size.
# Record the CSV with results/record.py.
set -uo pipefail
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1

if [ "$platform" = local ]; then
  build=${1:-$root/build}
  driver=$build/barrier_driver
  csv=$out/barrier-stress-local.csv
  driver_csv "$csv"

  if pocl=$(icd_dir pocl); then
    echo "== PoCL, 2 threads" >&2
    OCL_ICD_VENDORS=$pocl POCL_MAX_PTHREAD_COUNT=2 timeout 900 "$driver" \
      --local-size 1024 --episodes 20000 --launches 5 --csv "$csv" --label pocl-2threads
  fi
  if rusticl=$(icd_dir rusticl); then
    echo "== Mesa rusticl (expected: refused)" >&2
    RUSTICL_ENABLE=llvmpipe OCL_ICD_VENDORS=$rusticl timeout 300 "$driver" \
      --local-size 64 --only stress --episodes 1000 --launches 1 --csv "$csv" \
      --label rusticl
    echo "== Mesa rusticl, forced past its self-test" >&2
    RUSTICL_ENABLE=llvmpipe OCL_ICD_VENDORS=$rusticl XWG_SELF_TEST=report \
      timeout 300 "$driver" --local-size 64 --only stress --episodes 1000 \
      --launches 2 --csv "$csv" --label rusticl-forced
  fi
  if command -v oclgrind >/dev/null; then
    none=$(icd_dir none)
    for only in stress jacobi; do
      echo "== Oclgrind, 2 threads, $only" >&2
      OCL_ICD_VENDORS=$none timeout 900 oclgrind --num-threads 2 "$driver" \
        --local-size 16 --episodes 100 --launches 2 --jacobi-iters 100 \
        --only $only --csv "$csv" --label oclgrind-2threads
    done
  fi
  echo "stress: $(($(wc -l < "$csv") - 1)) rows in $csv" >&2
  exit 0
fi

source "$root/scripts/nvidia_setup.sh" || exit 1
driver=/tmp/xwg-build/barrier_driver
csv="$out/barrier-stress-h200.csv"
driver_csv "$csv"
status=0
for local in 64 256 1024; do
  echo "== ${local} work-items per group" >&2
  timeout 280 $driver --platform-name NVIDIA --local-size $local \
      --episodes 100000 --launches 10 --csv "$csv" --label nvidia || status=1
done
for broken in relaxed_release all_relaxed; do
  echo "== known-bad barrier $broken at 256" >&2
  timeout 120 $driver --platform-name NVIDIA --local-size 256 --episodes 20000 \
      --launches 2 --only stress --broken $broken --csv "$csv" \
      --label "nvidia-known-bad-$broken"
done
for local in 64 256 1024; do
  echo "== the cl20 path (C11 atomics as NVIDIA compiles them), $local" >&2
  XWG_ATOMICS=cl20 timeout 400 $driver --platform-name NVIDIA --local-size $local \
      --episodes 100000 --launches 10 --only stress --csv "$csv" \
      --label nvidia-cl20 || status=1
done
echo "== the cl12 path, forced past its failed self-test" >&2
XWG_ATOMICS=cl12 XWG_SELF_TEST=report timeout 200 $driver --platform-name NVIDIA \
    --local-size 256 --episodes 20000 --launches 2 --only stress --csv "$csv" \
    --label nvidia-cl12-forced
cat "$csv" >&2
exit $status
