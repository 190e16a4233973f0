#!/usr/bin/env bash
# run_litmus_study.sh [build_dir] [iterations] - xwg-litmus on the local
# implementations (PoCL with 2 worker threads; Mesa rusticl, which the tool
# runs although the barrier self-test refuses it for xwg_launch users),
# into $OUT/litmus.csv (default build/out; record it with results/record.py).
# scripts/run_h200_litmus.sh makes the H200's, a run of their own.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
iterations=${2:-200}
out=${OUT:-$root/build/out}
mkdir -p "$out"
csv=$out/litmus.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -f "$csv"
run() { # implementation, vendors folder, extra environment...
  local impl=$1 vendors=$2; shift 2
  echo "== $impl" >&2
  env OCL_ICD_VENDORS="$vendors" "$@" timeout 1200 "$build/xwg-litmus" \
      --iterations "$iterations" --json > "$tmp/$impl.json" &&
    python3 "$root/scripts/litmus_json_to_csv.py" "$impl" "$csv" < "$tmp/$impl.json"
}
for v in pocl rusticl; do
  mkdir -p "$tmp/$v"
  [ -f /etc/OpenCL/vendors/$v.icd ] && cp /etc/OpenCL/vendors/$v.icd "$tmp/$v/"
done
[ -f "$tmp/pocl/pocl.icd" ] && run pocl-2threads "$tmp/pocl" POCL_MAX_PTHREAD_COUNT=2
[ -f "$tmp/rusticl/rusticl.icd" ] && run rusticl-llvmpipe "$tmp/rusticl" RUSTICL_ENABLE=llvmpipe
echo "run_litmus_study: $(($(wc -l < "$csv") - 1)) rows in $csv" >&2
