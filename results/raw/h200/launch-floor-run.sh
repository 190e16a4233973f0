#!/usr/bin/env bash
# Run through the device tool as: bash build-exp/f.sh (carry: build-exp), 2026-12-03, at 6845336.
# Call F: launch-bench at HEAD (6845336), four processes on NVIDIA, two on PoCL (16 cores)
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p $out
OUT=$out REPEATS=4 timeout 300 scripts/run_h200_launch.sh > /dev/null 2> $out/launch.err
OUT=$out PLATFORM=Portable REPEATS=2 timeout 150 scripts/run_h200_launch.sh > /dev/null 2> $out/launch-pocl.err
grep "x plain" $out/launch.err $out/launch-pocl.err
