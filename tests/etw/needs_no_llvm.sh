#!/bin/sh
# tests/etw/needs_no_llvm.sh FILE... — none of the ELF files (libpfc_etw.so, a program
# linked with libpfc_etw.a) needs LLVM or a library of its closure (z3, ICU, libxml2):
# their JIT is the plugin libpfc_etw_jit.so, loaded only when a session needs it
# (docs/etw.md "Engine"). The NEEDED entries are read with readelf -d.
set -u
fail=0
for f in "$@"; do
  needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  [ -n "$needed" ] || { echo "FAIL: $f: no NEEDED entries read"; fail=1; continue; }
  bad=$(echo "$needed" | grep -E '^lib(LLVM|z3|icu|xml2)' || true)
  [ -z "$bad" ] || { echo "FAIL: $f needs" $bad; fail=1; }
done
[ $fail -eq 0 ] && echo "needs_no_llvm: $# files, none needs LLVM, z3, ICU or libxml2"
exit $fail
