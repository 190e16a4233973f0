#!/usr/bin/env bash
# run_consumer_test.sh - builds and runs tests/consumer/consumer.c against an
# INSTALLED copy of xwg, the way a user outside this tree would.
#
# Usage: run_consumer_test.sh <source dir> <build dir> <cmake command> [mode]
#   mode: cmake     - find_package(xwg) + xwg::xwg (tests/consumer/cmake_app)
#         pkgconfig - `pkg-config --cflags --libs xwg` and plain cc
#         tools     - the installed bin/ and libexec/xwg/ executables run
#                     with no LD_LIBRARY_PATH (needs XWG_BUILD_CLI)
#         all       - all three (the default)
# Every mode first installs <build dir> into a fresh temporary prefix (not
# the configured one) and checks the installed libxwg.so: SONAME
# libxwg.so.0, and only xwg_* symbols exported; the pkgconfig and tools
# modes then move the prefix. It is removed on exit.
set -euo pipefail

if [[ $# -lt 3 || $# -gt 4 ]]; then
  echo "usage: $0 <source dir> <build dir> <cmake command> [cmake|pkgconfig|tools|all]" >&2
  exit 2
fi
src_dir=$(cd "$1" && pwd)
build_dir=$(cd "$2" && pwd)
cmake_cmd=$3
mode=${4:-all}
case "$mode" in cmake|pkgconfig|tools|all) ;; *) echo "bad mode: $mode" >&2; exit 2;; esac

fail() { echo "consumer test: FAIL: $*" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/xwg-consumer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

# ---- Install -----------------------------------------------------------
echo "== installing $build_dir into $prefix"
"$cmake_cmd" --install "$build_dir" --prefix "$prefix" >"$tmp/install.log" \
  || { cat "$tmp/install.log" >&2; fail "cmake --install failed"; }

# The libdir is whatever GNUInstallDirs chose for the build (lib, lib64 or
# lib/<multiarch>); read it from the cache, then fall back to looking.
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
if [[ -z "$libdir" || ! -e "$prefix/$libdir/libxwg.so" ]]; then
  libdir=""
  for d in lib lib64 lib/x86_64-linux-gnu; do
    [[ -e "$prefix/$d/libxwg.so" ]] && { libdir=$d; break; }
  done
fi
[[ -n "$libdir" ]] || fail "no libxwg.so under $prefix (lib, lib64, lib/x86_64-linux-gnu)"
lib=$prefix/$libdir
echo "== libdir: $lib"
[[ -f "$prefix/include/xwg_barrier.h" ]] || fail "xwg_barrier.h not installed"

# ---- The installed shared library: SONAME and exported symbols -----------
soname=$(readelf -d "$lib/libxwg.so" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
[[ "$soname" == "libxwg.so.0" ]] || fail "SONAME is '$soname', expected libxwg.so.0"
echo "== SONAME: $soname"

# Every defined dynamic symbol must be xwg_*; only the linker's own
# bookkeeping symbols are allowed besides (and only if they appear).
bad=$(nm -D --defined-only "$lib/libxwg.so" | awk '{ print $NF }' \
      | grep -v -E '^xwg_' \
      | grep -v -x -E '_init|_fini|_edata|_end|__bss_start|_DYNAMIC|_GLOBAL_OFFSET_TABLE_' \
      || true)
[[ -z "$bad" ]] || fail "non-xwg_ symbols exported from libxwg.so: $(echo $bad)"
echo "== exported symbols: $(nm -D --defined-only "$lib/libxwg.so" | grep -c ' xwg_') xwg_*, no others"

# Checks that a consumer binary resolves libxwg.so.0 from the temporary
# prefix (not from some other installed copy), then runs it.
run_app() {
  local app=$1 resolved
  resolved=$(ldd "$app" | awk '/libxwg\.so/ { print $3 }')
  [[ "$resolved" == "$lib/"* ]] || fail "$app loads libxwg from '$resolved', not $lib"
  echo "== running $app (libxwg: $resolved)"
  "$app" || fail "$app exited with status $?"
}

# ---- (1) The exported CMake package ----------------------------------------
if [[ "$mode" == cmake || "$mode" == all ]]; then
  echo "== [cmake] find_package(xwg) with CMAKE_PREFIX_PATH=$prefix"
  gen=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$build_dir/CMakeCache.txt")
  "$cmake_cmd" -S "$src_dir/tests/consumer/cmake_app" -B "$tmp/cmake_app" \
      ${gen:+-G "$gen"} -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
    || fail "configuring cmake_app failed"
  # The package must be the one just installed, not a copy elsewhere.
  xwg_dir=$(sed -n 's/^xwg_DIR:PATH=//p' "$tmp/cmake_app/CMakeCache.txt")
  [[ "$xwg_dir" == "$prefix/"* ]] || fail "find_package used '$xwg_dir', not $prefix"
  "$cmake_cmd" --build "$tmp/cmake_app" || fail "building cmake_app failed"
  # CMake's build RPATH points into the prefix: no LD_LIBRARY_PATH needed.
  run_app "$tmp/cmake_app/app"
  echo "== [cmake] PASS"
fi

# ---- (2) The pkg-config file -------------------------------------------
# From a moved prefix: installed with --prefix elsewhere than configured,
# then moved again, xwg.pc must still point at where it now lies (its
# prefix is relative to its own folder), with no variable overridden.
if [[ "$mode" == pkgconfig || "$mode" == all ]]; then
  moved=$tmp/moved
  mv "$prefix" "$moved"
  lib=$moved/$libdir
  export PKG_CONFIG_PATH="$lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  pc=(pkg-config)
  "${pc[@]}" --exists --print-errors xwg || fail "pkg-config cannot find xwg"
  flags=$("${pc[@]}" --cflags --libs xwg)
  echo "== [pkgconfig] xwg $("${pc[@]}" --modversion xwg): $flags"
  [[ "$flags" == *"-I$moved/"* && "$flags" == *"-L$moved/"* ]] ||
    fail "xwg.pc does not follow the moved prefix $moved: $flags"
  # shellcheck disable=SC2086  # the flags must split into words
  ${CC:-cc} -std=c11 -Wall -Wextra -Werror \
      "$src_dir/tests/consumer/consumer.c" -o "$tmp/app_pc" $flags \
    || fail "compiling with pkg-config flags failed"
  LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    run_app "$tmp/app_pc"
  echo "== [pkgconfig] PASS"
fi

# ---- (3) The installed tools, from a moved prefix ---------------------------
# Users run bin/xwg-discover straight from wherever the prefix lies: each
# installed executable must find libxwg.so.0 through its RPATH ($ORIGIN,
# CMakeLists.txt), so LD_LIBRARY_PATH is cleared for every check.
if [[ "$mode" == tools || "$mode" == all ]]; then
  moved=$tmp/moved
  [[ -d "$moved" ]] || mv "$prefix" "$moved"
  lib=$moved/$libdir
  [[ -x "$moved/bin/xwg-discover" ]] || fail "bin/xwg-discover not installed"
  for tool in "$moved"/bin/xwg-* "$moved"/libexec/xwg/*; do
    [[ -f "$tool" && -x "$tool" ]] || continue
    head -c 4 "$tool" | grep -q ELF || continue # xwg-study is Python
    deps=$(env -u LD_LIBRARY_PATH ldd "$tool")
    ! grep -q 'not found' <<<"$deps" ||
      fail "${tool#"$moved"/} misses a library: $(grep 'not found' <<<"$deps" | xargs)"
    # $ORIGIN gives bin/../lib: compare the paths resolved.
    resolved=$(awk '/libxwg\.so/ { print $3 }' <<<"$deps")
    [[ -z "$resolved" ]] || resolved=$(readlink -f "$resolved")
    [[ -z "$resolved" || "$resolved" == "$(readlink -f "$lib")/"* ]] ||
      fail "${tool#"$moved"/} loads libxwg from '$resolved', not $lib"
    echo "== [tools] ${tool#"$moved"/}: libxwg ${resolved:-linked statically}"
  done
  for tool in xwg-discover xwg-litmus; do
    [[ -x "$moved/bin/$tool" ]] || continue
    version=$(env -u LD_LIBRARY_PATH "$moved/bin/$tool" --version) ||
      fail "bin/$tool --version exited with status $?"
    echo "== [tools] bin/$tool --version: $version"
  done
  echo "== [tools] PASS"
fi
