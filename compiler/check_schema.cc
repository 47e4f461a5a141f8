// compiler/check_schema.cc — the provider half of the semantic checker: builds Schema from
// `provider` declarations and reports duplicate names/GUIDs/(id, version) pairs, unknown
// types, descriptor attributes out of range, and bad count/length references.
#include <algorithm>
#include <array>

#include "base/ascii.h"
#include "base/quote.h"
#include "base/suggest.h"
#include "compiler/check_context.h"
#include "compiler/convert.h"
#include "runtime/tlg.h"
#include "runtime/tlg_filter.h"

namespace pfc::internal {
namespace {

std::string line_note(SourcePos pos) {
  return " (first declared on line " + std::to_string(pos.line) + ")";
}

std::string_view attr_name(ast::AttrKind k) {
  static constexpr std::array<std::string_view, 7> kNames = {
      "id", "version", "level", "keyword", "opcode", "task", "channel"};
  return kNames[static_cast<size_t>(k)];
}

uint64_t attr_max(ast::AttrKind k) {
  switch (k) {
    case ast::AttrKind::Id:
    case ast::AttrKind::Task: return 0xFFFF;
    case ast::AttrKind::Keyword: return ~uint64_t{0};
    default: return 0xFF;
  }
}

void apply_attr(EventDescriptor& d, ast::AttrKind k, uint64_t v) {
  switch (k) {
    case ast::AttrKind::Id: d.id = static_cast<uint16_t>(v); break;
    case ast::AttrKind::Version: d.version = static_cast<uint8_t>(v); break;
    case ast::AttrKind::Level: d.level = static_cast<uint8_t>(v); break;
    case ast::AttrKind::Keyword: d.keyword = v; break;
    case ast::AttrKind::Opcode: d.opcode = static_cast<uint8_t>(v); break;
    case ast::AttrKind::Task: d.task = static_cast<uint16_t>(v); break;
    case ast::AttrKind::Channel: d.channel = static_cast<uint8_t>(v); break;
  }
}

EventDescriptor check_attrs(const std::vector<ast::Attr>& attrs, CheckContext& cx) {
  EventDescriptor d;
  std::array<bool, 7> seen{};
  for (const ast::Attr& a : attrs) {
    const std::string name = "'" + std::string(attr_name(a.kind)) + "'";
    if (seen[static_cast<size_t>(a.kind)]) {
      cx.error(a.pos, "duplicate attribute " + name);
      continue;
    }
    seen[static_cast<size_t>(a.kind)] = true;
    if (check_unsigned(cx, a.value, attr_max(a.kind), name)) {
      apply_attr(d, a.kind, a.value.magnitude);
    }
  }
  return d;
}

std::optional<InType> resolve_type(const ast::Name& type, CheckContext& cx) {
  if (std::optional<InType> t = in_type_from_name(to_ascii_lower(type.text))) return t;
  std::vector<std::string_view> names;
  for (const InTypeInfo& row : kInTypes) names.push_back(row.name);
  cx.error(type.pos, "unknown type " + quote_text(type.text) + did_you_mean(type.text, names));
  return std::nullopt;
}

// Resolves `[n]` / `[Field]` / `length=...` of field `self` (index `self_index`) of `ev`.
Extent resolve_extent(const ast::ExtentRef& ref, std::string_view what, const EventDef& ev,
                      const EventIndex& ix, uint32_t self_index, CheckContext& cx) {
  Extent e;
  if (ref.fixed) {
    if (check_unsigned(cx, *ref.fixed, 0xFFFFFFFF, what)) {
      e = Extent{Extent::Kind::Fixed, static_cast<uint32_t>(ref.fixed->magnitude)};
    }
    return e;
  }
  if (!ref.field) return e;
  const ast::Name& name = *ref.field;
  const std::string_view self = ev.fields[self_index].name;
  auto it = ix.fields.find(name.text);
  if (it != ix.fields.end() && it->second >= self_index) {
    cx.error(name.pos, std::string(what) + " field " + quote_text(name.text) +
                           " must be declared before field " + quote_text(self));
    return e;
  }
  if (it == ix.fields.end()) {
    std::vector<std::string_view> earlier;
    earlier.reserve(self_index);
    for (uint32_t i = 0; i < self_index; ++i) earlier.push_back(ev.fields[i].name);
    cx.error(name.pos, "unknown field " + quote_text(name.text) + " in event " +
                           quote_text(ev.name) + did_you_mean(name.text, earlier));
    return e;
  }
  const FieldDef& target = ev.fields[it->second];
  if (!ix.field_ok[it->second]) return e;  // its type was already reported
  if (!in_type_is_count(target.type)) {
    cx.error(name.pos, std::string(what) + " field " + quote_text(name.text) +
                           " must have an integer type (int8..uint64), not '" +
                           std::string(in_type_name(target.type)) + "'");
  } else if (target.count.present()) {
    cx.error(name.pos,
             std::string(what) + " field " + quote_text(name.text) + " must not be an array");
  } else {
    e = Extent{Extent::Kind::Field, it->second};
  }
  return e;
}

void check_length_rules(const ast::Field& f, const FieldDef& def, CheckContext& cx) {
  const bool has_length = f.length.has_value();
  const bool takes_length = def.type == InType::UnicodeString || def.type == InType::AnsiString ||
                            def.type == InType::Binary;
  if (has_length && !takes_length) {
    cx.error(f.length->pos, "'length' applies only to string, wstring and binary fields, not '" +
                                std::string(in_type_name(def.type)) + "'");
  }
  if (!has_length && def.type == InType::Binary) {
    cx.error(f.pos, "binary field " + quote_text(def.name) + " needs a length");
  }
}

// The path of field `i` ("Outer.Inner.X", docs/language.md §3 "TraceLogging providers")
// given the paths of the fields before it; empty when it is inside a structure that was
// rejected. Reports structures outside TraceLogging events, empty ones and nesting deeper
// than TraceLogging metadata allows (tlg::kMaxDepth, docs/limits.md).
std::string field_path(const ast::Event& ae, uint32_t i, const std::vector<std::string>& paths,
                       std::vector<uint32_t>& depth, bool tracelogging, CheckContext& cx) {
  const ast::Field& f = ae.fields[i];
  depth.push_back(f.parent == 0 ? 0 : depth[f.parent - 1] + 1);
  if (f.parent != 0 && paths[f.parent - 1].empty()) return "";
  std::string path = f.parent == 0 ? f.name.text : paths[f.parent - 1] + "." + f.name.text;
  if (!f.is_struct) return path;
  if (!tracelogging) {
    cx.error(f.type.pos, "structure " + quote_text(f.name.text) + " in event " +
                             quote_text(ae.name.text) +
                             ": only TraceLogging events declare structures");
    return "";
  }
  if (depth.back() >= tlg::kMaxDepth) {
    cx.error(f.type.pos, "structure " + quote_text(path) + " nests deeper than the " +
                             std::to_string(tlg::kMaxDepth) +
                             " levels TraceLogging metadata allows");
    return "";
  }
  if (f.end == i + 1) {
    cx.error(f.name.pos, "structure " + quote_text(path) + " in event " + quote_text(ae.name.text) +
                             " declares no members");
  }
  return path;
}

// Two passes: names and types first (so a reference to a later field is recognised as
// such), then counts and lengths, which may only use earlier fields. A structure is no
// field of the EventDef: its members are, named by their paths.
void check_fields(const ast::Event& ae, EventDef& ev, EventIndex& ix, bool tracelogging,
                  CheckContext& cx) {
  ev.fields.reserve(ae.fields.size());
  ix.fields.reserve(ae.fields.size());
  std::vector<std::string> paths;  // per AST field
  std::vector<uint32_t> depth;
  std::unordered_map<std::string, uint32_t> first;  // path → AST field
  for (uint32_t i = 0; i < ae.fields.size(); ++i) {
    const ast::Field& f = ae.fields[i];
    paths.push_back(field_path(ae, i, paths, depth, tracelogging, cx));
    const std::string& path = paths.back();
    if (path.empty()) continue;
    if (auto [it, fresh] = first.emplace(path, i); !fresh) {
      cx.error(f.name.pos, "duplicate field " + quote_text(path) + " in event " +
                               quote_text(ev.name) + line_note(ae.fields[it->second].name.pos));
    }
    if (f.parent != 0) ix.structs[paths[f.parent - 1]].push_back(f.name.text);
    if (f.is_struct) {
      ix.structs.try_emplace(path);
      continue;
    }
    const auto index = static_cast<uint32_t>(ev.fields.size());
    FieldDef def;
    def.name = path;
    const std::optional<InType> type = resolve_type(f.type, cx);
    if (type) def.type = *type;
    ix.fields.emplace(def.name, index);
    ev.fields.push_back(std::move(def));
    ix.field_ok.push_back(type.has_value());
    ix.ast_field.push_back(i);
  }
  for (uint32_t i = 0; i < ev.fields.size(); ++i) {
    const ast::Field& f = ae.fields[ix.ast_field[i]];
    if (f.count) ev.fields[i].count = resolve_extent(*f.count, "count", ev, ix, i, cx);
    if (f.length) ev.fields[i].length = resolve_extent(*f.length, "length", ev, ix, i, cx);
    if (ix.field_ok[i]) check_length_rules(f, ev.fields[i], cx);
  }
}

// The rules of an event of a TraceLogging provider (docs/language.md §3 "TraceLogging
// providers"): id and version 0; every field a scalar whose type TraceLogging metadata
// writes with the same in-type (so the field can be found by name and type at run time).
void check_tracelogging_event(const ast::Event& ae, const EventDef& ev, const EventIndex& ix,
                              CheckContext& cx) {
  for (const ast::Attr& a : ae.attrs) {
    if ((a.kind == ast::AttrKind::Id || a.kind == ast::AttrKind::Version) &&
        a.value.magnitude != 0) {
      cx.error(a.pos, "a TraceLogging event has " + std::string(attr_name(a.kind)) +
                          " 0: its events are told apart by name");
    }
  }
  for (size_t i = 0; i < ev.fields.size(); ++i) {
    const ast::Field& f = ae.fields[ix.ast_field[i]];
    const FieldDef& def = ev.fields[i];
    if (f.count || f.length) {
      cx.error(f.count ? f.count->pos : f.length->pos,
               "field " + quote_text(def.name) + " of TraceLogging event " + quote_text(ev.name) +
                   " must be a scalar: arrays and lengths come from the event's metadata");
    } else if (!tlg::filter_field_type(def.type)) {
      cx.error(
          f.type.pos,
          "type '" + std::string(in_type_name(def.type)) +
              "' cannot be a field of TraceLogging event " + quote_text(ev.name) +
              (def.type == InType::Pointer ? " (TraceLogging writes pointers as hexint64)" : ""));
    }
  }
}

void check_event(const ast::Event& ae, ProviderDef& p, ProviderIndex& pix, CheckContext& cx) {
  const auto index = static_cast<uint32_t>(p.events.size());
  EventDef ev;
  ev.name = ae.name.text;
  ev.desc = check_attrs(ae.attrs, cx);
  EventIndex ix;
  check_fields(ae, ev, ix, p.tracelogging, cx);
  if (auto [it, fresh] = pix.events.emplace(ev.name, index); !fresh) {
    cx.error(ae.name.pos,
             "duplicate event " + quote_text(ev.name) + " in provider " + quote_text(p.name));
  }
  if (p.tracelogging) {
    check_tracelogging_event(ae, ev, ix, cx);
    p.events.push_back(std::move(ev));
    pix.event_index.push_back(std::move(ix));
    return;
  }
  const uint32_t key = uint32_t{ev.desc.id} << 8 | ev.desc.version;
  if (auto [it, fresh] = pix.by_id.emplace(key, index); !fresh) {
    cx.error(ae.name.pos, "event " + quote_text(ev.name) + " has the same id " +
                              std::to_string(ev.desc.id) + " and version " +
                              std::to_string(ev.desc.version) + " as event " +
                              quote_text(p.events[it->second].name));
  }
  p.events.push_back(std::move(ev));
  pix.event_index.push_back(std::move(ix));
}

std::optional<Guid> provider_guid(const ast::Provider& ap, CheckContext& cx) {
  if (!ap.guid) return Guid::from_provider_name(ap.name.text);
  if (std::optional<Guid> g = Guid::parse(ap.guid->text)) return g;
  cx.error(ap.guid->pos, "invalid GUID " + quote_text(ap.guid->text));
  return std::nullopt;
}

}  // namespace

void check_providers(const std::vector<ast::Provider>& providers, CheckContext& cx) {
  std::unordered_map<std::string, uint32_t> by_guid;  // GUID text → first provider
  for (const ast::Provider& ap : providers) {
    const auto index = static_cast<uint32_t>(cx.schema().providers.size());
    ProviderDef p;
    p.name = ap.name.text;
    p.legacy = ap.legacy;
    p.tracelogging = ap.tracelogging;
    const std::optional<Guid> guid = provider_guid(ap, cx);
    p.guid = guid.value_or(Guid{});
    if (auto [it, fresh] = cx.provider_by_name.emplace(p.name, index); !fresh) {
      cx.error(ap.name.pos, "duplicate provider " + quote_text(p.name) +
                                line_note(cx.providers[it->second].pos));
    } else if (!guid) {
      // already reported
    } else if (auto [git, gfresh] = by_guid.emplace(p.guid.to_string(), index); !gfresh) {
      cx.error(ap.guid ? ap.guid->pos : ap.name.pos,
               "provider " + quote_text(p.name) + " has the same GUID " + p.guid.to_string() +
                   " as provider " + quote_text(cx.schema().providers[git->second].name));
    }
    ProviderIndex pix;
    pix.pos = ap.name.pos;
    for (const ast::Event& ae : ap.events) check_event(ae, p, pix, cx);
    cx.schema().providers.push_back(std::move(p));
    cx.providers.push_back(std::move(pix));
  }
}

}  // namespace pfc::internal
