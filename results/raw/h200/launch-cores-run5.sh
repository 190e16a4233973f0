#!/usr/bin/env bash
# The device command of a run in results/runs.csv (see its command column),
# kept as it ran: from the repository root of the measured tree, with
# .exp/host a tree of 9f203cc (git archive 9f203cc | tar -x -C .exp/host),
# carried with the device tool.
# run 5: header loads (working tree) against 9f203cc's tree (host work halved), 3 processes each;
# then clcost reads on the new tree; then pinned processes.
out=${OUT:-./out}; mkdir -p $out
OUT=$out REPEATS=3 bash scripts/run_h200_launch.sh host=.exp/host > $out/launch-log.txt 2>&1
/tmp/xwg-build/xwg-launch-bench --platform-name NVIDIA --local-size 256 --count 1000 --requests 2000 --csv $out/launch-h200.csv --label launch4 >> $out/launch-log.txt 2>&1
cmake --build /tmp/xwg-build --target xwg-clcost >/dev/null && timeout 150 /tmp/xwg-build/xwg-clcost NVIDIA reads > $out/clcost-reads.txt 2>&1
for c in 2 9; do
  for i in 1 2; do
    taskset -c $c timeout 100 /tmp/xwg-old0/xwg-launch-bench --platform-name NVIDIA --local-size 256 --count 1000 --requests 2000 --csv $out/launch-pinned.csv --label host-core$c-$i >> $out/launch-log.txt 2>&1
    taskset -c $c timeout 100 /tmp/xwg-build/xwg-launch-bench --platform-name NVIDIA --local-size 256 --count 1000 --requests 2000 --csv $out/launch-pinned.csv --label launch-core$c-$i >> $out/launch-log.txt 2>&1
  done
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $out/gpu.txt
