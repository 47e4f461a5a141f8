#!/bin/sh
# tests/mc/mc_provider.sh PFC PROVIDER MANIFEST EXPECTED — the provider built from the
# header `pfc mc` generated (widget_provider.c) writes into a log-file session that enabled
# Contoso-Widget at level 4 with keyword 0x1 and Contoso-Gadget at level 5; `pfc trace show --schema MANIFEST` decodes
# the file, and the events (without pid, tid, ts and cpu) must be EXPECTED. Runs in its
# own PFC_TRACE_DIR (tests/isolate.sh); every command bounded by timeout; the session is
# stopped on every exit.
set -u
pfc=$1 provider=$2 manifest=$3 expected=$4
[ -n "${PFC_TRACE_DIR:-}" ] || { echo "FAIL: run through tests/isolate.sh"; exit 1; }
log=$PFC_TRACE_DIR/widget.etl
cleanup() { timeout 60 "$pfc" trace stop mc-widget >/dev/null 2>&1; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
timeout 60 "$pfc" trace start mc-widget --file "$log" >/dev/null || fail "trace start"
timeout 60 "$pfc" trace enable mc-widget Contoso-Widget --level 4 --any 0x1 \
  --schema "$manifest" >/dev/null || fail "trace enable"
timeout 60 "$pfc" trace enable mc-widget Contoso-Gadget --schema "$manifest" >/dev/null ||
  fail "trace enable Contoso-Gadget"
timeout 60 "$provider" || fail "the provider"
timeout 60 "$pfc" trace stop mc-widget >/dev/null || fail "trace stop"
got=$(timeout 60 "$pfc" trace show "$log" --schema "$manifest") || fail "trace show"
got=$(printf '%s\n' "$got" | sed -e 's/"pid":[0-9]*,"tid":[0-9]*,"ts":"[^"]*","cpu":[0-9]*,//')
want=$(cat "$expected")
if [ "$got" != "$want" ]; then
  echo "FAIL: the events read back differ from $expected"
  echo "--- got"; printf '%s\n' "$got"; echo "--- expected"; printf '%s\n' "$want"
  exit 1
fi
echo "mc_provider: the 4 events written through the generated header read back as written"
