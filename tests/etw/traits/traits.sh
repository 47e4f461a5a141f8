#!/bin/sh
# tests/etw/traits/traits.sh MODE PFC CHILD DIR — provider traits across processes
# (docs/etw.md "Provider traits", docs/cli.md "pfc trace show"): `CHILD write` sets
# provider A's traits with EventSetInformation and writes two events of A and one of B
# (no traits); every event of A must reach the readers with its PROV_TRAITS item, B's
# without one.
#   file      `pfc trace start --file` + `pfc trace enable` of A and B, CHILD write, stop;
#             `CHILD read FILE` (another process) must print DIR/expected_read.txt,
#             `pfc trace show FILE`, without pid, tid, ts and cpu, DIR/expected_show.txt,
#             and `pfc run DIR/traits.pfs --events FILE` the payloads without the traits
#             (DIR/expected_run.txt)
#   realtime  the same enables on a real-time session; `pfc trace show NAME` of what the
#             session holds must print DIR/expected_show.txt
# Run through tests/isolate.sh; every step is bounded by `timeout`.
mode=$1 pfc=$2 child=$3 dir=$4
file="$PFC_TRACE_DIR/traits.etl" out="$PFC_TRACE_DIR/out.txt"
a='{00000700-0000-4000-8000-000000000001}' b='{00000700-0000-4000-8000-000000000002}'
fail() {
  echo "FAIL: $*"
  timeout 30 "$pfc" trace stop Traits >/dev/null 2>&1
  exit 1
}
show() {  # pfc trace show $1 into $out, without pid, tid, ts and cpu
  timeout 60 "$pfc" trace show "$1" >"$out.raw" || { cat "$out.raw"; fail "pfc trace show"; }
  sed -E 's/"pid":[0-9]+,"tid":[0-9]+,"ts":"[^"]*","cpu":[0-9]+,?//' "$out.raw" >"$out"
  diff -u "$dir/expected_show.txt" "$out" || fail "unexpected pfc trace show output"
}
case "$mode" in
file) timeout 30 "$pfc" trace start Traits --file "$file" >/dev/null || fail "pfc trace start" ;;
realtime) timeout 30 "$pfc" trace start Traits >/dev/null || fail "pfc trace start" ;;
*) fail "unknown mode $mode" ;;
esac
timeout 30 "$pfc" trace enable Traits "$a" >/dev/null || fail "pfc trace enable A"
timeout 30 "$pfc" trace enable Traits "$b" >/dev/null || fail "pfc trace enable B"
timeout 30 "$child" write || fail "the writer"
if [ "$mode" = file ]; then
  timeout 30 "$pfc" trace stop Traits >/dev/null || fail "pfc trace stop"
  timeout 60 "$child" read "$file" >"$out" || { cat "$out"; fail "the reader"; }
  diff -u "$dir/expected_read.txt" "$out" || fail "unexpected reader output"
  show "$file"
  timeout 60 "$pfc" run "$dir/traits.pfs" --events "$file" --output events >"$out.raw" ||
    { cat "$out.raw"; fail "pfc run"; }
  sed -E 's/"pid":[0-9]+,"tid":[0-9]+,//' "$out.raw" >"$out"
  diff -u "$dir/expected_run.txt" "$out" || fail "unexpected pfc run output"
else
  show Traits
  timeout 30 "$pfc" trace stop Traits >/dev/null || fail "pfc trace stop"
fi
echo "ok"
