// cli/output.cc — JSON Lines formatting for `pfc run` and `pfc state`.
#include "cli/output.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "base/hex.h"

namespace pfc::cli {
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

std::string format_route_line(uint64_t seq, const std::vector<std::string>& names,
                              const RouteResult& result, const std::vector<Rejection>* why) {
  std::string out = "{\"seq\":" + std::to_string(seq) + ",\"sessions\":";
  append_names(out, result.deliver, names);
  out += ",\"stack\":";
  append_names(out, result.stack, names);
  if (why != nullptr) {
    out += ",\"why\":{";
    for (size_t i = 0; i < why->size(); ++i) {
      if (i != 0) out += ',';
      out += json_quote(names.at((*why)[i].slot)) + ':' + json_quote((*why)[i].reason);
    }
    out += '}';
  }
  out += "}\n";
  return out;
}

std::string format_state_line(std::string_view provider, const CompositeState& state,
                              const std::vector<std::string>& names) {
  std::string out = "{\"provider\":" + json_quote(provider);
  out += ",\"enabled\":";
  out += state.enabled ? "true" : "false";
  out += ",\"level\":" + std::to_string(state.level);
  out += ",\"any\":" + json_quote(to_hex(state.any));
  out += ",\"all\":" + json_quote(to_hex(state.all));
  out += ",\"sessions\":";
  append_names(out, state.sessions, names);
  out += "}\n";
  return out;
}

}  // namespace pfc::cli
