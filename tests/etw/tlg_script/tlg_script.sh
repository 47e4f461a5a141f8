#!/bin/sh
# tests/etw/tlg_script/tlg_script.sh MODE PFC PRODUCER DIR — scripts filtering TraceLogging
# events by event and field name (docs/language.md §3 "TraceLogging providers") across
# processes. PRODUCER, a provider process that never saw the script, writes named events;
#   enable  `pfc trace enable TlS --script tlg_script.pfs` on a file session: the provider
#           process records only the matching events (`pfc trace show` of the file)
#   run     an unfiltered file session, then `pfc run tlg_script.pfs --events FILE`: the
#           same decisions from the file
# Each prints the Seq numbers of the events session TlS receives; they must equal
# DIR/expected.txt.
#   export  an unfiltered file session exported with `pfc trace export --format ctf` and
#           read by babeltrace2: every event's class name and fields, as the writer named
#           and typed them in its metadata, must equal DIR/expected_export.txt
# Run through tests/isolate.sh; every step is bounded by `timeout`.
mode=$1 pfc=$2 producer=$3 dir=$4
file="$PFC_TRACE_DIR/tl.etl" out="$PFC_TRACE_DIR/out.txt"
fail() {
  echo "FAIL: $*"
  timeout 30 "$pfc" trace stop TlS >/dev/null 2>&1
  exit 1
}
seqs() {  # the Seq of every event line on stdin, one per line
  sed -n 's/.*"Seq":\([0-9]*\).*/\1/p'
}
timeout 30 "$pfc" trace start TlS --file "$file" >/dev/null || fail "pfc trace start"
case "$mode" in
enable)
  timeout 30 "$pfc" trace enable TlS --script "$dir/tlg_script.pfs" >/dev/null ||
    fail "pfc trace enable --script"
  ;;
run | export)
  timeout 30 "$pfc" trace enable TlS "{6d1b7a2c-0000-4000-8000-00000000a001}" >/dev/null ||
    fail "pfc trace enable"
  ;;
*) fail "unknown mode $mode" ;;
esac
timeout 30 "$producer" || fail "the producer"
timeout 30 "$pfc" trace stop TlS >/dev/null || fail "pfc trace stop"
case "$mode" in
enable)
  timeout 60 "$pfc" trace show "$file" >"$out.raw" || { cat "$out.raw"; fail "pfc trace show"; }
  seqs <"$out.raw" >"$out"
  ;;
run)
  timeout 60 "$pfc" trace show "$file" >"$out.all" || fail "pfc trace show"
  [ "$(seqs <"$out.all" | wc -l)" -eq 17 ] || { cat "$out.all"; fail "not every event recorded"; }
  timeout 60 "$pfc" run "$dir/tlg_script.pfs" --events "$file" --output events --session TlS \
    >"$out.raw" ||
    { cat "$out.raw"; fail "pfc run"; }
  # Seq is every event's first field: the payload's first 4 bytes, little-endian.
  sed -n 's/.*"payload_hex":"\(..\)\(..\)\(..\)\(..\).*/\4\3\2\1/p' "$out.raw" |
    while read -r h; do printf '%d\n' "0x$h"; done >"$out"
  ;;
export)
  bt=$(command -v babeltrace2) || fail "babeltrace2 is not installed (scripts/bootstrap installs it)"
  timeout 60 "$pfc" trace export "$file" --format ctf -o "$PFC_TRACE_DIR/ctf" ||
    fail "pfc trace export"
  timeout 60 "$bt" "$PFC_TRACE_DIR/ctf" >"$out.raw" 2>"$out.err" || { cat "$out.err"; fail "babeltrace2"; }
  [ ! -s "$out.err" ] || { cat "$out.err"; fail "babeltrace2 complained"; }
  # The class name, then the payload fields (the last braces of each line).
  sed -E 's/^\[[^]]*\] \([^)]*\) ([^:]*:[^:]*): .*(\{[^{}]*\})$/\1 \2/' "$out.raw" >"$out"
  diff -u "$dir/expected_export.txt" "$out" || { cat "$out.raw"; fail "unexpected output"; }
  echo "ok"
  exit 0
  ;;
esac
diff -u "$dir/expected.txt" "$out" || { cat "$out.raw"; fail "unexpected output"; }
echo "ok"
