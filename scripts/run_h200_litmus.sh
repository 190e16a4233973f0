#!/usr/bin/env bash
# run_h200_litmus.sh - xwg-litmus on the H200 (NVIDIA OpenCL), through the
# device tool, into $OUT/litmus-h200.json; then, here:
#   python3 scripts/litmus_json_to_csv.py nvidia-h200 litmus-h200.csv \
#       < litmus-h200.json
# and record litmus-h200.csv with results/record.py (results/README.md).
set -uo pipefail
out=${OUT:-./h200-out}
mkdir -p "$out"
source "$(dirname "$0")/h200_setup.sh" || exit 1
timeout 500 /tmp/xwg-build/xwg-litmus --platform-name NVIDIA \
    --iterations 200 --json > "$out/litmus-h200.json"
