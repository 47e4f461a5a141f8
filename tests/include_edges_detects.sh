#!/usr/bin/env bash
# tests/include_edges_detects.sh SOURCE_DIR WORK_DIR — scripts/check-includes must fail, naming
# the file, when docs/architecture.md's "Include edges" table lacks an edge the code has:
# here etw/ loses every edge but base/, and etw/ includes trace/ headers.
set -euo pipefail
src=$1 work=$2
doc="$work/architecture-without-etw-edges.md"
sed 's/^| `etw` | .*$/| `etw` | `base` |/' "$src/docs/architecture.md" >"$doc"
grep -q '^| `etw` | `base` |$' "$doc" || { echo "the etw row was not found in the table"; exit 1; }
if out=$("$src/scripts/check-includes" --doc "$doc"); then
  echo "check-includes accepted a table without etw's edges:"; echo "$out"; exit 1
fi
grep -q '^etw/.*includes "trace/.*an edge docs/architecture.md "Include edges" does not list for etw/$' <<<"$out" ||
  { echo "no message naming an etw/ file that includes trace/:"; echo "$out"; exit 1; }
echo "check-includes refused the reduced table: $(tail -1 <<<"$out")"
