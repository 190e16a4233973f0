#!/usr/bin/env bash
# run_discovery_study.sh [build_dir] - occupancy discovery on the local
# OpenCL implementations; writes $OUT/discovery-local.csv afresh (default
# build/out; record it with results/record.py).
#
# Each implementation is chosen by pointing OCL_ICD_VENDORS at a temporary
# folder that holds only its .icd file. Configurations:
#   PoCL, POCL_MAX_PTHREAD_COUNT=1 and 2   (reference: the thread count)
#   Mesa rusticl on llvmpipe               (reference: unknown)
#   Oclgrind, --num-threads 1, 2, 4        (reference: the thread count)
# An implementation that is not installed, or whose run fails, is skipped
# with a message. Progress goes to stderr. Every run is bounded by timeout.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-$root/build}
build=$(cd "$build" 2>/dev/null && pwd) || {
    echo "run_discovery_study: no build folder ${1:-$root/build}" >&2
    exit 1
}
discover=$build/xwg-discover
[ -x "$discover" ] || {
    echo "run_discovery_study: $discover not found; build first" >&2
    exit 1
}
to_csv="$here/discovery_json_to_csv.py"
vendors=/etc/OpenCL/vendors
out=${OUT:-$root/build/out}/discovery-local.csv

# Per-run limits (seconds).
T_NATIVE=${T_NATIVE:-600}
T_OCLGRIND=${T_OCLGRIND:-900}

NATIVE_ARGS=(--local-size 64,256,1024 --local-mem 0,16384 --repeat 10)
OCLGRIND_ARGS=(--local-size 16 --repeat 3)

work=$(mktemp -d "${TMPDIR:-/tmp}/xwg-study.XXXXXX")
trap 'rm -rf "$work"' EXIT
csv_tmp=$work/discovery-local.csv
ok=0
skipped=0

log() { echo "run_discovery_study: $*" >&2; }

# icd_dir NAME: a folder holding only NAME.icd (empty when NAME is "").
icd_dir() {
    local d
    d=$(mktemp -d "$work/icd.XXXXXX")
    [ -n "$1" ] && cp "$vendors/$1.icd" "$d/"
    echo "$d"
}

# run_one IMPL PLATFORM REFERENCE SOURCE TIMEOUT -- ENV... -- COMMAND...
# Runs COMMAND with ENV, and appends its JSON to the CSV.
run_one() {
    local impl=$1 platform=$2 ref=$3 src=$4 limit=$5
    shift 5
    [ "$1" = "--" ] && shift
    local envs=()
    while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
    shift
    local json=$work/$impl.json err=$work/$impl.err start end rc
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
    if python3 "$to_csv" "$csv_tmp" "$json" --implementation "$impl" \
        --reference "$ref" --reference-source "$src" \
        --require-platform "$platform"; then
        log "[$impl] done in $((end - start))s"
        ok=$((ok + 1))
    else
        log "[$impl] output not usable; skipped"
        skipped=$((skipped + 1))
    fi
}

# PoCL (CPU, pthread device).
if [ -f "$vendors/pocl.icd" ]; then
    d=$(icd_dir pocl)
    for n in 1 2; do
        if [ "$n" = 1 ]; then impl=pocl-1thread; else impl=pocl-${n}threads; fi
        run_one "$impl" "Portable Computing Language" "$n" "worker threads" \
            "$T_NATIVE" -- OCL_ICD_VENDORS="$d" POCL_MAX_PTHREAD_COUNT="$n" \
            -- "$discover" "${NATIVE_ARGS[@]}"
    done
else
    log "PoCL: $vendors/pocl.icd not found; skipped"
fi

# Mesa rusticl on llvmpipe.
if [ -f "$vendors/rusticl.icd" ]; then
    d=$(icd_dir rusticl)
    run_one rusticl-llvmpipe rusticl "" "" "$T_NATIVE" \
        -- OCL_ICD_VENDORS="$d" RUSTICL_ENABLE=llvmpipe \
        -- "$discover" "${NATIVE_ARGS[@]}"
else
    log "rusticl: $vendors/rusticl.icd not found; skipped"
fi

# Oclgrind (simulator; its wrapper preloads its own runtime, so the ICD
# folder is left empty to make sure nothing else answers).
if command -v oclgrind >/dev/null 2>&1; then
    d=$(icd_dir "")
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
    log "no implementation gave results; $out left as it was"
    exit 1
fi
mkdir -p "$(dirname "$out")"
cp "$csv_tmp" "$out"
log "$ok run(s) written to $out ($skipped skipped)"
