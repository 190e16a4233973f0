#!/usr/bin/env bash
# experiments/study.sh [build_dir] [XWG-STUDY OPTIONS...] - the portability
# study's rows, one JSON file per device, each written by xwg-study itself,
# with the summaries and progress in a log. scripts/run study --platform
# local|nvidia runs it:
#   local   PoCL with 2 worker threads, Mesa rusticl on llvmpipe, Oclgrind
#           with 2 threads and, where scripts/setup.sh put it in
#           build/intel-opencl, Intel's OpenCL runtime for CPUs, each
#           picked by OCL_ICD_VENDORS: $OUT/pocl-2threads-local.json,
#           rusticl-llvmpipe-local.json, oclgrind-2threads-local.json,
#           intel-2threads-local.json and study-local.txt (default
#           build/out). Options after the build folder go to xwg-study
#           (`scripts/run study -- --quick`: a quick look, not a row);
#   nvidia  the GPU machine, through the device tool: NVIDIA's OpenCL on
#           the GPU, PoCL on the machine's CPU cores, and Mesa rusticl on
#           Zink over NVIDIA's Vulkan driver on the same GPU, into
#           $OUT/nvidia-h200.json, pocl-16cores-h200.json,
#           rusticl-zink-h200.json and study-h200.txt. The Zink row needs
#           the ignored folders .zink/ and .gl/ carried (see
#           experiments/zink.sh); without them it is skipped.
#           STUDY_TIME_LIMIT (default 150) is each file's --time-limit.
# Copy the files into results/study/ and run results/render.py.
set -uo pipefail
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1

if [ "$platform" = local ]; then
  build=${1:-$root/build}
  shift $(($# > 0 ? 1 : 0))
  log=$out/study-local.txt
  status=0
  {
    if pocl=$(icd_dir pocl); then
      echo "== PoCL, 2 threads"
      OCL_ICD_VENDORS=$pocl POCL_MAX_PTHREAD_COUNT=2 "$build/xwg-study" \
          --out "$out/pocl-2threads-local.json" "$@" || status=1
    fi
    if rusticl=$(icd_dir rusticl); then
      echo "== Mesa rusticl on llvmpipe"
      OCL_ICD_VENDORS=$rusticl RUSTICL_ENABLE=llvmpipe "$build/xwg-study" \
          --out "$out/rusticl-llvmpipe-local.json" "$@" || status=1
    fi
    if command -v oclgrind >/dev/null; then
      # Oclgrind preloads its own runtime: nothing else may answer.
      echo "== Oclgrind, 2 threads"
      OCL_ICD_VENDORS=$(icd_dir none) "$build/xwg-study" \
          --runner "oclgrind --num-threads 2" \
          --out "$out/oclgrind-2threads-local.json" "$@" || status=1
    fi
    if intel=$(icd_dir intel); then
      # One worker per core (tests/intel_tests.cmake): "2threads" is the
      # 2-core machine's.
      echo "== Intel's OpenCL runtime"
      OCL_ICD_VENDORS=$intel "$build/xwg-study" \
          --out "$out/intel-2threads-local.json" "$@" || status=1
    else
      echo "== Intel: $intel not found (scripts/setup.sh); skipped"
    fi
  } >"$log" 2>&1
  tail -n 60 "$log"
  exit $status
fi

log="$out/study-h200.txt"
source "$root/scripts/nvidia_setup.sh" || exit 1
study=/tmp/xwg-build/xwg-study
limit=${STUDY_TIME_LIMIT:-150}
{
  echo "== NVIDIA"
  $study --platform-name NVIDIA --time-limit "$limit" --out "$out/nvidia-h200.json"
  echo "== PoCL"
  $study --platform-name pocl --time-limit "$limit" --out "$out/pocl-16cores-h200.json"
  if [ -f .zink/bundle.tar.xz ] && ls .gl/*.deb >/dev/null 2>&1; then
    zink_setup
    echo "== rusticl on Zink"
    $study --runner "bash .zink/run.sh" --platform-name rusticl \
        --time-limit "$limit" --out "$out/rusticl-zink-h200.json"
  else
    echo "== rusticl on Zink: skipped (.zink/ or .gl/ not carried)"
  fi
} >"$log" 2>&1
tail -n 60 "$log"
