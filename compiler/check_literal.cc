// compiler/check_literal.cc — positions inside string literals (check_context.h), so an
// error about one character of a `matches` / `regex` pattern points at that character.
#include <string>

#include "base/hex.h"
#include "base/utf8.h"
#include "compiler/check_context.h"

namespace pfc::internal {
namespace {

// Bytes the escape at `raw` (a '\\') decodes to, and the source bytes it spans (the grammar
// has validated it: \" \\ \n \t \xHH \u{H...}, docs/language.md §1).
std::pair<size_t, size_t> escape_size(std::string_view text, size_t raw) {
  const char kind = raw + 1 < text.size() ? text[raw + 1] : '\0';
  std::string utf8;
  if (kind == 'x' && raw + 3 < text.size()) {
    append_utf8(utf8, static_cast<char32_t>(hex_digit_value(text[raw + 2]) * 16 +
                                            hex_digit_value(text[raw + 3])));
    return {utf8.size(), 4};
  }
  if (kind == 'u') {
    const size_t close = text.find('}', raw);
    if (close == std::string_view::npos) return {1, 2};
    char32_t cp = 0;
    for (size_t i = raw + 3; i < close && cp <= 0x10FFFF; ++i)
      cp = cp * 16 + static_cast<char32_t>(hex_digit_value(text[i]));
    append_utf8(utf8, cp);
    return {utf8.size(), close + 1 - raw};
  }
  return {1, 2};
}

}  // namespace

SourcePos string_char_pos(const CheckContext& cx, SourcePos quote, size_t decoded_offset) {
  if (cx.source == nullptr) return quote;
  const std::string_view text = cx.source->text();
  if (quote.offset >= text.size() || text[quote.offset] != '"') return quote;
  size_t raw = quote.offset + 1;
  size_t decoded = 0;
  while (decoded < decoded_offset && raw < text.size() && text[raw] != '"') {
    if (text[raw] == '\\') {
      const auto [bytes, span] = escape_size(text, raw);
      if (decoded + bytes > decoded_offset) break;  // inside an escape: point at it
      decoded += bytes;
      raw += span;
    } else {
      ++decoded;
      ++raw;
    }
  }
  return cx.source->position(raw);
}

SourcePos name_char_pos(const CheckContext& cx, SourcePos name, size_t offset) {
  if (cx.source == nullptr) return name;
  const std::string_view text = cx.source->text();
  if (name.offset >= text.size()) return name;
  if (text[name.offset] == '"') return string_char_pos(cx, name, offset);
  // A bare name is its own text (ASCII name characters, grammar/rules.h `ident`).
  return offset < text.size() - name.offset ? cx.source->position(name.offset + offset) : name;
}

}  // namespace pfc::internal
