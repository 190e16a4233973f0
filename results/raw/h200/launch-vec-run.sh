# Run through the device tool as: bash build-exp/a.sh (carry: build-exp), 2026-12-03.
# build-exp/old and build-exp/bis/C were `git archive C` trees (old: fcc3ef1), build-exp/var
# fcc3ef1 plus barrier-parts.patch; the working tree was the commit the run is recorded at.
#!/usr/bin/env bash
# Call A: header-vector variant (working tree) against fcc3ef1 (build-exp/old)
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p $out
source scripts/h200_setup.sh || exit 1
cmake -S build-exp/old -B /tmp/xwg-old -G Ninja -DCMAKE_BUILD_TYPE=Release -DXWG_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/xwg-old >/dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $out/driver.txt
for i in 1 2; do for t in old new; do
  b=/tmp/xwg-build; [ $t = old ] && b=/tmp/xwg-old
  echo "== $t $i"; timeout 60 $b/xwg-clcost NVIDIA reads | grep -E 'one launch|read 4 B'
done; done > $out/clcost-reads-vec.txt 2>&1
OUT=$out REPEATS=4 NAME=vec timeout 420 scripts/run_h200_launch.sh old=build-exp/old > /dev/null 2> $out/launch.err
echo done
