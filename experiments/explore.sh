#!/usr/bin/env bash
# experiments/explore.sh STEP - exploration run 3 on the GPU machine, into
# $OUT/barrier-h200.csv (label xwg-nvidia-explore3): the tree's broadcast
# wake (XWG_TUNE_TREE_BROADCAST=1: the last arrival at the grid counter
# wakes every cluster; nobody polls the grid counter) against the shipped
# tree, each compiled alone, at several cluster sizes; the tree with its
# cluster wake compiled out (is its code beside the flat wake a cost?);
# the default set with the broadcast wake; and grid.sync() in the same run
# (label cuda-explore3-STEP). Steps (the argument): wake (the broadcast
# wake: it needs commit 0cfcb59, as the knob was taken out after it),
# protos (the flat-wake prototypes of bench/placed.c; 0cfcb59), privep
# (the episode count in a private variable, as shipped since), sweep
# (the tuning knobs again on that code) and wakelines (the broadcast wake
# on wake words of their own: commit of XWG_TUNE_TREE_WAKE_LINES, taken
# out after it; with its stress, label nvidia-wakelines). Exploration run
# 4's step, fences, runs bench/cuda/fences.cu alone (the tree's fences
# taken away one by one, in CUDA; label cuda-fences, twice), writes the
# fences and atomics that each of its kernels compiles to into
# $OUT/fences-sass.txt, and runs xwg's tree and counter with and without
# their releases (label xwg-nvidia-explore4).
set -uo pipefail
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1
label=xwg-nvidia-explore3
[ "${1:-}" = fences ] && label=xwg-nvidia-explore4
csv="$out/barrier-h200.csv"
rm -f "$csv"
source "$root/scripts/nvidia_setup.sh" || exit 1
bench=/tmp/xwg-build/xwg-bench
step=${1:-wake}
if [ "$step" = fences ]; then
  nvcc -O3 -arch=sm_90 -o /tmp/fences bench/cuda/fences.cu || exit 1
  timeout 200 /tmp/fences 256 10256 > "$csv" || exit 1
  timeout 200 /tmp/fences 256 10256 | tail -n +2 >> "$csv" || exit 1
  # One line per fence, atomic, L1 invalidation or work-group barrier:
  # KERNEL: INSTRUCTION.
  cuobjdump -sass /tmp/fences |
    awk '/Function :/ { f = $3 }
         /MEMBAR|ATOMG|CCTL|BAR\.SYNC/ {
           sub(/^ *\/\*[0-9a-f]*\*\/ */, ""); sub(/;.*/, ""); print f ": " $0 }' \
    > "$out/fences-sass.txt"
  # The same question in xwg's own OpenCL kernels: each algorithm compiled
  # alone, as shipped and as known-bad RELAXED_RELEASE (every release
  # relaxed, the acq_rel arrivals too, so only the waits' acquire loads
  # are left: not a barrier, a measurement), label xwg-nvidia-explore4.
  for algo in tree counter; do
    variant fences-only $algo "" XWG_BARRIER=$algo
    variant fences-norelease $algo -DXWG_TEST_BROKEN_RELAXED_RELEASE \
        XWG_BARRIER=$algo
  done
  cat "$csv" >&2
  exit 0
fi
if [ "$step" = wake ]; then
variant only tree "" XWG_BARRIER=tree
variant bcast tree -DXWG_TUNE_TREE_BROADCAST=1 XWG_BARRIER=tree
variant flatonly tree -DXWG_TUNE_TREE_FLAT_MAX=0xffffffffu XWG_BARRIER=tree
for f in ${FANINS:-32 64 128 192}; do
  variant bcast-fanin$f tree \
      "-DXWG_TUNE_TREE_BROADCAST=1 -DXWG_TUNE_TREE_FANIN=${f}u" XWG_BARRIER=tree
done
variant bcast-default counter,tree,default -DXWG_TUNE_TREE_BROADCAST=1
variant only-repeat tree "" XWG_BARRIER=tree
fi
if [ "$step" = protos ]; then
  # The tree's flat wake as four prototype kernels (bench/placed.c,
  # --prototypes): counts that grow or reset, the episode count in a
  # register or in local memory; beside the library's tree with its words
  # in the same zeroed buffer (--placements 1), twice each.
  for r in 1 2; do
    EXTRA="--prototypes --placements 1" variant protos$r tree \
        "-DXWG_TUNE_TREE_FANIN=96u" XWG_BARRIER=tree
  done
  $bench --platform-name NVIDIA --csv "$csv" --label $label --barriers-only \
      --tag protos-default --algos tree,default --prototypes --placements 1 \
      --build-options "-DXWG_TUNE_TREE_FANIN=96u" >&2
fi
if [ "$step" = privep ]; then
  # The episode count in a private variable (xwg_self.episodes), beside
  # the prototypes: the default set and each algorithm compiled alone.
  for r in 1 2; do
    EXTRA="--prototypes" variant privep$r counter,tree,default \
        "-DXWG_TUNE_TREE_FANIN=96u"
  done
  variant privep-only tree "-DXWG_TUNE_TREE_FANIN=96u" XWG_BARRIER=tree
  variant privep-only counter "-DXWG_TUNE_TREE_FANIN=96u" XWG_BARRIER=counter
fi
if [ "$step" = sweep ]; then
  # The tuning knobs again, on the private episode count.
  variant sweep-collect0 counter,tree -DXWG_TUNE_COLLECT=0
  variant sweep-collect2 counter,tree -DXWG_TUNE_COLLECT=2
  for f in 48 64 128 192; do
    variant sweep-fanin$f tree -DXWG_TUNE_TREE_FANIN=${f}u XWG_BARRIER=tree
  done
  variant sweep-fanin96 tree -DXWG_TUNE_TREE_FANIN=96u XWG_BARRIER=tree
  variant sweep-flag4096 counter,tree -DXWG_TUNE_FLAG_EVERY=4096u
  variant sweep-flat tree -DXWG_TUNE_TREE_FLAT_MAX=0xffffffffu XWG_BARRIER=tree
fi
if [ "$step" = wakelines ]; then
  # The broadcast wake again, on wake words of their own (one line per
  # cluster after the cluster words), so that polls and arrivals never
  # meet at one word; and its data-checked stress, 10^6 episodes a size.
  variant wl-base tree "" XWG_BARRIER=tree
  variant wakelines tree -DXWG_TUNE_TREE_WAKE_LINES=1 XWG_BARRIER=tree
  variant wakelines-default counter,tree,default -DXWG_TUNE_TREE_WAKE_LINES=1
  for l in 256 1024 64; do
    XWG_BARRIER=tree timeout 60 /tmp/xwg-build/barrier_driver \
        --platform-name NVIDIA --local-size $l --episodes 100000 \
        --launches 10 --only stress --build-options \
        -DXWG_TUNE_TREE_WAKE_LINES=1 --csv "$out/wakelines-stress.csv" \
        --label nvidia-wakelines >&2
  done
fi
[ "$step" = wakelines ] && { cat "$csv" >&2; exit 0; }
echo "== CUDA grid.sync()" >&2
nvcc -O3 -arch=sm_90 -o /tmp/gridsync bench/cuda/gridsync.cu &&
    timeout 200 /tmp/gridsync 256 10256 0 | sed "s/^cuda,/cuda-explore3-$step,/" >> "$csv"
cat "$csv" >&2
