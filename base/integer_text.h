// base/integer_text.h — integers written as text: decimal, or 0x / 0X and hex digits, with
// an optional '-'. The one digit loop behind script literals (grammar/), TDH value text
// (compiler/convert.cc), JSON field strings (runtime/encode_value.cc), manifest numbers and
// events-file keywords. Pure functions: thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace pfc {

struct ParsedUnsigned {
  uint64_t value = 0;     // 0 when overflow
  bool overflow = false;  // the digits are well-formed but the value exceeds 2^64 - 1
};

// `text` as decimal digits, or as "0x"/"0X" followed by hex digits of either case. Nothing
// else is accepted: no sign, no whitespace, no separators, not "0x" alone, not empty
// (nullopt). Every character is checked even after an overflow, so "99999999999999999999z"
// is malformed rather than too large.
std::optional<ParsedUnsigned> parse_unsigned_text(std::string_view text);

struct ParsedInteger {
  uint64_t magnitude = 0;  // 0 when overflow
  bool negative = false;   // a '-' was written ("-0" too)
  bool overflow = false;   // the magnitude exceeds 2^64 - 1
};

// An optional '-' directly followed by what parse_unsigned_text accepts.
std::optional<ParsedInteger> parse_integer_text(std::string_view text);

}  // namespace pfc
