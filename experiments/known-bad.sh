#!/usr/bin/env bash
# experiments/known-bad.sh - the known-bad barriers that only hardware can
# show, on the H200 (through the device tool): RELAXED_RELEASE,
# ALL_RELAXED (every access relaxed) and EXIT_NO_GLOBAL_FENCE (the exit
# barrier without its global fence), each at 256 and 1024 work-items at
# full occupancy; and TREE_PARTIAL_AS_FULL and COUNTER_ADD_FOR_TWO (a
# partial cluster, the counter's add), which need more than two groups
# (tests/known_bad.md). Each stress run must FAIL; the plain build beside
# them must pass. Writes $OUT/known-bad-h200.csv (barrier_driver's
# columns) and a log. Each build's label is nvidia-known-bad-<name>; runs
# recorded before the variants had names are labelled by their numbers
# (nvidia-known-bad-3: the table's column "was").
set -uo pipefail
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1
source "$root/scripts/nvidia_setup.sh" || exit 1
driver=/tmp/xwg-build/barrier_driver
csv="$out/known-bad-h200.csv"
driver_csv "$csv"
run() { # LABEL LOCAL [DRIVER OPTIONS...]
  local label=$1 local=$2
  shift 2
  echo "== $label at $local" >&2
  timeout 90 $driver --platform-name NVIDIA --local-size "$local" \
      --episodes 20000 --launches 2 --only stress --csv "$csv" \
      --label "$label" "$@"
}
for local in 256 1024; do
  run nvidia-shipped $local
  for broken in relaxed_release all_relaxed exit_no_global_fence; do
    run "nvidia-known-bad-$broken" $local --broken $broken
  done
done
# 264 groups of 1024 make clusters of 96, 96 and 72: a partial last one.
run nvidia-known-bad-tree_partial_as_full 1024 \
    --broken tree_partial_as_full --algo tree
run nvidia-known-bad-counter_add_for_two 256 \
    --broken counter_add_for_two --algo counter
cat "$csv" >&2
