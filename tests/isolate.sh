#!/bin/sh
# tests/isolate.sh — runs one test in its own trace namespace (a fresh PFC_TRACE_DIR), so
# tests that use the ETW API run in parallel and never see each other's sessions, and
# removes the namespace afterwards, with the helper programs its processes started (the
# compile service, a session host the test left running): nothing of the test stays
# behind, whether it passed or failed. Used as the CROSSCOMPILING_EMULATOR of ETW test
# binaries (every ctest command of such a binary runs through it).
# tmpfs when there is one, like a real namespace (rings on disk would be written back).
base=/dev/shm
[ -d "$base" ] && [ -w "$base" ] || base="${TMPDIR:-/tmp}"
dir=$(mktemp -d "$base/pfc-ns-XXXXXX") || exit 1
PFC_TRACE_DIR="$dir"
export PFC_TRACE_DIR

# The pfc-trace-* processes whose PFC_TRACE_DIR is this namespace, not yet zombies (their
# parent is init, which reaps them).
helpers() {
  for env in $(grep -lzxF "PFC_TRACE_DIR=$dir" /proc/[0-9]*/environ 2>/dev/null); do
    p=${env%/environ}
    case $(cat "$p/comm" 2>/dev/null) in pfc-trace-*) ;; *) continue ;; esac
    grep -q '^State:.*Z' "$p/status" 2>/dev/null || echo "${p#/proc/}"
  done
}

"$@"
rc=$?
# Killed, then waited for (at most 10 s): a killed helper may still finish the system call
# it was in, a file it creates in the namespace.
pids=$(helpers)
[ -n "$pids" ] && kill -9 $pids 2>/dev/null
n=0
while [ -n "$pids" ] && [ $n -lt 1000 ]; do
  pids=$(helpers)
  [ -n "$pids" ] && sleep 0.01
  n=$((n + 1))
done
rm -rf "$dir"
exit $rc
