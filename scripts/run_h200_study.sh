#!/usr/bin/env bash
# run_h200_study.sh - the portability study's rows from the GPU machine,
# each written by xwg-study itself: NVIDIA's OpenCL on the GPU, PoCL on
# the machine's CPU cores, and Mesa rusticl on Zink over NVIDIA's Vulkan
# driver on the same GPU. Writes $OUT/nvidia-h200.json,
# $OUT/pocl-16cores-h200.json, $OUT/rusticl-zink-h200.json and
# $OUT/study-h200.txt (the summaries and progress). The Zink row needs the
# ignored folders .zink/ and .gl/ carried (see run_h200_zink.sh); without
# them it is skipped. Copy the files into results/study/ and run
# results/render.py.
set -uo pipefail
out=${OUT:-./h200-out}
mkdir -p "$out"
log="$out/study-h200.txt"
source "$(dirname "$0")/h200_setup.sh" || exit 1
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
