#!/usr/bin/env bash
# experiments/discovery.sh [build_dir] - occupancy discovery.
# scripts/run discovery --platform local|nvidia runs it:
#   local   the local OpenCL implementations, into $OUT/discovery-local.csv,
#           written afresh (default build/out; record it with
#           results/record.py);
#   nvidia  the GPU machine, through the device tool: raw outputs into $OUT
#             nvidia-*.json   xwg-discover --json on NVIDIA's OpenCL, per
#                             protocol and window
#             pocl16.json     xwg-discover on the machine's PoCL (16 cores)
#             cuda-occupancy.csv  the CUDA occupancy calculator for the
#                             same sizes
#           which `python3 scripts/to_csv.py discovery-nvidia DIR CSV`
#           then turns into a CSV for results/record.py.
#
# Locally, each implementation is chosen by pointing OCL_ICD_VENDORS at a
# temporary folder that holds only its .icd file. Configurations:
#   PoCL, POCL_MAX_PTHREAD_COUNT=1 and 2   (reference: the thread count)
#   Mesa rusticl on llvmpipe               (reference: unknown)
#   Oclgrind, --num-threads 1, 2, 4        (reference: the thread count)
# An implementation that is not installed, or whose run fails, is skipped
# with a message. Progress goes to stderr. Every run is bounded by timeout.
set -u
source "$(dirname "$0")/../scripts/experiment_prologue.sh" || exit 1

if [ "$platform" = nvidia ]; then
  set -eo pipefail
  source "$root/scripts/nvidia_setup.sh"
  cli=/tmp/xwg-build/xwg-discover
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader |
    tee "$out/gpu.txt"

  sizes=64,128,256,512,1024
  # 49144 = the 48 KiB the device reports less xwg's own 8 bytes ("max").
  mems=0,16384,max
  echo "== NVIDIA, default protocol" >&2
  $cli --platform-name NVIDIA --local-size $sizes --local-mem $mems \
       --repeat 5 --json > "$out/nvidia-default.json"
  echo "== NVIDIA, ticket lock" >&2
  $cli --platform-name NVIDIA --local-size 64,256,1024 --repeat 5 \
       --protocol ticket --json > "$out/nvidia-ticket.json"
  for w in 5 50; do
    echo "== NVIDIA, window ${w} us" >&2
    $cli --platform-name NVIDIA --local-size 64,256,1024 --repeat 5 \
         --window-us $w --json > "$out/nvidia-window$w.json"
  done
  echo "== PoCL on this machine's cores" >&2
  timeout 300 $cli --platform-name Portable --local-size 64,256,1024 \
       --repeat 5 --json > "$out/pocl16.json" || echo "pocl failed" >&2

  echo "== CUDA occupancy calculator" >&2
  nvcc -O2 -arch=sm_90 -o /tmp/occupancy "$root/bench/cuda/occupancy.cu"
  /tmp/occupancy 0 16384 49144 > "$out/cuda-occupancy.csv"
  cat "$out/cuda-occupancy.csv" >&2
  exit 0
fi

build=${1:-$root/build}
build=$(cd "$build" 2>/dev/null && pwd) || {
    echo "discovery: no build folder ${1:-$root/build}" >&2
    exit 1
}
discover=$build/xwg-discover
[ -x "$discover" ] || {
    echo "discovery: $discover not found; build first" >&2
    exit 1
}
to_csv=$root/scripts/to_csv.py
csv=$out/discovery-local.csv

# Per-run limits (seconds).
T_NATIVE=${T_NATIVE:-600}
T_OCLGRIND=${T_OCLGRIND:-900}

NATIVE_ARGS=(--local-size 64,256,1024 --local-mem 0,16384 --repeat 10)
OCLGRIND_ARGS=(--local-size 16 --repeat 3)

csv_tmp=$tmp/discovery-local.csv
ok=0
skipped=0

log() { echo "discovery: $*" >&2; }

# run_one IMPL PLATFORM REFERENCE SOURCE TIMEOUT -- ENV... -- COMMAND...
# Runs COMMAND with ENV, and appends its JSON to the CSV.
run_one() {
    local impl=$1 platform=$2 ref=$3 src=$4 limit=$5
    shift 5
    [ "$1" = "--" ] && shift
    local envs=()
    while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
    shift
    local json=$tmp/$impl.json err=$tmp/$impl.err start end rc
    log "[$impl] running (limit ${limit}s): ${envs[*]} $*"
    start=$(date +%s)
    env "${envs[@]}" timeout "$limit" "$@" --json >"$json" 2>"$err"
    rc=$?
    end=$(date +%s)
    if [ "$rc" -ne 0 ]; then
        if [ "$rc" -eq 124 ]; then
            log "[$impl] timed out after ${limit}s; skipped"
        else
            log "[$impl] failed (exit $rc); skipped. Last lines of stderr:"
            tail -n 5 "$err" | sed 's/^/    /' >&2
        fi
        skipped=$((skipped + 1))
        return 0
    fi
    if [ -s "$err" ]; then
        log "[$impl] stderr (last lines):"
        tail -n 5 "$err" | sed 's/^/    /' >&2
    fi
    if python3 "$to_csv" discovery "$csv_tmp" "$json" \
        --implementation "$impl" --reference "$ref" --reference-source "$src" \
        --require-platform "$platform"; then
        log "[$impl] done in $((end - start))s"
        ok=$((ok + 1))
    else
        log "[$impl] output not usable; skipped"
        skipped=$((skipped + 1))
    fi
}

# PoCL (CPU, pthread device).
if d=$(icd_dir pocl); then
    for n in 1 2; do
        if [ "$n" = 1 ]; then impl=pocl-1thread; else impl=pocl-${n}threads; fi
        run_one "$impl" "Portable Computing Language" "$n" "worker threads" \
            "$T_NATIVE" -- OCL_ICD_VENDORS="$d" POCL_MAX_PTHREAD_COUNT="$n" \
            -- "$discover" "${NATIVE_ARGS[@]}"
    done
else
    log "PoCL: /etc/OpenCL/vendors/pocl.icd not found; skipped"
fi

# Mesa rusticl on llvmpipe.
if d=$(icd_dir rusticl); then
    run_one rusticl-llvmpipe rusticl "" "" "$T_NATIVE" \
        -- OCL_ICD_VENDORS="$d" RUSTICL_ENABLE=llvmpipe \
        -- "$discover" "${NATIVE_ARGS[@]}"
else
    log "rusticl: /etc/OpenCL/vendors/rusticl.icd not found; skipped"
fi

# Oclgrind (simulator; its wrapper preloads its own runtime, so the ICD
# folder is left empty to make sure nothing else answers).
if command -v oclgrind >/dev/null 2>&1; then
    d=$(icd_dir none)
    for n in 1 2 4; do
        if [ "$n" = 1 ]; then impl=oclgrind-1thread; else impl=oclgrind-${n}threads; fi
        run_one "$impl" Oclgrind "$n" "oclgrind --num-threads" "$T_OCLGRIND" \
            -- OCL_ICD_VENDORS="$d" \
            -- oclgrind --num-threads "$n" "$discover" "${OCLGRIND_ARGS[@]}"
    done
else
    log "Oclgrind: oclgrind not found; skipped"
fi

if [ "$ok" -eq 0 ]; then
    log "no implementation gave results; $csv left as it was"
    exit 1
fi
cp "$csv_tmp" "$csv"
log "$ok run(s) written to $csv ($skipped skipped)"
