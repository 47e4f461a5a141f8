#!/bin/sh
# tests/etw/tlg/roundtrip.sh MODE PFC PRODUCER VALUES CONSUMER DIR — TraceLogging across
# processes (docs/etw.md "TraceLogging"): PRODUCER (C) and VALUES (C++) write every field
# macro of <TraceLoggingProvider.h> in their own processes; CONSUMER, another process,
# decodes the events with TDH from their own metadata. Its output must equal DIR's
# expected file:
#   api       PRODUCER starts its own log-file session (expected_api.txt)
#   file      `pfc trace start --file` + `pfc trace enable` by `*NAME`; both writers; the
#             consumer reads the file (expected_all.txt)
#   realtime  the same enable by NAME on a real-time session; the consumer opens it, says
#             so by creating a file, and decodes until `pfc trace stop` (expected_all.txt)
#   show      as api, then `pfc trace show` of the file, without pid, tid, ts and cpu
#             (expected_show.txt)
#   run       as api, then `pfc run tlg.pfs --events FILE`: the payloads without the
#             metadata behind them, as the provider routed them (expected_run.txt)
# Run through tests/isolate.sh; every step is bounded by `timeout`, the consumer is reaped.
mode=$1 pfc=$2 producer=$3 values=$4 consumer=$5 dir=$6
file="$PFC_TRACE_DIR/tlg.etl" ready="$PFC_TRACE_DIR/ready" out="$PFC_TRACE_DIR/out.txt"
expected="$dir/expected_all.txt" pid=
fail() {
  echo "FAIL: $*"
  timeout 30 "$pfc" trace stop Tlg >/dev/null 2>&1
  [ -n "$pid" ] && wait "$pid"
  exit 1
}
write() {  # both writers, into whatever session enables the provider
  timeout 30 "$producer" --provider-only || fail "the producer"
  timeout 30 "$values" || fail "the C++ writer"
}
case "$mode" in
api)
  expected="$dir/expected_api.txt"
  timeout 30 "$producer" "$file" || fail "the producer"
  timeout 60 "$consumer" "$file" >"$out" || { cat "$out"; fail "the consumer"; }
  ;;
show)
  expected="$dir/expected_show.txt"
  timeout 30 "$producer" "$file" || fail "the producer"
  timeout 60 "$pfc" trace show "$file" >"$out.raw" || { cat "$out.raw"; fail "pfc trace show"; }
  sed -E 's/"pid":[0-9]+,"tid":[0-9]+,"ts":"[^"]*","cpu":[0-9]+,//' "$out.raw" >"$out"
  ;;
run)
  expected="$dir/expected_run.txt"
  timeout 30 "$producer" "$file" || fail "the producer"
  timeout 60 "$pfc" run "$dir/tlg.pfs" --events "$file" --output events >"$out.raw" ||
    { cat "$out.raw"; fail "pfc run"; }
  sed -E 's/"pid":[0-9]+,"tid":[0-9]+,//' "$out.raw" >"$out"
  ;;
file)
  timeout 30 "$pfc" trace start Tlg --file "$file" >/dev/null || fail "pfc trace start"
  timeout 30 "$pfc" trace enable Tlg '*Pfc.Test.TraceLogging' >/dev/null || fail "pfc trace enable"
  write
  timeout 30 "$pfc" trace stop Tlg >/dev/null || fail "pfc trace stop"
  timeout 60 "$consumer" "$file" >"$out" || { cat "$out"; fail "the consumer"; }
  ;;
realtime)
  timeout 30 "$pfc" trace start Tlg >/dev/null || fail "pfc trace start"
  timeout 30 "$pfc" trace enable Tlg Pfc.Test.TraceLogging >/dev/null || fail "pfc trace enable"
  timeout 60 "$consumer" --session Tlg "$ready" >"$out" &
  pid=$!
  tries=0
  while [ ! -e "$ready" ]; do
    tries=$((tries + 1))
    [ "$tries" -le 300 ] || fail "the consumer did not open the session"
    kill -0 "$pid" 2>/dev/null || fail "the consumer exited early"
    sleep 0.1
  done
  write
  timeout 30 "$pfc" trace stop Tlg >/dev/null || fail "pfc trace stop"
  wait "$pid" || { pid=; cat "$out"; fail "the consumer"; }
  pid=
  ;;
*) fail "unknown mode $mode" ;;
esac
diff -u "$expected" "$out" || fail "unexpected output"
echo "ok"
