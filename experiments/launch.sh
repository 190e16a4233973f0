#!/usr/bin/env bash
# experiments/launch.sh [[LABEL=]TREE ...] - what a launch through xwg
# costs on the GPU machine, beside a plain OpenCL launch and CUDA's plain and
# cooperative launches, into $OUT/launch-h200.csv (xwg-launch-bench's
# columns):
#   xwg-launch-bench at 256 work-items, $REPEATS times (default 2), each
#   in a process of its own, labels $NAME1, $NAME2, ... ($NAME: default
#   "launch");
#   bench/cuda/launch.cu once between them, label cuda.
# Each TREE, a source tree of an earlier commit or of a variant that has
# xwg-launch-bench (for example `git archive COMMIT | tar -x -C
# scratch/old`, passed with the device tool's carry), has its benchmark
# run too, alternating with this tree's, labels LABEL-$NAME1, LABEL-$NAME2, ...
# (LABEL: default "old"), so that drift reaches every build alike. Run
# from the repository root. PLATFORM=Portable runs the same on the GPU
# machine's PoCL (16 cores), without the CUDA rows, into
# $OUT/launch-pocl16.csv.
set -uo pipefail
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1
trees=("$@")
name=${NAME:-launch}
platform_name=${PLATFORM:-NVIDIA}
csv="$out/launch-h200.csv"
[ "$platform_name" = NVIDIA ] || csv="$out/launch-pocl16.csv"
mkdir -p /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export PATH=/opt/torch/.venv/bin:$PATH
build() { # SOURCE BUILD_DIR
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DXWG_BUILD_TESTS=OFF >/dev/null &&
    cmake --build "$2" --target xwg-launch-bench >/dev/null
}
build . /tmp/xwg-build || exit 1
labels=()
for i in "${!trees[@]}"; do
  spec=${trees[$i]}
  case $spec in *=*) labels+=("${spec%%=*}"); tree=${spec#*=} ;;
                *) labels+=(old); tree=$spec ;; esac
  build "$tree" "/tmp/xwg-old$i" || exit 1
done
nvcc -O3 -arch=sm_90 -Ibench/cuda -o /tmp/launch bench/cuda/launch.cu ||
  exit 1
bench_args=(--platform-name "$platform_name" --local-size 256 --count 1000
            --requests 2000 --csv "$csv")
for i in $(seq 1 "${REPEATS:-2}"); do
  for j in "${!labels[@]}"; do
    timeout 100 "/tmp/xwg-old$j/xwg-launch-bench" "${bench_args[@]}" \
        --label "${labels[$j]}-$name$i" || exit 1
  done
  timeout 100 /tmp/xwg-build/xwg-launch-bench "${bench_args[@]}" \
      --label "$name$i" || exit 1
  if [ "$i" = 1 ] && [ "$platform_name" = NVIDIA ]; then
    timeout 100 /tmp/launch 1000 2000 >> "$csv" || exit 1
  fi
done
cat "$csv"
