#!/usr/bin/env bash
# test_under_load.sh [N] [--only REGEX] - runs the README's test command N
# times (default 5) with a CPU hog on every core, and prints how many runs
# passed. The tests must assert what holds whatever the load (safety, right
# values, timeouts for misuse, known-bad variants caught), so a busy
# machine must never turn them red; this is how to check that.
#
#   bash scripts/test_under_load.sh             5 runs of scripts/test.sh
#   bash scripts/test_under_load.sh 20 --only 'discovery|self_test'
#                                               20 runs of
#                                               ctest --test-dir build-test -R REGEX
#
# The hog is stress-ng (Debian's stress-ng package) where it is installed,
# else one busy loop (`yes > /dev/null`) per core; it is killed on exit,
# however the script ends. With --only the build is brought up to date
# first, before the hog starts (ctest does not build); a full run builds
# inside scripts/test.sh, so its first run also compiles under load. Each
# run's output goes to LOG_DIR (default build-load-logs/), and a failed
# run's last lines are printed. Exits 0 only if every run passed.
set -uo pipefail
cd "$(dirname "$0")/.."

runs=5 only=""
while [ $# -gt 0 ]; do
  case $1 in
    --only) [ $# -ge 2 ] || { echo "usage: $0 [N] [--only REGEX]" >&2; exit 2; }
            only=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *[!0-9]*|'') echo "usage: $0 [N] [--only REGEX]" >&2; exit 2 ;;
    *) runs=$1; shift ;;
  esac
done
[ "$runs" -ge 1 ] || { echo "N must be at least 1" >&2; exit 2; }

log_dir=${LOG_DIR:-build-load-logs}
mkdir -p "$log_dir"

if [ -n "$only" ]; then
  # scripts/test.sh's build folder, not build/ (whose build type is the
  # user's: see scripts/test.sh).
  build=${XWG_TEST_BUILD_DIR:-build-test}
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null &&
    cmake --build "$build" >/dev/null || { echo "build failed" >&2; exit 1; }
  command=(ctest --test-dir "$build" --output-on-failure -R "$only")
else
  command=(bash scripts/test.sh)
fi

# The hog: one CPU-bound process per core. On exit only what this script
# started is killed: the hogs by their ids, and a run still going (when the
# script itself is interrupted) by its own process group.
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
hogs=() run_pid=""
cleanup() {
  [ -n "$run_pid" ] && kill -- "-$run_pid" 2>/dev/null
  [ ${#hogs[@]} -gt 0 ] && kill "${hogs[@]}" 2>/dev/null
  [ ${#hogs[@]} -gt 0 ] && wait "${hogs[@]}" 2>/dev/null
  hogs=()
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if command -v stress-ng >/dev/null 2>&1; then
  # stress-ng ends its workers when it is itself terminated.
  stress-ng --cpu "$cores" --quiet >/dev/null 2>&1 &
  hogs+=($!)
  hog="stress-ng --cpu $cores"
else
  for _ in $(seq "$cores"); do
    yes >/dev/null &
    hogs+=($!)
  done
  hog="$cores busy loops"
fi
echo "load: $hog; running: ${command[*]}"

passed=0
for i in $(seq "$runs"); do
  log="$log_dir/run-$i.log"
  start=$SECONDS
  # In a session of its own, so that cleanup can end the whole run.
  setsid "${command[@]}" >"$log" 2>&1 &
  run_pid=$!
  wait "$run_pid"
  status=$?
  run_pid=""
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
    echo "run $i of $runs: passed ($((SECONDS - start)) s)"
  else
    echo "run $i of $runs: FAILED ($((SECONDS - start)) s), log $log:"
    grep -E "Failed|\*\*\*|FAIL" "$log" | tail -n 20 | sed 's/^/  /'
  fi
done
echo "under load ($hog): $passed of $runs runs passed"
[ "$passed" -eq "$runs" ]
