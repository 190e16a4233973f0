# Run through the device tool as: bash build-exp/e.sh (carry: build-exp), 2026-12-03.
# build-exp/old and build-exp/bis/C were `git archive C` trees (old: fcc3ef1), build-exp/var
# fcc3ef1 plus barrier-parts.patch; the working tree was the commit the run is recorded at.
#!/usr/bin/env bash
# Call E: f6e70ae (working tree) against fcc3ef1 (build-exp/old) and 4bcb157
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p $out
source scripts/h200_setup.sh || exit 1
for t in old bis/4bcb157; do
  ( cmake -S build-exp/$t -B /tmp/e-${t##*/} -G Ninja -DCMAKE_BUILD_TYPE=Release -DXWG_BUILD_TESTS=OFF >/dev/null &&
    cmake --build /tmp/e-${t##*/} --target xwg-bench -j 8 >/dev/null || echo "build $t failed" ) &
done; wait
s=$(date +%s)
for r in 1 2; do
  timeout 90 /tmp/xwg-build/xwg-bench --platform-name NVIDIA --csv $out/new-r$r.csv --label xwg >> $out/bench.log 2>&1 || echo "new rc $?" >> $out/bench.log
  timeout 90 /tmp/e-old/xwg-bench --platform-name NVIDIA --csv $out/old-r$r.csv --label xwg >> $out/bench.log 2>&1 || echo "old rc $?" >> $out/bench.log
  timeout 60 /tmp/e-4bcb157/xwg-bench --platform-name NVIDIA --barriers-only --local-sizes 64,256,1024 --algos counter,tree --csv $out/b4bcb157-r$r.csv --label xwg >> $out/bench.log 2>&1
done
nvcc -O3 -arch=sm_90 -o /tmp/gridsync bench/cuda/gridsync.cu && timeout 120 /tmp/gridsync 256 10256 16 > $out/gridsync.csv 2>> $out/bench.log
echo "benches at $(( $(date +%s) - s )) s" >> $out/bench.log
for L in 256 1024; do timeout 100 /tmp/xwg-build/barrier_driver --platform-name NVIDIA --local-size $L --launches 20 --episodes 20000 2>&1 | tail -14; done > $out/barrier-driver.txt
echo "driver at $(( $(date +%s) - s )) s" >> $out/bench.log
