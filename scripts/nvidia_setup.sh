# nvidia_setup.sh - sourced by the experiments that run on the GPU machine
# (an NVIDIA GPU with its OpenCL driver and the CUDA toolkit, no network;
# scripts/run EXPERIMENT --platform nvidia), after
# scripts/experiment_prologue.sh: the vendors file that its loader needs
# for NVIDIA's OpenCL, the tools on the PATH, and a Release
# build of the library, xwg-discover and the drivers in /tmp/xwg-build (no
# tests: Check is not installed there). It also defines
#   zink_setup, for the experiments that run programs through rusticl on
#     Zink;
#   variant TAG ALGOS OPTIONS [ENVIRONMENT...], for the barrier benchmark's
#     variants (experiments/bench.sh and explore.sh, which set $csv, $label
#     and $out first).
# zink_setup: what `bash .zink/run.sh PROGRAM` needs there (rusticl on Zink
# over NVIDIA's Vulkan driver; experiments/zink.sh says what the ignored
# folders .zink/ and .gl/ hold): the Vulkan and GL loaders of .gl/*.deb
# unpacked into /, and the variables that point the bundle at NVIDIA's
# Vulkan driver and at the machine's own libraries.
zink_setup() {
  local f
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  export ZINK_EXTRA_LIBPATH=/usr/lib/x86_64-linux-gnu ZINK_QUIET=1
}

# variant TAG ALGOS OPTIONS [ENVIRONMENT...]: xwg-bench at full occupancy
# (barriers and floor only) with OPTIONS added to the programs' build
# options, in ENVIRONMENT, rows into $csv labelled $label and tagged TAG;
# $EXTRA adds xwg-bench options.
variant() {
  local tag=$1 algos=$2 options=$3
  shift 3
  echo "== variant $tag" >&2
  env "$@" timeout 120 /tmp/xwg-build/xwg-bench --platform-name NVIDIA \
      --csv "$csv" --label "$label" --barriers-only --tag "$tag" \
      --algos "$algos" --build-options "$options" ${EXTRA:-} >&2
}

# The build comes last: its status is the one `source` returns, which the
# experiments check (`source .../nvidia_setup.sh || exit 1`).
mkdir -p /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export PATH=/opt/torch/.venv/bin:$PATH
cmake -S "$(dirname "${BASH_SOURCE[0]}")/.." -B /tmp/xwg-build -G Ninja \
      -DCMAKE_BUILD_TYPE=Release -DXWG_BUILD_TESTS=OFF >/dev/null &&
  cmake --build /tmp/xwg-build >/dev/null
