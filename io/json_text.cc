// io/json_text.cc — JSON string literals and session-name arrays (io/json_text.h).
#include "io/json_text.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace pfc::io {
void append_names(std::string& out, uint64_t mask, const std::vector<std::string>& names) {
  out += '[';
  bool first = true;
  for (uint32_t slot = 0; slot < names.size() && slot < 64; ++slot) {
    if ((mask >> slot & 1) == 0) continue;
    if (!first) out += ',';
    first = false;
    out += json_quote(names[slot]);
  }
  out += ']';
}

std::string json_quote(std::string_view s) {
  // Printable ASCII without '"' or '\\' is its own JSON text: no escaping, no UTF-8 check.
  const bool plain = std::all_of(
      s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
  if (plain) {
    std::string out;
    out.reserve(s.size() + 2);
    out += '"';
    out += s;
    out += '"';
    return out;
  }
  return nlohmann::json(std::string(s))
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace pfc::io
