# Run through the device tool as: bash build-exp/d.sh (carry: build-exp), 2026-12-03.
# build-exp/old and build-exp/bis/C were `git archive C` trees (old: fcc3ef1), build-exp/var
# fcc3ef1 plus barrier-parts.patch; the working tree was the commit the run is recorded at.
#!/usr/bin/env bash
# Call D: which part of the split-barrier change costs the barrier 0.1-0.17 us
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p $out
mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export PATH=/opt/torch/.venv/bin:$PATH
for t in var bis/4bcb157; do
  ( cmake -S build-exp/$t -B /tmp/d-${t##*/} -G Ninja -DCMAKE_BUILD_TYPE=Release -DXWG_BUILD_TESTS=OFF >/dev/null &&
    cmake --build /tmp/d-${t##*/} --target xwg-bench -j 8 >/dev/null || echo "build $t failed" ) &
done; wait
run() { # BUILD LABEL TAG OPTIONS
  local extra=(); [ -n "$3" ] && extra=(--tag "$3" --build-options "$4")
  timeout 60 /tmp/d-$1/xwg-bench --platform-name NVIDIA --barriers-only --local-sizes 64,256,1024 \
      --algos counter,tree --csv $out/parts.csv --label $2 "${extra[@]}" >> $out/parts.log 2>&1 || echo "$2 $3 rc $?" >> $out/parts.log
}
for r in 1 2; do
  run 4bcb157 old-r$r "" ""
  run var head-r$r "" ""
  run var head-r$r nopending "-DXP_NO_PENDING"
  run var head-r$r poll32 "-DXP_POLL32"
  run var head-r$r direct "-DXP_DIRECT"
  run var head-r$r scratch1 "-DXWG__SCRATCH_WORDS=1u"
  run var head-r$r all "-DXP_NO_PENDING -DXP_POLL32 -DXP_DIRECT -DXWG__SCRATCH_WORDS=1u"
done
echo done >> $out/parts.log
