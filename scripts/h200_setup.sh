# h200_setup.sh - sourced by the scripts that run on the GPU machine (an
# NVIDIA GPU with its OpenCL driver and the CUDA toolkit, no network): the
# vendors file that its loader needs for NVIDIA's OpenCL, the tools on the
# PATH, and a Release build of the library, xwg-discover and the drivers in
# /tmp/xwg-build (no tests: Check is not installed there).
mkdir -p /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export PATH=/opt/torch/.venv/bin:$PATH
cmake -S . -B /tmp/xwg-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DXWG_BUILD_TESTS=OFF >/dev/null && cmake --build /tmp/xwg-build >/dev/null
