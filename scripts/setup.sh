#!/usr/bin/env bash
# setup.sh - installs what xwg needs on a fresh Debian machine: a compiler,
# CMake and Ninja, the OpenCL headers and ICD loader, the OpenCL
# implementations that the tests and the study use (PoCL, Mesa rusticl,
# Oclgrind), Check, Spin for the model, matplotlib for the plots in
# results/, and PyOpenCL, NumPy and pytest for the Python package.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config
          ocl-icd-opencl-dev opencl-headers
          pocl-opencl-icd mesa-opencl-icd oclgrind
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
