#!/usr/bin/env bash
# model_check.sh [--small] [--csv FILE] - model-checks model/xwg.pml with
# Spin over a matrix of configurations and says, for each, whether the
# outcome is the expected one:
#   the shipped protocols (ticket lock, stable window) and barriers (XF,
#   counter, tree with clusters of 2; with the stable window also clusters
#   of 1 and 3, shown as tree-fanin1 and tree-fanin3): no assertion
#   violation, no invalid end state (deadlock), and no non-progress cycle
#   under weak fairness;
#   the watchdog model (discovery skipped, N > K): every run ends, and the
#   failure flag is set whenever a barrier could not complete;
#   the tree's flat wake, on the same matrix as the tree;
#   the split barrier and the all-reduce on the counter and the tree;
#   the known-bad models (no closing check, a barrier that does not wait,
#   a launch of N > K with discovery skipped and no watchdog, arrivals that
#   do not release, the flat wake without its reset, every grid arrival
#   taken for the last, a split wait that does not wait, an all-reduce
#   with one bank of partials or that reads them before its barrier, groups
#   that take the grid counter's top bit for clear when a launch may start
#   with it set): each must produce a counterexample.
# Every configuration lets Spin start the launch with the counter's top
# bit clear or set (the model's START_SET=2), as a launch finds it after
# another on the same state buffer.
# --small is the configuration ctest runs (N <= 3, K <= 2, 2 episodes);
# without it, N up to 4, K from 1 to 3 and 3 episodes. --jobs J checks J
# configurations at once (default: the number of cores); the report keeps
# the matrix's order whatever J is. Exits non-zero if any outcome differs
# from the expected one.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
small=0
csv=""
jobs=$(nproc 2>/dev/null || echo 1)
while [ $# -gt 0 ]; do
  case "$1" in
    --small) small=1 ;;
    --csv) mkdir -p "$(dirname "$2")" &&
           csv=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift ;;
    --jobs) jobs=$2; shift ;;
    *) echo "model_check: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
case $jobs in ''|*[!0-9]*|0) echo "model_check: --jobs needs a count" >&2; exit 2 ;; esac
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT

# The small matrix's searches stay under a million states, so pan is
# compiled without optimisation there: gcc -O2 on pan.c costs several
# times the search it speeds up. The full matrix's largest searches need
# -O2.
# pan's depth limit (-m) is a stack that it allocates whole: 10^7 steps
# cost 0.3 s of system time per search, more than most small searches
# take. A search that needs more depth says so, and reads as
# "incomplete", never as a pass.
if [ $small -eq 1 ]; then episodes=2; ns="2 3"; ks="1 2"; pan_opt=-O0; depth=100000
else episodes=3; ns="1 2 3 4"; ks="1 2 3"; pan_opt=-O2; depth=10000000; fi
name_protocol() { case $1 in 0) echo none;; 1) echo ticket;; 2) echo window;; 9) echo no-closing-check;; esac; }
name_barrier() { case $1 in 1) echo xf;; 2) echo counter;; 3) echo tree;; 9) echo no-wait;; esac; }

# check DIR PROTOCOL BARRIER RELAXED WATCHDOG N K CHECK(safety|liveness)
#       EXPECT(pass|fail) [FANIN [FLAT [BAD]]]
# Model-checks one configuration in DIR (its own copy of the model) and
# writes there `line` (the CSV row) and, where the outcome is not the
# expected one, `why` (pan's first error lines).
# (FANIN: the tree's groups per cluster; the model's default, 2, unless
# given or empty. FLAT 1: the tree's flat wake, shown as tree-flat. BAD:
# switches of the model, each set to 1 and shown in the name: SPLIT or
# COLLECTIVE (with NONBLOCKING), and the known-bad NO_RESET, ALWAYS_LAST, NO_WAIT, ONE_BANK,
# EARLY_READ, ASSUME_CLEAR)
check() {
  local dir=$1 p=$2 b=$3 r=$4 w=$5 n=$6 k=$7 check=$8 expect=$9
  local fanin=${10:-} flat=${11:-0} bad=${12:-}
  local defs="-DPROTOCOL=$p -DBARRIER=$b -DRELAXED=$r -DWATCHDOG=$w -DN=$n -DK=$k -DEPISODES=$episodes"
  local bname; bname=$(name_barrier $b)
  if [ "$flat" = 1 ]; then defs="$defs -DFLAT=1"; bname="$bname-flat"; fi
  for sw in $bad; do defs="$defs -D$sw=1"; bname="$bname-$(echo "$sw" | tr 'A-Z_' 'a-z-')"; done
  if [ -n "$fanin" ]; then defs="$defs -DFANIN=$fanin"; bname="$bname-fanin$fanin"; fi
  mkdir -p "$dir" && cp "$root/model/xwg.pml" "$dir/" && cd "$dir" || return
  local start end out outcome states
  start=$(date +%s.%N)
  spin $defs -a xwg.pml >/dev/null || { echo "spin failed: $defs" > why; return; }
  if [ "$check" = safety ]; then
    gcc $pan_opt -DSAFETY -DMEMLIM=8192 -o pan pan.c 2>/dev/null
    out=$(./pan -m$depth 2>&1)
  else
    # Weak fairness over up to 6 processes (N groups, init, memory).
    gcc $pan_opt -DNP -DNFAIR=4 -DMEMLIM=8192 -o pan pan.c 2>/dev/null
    out=$(./pan -l -f -m$depth 2>&1)
  fi
  end=$(date +%s.%N)
  states=$(awk '/states, stored/ {print $1; exit}' <<<"$out")
  # Here-strings, not `echo | grep -q`: under pipefail, grep -q's early
  # exit can kill echo with SIGPIPE, and a busy machine then reads a pass
  # as a fail.
  if grep -q "errors: 0" <<<"$out"; then outcome=pass; else outcome=fail; fi
  if grep -q "max search depth too small" <<<"$out"; then outcome="incomplete"; fi
  local seconds; seconds=$(awk "BEGIN { printf \"%.2f\", $end - $start }")
  echo "$(name_protocol $p),$bname,$r,$w,$n,$k,$episodes,$check,$expect,$outcome,$states,$seconds" > line
  [ "$outcome" = "$expect" ] ||
    grep -E "pan:1|violated|invalid end" <<<"$out" | head -3 > why
  rm -f pan pan.* xwg.pml
}

# run ARGS...: queues one configuration (check's arguments without DIR);
# at most $jobs run at once.
queued=0
run() {
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  queued=$((queued + 1))
  (check "$work/$queued" "$@") &
}

# The shipped protocols and barriers, every N and K.
for p in 1 2; do
  for b in 1 2 3; do
    for n in $ns; do
      for k in $ks; do
        run $p $b 0 0 $n $k safety pass
        run $p $b 0 0 $n $k liveness pass
      done
    done
  done
done
# The tree with other cluster sizes (the stable window only): clusters of
# one group each (every group arrives at the grid counter; the tests' size),
# and of three (one cluster of 3; or 3 and 1).
if [ $small -eq 1 ]; then tree_ns="3"; tree_ks="2"; else tree_ns="3 4"; tree_ks="$ks"; fi
for f in 1 3; do
  for n in $tree_ns; do
    for k in $tree_ks; do
      run 2 3 0 0 $n $k safety pass $f
      run 2 3 0 0 $n $k liveness pass $f
    done
  done
done
# The tree's flat wake (every member waits for the grid counter): clusters
# of 2 on every N and K, and clusters of 1 and 3 as above.
for n in $ns; do
  for k in $ks; do
    run 2 3 0 0 $n $k safety pass "" 1
    run 2 3 0 0 $n $k liveness pass "" 1
  done
done
for f in 1 3; do
  for n in $tree_ns; do
    for k in $tree_ks; do
      run 2 3 0 0 $n $k safety pass $f 1
      run 2 3 0 0 $n $k liveness pass $f 1
    done
  done
done
# The split barrier (arrive, the group's own work, wait) and the
# all-reduce (partials in two banks, read after the barrier), on the
# counter and on the tree with either wake, as the kernel runs them.
for n in $ns; do
  for k in $ks; do
    for check in safety liveness; do
      run 2 2 0 0 $n $k $check pass "" 0 SPLIT
      run 2 3 0 0 $n $k $check pass "" 1 SPLIT
      run 2 3 0 0 $n $k $check pass "" 0 SPLIT
      run 2 2 0 0 $n $k $check pass "" 0 COLLECTIVE
      run 2 3 0 0 $n $k $check pass "" 0 COLLECTIVE
      run 2 3 0 0 $n $k $check pass "" 1 COLLECTIVE
      run 2 2 0 0 $n $k $check pass "" 0 "COLLECTIVE NONBLOCKING"
      run 2 3 0 0 $n $k $check pass "" 1 "COLLECTIVE NONBLOCKING"
    done
  done
done
# The watchdog: discovery skipped, more groups than slots; and on the
# shipped configurations, where it may fire at any time.
for b in 1 2 3; do
  run 0 $b 0 1 3 2 safety pass
  run 0 $b 0 1 3 2 liveness pass
  run 2 $b 0 1 3 2 safety pass
done
run 0 3 0 1 3 2 safety pass "" 1
run 0 3 0 1 3 2 liveness pass "" 1
run 2 3 0 1 3 2 safety pass "" 1
# The known-bad models: each needs a counterexample.
run 9 2 0 0 3 2 safety fail   # discovery without the closing check
run 2 9 0 0 3 2 safety fail   # a barrier that does not wait
run 0 2 0 0 3 2 safety fail   # N > K, discovery skipped, no watchdog: deadlock
run 0 1 0 0 3 2 safety fail
run 0 3 0 0 3 2 safety fail
run 2 2 1 0 3 2 safety fail   # arrivals that do not release
run 2 1 1 0 3 2 safety fail
run 2 3 1 0 3 2 safety fail
run 2 3 1 0 3 2 safety fail "" 1
run 2 3 0 0 3 2 safety fail "" 1 NO_RESET  # the flat wake without its reset
run 2 2 0 0 3 2 safety fail "" 0 ALWAYS_LAST  # every arrival the last
run 2 3 0 0 3 2 safety fail 1 0 ALWAYS_LAST
run 2 2 0 0 3 2 safety fail "" 0 "SPLIT NO_WAIT"  # a wait that does not wait
run 2 3 0 0 3 2 safety fail "" 1 "SPLIT NO_WAIT"
run 2 3 0 0 3 2 safety fail "" 0 "SPLIT NO_WAIT"
run 2 2 0 0 3 2 safety fail "" 0 "COLLECTIVE ONE_BANK"  # one bank of partials
run 2 3 0 0 3 2 safety fail "" 1 "COLLECTIVE ONE_BANK"
run 2 2 0 0 3 2 safety fail "" 0 "COLLECTIVE EARLY_READ"  # partials read early
run 2 3 0 0 3 2 safety fail "" 1 "COLLECTIVE EARLY_READ"
run 2 2 0 0 3 2 safety fail "" 0 "COLLECTIVE NONBLOCKING EARLY_READ"  # reads before the wait
run 2 3 0 0 3 2 safety fail "" 1 "COLLECTIVE NONBLOCKING EARLY_READ"
run 2 2 0 0 3 2 safety fail "" 0 ASSUME_CLEAR  # the top bit taken for clear
run 2 3 0 0 3 2 safety fail "" 1 ASSUME_CLEAR
run 0 2 0 1 3 2 safety pass "" 0 SPLIT      # the watchdog, N > K
run 0 3 0 1 3 2 safety pass "" 1 SPLIT
run 0 2 0 1 3 2 safety pass "" 0 COLLECTIVE
run 0 2 0 1 3 2 safety pass "" 0 "COLLECTIVE NONBLOCKING"

wait

# The report, in the matrix's order.
[ -n "$csv" ] && echo "protocol,barrier,relaxed,watchdog,n,k,episodes,check,expect,outcome,states,seconds" > "$csv"
mismatches=0
for i in $(seq "$queued"); do
  line=$(cat "$work/$i/line" 2>/dev/null || echo "unchecked configuration $i")
  [ -n "$csv" ] && echo "$line" >> "$csv"
  if [ -e "$work/$i/why" ] || [ ! -e "$work/$i/line" ]; then
    mismatches=$((mismatches + 1))
    echo "MISMATCH $line" >&2
    cat "$work/$i/why" 2>/dev/null >&2
  else
    echo "ok $line" >&2
  fi
done
echo "model_check: $mismatches outcome(s) differ from the expected" >&2
echo "$([ $mismatches -eq 0 ] && echo 1 || echo 0) passed, $([ $mismatches -eq 0 ] && echo 0 || echo 1) failed"
[ $mismatches -eq 0 ]
