#!/bin/sh
# tests/isolate.sh — runs one test in its own trace namespace (a fresh PFC_TRACE_DIR), so
# tests that use the ETW API run in parallel and never see each other's sessions, and
# removes the namespace afterwards. Used as the CROSSCOMPILING_EMULATOR of ETW test
# binaries (every ctest command of such a binary runs through it).
# tmpfs when there is one, like a real namespace (rings on disk would be written back).
base=/dev/shm
[ -d "$base" ] && [ -w "$base" ] || base="${TMPDIR:-/tmp}"
dir=$(mktemp -d "$base/pfc-ns-XXXXXX") || exit 1
PFC_TRACE_DIR="$dir"
export PFC_TRACE_DIR
"$@"
rc=$?
rm -rf "$dir"
exit $rc
