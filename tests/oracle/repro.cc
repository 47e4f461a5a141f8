// tests/oracle/repro.cc — see repro.h. Writes payload expressions without recursion: the
// post-order nodes are turned into text with a stack of strings.
#include "tests/oracle/repro.h"

#include <cstdio>

namespace pfc::repro {
namespace {

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);  // UTF-8 passes through (scripts and JSON are UTF-8)
    }
  }
  return out + "\"";
}

// JSON string; bytes ≥ 0x80 are passed through (the generator's strings are UTF-8).
std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string guid_text(const Guid& g) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "{%08X-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X}", g.data1,
                g.data2, g.data3, g.data4[0], g.data4[1], g.data4[2], g.data4[3], g.data4[4],
                g.data4[5], g.data4[6], g.data4[7]);
  return buf;
}

const char* type_name(InType t) {
  static const char* const kNames[] = {
      "?",       "wstring",  "string",     "int8",  "uint8",    "int16",   "uint16", "int32",
      "uint32",  "int64",    "uint64",     "float", "double",   "bool",    "binary", "guid",
      "pointer", "filetime", "systemtime", "sid",   "hexint32", "hexint64"};
  const auto i = static_cast<size_t>(t);
  return i < sizeof kNames / sizeof kNames[0] ? kNames[i] : "?";
}

bool is_signed(InType t) {
  return t == InType::Int8 || t == InType::Int16 || t == InType::Int32 || t == InType::Int64;
}

std::string extent(const Extent& e, const EventDef& ev) {
  if (e.kind == Extent::Kind::Fixed) return std::to_string(e.value);
  return e.value < ev.fields.size() ? ev.fields[e.value].name : "?";
}

std::string int_text(InType t, uint64_t v) {
  return is_signed(t) ? std::to_string(static_cast<int64_t>(v)) : std::to_string(v);
}

const char* op_name(PayloadOp op) {
  switch (op) {
    case PayloadOp::Eq: return "eq";
    case PayloadOp::Ne: return "ne";
    case PayloadOp::Le: return "le";
    case PayloadOp::Gt: return "gt";
    case PayloadOp::Lt: return "lt";
    case PayloadOp::Ge: return "ge";
    case PayloadOp::Between: return "between";
    case PayloadOp::NotBetween: return "notbetween";
    case PayloadOp::Modulo: return "modulo";
    case PayloadOp::Contains: return "contains";
    case PayloadOp::DoesntContain: return "doesntcontain";
    case PayloadOp::Is: return "is";
    case PayloadOp::IsNot: return "isnot";
    case PayloadOp::In: return "in";
    case PayloadOp::NotIn: return "not in";
    case PayloadOp::StartsWith: return "startswith";
    case PayloadOp::EndsWith: return "endswith";
    case PayloadOp::Matches: return "matches";
    case PayloadOp::Regex: return "regex";
    case PayloadOp::IsCs: return "is.cs";
    case PayloadOp::IsNotCs: return "isnot.cs";
    case PayloadOp::ContainsCs: return "contains.cs";
    case PayloadOp::DoesntContainCs: return "doesntcontain.cs";
    case PayloadOp::StartsWithCs: return "startswith.cs";
    case PayloadOp::EndsWithCs: return "endswith.cs";
    case PayloadOp::MatchesCs: return "matches.cs";
    case PayloadOp::RegexCs: return "regex.cs";
    case PayloadOp::FieldEq: return "eq";
    case PayloadOp::FieldNe: return "ne";
    case PayloadOp::FieldLe: return "le";
    case PayloadOp::FieldGt: return "gt";
    case PayloadOp::FieldLt: return "lt";
    case PayloadOp::FieldGe: return "ge";
  }
  return "?";
}

std::string predicate(const PayloadPredicate& p, const EventDef& ev) {
  if (p.field >= ev.fields.size()) return "?";
  const FieldDef& f = ev.fields[p.field];
  std::string v;
  const auto code = static_cast<uint16_t>(p.op);
  if (code >= uint16_t(PayloadOp::FieldEq) && code <= uint16_t(PayloadOp::FieldGe)) {
    v = p.value.lo < ev.fields.size() ? ev.fields[p.value.lo].name : "?";
  } else if (f.type == InType::UnicodeString || f.type == InType::AnsiString) {
    v = quoted(p.value.text);
  } else if (f.type == InType::Guid) {
    v = guid_text(p.value.guid);
  } else {
    v = int_text(f.type, p.value.lo);
    if (p.op == PayloadOp::Between || p.op == PayloadOp::NotBetween)
      v += "," + int_text(f.type, p.value.hi);
  }
  return f.name + " " + op_name(p.op) + " " + v;
}

// True when the expression is one predicate, or one and/or over predicates only.
bool flat(const PayloadExpr& x, bool* is_or) {
  *is_or = false;
  if (x.nodes.size() == 1) return x.nodes[0].kind == PayloadExpr::Node::Kind::Pred;
  const PayloadExpr::Node& root = x.nodes.back();
  if (root.kind == PayloadExpr::Node::Kind::Not || root.kind == PayloadExpr::Node::Kind::Pred)
    return false;
  for (uint32_t k = 0; k < root.count; ++k) {
    if (x.nodes[x.kids[root.index + k]].kind != PayloadExpr::Node::Kind::Pred) return false;
  }
  *is_or = root.kind == PayloadExpr::Node::Kind::Or;
  return true;
}

std::string where_text(const PayloadExpr& x, const EventDef& ev) {
  std::vector<std::string> text(x.nodes.size());
  for (size_t i = 0; i < x.nodes.size(); ++i) {
    const PayloadExpr::Node& n = x.nodes[i];
    if (n.kind == PayloadExpr::Node::Kind::Pred) {
      text[i] = predicate(x.preds[n.index], ev);
      continue;
    }
    if (n.kind == PayloadExpr::Node::Kind::Not) {
      text[i] = "not (" + text[x.kids[n.index]] + ")";
      continue;
    }
    const char* sep = n.kind == PayloadExpr::Node::Kind::And ? " and " : " or ";
    std::string s = "(";
    for (uint32_t k = 0; k < n.count; ++k) s += (k ? sep : "") + text[x.kids[n.index + k]];
    text[i] = s + ")";
  }
  return text.back();
}

const EventDef* find_event(const ProviderDef& p, uint16_t id, uint8_t version) {
  for (const EventDef& e : p.events) {
    if (e.desc.id == id && e.desc.version == version) return &e;
  }
  return nullptr;
}

std::string payload_line(const PayloadFilter& f, const ProviderDef& p) {
  const EventDef* ev = find_event(p, f.event_id, f.event_version);
  const std::string ref =
      "id=" + std::to_string(f.event_id) + " version=" + std::to_string(f.event_version);
  if (ev == nullptr || f.expr.empty()) return "# not expressible: payload " + ref + " (empty)";
  bool is_or = false;
  if (flat(f.expr, &is_or)) {
    std::string s = "payload " + ref + (is_or ? " any {" : " all {");
    for (size_t i = 0; i < f.expr.preds.size(); ++i)
      s += (i ? "; " : " ") + predicate(f.expr.preds[i], *ev);
    return s + " }" + (f.group_all ? " group=all;" : ";");
  }
  if (f.group_all) return "# not expressible (where + group=all): " + where_text(f.expr, *ev);
  return "payload " + ref + " where " + where_text(f.expr, *ev) + ";";
}

template <typename T>
std::string joined(const std::vector<T>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += sep;
    if constexpr (std::is_same_v<T, std::string>) s += v[i];
    else s += std::to_string(v[i]);
  }
  return s;
}

std::string name_filter(const char* what, const EventNameFilter& f) {
  std::string names;
  for (const std::string& n : f.names) names += " " + quoted(n);
  return std::string("# not expressible: ") + what + " level=" + std::to_string(f.level) +
         " any=" + hex(f.any) + " all=" + hex(f.all) + (f.filter_in ? " in" : " not in") + names;
}

std::string properties(uint32_t p) {
  static const std::pair<uint32_t, const char*> kProps[] = {
      {enable_property::kSid, "sid"},
      {enable_property::kTsId, "ts_id"},
      {enable_property::kStackTrace, "stack_trace"},
      {enable_property::kIgnoreKeyword0, "ignore_keyword_0"},
      {enable_property::kProcessStartKey, "process_start_key"},
      {enable_property::kEventKey, "event_key"}};
  std::vector<std::string> names;
  for (const auto& [bit, name] : kProps) {
    if (p & bit) names.emplace_back(name);
  }
  return names.empty() ? "" : " properties=(" + joined(names, ", ") + ")";
}

std::string enable_block(const ProviderDef& prov, const EnableParams& p) {
  std::string s = "  enable " + prov.name + " level=" + std::to_string(p.level) +
                  " any=" + hex(p.any) + " all=" + hex(p.all) + properties(p.properties) + " {\n";
  auto line = [&](const std::string& l) { s += "    " + l + "\n"; };
  if (p.pids) line("pid " + joined(*p.pids, ", ") + ";");
  if (p.exe_names) line("exe " + quoted(joined(*p.exe_names, ";")) + ";");
  if (p.package_ids) line("package_id " + quoted(joined(*p.package_ids, ";")) + ";");
  if (p.app_ids) line("app_id " + quoted(joined(*p.app_ids, ";")) + ";");
  if (p.event_ids)
    line(std::string("event_id ") + (p.event_ids->filter_in ? "in " : "not in ") +
         joined(p.event_ids->ids, ", ") + ";");
  if (p.event_names) line(name_filter("event_names", *p.event_names));
  if (p.stack_ids)
    line(std::string("stack_id ") + (p.stack_ids->filter_in ? "in " : "not in ") +
         joined(p.stack_ids->ids, ", ") + ";");
  if (p.stack_names) line(name_filter("stack_names", *p.stack_names));
  if (p.stack_level_kw) {
    const LevelKeywordFilter& f = *p.stack_level_kw;
    line("# not expressible: stack_level_kw level=" + std::to_string(f.level) +
         " any=" + hex(f.any) + " all=" + hex(f.all) + (f.filter_in ? " in" : " not in"));
  }
  for (const PayloadFilter& f : p.payload) line(payload_line(f, prov));
  return s + "  }\n";
}

}  // namespace

bool expressible(const ProgramSpec& spec, const std::vector<Event>& events) {
  if (spec.provider.legacy && spec.sessions.size() > 1) return false;  // last enabler wins
  for (const SessionEntry& s : spec.sessions) {
    const EnableParams& p = *s.params;
    const bool filtered = p.pids || p.exe_names || p.package_ids || p.app_ids || p.event_ids ||
                          p.stack_ids || !p.payload.empty();
    if (spec.provider.legacy && filtered) return false;  // "legacy provider takes no filters"
    if (p.event_names || p.stack_names || p.stack_level_kw) return false;
    for (const PayloadFilter& f : p.payload) {
      const EventDef* ev = find_event(spec.provider, f.event_id, f.event_version);
      bool is_or = false;
      if (ev == nullptr || f.expr.empty() || (f.group_all && !flat(f.expr, &is_or))) return false;
    }
  }
  for (const Event& e : events) {
    const EventDef* ev = find_event(spec.provider, e.desc.id, e.desc.version);
    if (ev == nullptr || ev->name != e.name) return false;
  }
  return true;
}

std::string script(const ProgramSpec& spec) {
  const ProviderDef& p = spec.provider;
  std::string s = "# routing case printed by tests/oracle/repro.cc\nprovider " + p.name + " " +
                  guid_text(p.guid) + (p.legacy ? " legacy" : "") + " {\n";
  for (const EventDef& e : p.events) {
    const EventDescriptor& d = e.desc;
    s += "  event " + e.name + " (id=" + std::to_string(d.id) +
         ", version=" + std::to_string(d.version) + ", level=" + std::to_string(d.level) +
         ", keyword=" + hex(d.keyword) + ", opcode=" + std::to_string(d.opcode) +
         ", task=" + std::to_string(d.task) + ", channel=" + std::to_string(d.channel) + ") {";
    for (const FieldDef& f : e.fields) {
      s += " " + f.name + ": " + type_name(f.type);
      if (f.count.present()) s += "[" + extent(f.count, e) + "]";
      if (f.length.present()) s += " length=" + extent(f.length, e);
      s += ";";
    }
    s += " }\n";
  }
  s += "}\n";
  uint32_t slots = 0;
  for (const SessionEntry& e : spec.sessions) slots = std::max(slots, e.slot + 1);
  for (uint32_t slot = 0; slot < slots; ++slot) {
    const SessionEntry* entry = nullptr;
    for (const SessionEntry& e : spec.sessions) {
      if (e.slot == slot) entry = &e;
    }
    s += "session S" + std::to_string(slot) + " {" +
         (entry ? "\n" + enable_block(p, *entry->params) : " ") + "}\n";
  }
  return s;
}

std::string events_jsonl(const ProgramSpec& spec, const std::vector<Event>& events) {
  std::string s;
  for (const Event& e : events) {
    const EventDescriptor& d = e.desc;
    char hexbyte[4];
    std::string payload;
    for (uint8_t b : e.payload) {
      std::snprintf(hexbyte, sizeof hexbyte, "%02x", b);
      payload += hexbyte;
    }
    s += "{\"provider\":" + json_string(spec.provider.name) + ",\"id\":" + std::to_string(d.id) +
         ",\"version\":" + std::to_string(d.version) + ",\"level\":" + std::to_string(d.level) +
         ",\"keyword\":\"" + hex(d.keyword) + "\",\"opcode\":" + std::to_string(d.opcode) +
         ",\"task\":" + std::to_string(d.task) + ",\"channel\":" + std::to_string(d.channel) +
         ",\"pid\":" + std::to_string(e.pid) + ",\"tid\":" + std::to_string(e.tid) +
         ",\"exe\":" + json_string(e.exe) + ",\"package_id\":" + json_string(e.package_id) +
         ",\"app_id\":" + json_string(e.app_id) + ",\"payload_hex\":\"" + payload + "\"}\n";
  }
  return s;
}

std::string result_line(size_t seq, const RouteResult& r) {
  auto list = [](uint64_t mask) {
    std::string s = "[";
    for (uint32_t b = 0; b < 64; ++b) {
      if (mask >> b & 1) s += (s.size() > 1 ? ",\"S" : "\"S") + std::to_string(b) + "\"";
    }
    return s + "]";
  };
  return "{\"seq\":" + std::to_string(seq) + ",\"sessions\":" + list(r.deliver) +
         ",\"stack\":" + list(r.stack) + "}";
}

}  // namespace pfc::repro
