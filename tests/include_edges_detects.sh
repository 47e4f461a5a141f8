#!/usr/bin/env bash
# tests/include_edges_detects.sh SOURCE_DIR WORK_DIR — scripts/check-includes must fail, naming
# the file, when docs/architecture.md's "Include edges" table lacks an edge the code has:
# here etw/ loses every edge but base/, and etw/ includes trace/ headers; and cli/ loses the
# ETW C API (include/pfc/etw), the one way it reaches etw/.
set -euo pipefail
src=$1 work=$2

# refuses NAME SED ROW MESSAGE: the table edited by SED (its edited row then reads ROW) must
# make check-includes fail with a line matching MESSAGE.
refuses() {
  local doc="$work/architecture-$1.md" out
  sed "$2" "$src/docs/architecture.md" >"$doc"
  grep -qF -- "$3" "$doc" || { echo "$1: the row to edit was not found in the table"; exit 1; }
  if out=$("$src/scripts/check-includes" --doc "$doc"); then
    echo "$1: check-includes accepted the reduced table:"; echo "$out"; exit 1
  fi
  grep -q "$4" <<<"$out" || { echo "$1: no message matching $4:"; echo "$out"; exit 1; }
  echo "$1: check-includes refused the reduced table: $(tail -1 <<<"$out")"
}
edge='an edge docs/architecture.md "Include edges" does not list for'
refuses without-etw-edges 's/^| `etw` | .*$/| `etw` | `base` |/' '| `etw` | `base` |' \
  "^etw/.*includes \"trace/.*$edge etw/\$"
refuses without-cli-etw-api \
  's/^\(| `cli` | .*\), `include\/pfc\/etw` |$/\1 |/' \
  '`compiler/jit`, `runtime`, `include/pfc` |' \
  "^cli/.*: includes \"pfc/etw/.*(include/pfc/etw/), $edge cli/\$"
