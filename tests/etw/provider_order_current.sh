#!/bin/sh
# tests/etw/provider_order_current.sh LIB ORDER — every function ORDER (etw/provider.order)
# names is still defined in LIB (libpfc_etw.so, read with nm). The link ignores names it does
# not find (--no-warn-symbol-ordering), so a renamed or newly inlined function would
# silently drop out of the ordered text (docs/performance.md "Provider process memory");
# this names them instead. Fix: rerun scripts/provider-order BUILD_DIR and commit the file.
set -u
lib=$1
order=$2
defined=$(mktemp "${TMPDIR:-/tmp}/pfc-order-XXXXXX")
trap 'rm -f "$defined"' EXIT
nm --defined-only "$lib" | awk '{ print $3 }' | LC_ALL=C sort -u >"$defined"
[ -s "$defined" ] || { echo "FAIL: $lib: no defined symbols read"; exit 1; }
listed=$(grep -v '^#' "$order" | LC_ALL=C sort -u)
[ -n "$listed" ] || { echo "FAIL: $order: no function names"; exit 1; }
missing=$(printf '%s\n' "$listed" | LC_ALL=C comm -23 - "$defined")
if [ -n "$missing" ]; then
  echo "FAIL: $order names functions $lib no longer defines (rerun scripts/provider-order):"
  printf '  %s\n' $missing
  exit 1
fi
echo "provider_order_current: all $(printf '%s\n' "$listed" | wc -l) functions of $order are in $lib"
