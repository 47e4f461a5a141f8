// io/event_line.cc — events-file lines (io/event_line.h, pfc/events.h events_file_line).
#include "io/event_line.h"

#include <charconv>

#include "base/hex.h"
#include "base/scope_kinds.h"
#include "io/event_decode.h"
#include "io/json_text.h"
#include "pfc/events.h"

namespace pfc::io {
namespace {

// Appends `member` (`,"name":`) and the number `v`.
template <typename T>
void append_member(std::string& out, const char* member, T v) {
  out += member;
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

}  // namespace

std::string event_line_head(std::string_view provider, const EventDef* def,
                            const EventDescriptor& desc, bool always_ids) {
  std::string out = "{\"provider\":" + json_quote(provider);
  if (def != nullptr) out += ",\"event\":" + json_quote(def->name);
  if (def == nullptr || always_ids) {
    append_member(out, ",\"id\":", desc.id);
    append_member(out, ",\"version\":", desc.version);
  }
  return out;
}

void append_event_descriptor(std::string& out, const EventView& v) {
  append_member(out, ",\"level\":", v.desc.level);
  out += ",\"keyword\":\"0x";
  append_hex(out, v.desc.keyword);
  out += '"';
  append_member(out, ",\"opcode\":", v.desc.opcode);
  append_member(out, ",\"task\":", v.desc.task);
  append_member(out, ",\"channel\":", v.desc.channel);
  append_member(out, ",\"pid\":", v.pid);
  append_member(out, ",\"tid\":", v.tid);
}

void append_event_tail(std::string& out, const EventDef* def, const EventView& v, uint64_t exclude,
                       const std::vector<std::string>& sessions) {
  for (const internal::ScopeKindInfo& s : internal::kScopeKinds)  // "exe", "package_id", ...
    if (s.event_string != nullptr && (v.*s.event_string).size != 0)
      out += ",\"" + std::string(s.name) + "\":" + json_quote((v.*s.event_string).view());
  append_payload_json(out, def, v);
  if (exclude != 0) {
    out += ",\"exclude\":";
    append_names(out, exclude, sessions);
  }
  out += "}\n";
}

}  // namespace pfc::io

namespace pfc {

std::string events_file_line(const SourceSchema& schema, const SourceEvent& e) {
  std::string out =
      io::event_line_head(schema.schema.providers[e.provider].name, e.def, e.view.desc, false);
  io::append_event_descriptor(out, e.view);
  io::append_event_tail(out, e.def, e.view, e.exclude, schema.sessions);
  return out;
}

}  // namespace pfc
