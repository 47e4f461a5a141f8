#!/bin/sh
# tests/isolate.sh — runs one test in its own trace namespace (a fresh PFC_TRACE_DIR), so
# tests that use the ETW API run in parallel and never see each other's sessions, and
# removes the namespace afterwards. Used as the CROSSCOMPILING_EMULATOR of ETW test
# binaries (every ctest command of such a binary runs through it).
dir=$(mktemp -d "${TMPDIR:-/tmp}/pfc-ns-XXXXXX") || exit 1
PFC_TRACE_DIR="$dir"
export PFC_TRACE_DIR
"$@"
rc=$?
rm -rf "$dir"
exit $rc
