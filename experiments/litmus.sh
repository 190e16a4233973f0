#!/usr/bin/env bash
# experiments/litmus.sh [build_dir] [iterations] - xwg-litmus.
# scripts/run litmus --platform local|nvidia runs it:
#   local   the local implementations (PoCL with 2 worker threads; Mesa
#           rusticl, which the tool runs although the barrier self-test
#           refuses it for xwg_launch users), into $OUT/litmus.csv
#           (default build/out; record it with results/record.py);
#   nvidia  the GPU machine (NVIDIA's OpenCL), through the device tool,
#           into $OUT/litmus-h200.json; then, here:
#             python3 scripts/to_csv.py litmus nvidia-h200 litmus-h200.csv \
#                 < litmus-h200.json
#           and record litmus-h200.csv with results/record.py
#           (results/README.md).
set -uo pipefail
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1
if [ "$platform" = nvidia ]; then
  source "$root/scripts/nvidia_setup.sh" || exit 1
  timeout 500 /tmp/xwg-build/xwg-litmus --platform-name NVIDIA \
      --iterations 200 --json > "$out/litmus-h200.json"
  exit
fi
build=${1:-$root/build}
iterations=${2:-200}
csv=$out/litmus.csv
rm -f "$csv"
run() { # implementation, vendors folder, extra environment...
  local impl=$1 vendors=$2; shift 2
  echo "== $impl" >&2
  env OCL_ICD_VENDORS="$vendors" "$@" timeout 1200 "$build/xwg-litmus" \
      --iterations "$iterations" --json > "$tmp/$impl.json" &&
    python3 "$root/scripts/to_csv.py" litmus "$impl" "$csv" < "$tmp/$impl.json"
}
pocl=$(icd_dir pocl) && run pocl-2threads "$pocl" POCL_MAX_PTHREAD_COUNT=2
rusticl=$(icd_dir rusticl) &&
  run rusticl-llvmpipe "$rusticl" RUSTICL_ENABLE=llvmpipe
echo "litmus: $(($(wc -l < "$csv") - 1)) rows in $csv" >&2
