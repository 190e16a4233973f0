#!/usr/bin/env bash
# experiments/sass.sh - what each barrier compiles to: the PTX that NVIDIA's
# OpenCL compiler makes of xwg-bench's
# kernels on the ptx and cl20 paths (xwg-bench --dump-binary), turned into
# SASS by the CUDA toolkit's ptxas and cuobjdump, and the SASS of the CUDA
# comparator, into $OUT. The OpenCL driver's own JIT from that PTX to SASS
# cannot be dumped: this is what ptxas makes of the same PTX, so the poll
# loops of xwg's barrier and of grid.sync() can be compared instruction by
# instruction.
set -uo pipefail
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1
source "$root/scripts/nvidia_setup.sh" || exit 1
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
