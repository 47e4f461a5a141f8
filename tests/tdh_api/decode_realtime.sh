#!/bin/sh
# tests/tdh_api/decode_realtime.sh PFC PRODUCER CONSUMER SCRIPT EXPECTED — TDH decoding in a
# real-time consumer with the schema `pfc trace enable --script SCRIPT` published
# (docs/etw.md "TDH decoding"): PRODUCER writes into the session's rings, CONSUMER (another
# process, no manifest) opens the session, says so by creating a file, and decodes until
# `pfc trace stop`; its output must equal EXPECTED. Run through tests/isolate.sh; every
# step is bounded by `timeout` and the consumer is always reaped.
pfc=$1 producer=$2 consumer=$3 script=$4 expected=$5
ready="$PFC_TRACE_DIR/ready" out="$PFC_TRACE_DIR/out.txt" pid=
fail() {
  echo "FAIL: $*"
  timeout 30 "$pfc" trace stop TdhLive >/dev/null 2>&1
  [ -n "$pid" ] && wait "$pid"
  exit 1
}
timeout 30 "$pfc" trace start TdhLive >/dev/null || fail "pfc trace start"
timeout 30 "$pfc" trace enable TdhLive --script "$script" --session Decode >/dev/null ||
  fail "pfc trace enable"
timeout 30 "$producer" --provider-only || fail "the producer"
timeout 60 "$consumer" --session TdhLive "$ready" >"$out" &
pid=$!
tries=0
while [ ! -e "$ready" ]; do
  tries=$((tries + 1))
  [ "$tries" -le 300 ] || fail "the consumer did not open the session"
  kill -0 "$pid" 2>/dev/null || fail "the consumer exited early"
  sleep 0.1
done
timeout 30 "$pfc" trace stop TdhLive >/dev/null || fail "pfc trace stop"
wait "$pid" || { pid=; cat "$out"; fail "the consumer"; }
pid=
diff -u "$expected" "$out" || fail "unexpected output"
echo "ok"
