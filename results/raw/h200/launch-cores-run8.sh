#!/usr/bin/env bash
# The device command of a run in results/runs.csv (see its command column),
# kept as it ran: from the repository root of the measured tree, with
# .exp/host a tree of 9f203cc (git archive 9f203cc | tar -x -C .exp/host),
# carried with the device tool.
out=${OUT:-./out}; mkdir -p $out
source scripts/h200_setup.sh
(cmake -S .exp/host -B /tmp/xwg-host -G Ninja -DCMAKE_BUILD_TYPE=Release -DXWG_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/xwg-host --target xwg-launch-bench >/dev/null) || exit 1
for c in 2 9; do taskset -c $c timeout 120 /tmp/xwg-build/xwg-clcost NVIDIA delays > $out/delays-core$c.txt 2>&1; done
a=(--platform-name NVIDIA --local-size 256 --count 1000 --requests 2000 --csv $out/launch-pinned.csv)
for c in 2 9; do for i in 1 2; do
  taskset -c $c timeout 100 /tmp/xwg-host/xwg-launch-bench "${a[@]}" --label core$c-9f203cc$i > /dev/null 2>&1
  taskset -c $c timeout 100 /tmp/xwg-build/xwg-launch-bench "${a[@]}" --label core$c-new$i > /dev/null 2>&1
done; done
