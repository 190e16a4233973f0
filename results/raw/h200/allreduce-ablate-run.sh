#!/usr/bin/env bash
# The device command of runs h200-allreduce-ablate-0c675e5 and -run2: a
# tree of 0c675e5 with allreduce-ablate.patch applied (in .exp/abl), built
# beside the shipped one, and xwg-bench's barrier and all-reduce rows for
# each XWG_ABLATE value (what each removes or moves: the patch's comment),
# tags a1 .. a10 (renamed to their meaning when recorded). Run 1 took
# A="1 2 3 4 5 6 7 8", run 2 A="6 9 10".
out=${OUT:-./out}; mkdir -p "$out"
source scripts/h200_setup.sh
(cd .exp/abl && cmake -S . -B /tmp/abl-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
   -DXWG_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/abl-build >/dev/null) || exit 1
b=/tmp/abl-build/xwg-bench
args=(--platform-name NVIDIA --local-sizes 256,1024 --barriers-only --collectives
      --algos default --csv "$out/abl.csv" --label xwg)
timeout 100 $b "${args[@]}"
for a in ${A:-1 2 3 4 5 6 7 8}; do
  timeout 100 $b "${args[@]}" --build-options "-DXWG_ABLATE=$a" --tag a$a
done
