// runtime/manifest_events.cc — the event half of the manifest parser: template <data>
// elements → FieldDef (inType, count, length) and <event> elements → EventDef (descriptor
// values resolved through the provider's tables and winmeta.xml).
#include "base/ascii.h"
#include "runtime/manifest_parser.h"

namespace pfc::internal {
namespace {

std::string_view kind_name(NameKind k) {
  switch (k) {
    case NameKind::Level: return "level";
    case NameKind::Opcode: return "opcode";
    case NameKind::Task: return "task";
    case NameKind::Keyword: return "keyword";
    case NameKind::Channel: return "channel";
  }
  return "name";
}

}  // namespace

bool Parser::parse_extent(pugi::xml_node d, const char* attr, const std::vector<FieldDef>& fields,
                          Extent& out) {
  const pugi::xml_attribute a = d.attribute(attr);
  if (!a) return true;
  const std::string_view text = trim_ascii_space(a.value());
  const std::string what =
      std::string(attr) + " of data " + quote_text(d.attribute("name").value());
  if (!text.empty() && is_ascii_digit(text[0])) {
    const std::optional<uint64_t> n = parse_number(text);
    if (!n || *n > 0xFFFFFFFF) return fail(d, what + " is not a number in 0..4294967295");
    out = Extent{Extent::Kind::Fixed, static_cast<uint32_t>(*n)};
    return true;
  }
  const auto found = template_fields_.find(std::string(text));
  const FieldDef* f = found == template_fields_.end() ? nullptr : &fields[found->second];
  if (f == nullptr) return fail(d, what + " names no earlier data element: " + quote_text(text));
  if (!in_type_is_count(f->type) || f->count.present()) {
    return fail(d, what + " names " + quote_text(text) +
                       ", which is not a scalar integer (win:Int8..win:UInt64)");
  }
  out = Extent{Extent::Kind::Field, static_cast<uint32_t>(f - fields.data())};
  return true;
}

// Appends one field; appends nothing (and succeeds) for an in-type pfc cannot lay out.
bool Parser::parse_data(pugi::xml_node d, std::vector<FieldDef>& fields) {
  FieldDef f;
  f.name = d.attribute("name").value();
  if (f.name.empty()) return fail(d, "data element without a name");
  if (template_fields_.contains(f.name))
    return fail(d, "duplicate data element " + quote_text(f.name));
  const std::string_view in = trim_ascii_space(d.attribute("inType").value());
  const QName q = split_qname(in);
  const std::optional<std::string_view> ns = namespace_of(d, q.prefix);
  const InTypeName type = ns && *ns == kWinNs ? winmeta_in_type(q.local) : InTypeName{};
  if (!type.known) {
    return fail(d, "unknown inType " + quote_text(in) + " of data " + quote_text(f.name) +
                       " (expected a winmeta name such as win:UInt32, with xmlns:win=\"" +
                       std::string(kWinNs) + "\")");
  }
  if (!type.type) return true;
  f.type = *type.type;
  if (!parse_extent(d, "count", fields, f.count) || !parse_extent(d, "length", fields, f.length))
    return false;
  const bool takes_length =
      f.type == InType::UnicodeString || f.type == InType::AnsiString || f.type == InType::Binary;
  if (f.length.present() && !takes_length) {
    return fail(d, "length applies only to string and binary data, not " + quote_text(f.name));
  }
  if (f.type == InType::Binary && !f.length.present()) {
    const QName out = split_qname(trim_ascii_space(d.attribute("outType").value()));
    const std::optional<std::string_view> out_ns = namespace_of(d, out.prefix);
    if (!(out_ns && *out_ns == kWinNs && out.local == "IPv6")) {
      return fail(d, "binary data " + quote_text(f.name) + " needs a length");
    }
    f.length = Extent{Extent::Kind::Fixed, 16};  // TDH: IPv6 binary without length
  }
  template_fields_.emplace(f.name, static_cast<uint32_t>(fields.size()));
  fields.push_back(std::move(f));
  return true;
}

// A name attribute's value: the provider's own names (task-scoped first), then win: names.
// Absent or empty: 0.
std::optional<uint64_t> Parser::resolve(pugi::xml_node at, const char* attr, NameKind kind,
                                        const NameMap& own, const NameMap* scoped) {
  const std::string_view text = trim_ascii_space(at.attribute(attr).value());
  if (text.empty()) return 0;
  if (scoped != nullptr) {
    if (auto it = scoped->find(text); it != scoped->end()) return it->second;
  }
  if (auto it = own.find(text); it != own.end()) return it->second;
  const QName q = split_qname(text);
  if (!q.prefix.empty()) {
    const std::optional<std::string_view> ns = namespace_of(at, q.prefix);
    if (!ns) {
      fail(at, std::string(attr) + " " + quote_text(text) + ": undeclared namespace prefix " +
                   quote_text(q.prefix));
      return std::nullopt;
    }
    if (*ns == kWinNs) {
      if (std::optional<uint64_t> v = winmeta_value(kind, q.local)) return v;
    }
  }
  fail(at, "unknown " + std::string(kind_name(kind)) + " " + quote_text(text));
  return std::nullopt;
}

bool Parser::parse_descriptor(pugi::xml_node e, const Tables& t, EventDescriptor& d) {
  const std::optional<uint64_t> id = parse_number(e.attribute("value").value());
  if (!id || *id > 0xFFFF) return fail(e, "event without a value in 0..65535");
  const pugi::xml_attribute va = e.attribute("version");
  const std::optional<uint64_t> version = va ? parse_number(va.value()) : 0;
  if (!version || *version > 0xFF) return fail(e, "event version is not a number in 0..255");
  d.id = static_cast<uint16_t>(*id);
  d.version = static_cast<uint8_t>(*version);
  const auto level = resolve(e, "level", NameKind::Level, t.levels, nullptr);
  const auto task = resolve(e, "task", NameKind::Task, t.tasks, nullptr);
  auto scoped = t.task_opcodes.find(trim_ascii_space(e.attribute("task").value()));
  const auto opcode = resolve(e, "opcode", NameKind::Opcode, t.opcodes,
                              scoped != t.task_opcodes.end() ? &scoped->second : nullptr);
  const auto channel = resolve(e, "channel", NameKind::Channel, t.channels, nullptr);
  if (!level || !task || !opcode || !channel) return false;
  d.level = static_cast<uint8_t>(*level);
  d.task = static_cast<uint16_t>(*task);
  d.opcode = static_cast<uint8_t>(*opcode);
  d.channel = static_cast<uint8_t>(*channel);
  // keywords: whitespace-separated names, OR-ed.
  std::string_view rest = e.attribute("keywords").value();
  while (!(rest = trim_ascii_space(rest)).empty()) {
    const size_t end = rest.find_first_of(" \t\r\n");
    const std::string name(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
    auto it = t.keywords.find(name);
    if (it != t.keywords.end()) {
      d.keyword |= it->second;
      continue;
    }
    const QName q = split_qname(name);
    const std::optional<std::string_view> ns = namespace_of(e, q.prefix);
    const std::optional<uint64_t> mask = ns && *ns == kWinNs && !q.prefix.empty()
                                             ? winmeta_value(NameKind::Keyword, q.local)
                                             : std::nullopt;
    if (!mask) return fail(e, "unknown keyword " + quote_text(name));
    d.keyword |= *mask;
  }
  return true;
}

bool Parser::parse_event(pugi::xml_node e, const Tables& t, ProviderDef& p) {
  EventDef ev;
  if (!parse_descriptor(e, t, ev.desc)) return false;
  const std::string_view tid = trim_ascii_space(e.attribute("template").value());
  if (!tid.empty()) {
    auto it = t.templates.find(tid);
    if (it == t.templates.end()) return fail(e, "event uses unknown template " + quote_text(tid));
    if (it->second.fields.size() > kMaxManifestFields - fields_total_) {
      return fail(e, "the events have more than " + std::to_string(kMaxManifestFields) +
                         " fields together (each event counts its template's fields)");
    }
    fields_total_ += it->second.fields.size();
    ev.fields = it->second.fields;
  }
  ev.name = trim_ascii_space(e.attribute("symbol").value());
  if (ev.name.empty()) {
    ev.name = "event_" + std::to_string(ev.desc.id);
    if (ev.desc.version != 0) ev.name += "_v" + std::to_string(ev.desc.version);
  }
  if (!event_names_.insert(ev.name).second) {
    return fail(e, "duplicate event " + quote_text(ev.name));
  }
  const auto [same, added] =
      event_ids_.emplace(uint32_t{ev.desc.id} << 8 | ev.desc.version, ev.name);
  if (!added) {
    return fail(e, "event " + quote_text(ev.name) + " has the same value " +
                       std::to_string(ev.desc.id) + " and version " +
                       std::to_string(ev.desc.version) + " as event " + quote_text(same->second));
  }
  p.events.push_back(std::move(ev));
  if (info_ != nullptr) {
    info_->back().events.push_back(
        ManifestEvent{std::string(trim_ascii_space(e.attribute("symbol").value())),
                      std::string(tid), position(e), message_of(e)});
  }
  return true;
}

}  // namespace pfc::internal
