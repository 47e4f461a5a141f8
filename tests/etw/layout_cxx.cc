// tests/etw/layout_cxx.cc — the same layout and constant checks as layout_c.c, compiled
// as C++ (-Wall -Wextra -Werror): the headers must be usable from both languages.
#include "layout_asserts.h"

#include <type_traits>

static_assert(std::is_same_v<WCHAR, char16_t>, "WCHAR is a UTF-16 code unit");
static_assert(std::is_standard_layout_v<EVENT_RECORD>);

int main() {
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 1, 2, 3, 4, 5, 6, 7);
  const WCHAR name[] = u"pfc";
  return (d.Task == 5 && d.Keyword == 7 && name[2] == u'c' && IsEqualGUID(&GUID_NULL, &GUID_NULL))
             ? 0
             : 1;
}
