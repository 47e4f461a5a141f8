#!/bin/sh
# tests/tdh_api/decode_script.sh PFC PRODUCER CONSUMER SCRIPT EXPECTED — TDH decoding with
# a script's schema (docs/etw.md "TDH decoding"): `pfc trace start --file` records a log
# file, `pfc trace enable --script SCRIPT` enables the provider and records the script's
# schema, PRODUCER writes the events in its own process, and CONSUMER (another process,
# no manifest loaded) decodes the file; its output must equal EXPECTED. Run through
# tests/isolate.sh (its own PFC_TRACE_DIR); every step is bounded by `timeout`.
pfc=$1 producer=$2 consumer=$3 script=$4 expected=$5
file="$PFC_TRACE_DIR/script.etl"
fail() { echo "FAIL: $*"; timeout 30 "$pfc" trace stop TdhScript >/dev/null 2>&1; exit 1; }
timeout 30 "$pfc" trace start TdhScript --file "$file" >/dev/null || fail "pfc trace start"
timeout 30 "$pfc" trace enable TdhScript --script "$script" --session Decode >/dev/null || fail "pfc trace enable"
timeout 30 "$producer" --provider-only || fail "the producer"
timeout 30 "$pfc" trace stop TdhScript >/dev/null || fail "pfc trace stop"
timeout 30 "$consumer" "$file" >"$PFC_TRACE_DIR/out.txt" || { cat "$PFC_TRACE_DIR/out.txt"; fail "the consumer"; }
diff -u "$expected" "$PFC_TRACE_DIR/out.txt" || fail "unexpected output"
echo "ok"
