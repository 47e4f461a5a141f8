// base/quote.cc — quote_text (see quote.h).
#include "base/quote.h"

#include "base/hex.h"

namespace pfc {

std::string quote_text(std::string_view text) {
  constexpr size_t kMaxShown = 64;
  std::string out = "'";
  for (size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const auto b = static_cast<uint8_t>(text[i]);
    if (b < 0x20 || b == 0x7F) {
      append_byte_escape(out, b, HexCase::Lower);
    } else {
      out.push_back(static_cast<char>(b));
    }
  }
  if (text.size() > kMaxShown) out += "...";
  return out + "'";
}

}  // namespace pfc
