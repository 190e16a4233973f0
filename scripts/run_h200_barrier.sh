#!/usr/bin/env bash
# run_h200_barrier.sh - the barrier's stress evidence on the H200, run on
# the GPU machine through the device tool. For 64, 256 and 1024
# work-items per group at full occupancy, per barrier algorithm: 10^6
# data-checked episodes, the Jacobi stencil against its C reference, and
# the three watchdog misuse cases. Then the known-bad barriers 3 (relaxed
# releases) and 4 (all relaxed), which x86 and Oclgrind cannot expose, and
# the cl12 path forced past its failed self-test. The library picks the ptx
# path there; the cl20 path gets the same 10^6 episodes per size.
# Writes $OUT/barrier-stress-h200.csv (columns: see the header line) and a log.
set -uo pipefail
out=${OUT:-./h200-out}
mkdir -p "$out"
source "$(dirname "$0")/h200_setup.sh" || exit 1
driver=/tmp/xwg-build/barrier_driver
csv="$out/barrier-stress-h200.csv"
echo "label,device,path,test,variant,local_size,groups,episodes,errors,seconds,result,note" > "$csv"
status=0
for local in 64 256 1024; do
  echo "== ${local} work-items per group" >&2
  timeout 280 $driver --platform-name NVIDIA --local-size $local \
      --episodes 100000 --launches 10 --csv "$csv" --label nvidia || status=1
done
for broken in 3 4; do
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
