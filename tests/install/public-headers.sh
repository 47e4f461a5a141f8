#!/bin/sh
# tests/install/public-headers.sh BUILD_DIR — installs the dev component into a temporary
# prefix and checks the public-header rule (docs/embedding.md): every installed header
# compiles alone with -std=c++20 and -std=c++23 (the ETW ones also as C11) against the
# installed tree only, and every #include in it names a standard (C, C++ or POSIX) header
# or an installed one (so no header can reach LLVM, PEGTL, pugixml, compiler/ or grammar/
# even where those happen to be on the default include path). Also that the source tree's
# include/pfc holds only installed headers (cmake/PfcInstall.cmake): every internal header
# lives beside its sources.
set -u
build=$1
src=$2/../..
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/p" --component dev >/dev/null || exit 1
inc=$tmp/p/include
std_headers=" algorithm array atomic cstddef cstdint cstring deque functional map memory mutex optional \
string string_view type_traits utility vector stdarg.h stddef.h stdint.h stdio.h stdlib.h string.h \
uchar.h wchar.h termios.h "
fail=0
count=0
for h in $(cd "$inc" && find pfc -name '*.h' | sort); do
  count=$((count + 1))
  for inc_line in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p' "$inc/$h"); do
    name=$(echo "$inc_line" | sed 's/^.\(.*\).$/\1/')
    case "$inc_line" in
      \<*) case "$std_headers" in *" $name "*) ;; *)
             echo "FAIL: $h includes <$name>, not a standard header"; fail=1 ;; esac ;;
      *) [ -f "$inc/$name" ] || [ -f "$inc/$(dirname "$h")/$name" ] || {
           echo "FAIL: $h includes \"$name\", which is not installed"; fail=1; } ;;
    esac
  done
  printf '#include <%s>\n' "$h" > "$tmp/one.cc"
  for std in c++20 c++23; do
    "${PFC_CXX:-c++}" -std=$std -fsyntax-only -Wall -Wextra -Werror -I"$inc" "$tmp/one.cc" \
      2>"$tmp/err" || { echo "FAIL: $h does not compile alone with -std=$std:"; cat "$tmp/err"; fail=1; }
  done
  case "$h" in pfc/etw/*)
    printf '#include <%s>\n' "$h" > "$tmp/one.c"
    "${PFC_CC:-cc}" -std=c11 -fsyntax-only -Wall -Wextra -Werror -I"$inc" "$tmp/one.c" 2>"$tmp/err" ||
      { echo "FAIL: $h does not compile alone as C11:"; cat "$tmp/err"; fail=1; } ;;
  esac
done
for h in $(cd "$src/include" && find pfc -name '*.h' | sort); do
  [ -f "$inc/$h" ] && continue
  echo "FAIL: include/$h is not installed: an internal header lives beside its sources"; fail=1
done
# The porting macros in C++ as well (tests/install/consumer/etw_demo.c uses them from C).
cat > "$tmp/port.cc" <<'CC'
#include <windows.h>
#include <initguid.h>
#include <strsafe.h>
DEFINE_GUID(TestGuid, 0x6B0D5E3C, 0x8F1A, 0x4B6E, 0x9C, 0x2D, 0x3A, 0x4F, 0x5B, 0x6C, 0x7D, 0x8F);
int port(LPVOID p, LPCSTR s, PCHAR c) {
  WCHAR w[4];
  ZeroMemory(p, 4);
  HRESULT hr = StringCchCopyW(w, ARRAYSIZE(w), u"too long");
  return (hr == STRSAFE_E_INSUFFICIENT_BUFFER && w[3] == 0 && IsEqualGUID(&TestGuid, &TestGuid)) + s[0] + c[0];
}
CC
"${PFC_CXX:-c++}" -std=c++20 -c -Wall -Wextra -Werror -I"$inc/pfc/etw" "$tmp/port.cc" -o "$tmp/port.o" 2>"$tmp/err" ||
  { echo "FAIL: the porting macros do not compile as C++20:"; cat "$tmp/err"; fail=1; }
nm "$tmp/port.o" | grep -q ' [VW] TestGuid$' ||
  { echo "FAIL: DEFINE_GUID after initguid.h does not define a weak TestGuid:"; nm "$tmp/port.o"; fail=1; }
[ "$count" -ge 10 ] || { echo "FAIL: only $count headers installed"; fail=1; }
[ $fail -eq 0 ] && echo "public headers: $count installed headers checked"
exit $fail
