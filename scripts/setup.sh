#!/usr/bin/env bash
# setup.sh - installs what xwg needs on a fresh Debian machine: a compiler,
# CMake and Ninja, the OpenCL headers and ICD loader, the OpenCL
# implementations that the tests and the study use (PoCL, Mesa rusticl,
# Oclgrind from Debian; Intel's oneAPI OpenCL runtime for CPUs from PyPI,
# into build/intel-opencl with its ICD file beside it), Oclgrind's plugin
# headers and LLVM 14's (xwg-racecheck's plugin), Check, Spin for the
# model, matplotlib for the plots in results/, and PyOpenCL, NumPy and
# pytest for the Python package.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(build-essential cmake ninja-build pkg-config
          ocl-icd-opencl-dev opencl-headers
          pocl-opencl-icd mesa-opencl-icd oclgrind liboclgrind-dev llvm-14-dev
          check spin python3 python3-matplotlib
          python3-pyopencl python3-numpy python3-pytest python3-setuptools
          python3-venv)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
echo "setup: all packages present" >&2

# Intel's runtime: a venv of its own (the wheels hold the runtime and the
# libraries it loads; intel-cmplr-lib-rt holds libimf, libsvml, libirng
# and libintlc, which the runtime needs but its metadata does not pull
# in). The wheel's own .icd names a placeholder path, so the ICD file is
# written here with the absolute path; pick the runtime with
# OCL_ICD_VENDORS=build/intel-opencl/icd (tests/CMakeLists.txt does).
intel=build/intel-opencl
intel_version=2026.2.0
if [ ! -f "$intel/icd/intel.icd" ] ||
   ! "$intel/bin/python" -m pip show -q "intel-opencl-rt" >/dev/null 2>&1; then
  echo "setup: installing Intel's OpenCL runtime $intel_version into $intel" >&2
  /usr/bin/python3 -m venv "$intel"
  "$intel/bin/python" -m pip install -q --disable-pip-version-check \
    "intel-opencl-rt==$intel_version" "intel-cmplr-lib-rt==$intel_version"
  mkdir -p "$intel/icd"
  echo "$(cd "$intel" && pwd)/lib/libintelocl.so" > "$intel/icd/intel.icd"
fi
echo "setup: Intel's OpenCL runtime in $intel" >&2
