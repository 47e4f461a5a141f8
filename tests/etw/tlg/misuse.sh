#!/bin/sh
# tests/etw/tlg/misuse.sh CC CXX INCLUDE DIR — misused TraceLogging macros are compile
# errors naming the fix (docs/etw.md "TraceLogging"): DIR's tlg_misuse.c and
# tlg_misuse.cc compile as they are and fail, with the header's message, in each case
# TLG_MISUSE=N (wchar_t strings and characters; packed in-types TDH cannot decode).
cc=$1 cxx=$2 inc=$3 dir=$4 out="${TMPDIR:-/tmp}/tlg_misuse.$$"
trap 'rm -f "$out"' EXIT
wchar="wchar_t is 32-bit on Linux" packed="the in-type must be a TlgIn value"
fail() {
  echo "FAIL: $*"
  cat "$out"
  exit 1
}
check() {  # COMPILER STD FILE CASE:MESSAGE...
  comp=$1 std=$2 file=$3
  shift 3
  timeout 120 "$comp" "$std" -fsyntax-only -Werror -I"$inc" -I"$dir" "$dir/$file" >"$out" 2>&1 ||
    fail "$file does not compile as it is"
  for c in "$@"; do
    n=${c%%:*} message=${c#*:}
    if timeout 120 "$comp" "$std" -fsyntax-only -I"$inc" -I"$dir" -DTLG_MISUSE="$n" \
      "$dir/$file" >"$out" 2>&1; then
      fail "$file case $n compiled"
    fi
    grep -q "$message" "$out" || fail "$file case $n: not the message '$message'"
  done
}
check "$cc" -std=c11 tlg_misuse.c "1:$wchar" "2:$wchar" "3:$packed" "4:$packed"
check "$cxx" -std=c++17 tlg_misuse.cc "1:$wchar" "2:$wchar" "3:$wchar" "4:$packed"
echo "ok"
