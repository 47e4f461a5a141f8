// etw/tdh_schema.cc — an event's EventSchema from a provider description (a loaded
// manifest's ProviderDef + ManifestProviderInfo, or a published script schema, which has
// no ManifestProviderInfo): names, descriptors and properties (tdh_decode.h).
#include <algorithm>

#include "etw/tdh_context.h"
#include "etw/tdh_decode.h"
#include "runtime/manifest_names.h"

namespace pfc::etw {
namespace {

// The name `value` has in `names` (an opcode: the one declared in `task` first).
std::string name_of(const std::vector<ManifestName>& names, uint64_t value, int32_t task = -1) {
  const ManifestName* global = nullptr;
  for (const ManifestName& n : names) {
    if (n.value != value) continue;
    if (n.task == task && task >= 0) return n.text;
    if (n.task < 0 && global == nullptr) global = &n;
  }
  return global != nullptr ? global->text : std::string();
}

const ManifestTemplate* template_of(const ManifestProviderInfo& info, const EventDef& ev,
                                    const ProviderDef& def) {
  const size_t i = static_cast<size_t>(&ev - def.events.data());
  if (i >= info.events.size()) return nullptr;
  for (const ManifestTemplate& t : info.templates) {
    if (t.tid == info.events[i].tid) return &t;
  }
  return nullptr;
}

// EVENT_PROPERTY_INFO keeps counts, lengths and the indexes of their fields in 16 bits.
bool fits(const Extent& e) { return e.kind == Extent::Kind::None || e.value <= 0xFFFF; }

void names_from_manifest(const LoadedProvider& p, const EventDef& ev, EventSchema& out) {
  const ManifestProviderInfo& info = p.info;
  const EventDescriptor& d = ev.desc;
  out.level_name = name_of(info.level_names, d.level);
  if (out.level_name.empty()) {
    if (auto w = internal::winmeta_level_text(d.level); w && d.level != 0) out.level_name = *w;
  }
  out.task_name = name_of(info.task_names, d.task);
  out.opcode_name = name_of(info.opcode_names, d.opcode, d.task);
  if (out.opcode_name.empty()) {
    if (auto w = internal::winmeta_opcode_text(d.opcode)) out.opcode_name = *w;
  }
  out.channel_name = name_of(info.channel_names, d.channel);
  for (const ManifestName& k : info.keyword_names) {
    if (k.value != 0 && (d.keyword & k.value) == k.value) out.keyword_names.push_back(k.text);
  }
  const size_t i = static_cast<size_t>(&ev - p.def.events.data());
  if (i < info.events.size()) out.event_message = info.events[i].message;
  out.provider_message = info.message;
}

}  // namespace

uint16_t default_out_type(uint16_t in_type) {
  switch (in_type) {
    case TDH_INTYPE_UNICODESTRING:
    case TDH_INTYPE_ANSISTRING:
    case TDH_INTYPE_SID: return TDH_OUTTYPE_STRING;
    case TDH_INTYPE_INT8: return TDH_OUTTYPE_BYTE;
    case TDH_INTYPE_UINT8: return TDH_OUTTYPE_UNSIGNEDBYTE;
    case TDH_INTYPE_INT16: return TDH_OUTTYPE_SHORT;
    case TDH_INTYPE_UINT16: return TDH_OUTTYPE_UNSIGNEDSHORT;
    case TDH_INTYPE_INT32: return TDH_OUTTYPE_INT;
    case TDH_INTYPE_UINT32: return TDH_OUTTYPE_UNSIGNEDINT;
    case TDH_INTYPE_INT64: return TDH_OUTTYPE_LONG;
    case TDH_INTYPE_UINT64: return TDH_OUTTYPE_UNSIGNEDLONG;
    case TDH_INTYPE_FLOAT: return TDH_OUTTYPE_FLOAT;
    case TDH_INTYPE_DOUBLE: return TDH_OUTTYPE_DOUBLE;
    case TDH_INTYPE_BOOLEAN: return TDH_OUTTYPE_BOOLEAN;
    case TDH_INTYPE_BINARY: return TDH_OUTTYPE_HEXBINARY;
    case TDH_INTYPE_GUID: return TDH_OUTTYPE_GUID;
    case TDH_INTYPE_POINTER:
    case TDH_INTYPE_HEXINT64: return TDH_OUTTYPE_HEXINT64;
    case TDH_INTYPE_FILETIME:
    case TDH_INTYPE_SYSTEMTIME: return TDH_OUTTYPE_DATETIME;
    case TDH_INTYPE_HEXINT32: return TDH_OUTTYPE_HEXINT32;
    default: return TDH_OUTTYPE_NULL;
  }
}

std::shared_ptr<const LoadedProvider> find_decoding_provider(const GUID& provider) {
  const Guid g = to_pfc(provider);
  if (auto loaded = TdhStore::get().find_decoding(g)) return loaded;
  return delivering_provider(g);
}

uint32_t event_schema(const EVENT_RECORD& record, EventSchema& out) {
  const EVENT_HEADER& h = record.EventHeader;
  const auto p = find_decoding_provider(h.ProviderId);
  if (p == nullptr) {
    return tdh_result(ERROR_NOT_FOUND,
                      "no loaded manifest or published schema describes "
                      "provider " +
                          to_pfc(h.ProviderId).to_string());
  }
  const EventDef* ev = p->def.find_event(h.EventDescriptor.Id, h.EventDescriptor.Version);
  if (ev == nullptr) {
    return tdh_result(ERROR_NOT_FOUND, "provider " + p->def.name + " has no event " +
                                           std::to_string(h.EventDescriptor.Id) + " version " +
                                           std::to_string(h.EventDescriptor.Version));
  }
  out = EventSchema{};
  out.provider = h.ProviderId;
  out.descriptor = to_win(ev->desc);
  out.provider_name = p->def.name;
  const bool manifest = !p->info.events.empty() || !p->info.templates.empty();
  const ManifestTemplate* tpl = manifest ? template_of(p->info, *ev, p->def) : nullptr;
  if (manifest) {
    names_from_manifest(*p, *ev, out);
  } else {
    out.event_name = ev->name;  // a script's event names (docs/etw.md "TDH decoding")
  }
  for (size_t i = 0; i < ev->fields.size(); ++i) {
    const FieldDef& f = ev->fields[i];
    if (!fits(f.count) || !fits(f.length)) {
      return tdh_result(ERROR_NOT_SUPPORTED,
                        "field " + f.name + " of event " + ev->name +
                            " has a count or length (or its field's index) above 65535");
    }
    PropertySchema prop{f.name, f, 0, {}};
    if (tpl != nullptr && i < tpl->formats.size()) {
      prop.out_type = tpl->formats[i].out_type;
      prop.map = tpl->formats[i].map;
    }
    if (prop.out_type == TDH_OUTTYPE_NULL)
      prop.out_type = default_out_type(static_cast<uint16_t>(f.type));
    out.properties.push_back(std::move(prop));
  }
  return tdh_result(ERROR_SUCCESS);
}

uint32_t map_schema(const EVENT_RECORD& record, std::string_view name, MapSchema& out) {
  const auto p = find_decoding_provider(record.EventHeader.ProviderId);
  if (p != nullptr) {
    for (const ManifestMap& m : p->info.maps) {
      if (m.name != name) continue;
      out.name = m.name;
      out.flag =
          m.bitmap ? EVENTMAP_INFO_FLAG_MANIFEST_BITMAP : EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP;
      out.entries.clear();
      // Windows' manifest map texts end with a space (mc.exe adds it); consumers strip it.
      for (const auto& [value, text] : m.entries) out.entries.emplace_back(value, text + " ");
      return tdh_result(ERROR_SUCCESS);
    }
  }
  return tdh_result(ERROR_NOT_FOUND, "the event's provider has no map called " + std::string(name));
}

}  // namespace pfc::etw
