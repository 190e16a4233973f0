# h200_setup.sh - sourced by the scripts that run on the GPU machine (an
# NVIDIA GPU with its OpenCL driver and the CUDA toolkit, no network): the
# vendors file that its loader needs for NVIDIA's OpenCL, the tools on the
# PATH, and a Release build of the library, xwg-discover and the drivers in
# /tmp/xwg-build (no tests: Check is not installed there); and
# zink_setup, for the scripts that run programs through rusticl on Zink.
mkdir -p /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export PATH=/opt/torch/.venv/bin:$PATH
cmake -S . -B /tmp/xwg-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DXWG_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/xwg-build >/dev/null

# zink_setup: what `bash .zink/run.sh PROGRAM` needs there (rusticl on Zink
# over NVIDIA's Vulkan driver; run_h200_zink.sh says what the ignored
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
