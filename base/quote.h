// base/quote.h — user text shown inside a one-line message. Pure: thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace pfc {

// `text` in single quotes for a one-line diagnostic: control bytes (0x00-0x1F, 0x7F) shown
// as \xHH (lower-case hex), other bytes as they are; text longer than 64 bytes is cut after
// 64 bytes and "..." added inside the quotes: "a\tb" → 'a\x09b'.
std::string quote_text(std::string_view text);

}  // namespace pfc
