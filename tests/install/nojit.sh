#!/bin/sh
# tests/install/nojit.sh BUILD_DIR SRC_DIR — the PFC_ENABLE_JIT=OFF configuration
# (docs/embedding.md "Without the JIT"): configured and built in BUILD_DIR/nojit (kept, so
# a rerun is incremental; ccache makes the first build cheap), its libraries need no LLVM,
# and the consumer projects of consumers.sh build and run against its install.
set -u
build=$1
src=$2
root=$(cd "$src/../.." && pwd)
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
b=$build/nojit
cmake -S "$root" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPFC_WERROR=ON \
  -DPFC_ENABLE_JIT=OFF -DCMAKE_C_COMPILER="${PFC_CC:-cc}" -DCMAKE_CXX_COMPILER="${PFC_CXX:-c++}" \
  >"$b.log" 2>&1 && cmake --build "$b" >>"$b.log" 2>&1 || { echo "FAIL: the no-JIT build:"; tail -40 "$b.log"; exit 1; }
fail=0
for so in api/libpfc.so etw/libpfc_etw.so; do
  readelf -d "$b/$so" | grep -q 'NEEDED.*libLLVM' && { echo "FAIL: $so needs LLVM"; fail=1; }
done
[ -e "$b/cli/pfc" ] && { echo "FAIL: the pfc command was built without the JIT"; fail=1; }
"$src/consumers.sh" "$b" "$src" || fail=1
exit $fail
