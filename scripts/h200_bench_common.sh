# h200_bench_common.sh - sourced by run_h200_bench.sh, run_h200_explore.sh
# (both after they set $label) and run_h200_launch.sh: the build
# (h200_setup.sh), $out, $csv ($out/barrier-h200.csv, emptied), $bench, and
#   variant TAG ALGOS OPTIONS [ENVIRONMENT...]
# which runs xwg-bench at full occupancy (barriers and floor only) with
# OPTIONS added to the programs' build options, in ENVIRONMENT, rows
# labelled $label and tagged TAG; $EXTRA adds xwg-bench options.
out=${OUT:-./h200-out}
mkdir -p "$out"
source "$(dirname "${BASH_SOURCE[0]}")/h200_setup.sh" || exit 1
csv="$out/barrier-h200.csv"
rm -f "$csv"
bench=/tmp/xwg-build/xwg-bench
variant() { # TAG ALGOS OPTIONS [ENVIRONMENT...]
  local tag=$1 algos=$2 options=$3
  shift 3
  echo "== variant $tag" >&2
  env "$@" timeout 120 $bench --platform-name NVIDIA --csv "$csv" \
      --label "$label" --barriers-only --tag "$tag" --algos "$algos" \
      --build-options "$options" ${EXTRA:-} >&2
}
