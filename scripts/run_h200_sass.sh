#!/usr/bin/env bash
# run_h200_sass.sh - what the H200 really runs, for the barrier-latency
# investigation (issue 5): the machine code (SASS) of xwg-bench's kernels as
# NVIDIA's OpenCL compiler emits them on the ptx and cl20 paths, and of the
# CUDA comparator, into $OUT/*.sass. OpenCL hands back PTX
# (xwg-bench --dump-binary); ptxas and cuobjdump from the CUDA toolkit turn
# it into SASS, so the poll loops of xwg's barrier and of grid.sync() can be
# compared instruction by instruction.
set -uo pipefail
out=${OUT:-./h200-out}
mkdir -p "$out"
source "$(dirname "$0")/h200_setup.sh" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
for path in ptx cl20; do
  XWG_ATOMICS=$path timeout 120 /tmp/xwg-build/xwg-bench \
      --platform-name NVIDIA --local-sizes 1024 --barriers-only \
      --algos counter --dump-binary "$out/xwg-$path.ptx" >&2 &&
    # The driver's PTX names a newer ISA than the toolkit's ptxas knows
    # (9.0) and ends in a NUL; 8.0 has every instruction it uses.
    tr -d '\0' < "$out/xwg-$path.ptx" |
      sed 's/^\.version .*/.version 8.0/' > /tmp/xwg-$path.ptx &&
    ptxas -O3 -arch=sm_90 /tmp/xwg-$path.ptx -o /tmp/xwg-$path.cubin &&
    cuobjdump -sass /tmp/xwg-$path.cubin > "$out/xwg-$path.sass"
done
nvcc -O3 -arch=sm_90 -cubin bench/cuda/gridsync.cu -o /tmp/gridsync.cubin &&
  cuobjdump -sass /tmp/gridsync.cubin > "$out/cuda-gridsync.sass"
ls -l "$out" >&2
