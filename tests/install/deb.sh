#!/bin/sh
# tests/install/deb.sh BUILD_DIR — cpack -G DEB on the build tree (cmake/PfcPackage.cmake):
# the pfc and libpfc-dev packages exist, name their dependencies (shared libraries from
# dpkg-shlibdeps, libpfc-dev → pfc of the same version), every dependency is a package
# this system has installed, and both unpack (dpkg -x, no chroot) into an empty root whose
# `pfc --version` runs with the root's libraries, and a log-file session works with the
# packaged session host (found relative to the unpacked pfc).
set -u
build=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
(cd "$build" && cpack -G DEB -B "$tmp/out" >"$tmp/log" 2>&1) || { echo "FAIL: cpack:"; cat "$tmp/log"; exit 1; }
fail=0
pfc_deb=$(ls "$tmp"/out/pfc_*.deb 2>/dev/null | head -1)
dev_deb=$(ls "$tmp"/out/libpfc-dev_*.deb 2>/dev/null | head -1)
[ -n "$pfc_deb" ] && [ -n "$dev_deb" ] || { echo "FAIL: packages missing:"; ls "$tmp/out"; exit 1; }
version=$(dpkg-deb -f "$pfc_deb" Version)
pfc_deps=$(dpkg-deb -f "$pfc_deb" Depends)
dev_deps=$(dpkg-deb -f "$dev_deb" Depends)
echo "pfc $version Depends: $pfc_deps"
echo "libpfc-dev Depends: $dev_deps"
echo "$pfc_deps" | grep -q "libllvm19" || [ "$(grep -c PFC_ENABLE_JIT:BOOL=OFF "$build/CMakeCache.txt")" = 1 ] ||
  { echo "FAIL: pfc does not depend on libllvm19"; fail=1; }
echo "$pfc_deps" | grep -q "libstdc++6" || { echo "FAIL: pfc does not depend on libstdc++6"; fail=1; }
echo "$dev_deps" | grep -q "pfc (= $version)" || { echo "FAIL: libpfc-dev does not depend on pfc (= $version)"; fail=1; }
# Every dependency (first alternative) is a package this system has installed.
for dep in $(echo "$pfc_deps, $dev_deps" | tr ',' '\n' | sed 's/|.*//; s/(.*//; s/ //g' | sort -u); do
  [ "$dep" = pfc ] && continue
  dpkg-query -W -f='${Status}' "$dep" 2>/dev/null | grep -q "install ok installed" ||
    { echo "FAIL: dependency $dep is not an installed package"; fail=1; }
done
root=$tmp/root
mkdir "$root"
dpkg -x "$pfc_deb" "$root" && dpkg -x "$dev_deb" "$root" || { echo "FAIL: dpkg -x"; exit 1; }
for f in usr/bin/pfc usr/share/man/man1/pfc.1 usr/include/pfc/filter.h usr/include/pfc/etw/evntprov.h; do
  [ -f "$root/$f" ] || { echo "FAIL: $f not in the packages"; fail=1; }
done
so=$(find "$root" -name 'libpfc.so.0' | head -1)
[ -n "$so" ] || { echo "FAIL: no libpfc.so.0 in pfc"; exit 1; }
[ "$(grep -c PFC_ENABLE_JIT:BOOL=OFF "$build/CMakeCache.txt")" = 1 ] ||
  [ -n "$(find "$root" -name libpfc_etw_jit.so -type f)" ] || { echo "FAIL: no libpfc_etw_jit.so in pfc"; fail=1; }
# The namespace's compile service (docs/namespace.md "Compiled programs").
[ "$(grep -c PFC_ENABLE_JIT:BOOL=OFF "$build/CMakeCache.txt")" = 1 ] ||
  [ -n "$(find "$root" -name pfc-trace-compiler -type f)" ] || { echo "FAIL: no pfc-trace-compiler in pfc"; fail=1; }
dpkg-deb -c "$pfc_deb" | grep -q '\.a$' && { echo "FAIL: static archives in the runtime package"; fail=1; }
out=$(LD_LIBRARY_PATH=$(dirname "$so") "$root/usr/bin/pfc" --version 2>&1) ||
  { echo "FAIL: the unpacked pfc --version: $out"; fail=1; }
echo "unpacked: $out"
# A log-file session through the unpacked pfc: its session host comes from the package.
[ -n "$(find "$root" -name pfc-trace-host -type f)" ] || { echo "FAIL: no pfc-trace-host in pfc"; fail=1; }
export PFC_TRACE_DIR=$tmp/ns
unset PFC_TRACE_HOST
run_pfc() { LD_LIBRARY_PATH=$(dirname "$so") timeout 60 "$root/usr/bin/pfc" "$@"; }
if run_pfc trace start DebFile --file "$tmp/deb.etl" >/dev/null &&
   run_pfc trace stop DebFile >/dev/null &&
   run_pfc trace show "$tmp/deb.etl" >/dev/null; then
  echo "unpacked: a log-file session started, stopped and read"
else
  echo "FAIL: a log-file session with the unpacked pfc"; fail=1
  run_pfc trace stop DebFile >/dev/null 2>&1 || true
fi
exit $fail
