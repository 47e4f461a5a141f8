#!/bin/sh
# tests/install/consumers.sh BUILD_DIR SRC_DIR — `cmake --install` into a temporary prefix,
# then the project consumer/ configured and built against it twice: with find_package(pfc)
# (shared and static libraries) and with pkg-config. Every program it builds runs: the C++
# filter_demo with each engine, examples/filter_events.cc on the example script and events
# (its lines, and its capture as pfc reads it, must be those of the installed `pfc run
# --output events`, re-encoded), the C etw_demo, tlg_demo (C and C++) (and, with pkg-config, tests/porting's
# porting_demo, era_demo and tdh_demo, built from pkg-config's flags alone) in its own trace
# namespace.
# No installed file carries the crash tests' hook (trace/testpoint.h).
set -u
build=$1
src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null || { echo "FAIL: cmake --install"; exit 1; }
libdir=$(cd "$prefix" && ls -d lib*/pkgconfig | head -1 | xargs dirname)
fail=0
# The crash tests' hook (trace/testpoint.h) is compiled into no installed file.
for f in "$prefix"/"$libdir"/* "$prefix"/bin/* "$prefix"/libexec/*; do
  [ -f "$f" ] || continue
  if grep -q PFC_TEST_CRASH_AT "$f"; then echo "FAIL: $f carries the crash tests' hook"; fail=1; fi
done
run() {  # run NAME COMMAND... — runs one built program, reports its output on failure
  name=$1; shift
  if ! "$@" >"$tmp/out" 2>&1; then echo "FAIL: $name:"; cat "$tmp/out"; fail=1; fi
}
# check_filter_events NAME PROGRAM — the example's matches on examples/etw-sample.* are
# the lines the installed pfc writes for them (re-encoded: tests/golden/README.md), also
# when the example writes them as a capture.
ex=$src/../../examples
check_filter_events() {
  run "$1" "$2" "$ex/etw-sample.pfs" "$ex/etw-sample.jsonl"
  [ -x "$prefix/bin/pfc" ] || return 0
  PFC_TEST_REENCODE_EVENTS=1 "$prefix/bin/pfc" run "$ex/etw-sample.pfs" \
    --events "$ex/etw-sample.jsonl" --output events >"$tmp/expected" 2>&1 &&
    "$2" "$ex/etw-sample.pfs" "$ex/etw-sample.jsonl" >"$tmp/got" 2>&1 &&
    [ -s "$tmp/got" ] && cmp -s "$tmp/expected" "$tmp/got" ||
    { echo "FAIL: $1 differs from pfc run --output events:"; diff "$tmp/expected" "$tmp/got"; fail=1; }
  # The same matches written as a capture, read back by pfc.
  "$2" "$ex/etw-sample.pfs" "$ex/etw-sample.jsonl" "$tmp/matches.cap" >"$tmp/got" 2>&1 &&
    "$prefix/bin/pfc" run "$ex/etw-sample.pfs" --events "$tmp/matches.cap" --output events \
      >"$tmp/got" 2>&1 && cmp -s "$tmp/expected" "$tmp/got" ||
    { echo "FAIL: $1's capture differs:"; diff "$tmp/expected" "$tmp/got"; fail=1; }
}
engines="interp jit auto"  # without the JIT, jit and auto run the interpreter
for use in cmake pkg-config; do
  b=$tmp/build-$use
  PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig cmake -S "$src/consumer" -B "$b" -G Ninja \
    -DCMAKE_PREFIX_PATH="$prefix" -DPFC_USE=$use -DCMAKE_C_COMPILER="${PFC_CC:-cc}" \
    -DPFC_PORTING_DIR="$src/../porting" -DPFC_EXAMPLES_DIR="$src/../../examples" \
    -DCMAKE_CXX_COMPILER="${PFC_CXX:-c++}" -DCMAKE_C_FLAGS="${PFC_CONSUMER_FLAGS:-}" \
    -DCMAKE_CXX_FLAGS="${PFC_CONSUMER_FLAGS:-}" \
    -DCMAKE_EXE_LINKER_FLAGS="${PFC_CONSUMER_LINK_FLAGS:-}" >"$tmp/log" 2>&1 &&
    cmake --build "$b" >>"$tmp/log" 2>&1 || { echo "FAIL: consumer ($use) does not build:"; cat "$tmp/log"; fail=1; continue; }
  programs="filter_demo filter_events etw_demo tlg_demo tlg_demo_cxx"
  [ $use = cmake ] && programs="$programs filter_demo_static filter_events_static etw_demo_static"
  [ $use = pkg-config ] && programs="$programs porting_demo tdh_demo"
  # era_demo's header comes from the installed `pfc mc` (no pfc command without the JIT).
  [ $use = pkg-config ] && [ -x "$prefix/bin/pfc" ] && programs="$programs era_demo"
  for p in $programs; do
    case $p in
      filter_demo*) for e in $engines; do run "$use $p $e" "$b/$p" $e; done ;;
      filter_events*) check_filter_events "$use $p" "$b/$p" ;;
      etw_demo*|tlg_demo*|porting_demo|era_demo|tdh_demo) run "$use $p" "$PFC_ISOLATE" "$b/$p" ;;
    esac
  done
  # A static link of libpfc_etw.a needs nothing of LLVM (its JIT is a plugin, docs/etw.md).
  [ $use = cmake ] && readelf -d "$b/etw_demo_static" | grep -Eq 'NEEDED.*lib(LLVM|z3|icu|xml2)' &&
    { echo "FAIL: etw_demo_static needs LLVM or its closure"; fail=1; }
  # The shared programs use the installed libraries, not the build tree's.
  ldd "$b/filter_demo" | grep -q "$prefix/$libdir/libpfc.so.0" ||
    { echo "FAIL: $use filter_demo does not use the installed libpfc.so.0:"; ldd "$b/filter_demo"; fail=1; }
done
[ $fail -eq 0 ] && echo "consumers: find_package (shared, static) and pkg-config projects built and ran"
exit $fail
