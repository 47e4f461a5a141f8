// base/integer_text.cc — parse_unsigned_text / parse_integer_text (see integer_text.h).
#include "base/integer_text.h"

#include "base/hex.h"

namespace pfc {

std::optional<ParsedUnsigned> parse_unsigned_text(std::string_view text) {
  uint64_t base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return std::nullopt;
  ParsedUnsigned out;
  for (const char c : text) {
    const int d = hex_digit_value(c);
    if (d < 0 || static_cast<uint64_t>(d) >= base) return std::nullopt;
    const auto digit = static_cast<uint64_t>(d);
    if (out.value > (UINT64_MAX - digit) / base) out.overflow = true;
    out.value = out.value * base + digit;  // wraps after an overflow; reset below
  }
  if (out.overflow) out.value = 0;
  return out;
}

std::optional<ParsedInteger> parse_integer_text(std::string_view text) {
  ParsedInteger out;
  if (!text.empty() && text.front() == '-') {
    out.negative = true;
    text.remove_prefix(1);
  }
  const std::optional<ParsedUnsigned> digits = parse_unsigned_text(text);
  if (!digits) return std::nullopt;
  out.magnitude = digits->value;
  out.overflow = digits->overflow;
  return out;
}

}  // namespace pfc
