// etw/tdh_decode.cc — TdhGetEventInformation, TdhGetEventMapInformation,
// TdhGetPropertySize, TdhGetProperty and TdhEnumerateProviders: EventSchema / MapSchema
// (tdh_decode.h) serialized in Windows' layouts, and properties located in the event data
// with the payload primitives the filters use (runtime/tdh.h).
#include <algorithm>
#include <cstddef>
#include <cstring>

#include "base/utf8.h"
#include "etw/guard.h"
#include "etw/tdh_blob.h"
#include "etw/tdh_decode.h"
#include "etw/tdh_tlg.h"
#include "runtime/tdh.h"

namespace pfc::etw {
namespace {

constexpr size_t kMaxNameUnits = 1024;  // longest property or map name looked up

std::vector<uint8_t> event_info_bytes(const EventSchema& s) {
  const size_t n = s.properties.size();
  Blob b(offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) + n * sizeof(EVENT_PROPERTY_INFO),
         sizeof(TRACE_EVENT_INFO));
  TRACE_EVENT_INFO h{};
  h.ProviderGuid = s.provider;
  h.EventDescriptor = s.descriptor;
  h.DecodingSource = s.source;
  h.ProviderNameOffset = b.add(s.provider_name);
  h.LevelNameOffset = b.add(s.level_name);
  h.ChannelNameOffset = b.add(s.channel_name);
  if (!s.keyword_names.empty()) {
    h.KeywordsNameOffset = b.add(s.keyword_names.front());
    for (size_t i = 1; i < s.keyword_names.size(); ++i) b.add(s.keyword_names[i]);
    b.add_terminator();
  }
  h.TaskNameOffset = b.add(s.task_name);
  h.OpcodeNameOffset = b.add(s.opcode_name);
  h.EventMessageOffset = b.add(s.event_message);
  h.ProviderMessageOffset = b.add(s.provider_message);
  h.EventNameOffset = b.add(s.event_name);
  h.PropertyCount = static_cast<ULONG>(n);
  h.TopLevelPropertyCount = static_cast<ULONG>(n);
  h.Flags = TEMPLATE_EVENT_DATA;
  b.put(0, h);  // the head only: the property array follows
  for (size_t i = 0; i < n; ++i) {
    const PropertySchema& p = s.properties[i];
    EVENT_PROPERTY_INFO e{};
    uint32_t flags = 0;
    e.NameOffset = b.add(p.name);
    e.nonStructType.InType = static_cast<USHORT>(p.layout.type);
    e.nonStructType.OutType = p.out_type;
    e.nonStructType.MapNameOffset = b.add(p.map);
    e.count = 1;
    if (p.layout.count.kind == Extent::Kind::Fixed) {
      flags |= PropertyParamFixedCount;
      e.count = static_cast<USHORT>(p.layout.count.value);
    } else if (p.layout.count.kind == Extent::Kind::Field) {
      flags |= PropertyParamCount;
      e.countPropertyIndex = static_cast<USHORT>(p.layout.count.value);
    }
    e.length = static_cast<USHORT>(in_type_fixed_size(p.layout.type));
    if (p.layout.length.kind == Extent::Kind::Fixed) {
      flags |= PropertyParamFixedLength;
      e.length = static_cast<USHORT>(p.layout.length.value);
    } else if (p.layout.length.kind == Extent::Kind::Field) {
      flags |= PropertyParamLength;
      e.lengthPropertyIndex = static_cast<USHORT>(p.layout.length.value);
    }
    e.Flags = static_cast<PROPERTY_FLAGS>(flags);
    b.put(offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) + i * sizeof(EVENT_PROPERTY_INFO), e);
  }
  return b.finish();
}

std::vector<uint8_t> map_info_bytes(const MapSchema& m) {
  const size_t n = m.entries.size();
  Blob b(offsetof(EVENT_MAP_INFO, MapEntryArray) + n * sizeof(EVENT_MAP_ENTRY),
         sizeof(EVENT_MAP_INFO));
  EVENT_MAP_INFO h{};
  h.NameOffset = b.add(m.name);
  h.Flag = m.flag;
  h.EntryCount = static_cast<ULONG>(n);
  h.MapEntryValueType = EVENTMAP_ENTRY_VALUETYPE_ULONG;
  b.put(0, h);
  for (size_t i = 0; i < n; ++i) {
    EVENT_MAP_ENTRY e{};
    e.Value = m.entries[i].first;
    e.OutputOffset = b.add(m.entries[i].second);
    b.put(offsetof(EVENT_MAP_INFO, MapEntryArray) + i * sizeof(EVENT_MAP_ENTRY), e);
  }
  return b.finish();
}

// A NUL-terminated UTF-16 name given by address, as UTF-8; false when unterminated.
bool name_at(const WCHAR* p, std::string& out) {
  if (p == nullptr) return false;
  const size_t n = u16_length(p, kMaxNameUnits);
  if (n > kMaxNameUnits) return false;
  out = u16_to_utf8(std::u16string(p, n));
  return true;
}

// Where property `target` (element `index`, or all of it for kWhole) lies in the data.
constexpr ULONG kWhole = 0xFFFFFFFFu;
struct Span {
  uint64_t begin = 0, end = 0;
};

// The value of the earlier scalar integer field `j` (a count or length); `starts` holds
// the offsets of the fields before the current one and its own. False when `j` is not an
// earlier field (schemas guarantee it is) or its value is not in the data.
bool field_value(const EventSchema& s, const std::vector<uint64_t>& starts, uint32_t j,
                 const uint8_t* data, uint64_t size, uint64_t& out) {
  if (j + 1 >= starts.size()) return false;
  int ok = 1;
  out = pfc_tdh_load_int(data, size, starts[j], static_cast<uint32_t>(s.properties[j].layout.type),
                         &ok);
  return ok != 0;
}

uint32_t locate(const EventSchema& s, const EVENT_RECORD& r, size_t target, ULONG index,
                Span& out) {
  const auto* data = static_cast<const uint8_t*>(r.UserData);
  const uint64_t size = data == nullptr ? 0 : r.UserDataLength;
  std::vector<uint64_t> starts;
  uint64_t off = 0;
  for (size_t k = 0; k <= target; ++k) {
    starts.push_back(off);
    const FieldDef& f = s.properties[k].layout;
    uint64_t count = 1, length = PFC_TDH_NO_LENGTH, v = 0;
    if (f.count.kind == Extent::Kind::Fixed) count = f.count.value;
    if (f.length.kind == Extent::Kind::Fixed) length = f.length.value;
    bool ok = true;
    if (f.count.kind == Extent::Kind::Field)
      ok = field_value(s, starts, f.count.value, data, size, count);
    if (ok && f.length.kind == Extent::Kind::Field) {
      ok = field_value(s, starts, f.length.value, data, size, v);
      length = pfc_tdh_field_length(v);
    }
    const uint32_t type = static_cast<uint32_t>(f.type);
    const uint64_t next =
        ok ? pfc_tdh_skip(data, size, off, type, count, length) : PFC_TDH_BAD_OFFSET;
    if (next == PFC_TDH_BAD_OFFSET) {
      return tdh_result(ERROR_EVT_INVALID_EVENT_DATA,
                        "the event's data does not hold property " + s.properties[k].name);
    }
    if (k == target) {
      if (index == kWhole) {
        out = Span{off, next};
        return tdh_result(ERROR_SUCCESS);
      }
      if (index >= count) {
        return tdh_result(ERROR_INVALID_PARAMETER, "element " + std::to_string(index) +
                                                       " of property " + s.properties[k].name +
                                                       ", which has " + std::to_string(count));
      }
      const uint64_t at = index == 0 ? off : pfc_tdh_skip(data, size, off, type, index, length);
      out = Span{at, pfc_tdh_skip(data, size, at, type, 1, length)};
      return tdh_result(ERROR_SUCCESS);
    }
    off = next;
  }
  return tdh_result(ERROR_NOT_FOUND, "no such property");
}

// The span of the property one descriptor selects.
uint32_t property_span(PEVENT_RECORD ev, ULONG count, PPROPERTY_DATA_DESCRIPTOR d, Span& out) {
  if (ev == nullptr || d == nullptr || count != 1) {
    return tdh_result(ERROR_INVALID_PARAMETER,
                      "NULL event or descriptor, or not exactly one descriptor (pfc events have "
                      "no structures)");
  }
  std::string name;
  if (!name_at(reinterpret_cast<const WCHAR*>(static_cast<uintptr_t>(d->PropertyName)), name))
    return tdh_result(ERROR_INVALID_PARAMETER, "PropertyName is NULL or not NUL-terminated");
  if (auto rc = tlg_property_span(*ev, name, d->ArrayIndex, out.begin, out.end)) return *rc;
  EventSchema s;
  if (uint32_t rc = event_schema(*ev, s); rc != ERROR_SUCCESS) return rc;
  for (size_t i = 0; i < s.properties.size(); ++i) {
    if (s.properties[i].name == name) return locate(s, *ev, i, d->ArrayIndex, out);
  }
  return tdh_result(ERROR_NOT_FOUND, "the event has no property " + name);
}

std::vector<uint8_t> provider_list_bytes() {
  const auto all = TdhStore::get().all();
  const size_t n = all.size();
  Blob b(
      offsetof(PROVIDER_ENUMERATION_INFO, TraceProviderInfoArray) + n * sizeof(TRACE_PROVIDER_INFO),
      sizeof(PROVIDER_ENUMERATION_INFO));
  b.put(0, static_cast<ULONG>(n));
  for (size_t i = 0; i < n; ++i) {
    TRACE_PROVIDER_INFO p{};
    p.ProviderGuid = to_win(all[i]->def.guid);
    p.SchemaSource = DecodingSourceXMLFile;
    p.ProviderNameOffset = b.add(all[i]->def.name);
    b.put(offsetof(PROVIDER_ENUMERATION_INFO, TraceProviderInfoArray) +
              i * sizeof(TRACE_PROVIDER_INFO),
          p);
  }
  return b.finish();
}

}  // namespace
}  // namespace pfc::etw

using namespace pfc::etw;

extern "C" {

TDHSTATUS TdhGetEventInformation(PEVENT_RECORD Event, ULONG TdhContextCount,
                                 PTDH_CONTEXT TdhContext, PTRACE_EVENT_INFO Buffer,
                                 PULONG BufferSize) {
  (void)TdhContextCount;
  (void)TdhContext;
  return guarded(
      [&]() -> TDHSTATUS {
        if (Event == nullptr || BufferSize == nullptr)
          return tdh_result(ERROR_INVALID_PARAMETER, "NULL Event or BufferSize");
        std::vector<uint8_t> tl;  // a TraceLogging event describes itself (etw/tdh_tlg.h)
        if (auto rc = tlg_event_info(*Event, tl)) {
          return *rc != ERROR_SUCCESS ? *rc : copy_out(tl, Buffer, BufferSize);
        }
        EventSchema s;
        if (uint32_t rc = event_schema(*Event, s); rc != ERROR_SUCCESS) return rc;
        return copy_out(event_info_bytes(s), Buffer, BufferSize);
      },
      fail_tdh);
}

TDHSTATUS TdhGetEventMapInformation(PEVENT_RECORD pEvent, PWSTR pMapName, PEVENT_MAP_INFO pBuffer,
                                    ULONG* pBufferSize) {
  return guarded(
      [&]() -> TDHSTATUS {
        std::string name;
        if (pEvent == nullptr || pBufferSize == nullptr || !name_at(pMapName, name))
          return tdh_result(ERROR_INVALID_PARAMETER, "NULL pointer or unterminated map name");
        MapSchema m;
        if (uint32_t rc = map_schema(*pEvent, name, m); rc != ERROR_SUCCESS) return rc;
        return copy_out(map_info_bytes(m), pBuffer, pBufferSize);
      },
      fail_tdh);
}

TDHSTATUS TdhGetPropertySize(PEVENT_RECORD pEvent, ULONG TdhContextCount, PTDH_CONTEXT pTdhContext,
                             ULONG PropertyDataCount, PPROPERTY_DATA_DESCRIPTOR pPropertyData,
                             ULONG* pPropertySize) {
  (void)TdhContextCount;
  (void)pTdhContext;
  return guarded(
      [&]() -> TDHSTATUS {
        if (pPropertySize == nullptr) return tdh_result(ERROR_INVALID_PARAMETER, "NULL size");
        Span span;
        if (uint32_t rc = property_span(pEvent, PropertyDataCount, pPropertyData, span)) return rc;
        *pPropertySize = static_cast<ULONG>(span.end - span.begin);
        return tdh_result(ERROR_SUCCESS);
      },
      fail_tdh);
}

TDHSTATUS TdhGetProperty(PEVENT_RECORD pEvent, ULONG TdhContextCount, PTDH_CONTEXT pTdhContext,
                         ULONG PropertyDataCount, PPROPERTY_DATA_DESCRIPTOR pPropertyData,
                         ULONG BufferSize, PBYTE pBuffer) {
  (void)TdhContextCount;
  (void)pTdhContext;
  return guarded(
      [&]() -> TDHSTATUS {
        Span span;
        if (uint32_t rc = property_span(pEvent, PropertyDataCount, pPropertyData, span)) return rc;
        const uint64_t n = span.end - span.begin;
        if (pBuffer == nullptr || BufferSize < n) {
          return tdh_result(ERROR_INSUFFICIENT_BUFFER,
                            "the property has " + std::to_string(n) + " bytes");
        }
        std::memcpy(pBuffer, static_cast<const uint8_t*>(pEvent->UserData) + span.begin, n);
        return tdh_result(ERROR_SUCCESS);
      },
      fail_tdh);
}

TDHSTATUS TdhEnumerateProviders(PPROVIDER_ENUMERATION_INFO pBuffer, ULONG* pBufferSize) {
  return guarded(
      [&]() -> TDHSTATUS {
        if (pBufferSize == nullptr) return tdh_result(ERROR_INVALID_PARAMETER, "NULL size");
        return copy_out(provider_list_bytes(), pBuffer, pBufferSize);
      },
      fail_tdh);
}

}  // extern "C"
