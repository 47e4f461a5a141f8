// cli/output.cc — JSON Lines formatting for `pfc run` and `pfc state`.
#include "cli/output.h"

#include <algorithm>

#include "base/hex.h"

namespace pfc::cli {
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
