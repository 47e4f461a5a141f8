#!/bin/sh
# tests/install/host.sh BUILD_DIR SRC_DIR — an installed pfc starts its own tree's session
# host (docs/etw.md "Log-file sessions"): `cmake --install` into a temporary prefix, the
# prefix then moved elsewhere (a relocated install), and a log-file session started by the
# relocated pfc, run through PATH (its argv[0] has no directory) from another directory:
# the host that /proc shows running is the relocated tree's
# libexec/pfc-trace-host, never the build tree's nor the configured prefix's. As root, once
# more with the build tree hidden (an empty tmpfs over it in a private mount namespace).
set -u
build=$(cd "$1" && pwd)
tmp=$(mktemp -d) || exit 1
export PFC_TRACE_DIR=$tmp/ns
unset PFC_TRACE_HOST
cleanup() {  # stop a session a failed check left running (its host exits with it)
  for s in Inst Hidden; do "$moved/bin/pfc" trace stop $s >/dev/null 2>&1; done
  rm -rf "$tmp"
}
moved=$tmp/moved
trap cleanup EXIT
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/log" 2>&1 || { echo "FAIL: cmake --install:"; cat "$tmp/log"; exit 1; }
mv "$tmp/prefix" "$moved"
[ -x "$moved/bin/pfc" ] || { echo "FAIL: no bin/pfc in the install"; exit 1; }
libdir=$(dirname "$(find "$moved" -name 'libpfc_etw.so*' | head -1)")
want=$moved/libexec/pfc-trace-host
[ -x "$want" ] || { echo "FAIL: no libexec/pfc-trace-host in the install"; exit 1; }
fail=0

# check NAME [RUNNER...] — starts a file session with the relocated pfc (through RUNNER,
# found in PATH), reads the host's executable from /proc while it runs, stops it, reads
# the file back.
check() {
  name=$1; shift
  out=$(cd "$tmp" && PATH=$moved/bin:$PATH LD_LIBRARY_PATH=$libdir timeout 60 "$@" pfc trace start $name --file "$tmp/$name.etl" 2>&1) ||
    { echo "FAIL: $name: trace start: $out"; fail=1; return; }
  marker=$(ls "$PFC_TRACE_DIR" | grep -- '-host$' | head -1)
  pid=$(echo "$marker" | cut -d- -f3)
  exe=$(readlink "/proc/$pid/exe" 2>/dev/null)
  LD_LIBRARY_PATH=$libdir timeout 60 "$moved/bin/pfc" trace stop $name >/dev/null ||
    { echo "FAIL: $name: trace stop"; fail=1; }
  if [ "$exe" != "$(readlink -f "$want")" ]; then
    echo "FAIL: $name: the session host is '$exe' (marker '$marker'), expected $want"; fail=1
  else
    echo "$name: the relocated install's host ran: $exe"
  fi
  LD_LIBRARY_PATH=$libdir timeout 60 "$moved/bin/pfc" trace show "$tmp/$name.etl" >/dev/null ||
    { echo "FAIL: $name: the file does not read"; fail=1; }
}

check Inst
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
  # The build tree hidden: what an installed pfc on a machine without it sees.
  cat >"$tmp/hide.sh" <<EOF
mount -t tmpfs none "$build" || exit 1
exec "\$@"
EOF
  check Hidden unshare -m sh "$tmp/hide.sh"
else
  echo "(the build tree was not hidden: needs root and unshare -m)"
fi
exit $fail
