# Run through the device tool as: bash build-exp/c.sh (carry: build-exp), 2026-12-03.
# build-exp/old and build-exp/bis/C were `git archive C` trees (old: fcc3ef1), build-exp/var
# fcc3ef1 plus barrier-parts.patch; the working tree was the commit the run is recorded at.
#!/usr/bin/env bash
# Call C: where the barrier's extra 0.1 us came from, commit by commit
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p $out
mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export PATH=/opt/torch/.venv/bin:$PATH
cs="4bcb157 f759545 4f373f1 e87a98f 8b76768 f164ed2 fcc3ef1"
s=$(date +%s)
for c in $cs; do
  ( cmake -S build-exp/bis/$c -B /tmp/b-$c -G Ninja -DCMAKE_BUILD_TYPE=Release -DXWG_BUILD_TESTS=OFF >/dev/null &&
    cmake --build /tmp/b-$c --target xwg-bench -j 4 >/dev/null || echo "build $c failed" ) &
done; wait
echo "built at $(( $(date +%s) - s )) s" > $out/bisect.log
for round in 1 2; do for c in $cs; do
  timeout 60 /tmp/b-$c/xwg-bench --platform-name NVIDIA --barriers-only --local-sizes 64,256,1024 \
      --algos counter,tree --csv $out/bisect.csv --label $c-r$round >> $out/bisect.log 2>&1 || echo "$c rc $?" >> $out/bisect.log
done; done
echo "done at $(( $(date +%s) - s )) s" >> $out/bisect.log
