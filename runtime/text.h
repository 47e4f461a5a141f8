// runtime/text.h — small text helpers shared by the manifest parser (runtime/manifest_*)
// and the compiler's TDH value conversion (compiler/convert.cc). Header-only.
#pragma once

#include <string_view>

namespace pfc {

// `text` without ASCII whitespace (space, \t, \n, \v, \f, \r) at either end.
inline std::string_view trim_ascii_space(std::string_view text) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  const size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

}  // namespace pfc
