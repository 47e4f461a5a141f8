#!/bin/sh
# tests/mc/mc_cli.sh PFC SRC_DIR — `pfc mc` as a command (docs/cli.md):
#   - the header for Widget.man equals Widget.h.expected (-h DIR; the default DIR, the
#     current directory, and BASENAME, the manifest's name; -z BASENAME); an event whose
#     template has no data calls TemplateEventDescriptor;
#   - every errors/NAME.man is exit 1 with errors/NAME.expected's positioned message on
#     stderr and writes no header;
#   - usage errors are exit 2 and write nothing; a missing manifest or output directory
#     is exit 1.
set -u
pfc=$1 src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }
cd "$src" || exit 1

"$pfc" mc -um -h "$tmp" Widget.man || fail "pfc mc -um -h DIR Widget.man: exit $?"
cmp -s "$tmp/Widget.h" Widget.h.expected ||
  { fail "the header differs from Widget.h.expected:"; diff "$tmp/Widget.h" Widget.h.expected | head -40; }
mkdir "$tmp/cwd" && (cd "$tmp/cwd" && "$pfc" mc -um "$src/Widget.man") || fail "pfc mc in the current directory"
cmp -s "$tmp/cwd/Widget.h" Widget.h.expected || fail "the default DIR and BASENAME"
"$pfc" --color never mc -z widget_events -h "$tmp" -um Widget.man || fail "-z BASENAME"
cmp -s "$tmp/widget_events.h" Widget.h.expected || fail "-z widget_events: not the same header"
"$pfc" mc -um -h "$tmp" empty_template.man || fail "empty_template.man: exit $?"
grep -q '^        TemplateEventDescriptor(EmptyHandle, &Ev)' "$tmp/empty_template.h" &&
  ! grep -q 'Template_(' "$tmp/empty_template.h" ||
  fail "a template without data does not write as no template"

for man in errors/*.man; do
  name=${man%.man}
  err=$("$pfc" mc -um -h "$tmp/err" "$man" 2>&1 >/dev/null)
  code=$?
  got=$(printf 'exit %s\n%s' "$code" "$err")
  [ "$got" = "$(cat "$name.expected")" ] ||
    fail "$man: got '$got', expected '$(cat "$name.expected")'"
done
[ ! -e "$tmp/err" ] || fail "an erroneous manifest wrote something"

# More distinct (level, keyword) pairs than MCGEN_TRACE_CONTEXT's USHORT EnableBitsCount:
# 256 levels × 257 keywords, one event each (ids 0..65535, then version 1).
awk 'BEGIN {
  print "<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">"
  print "<instrumentation><events>"
  print "<provider name=\"Many\" guid=\"{3f1e0d2c-4b5a-6978-8a9b-0c1d2e3f4a5b}\">"
  print "<levels>"
  for (l = 0; l < 256; l++) printf "<level name=\"l%d\" value=\"%d\"/>\n", l, l
  print "</levels><keywords>"
  for (k = 1; k <= 257; k++) printf "<keyword name=\"k%d\" mask=\"%d\"/>\n", k, k
  print "</keywords><events>"
  for (n = 0; n < 65792; n++)
    printf "<event value=\"%d\" version=\"%d\" level=\"l%d\" keywords=\"k%d\" symbol=\"e%d\"/>\n",
      n % 65536, int(n / 65536), n % 256, int(n / 256) + 1, n
  print "</events></provider></events></instrumentation></instrumentationManifest>"
}' >"$tmp/many.man"
err=$(timeout 60 "$pfc" mc -um -h "$tmp/err" "$tmp/many.man" 2>&1)
code=$?
[ $code = 1 ] && [ "$err" = "pfc: error: $tmp/many.man:3:2: provider 'Many' has 65792 distinct level and keyword pairs; mc's enable bits count at most 65535" ] ||
  fail "65792 enable bits: exit $code, '$err'"
[ ! -e "$tmp/err" ] || fail "the manifest with too many enable bits wrote something"

# usage ARGS... — exit 2, a message on stderr, nothing written.
usage() {
  err=$("$pfc" mc "$@" 2>&1 >/dev/null)
  code=$?
  [ "$code" = 2 ] && [ -n "$err" ] || fail "pfc mc $*: exit $code, stderr '$err' (expected exit 2)"
}
usage -h "$tmp/u" Widget.man                  # no -um
usage -um -h "$tmp/u"                         # no manifest
usage -um -h "$tmp/u" Widget.man Widget.man   # two manifests
usage -um -h "$tmp/u" -q Widget.man           # unknown option
usage -um Widget.man -h                       # -h without its value
usage -um -h "$tmp/u" -z a/b Widget.man       # -z with a directory
usage -um -h "$tmp/u" - <Widget.man           # standard input without -z
"$pfc" --color purple mc -um -h "$tmp/u" Widget.man 2>/dev/null
[ $? = 2 ] || fail "--color purple before mc is not a usage error"
[ ! -e "$tmp/u" ] || fail "a usage error wrote something"
"$pfc" mc --help | grep -q 'pfc mc -um' || fail "pfc mc --help"
"$pfc" mc -um -h "$tmp" -z from_stdin - <Widget.man || fail "a manifest from standard input"
sed 's/from <stdin>/from Widget.man/' "$tmp/from_stdin.h" | cmp -s - Widget.h.expected ||
  fail "the header of a manifest from standard input differs"
err=$("$pfc" mc -um -h "$tmp/err" -z x - <errors/struct.man 2>&1)
[ $? = 1 ] && [ "$err" = "pfc: error: <stdin>:10:12: template 'T': struct 'S' cannot be laid out (docs/etw.md)" ] ||
  fail "an error in a manifest from standard input: '$err'"

err=$("$pfc" mc -um -h "$tmp" missing.man 2>&1)
[ $? = 1 ] && [ "$err" = "pfc: error: cannot read missing.man: No such file or directory" ] ||
  fail "a missing manifest: '$err'"
"$pfc" mc -um -h "$tmp/no/such/dir" Widget.man 2>/dev/null
[ $? = 1 ] || fail "a missing output directory is not exit 1"

[ $failed = 0 ] && echo "mc_cli: header, errors and usage as expected"
exit $failed
