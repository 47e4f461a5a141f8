#!/bin/sh
# tests/tdh_api/decode.sh MODE PFC PRODUCER CONSUMER DIR — TDH decoding across processes
# (docs/etw.md "TDH decoding"): PRODUCER writes DIR/decode.man's provider's events in its
# own process and CONSUMER, another process, decodes them; its output must equal the
# expected file of MODE in DIR:
#   manifest  PRODUCER runs its own log-file session; CONSUMER loads decode.man
#             (decode_expected.txt)
#   script    `pfc trace start --file` + `pfc trace enable --script decode.pfs`; CONSUMER
#             reads the file with the schema the enable recorded (decode_script_expected.txt)
#   realtime  the same enable on a real-time session; CONSUMER opens it, says so by
#             creating a file, and decodes until `pfc trace stop` (decode_script_expected.txt)
# Run through tests/isolate.sh; every step is bounded by `timeout`, the consumer is reaped.
mode=$1 pfc=$2 producer=$3 consumer=$4 dir=$5
file="$PFC_TRACE_DIR/decode.etl" ready="$PFC_TRACE_DIR/ready" out="$PFC_TRACE_DIR/out.txt"
expected="$dir/decode_script_expected.txt" pid=
fail() {
  echo "FAIL: $*"
  timeout 30 "$pfc" trace stop TdhDecode >/dev/null 2>&1
  [ -n "$pid" ] && wait "$pid"
  exit 1
}
enable() {  # pfc trace start TdhDecode [ARGS...], then the script's enable
  timeout 30 "$pfc" trace start TdhDecode "$@" >/dev/null || fail "pfc trace start"
  timeout 30 "$pfc" trace enable TdhDecode --script "$dir/decode.pfs" --session Decode \
    >/dev/null || fail "pfc trace enable"
  timeout 30 "$producer" --provider-only || fail "the producer"
}
case "$mode" in
manifest)
  expected="$dir/decode_expected.txt"
  timeout 30 "$producer" "$file" || fail "the producer"
  timeout 60 "$consumer" "$file" "$dir/decode.man" >"$out" || { cat "$out"; fail "the consumer"; }
  ;;
script)
  enable --file "$file"
  timeout 30 "$pfc" trace stop TdhDecode >/dev/null || fail "pfc trace stop"
  timeout 60 "$consumer" "$file" >"$out" || { cat "$out"; fail "the consumer"; }
  ;;
realtime)
  enable
  timeout 60 "$consumer" --session TdhDecode "$ready" >"$out" &
  pid=$!
  tries=0
  while [ ! -e "$ready" ]; do
    tries=$((tries + 1))
    [ "$tries" -le 300 ] || fail "the consumer did not open the session"
    kill -0 "$pid" 2>/dev/null || fail "the consumer exited early"
    sleep 0.1
  done
  timeout 30 "$pfc" trace stop TdhDecode >/dev/null || fail "pfc trace stop"
  wait "$pid" || { pid=; cat "$out"; fail "the consumer"; }
  pid=
  ;;
*) fail "unknown mode $mode" ;;
esac
diff -u "$expected" "$out" || fail "unexpected output"
echo "ok"
