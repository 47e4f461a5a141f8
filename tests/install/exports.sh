#!/bin/sh
# tests/install/exports.sh BUILD_DIR — the shared libraries export only their API
# (cmake/PfcLibrary.cmake): every defined dynamic symbol of libpfc_etw.so is a name listed
# in etw/exports.map, every one of libpfc.so is in namespace pfc (api/exports.map), and
# neither lists a std:: symbol (`nm -D --defined-only | c++filt`, docs/embedding.md); the
# JIT plugin libpfc_etw_jit.so exports only its entry point.
set -u
build=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
fail=0
etw=$(nm -D --defined-only "$build/etw/libpfc_etw.so" | awk '{print $3}' | sed 's/@.*//')
[ -n "$etw" ] || { echo "FAIL: libpfc_etw.so exports nothing"; exit 1; }
for s in $etw; do
  grep -Eq "^[[:space:]]*$s;" "$root/etw/exports.map" || { echo "FAIL: libpfc_etw.so exports $s"; fail=1; }
done
pfc=$(nm -D --defined-only "$build/api/libpfc.so" | c++filt | cut -d' ' -f3- | sed 's/@.*//')
echo "$pfc" | grep -q '^pfc::Filter::compile(' || { echo "FAIL: libpfc.so does not export pfc::Filter::compile"; fail=1; }
echo "$pfc" | grep -v '^pfc::' | grep -v '^PFC_0$' | sed 's/^/FAIL: libpfc.so exports /' | grep . && fail=1
for so in etw/libpfc_etw.so api/libpfc.so; do
  nm -D --defined-only "$build/$so" | c++filt | cut -d' ' -f3- |
    grep -E '^((typeinfo|typeinfo name|vtable|guard variable) for )?std::' |
    sed "s|^|FAIL: $so exports |" | grep . && fail=1
  readelf -d "$build/$so" | grep -q "SONAME.*\.so\.[0-9]" || { echo "FAIL: $so has no versioned SONAME"; fail=1; }
done
# The JIT plugin of libpfc_etw (etw/jit_plugin.h) exports its entry point and nothing else.
if [ -e "$build/etw/libpfc_etw_jit.so" ]; then
  jit=$(nm -D --defined-only "$build/etw/libpfc_etw_jit.so" | awk '{print $3}' | sed 's/@.*//')
  [ "$jit" = pfc_etw_jit_plugin ] || { echo "FAIL: libpfc_etw_jit.so exports:" $jit; fail=1; }
fi
[ $fail -eq 0 ] && echo "exports: $(echo "$etw" | wc -l) C symbols in libpfc_etw.so, $(echo "$pfc" | wc -l) pfc:: symbols in libpfc.so"
exit $fail
