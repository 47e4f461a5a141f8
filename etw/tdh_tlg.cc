// etw/tdh_tlg.cc — TraceLogging events through TdhGetEventInformation, TdhGetPropertySize
// and TdhGetProperty (etw/tdh_tlg.h), from the metadata parsed by runtime/tlg.h.
#include "etw/tdh_tlg.h"

#include <cstddef>

#include "etw/tdh_blob.h"
#include "etw/tdh_decode.h"
#include "runtime/tlg.h"

namespace pfc::etw {
namespace {

struct Items {
  const uint8_t* meta = nullptr;
  uint16_t meta_size = 0;
  const uint8_t* traits = nullptr;
  uint16_t traits_size = 0;
};

// The record's TraceLogging items; false when it has no event metadata.
bool items_of(const EVENT_RECORD& r, Items& out) {
  if (r.ExtendedData == nullptr) return false;
  for (USHORT i = 0; i < r.ExtendedDataCount; ++i) {
    const EVENT_HEADER_EXTENDED_DATA_ITEM& e = r.ExtendedData[i];
    const auto* p = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(e.DataPtr));
    if (e.ExtType == EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL) {
      out.meta = p;
      out.meta_size = e.DataSize;
    } else if (e.ExtType == EVENT_HEADER_EXT_TYPE_PROV_TRAITS) {
      out.traits = p;
      out.traits_size = e.DataSize;
    }
  }
  return out.meta != nullptr;
}

// The parsed metadata of a TraceLogging record, or the TDH error for damaged metadata.
uint32_t parse(const Items& it, tlg::EventMeta& meta, std::string& provider) {
  auto m = tlg::parse_event(it.meta, it.meta_size);
  if (!m) {
    return tdh_result(ERROR_EVT_INVALID_EVENT_DATA,
                      "the event's TraceLogging metadata is damaged: " + m.error());
  }
  meta = std::move(*m);
  if (it.traits != nullptr) {
    auto name = tlg::parse_provider(it.traits, it.traits_size);
    if (!name) {
      return tdh_result(ERROR_EVT_INVALID_EVENT_DATA,
                        "the event's provider traits are damaged: " + name.error());
    }
    provider = std::move(*name);
  }
  return ERROR_SUCCESS;
}

// The properties in TRACE_EVENT_INFO's order: the top-level fields first, then each
// structure's members together, structures in that order (a breadth-first walk, so
// every structure's members are one range StructStartIndex / NumOfStructMembers).
std::vector<uint32_t> property_order(const tlg::EventMeta& m) {
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < m.fields.size(); i = m.fields[i].end) order.push_back(i);
  for (size_t k = 0; k < order.size(); ++k) {
    const uint32_t s = order[k];
    if (m.fields[s].in_type != tlg::kInStruct) continue;
    for (uint32_t j = s + 1; j < m.fields[s].end; j = m.fields[j].end) order.push_back(j);
  }
  return order;
}

// A custom field's schema as EVENT_PROPERTY_INFO's CustomSchemaOffset points to it: the
// UINT16 protocol, the UINT16 schema size, the schema bytes.
ULONG custom_schema(const tlg::Field& f, Blob& b) {
  const uint8_t head[4] = {f.protocol, 0, static_cast<uint8_t>(f.schema.size()),
                           static_cast<uint8_t>(f.schema.size() >> 8)};
  std::string bytes(reinterpret_cast<const char*>(head), sizeof head);
  bytes += f.schema;
  return b.add_bytes(bytes.data(), bytes.size());
}

EVENT_PROPERTY_INFO property_info(const tlg::EventMeta& m, uint32_t i,
                                  const std::vector<uint32_t>& index_of, Blob& b) {
  const tlg::Field& f = m.fields[i];
  EVENT_PROPERTY_INFO e{};
  uint32_t flags = 0;
  e.NameOffset = b.add(f.name);
  if (f.in_type == tlg::kInStruct) {
    flags |= PropertyStruct;
    e.structType.StructStartIndex = static_cast<USHORT>(index_of[i + 1]);
    e.structType.NumOfStructMembers = f.out_type;
  } else if (f.arity == tlg::kArityCustom) {
    flags |= PropertyHasCustomSchema;
    e.customSchemaType.InType = f.in_type;  // Binary: the value's UINT16 count and bytes
    e.customSchemaType.OutType = tlg_tdh_out_type(f.in_type, f.out_type);
    e.customSchemaType.CustomSchemaOffset = custom_schema(f, b);
  } else {
    e.nonStructType.InType = f.in_type;
    e.nonStructType.OutType = tlg_tdh_out_type(f.in_type, f.out_type);
    e.length = static_cast<USHORT>(tlg::fixed_size(f.in_type));
  }
  e.count = 1;
  if (f.arity == tlg::kArityCcount) {
    flags |= PropertyParamFixedCount;
    e.count = f.ccount;
  } else if (f.arity == tlg::kArityVcount) {
    // The count is the UINT16 before the elements: the property names itself.
    flags |= PropertyParamCount;
    e.countPropertyIndex = static_cast<USHORT>(index_of[i]);
  }
  if (f.tags != 0) {
    flags |= PropertyHasTags;
    e.Tags = f.tags;
  }
  e.Flags = static_cast<PROPERTY_FLAGS>(flags);
  return e;
}

std::vector<uint8_t> info_bytes(const EVENT_RECORD& r, const tlg::EventMeta& m,
                                const std::string& provider) {
  const std::vector<uint32_t> order = property_order(m);
  std::vector<uint32_t> index_of(m.fields.size() + 1, 0);
  for (uint32_t k = 0; k < order.size(); ++k) index_of[order[k]] = k;
  const size_t n = order.size();
  Blob b(offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) + n * sizeof(EVENT_PROPERTY_INFO),
         sizeof(TRACE_EVENT_INFO));
  TRACE_EVENT_INFO h{};
  h.ProviderGuid = r.EventHeader.ProviderId;
  h.EventDescriptor = r.EventHeader.EventDescriptor;
  h.DecodingSource = DecodingSourceTlg;
  h.ProviderNameOffset = b.add(provider);
  h.EventNameOffset = b.add(m.name);
  h.PropertyCount = static_cast<ULONG>(n);
  ULONG top = 0;
  for (const tlg::Field& f : m.fields) top += f.parent == 0 ? 1 : 0;
  h.TopLevelPropertyCount = top;
  h.Flags = static_cast<TEMPLATE_FLAGS>(m.tags << 4);  // Reserved : 4, Tags : 28
  b.put(0, h);
  for (size_t k = 0; k < n; ++k) {
    b.put(offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) + k * sizeof(EVENT_PROPERTY_INFO),
          property_info(m, order[k], index_of, b));
  }
  return b.finish();
}

}  // namespace

uint16_t tlg_tdh_out_type(uint8_t in_type, uint8_t out_type) {
  const uint32_t size = tlg::fixed_size(in_type);
  switch (out_type) {
    case tlg::kOutString: return TDH_OUTTYPE_STRING;
    case tlg::kOutBoolean: return TDH_OUTTYPE_BOOLEAN;
    case tlg::kOutHex:
      return size == 1   ? TDH_OUTTYPE_HEXINT8
             : size == 2 ? TDH_OUTTYPE_HEXINT16
             : size == 4 ? TDH_OUTTYPE_HEXINT32
                         : TDH_OUTTYPE_HEXINT64;
    case tlg::kOutPid: return TDH_OUTTYPE_PID;
    case tlg::kOutTid: return TDH_OUTTYPE_TID;
    case tlg::kOutPort: return TDH_OUTTYPE_PORT;
    case tlg::kOutIPv4: return TDH_OUTTYPE_IPV4;
    case tlg::kOutIPv6: return TDH_OUTTYPE_IPV6;
    case tlg::kOutSocketAddress: return TDH_OUTTYPE_SOCKETADDRESS;
    case tlg::kOutXml: return TDH_OUTTYPE_XML;
    case tlg::kOutJson: return TDH_OUTTYPE_JSON;
    case tlg::kOutWin32Error: return TDH_OUTTYPE_WIN32ERROR;
    case tlg::kOutNTStatus: return TDH_OUTTYPE_NTSTATUS;
    case tlg::kOutHResult: return TDH_OUTTYPE_HRESULT;
    case tlg::kOutFileTime: return TDH_OUTTYPE_DATETIME;
    case tlg::kOutSigned:
      return size == 1   ? TDH_OUTTYPE_BYTE
             : size == 2 ? TDH_OUTTYPE_SHORT
             : size == 4 ? TDH_OUTTYPE_INT
                         : TDH_OUTTYPE_LONG;
    case tlg::kOutUnsigned:
      return size == 1   ? TDH_OUTTYPE_UNSIGNEDBYTE
             : size == 2 ? TDH_OUTTYPE_UNSIGNEDSHORT
             : size == 4 ? TDH_OUTTYPE_UNSIGNEDINT
                         : TDH_OUTTYPE_UNSIGNEDLONG;
    case tlg::kOutDateTimeCultureInsensitive:
    case tlg::kOutUtf8:
    case tlg::kOutPkcs7WithTypeInfo:
    case tlg::kOutCodePointer:
    case tlg::kOutDateTimeUtc: return out_type;  // the same numbers
    case tlg::kOutNoPrint: return TDH_OUTTYPE_NOPRINT;
    default: return default_out_type(in_type);
  }
}

std::optional<uint32_t> tlg_event_info(const EVENT_RECORD& r, std::vector<uint8_t>& out) {
  Items it;
  if (!items_of(r, it)) return std::nullopt;
  tlg::EventMeta meta;
  std::string provider;
  if (const uint32_t rc = parse(it, meta, provider); rc != ERROR_SUCCESS) return rc;
  out = info_bytes(r, meta, provider);
  return ERROR_SUCCESS;
}

std::optional<uint32_t> tlg_property_span(const EVENT_RECORD& r, const std::string& name,
                                          uint32_t index, uint64_t& begin, uint64_t& end) {
  Items it;
  if (!items_of(r, it)) return std::nullopt;
  tlg::EventMeta meta;
  std::string provider;
  if (const uint32_t rc = parse(it, meta, provider); rc != ERROR_SUCCESS) return rc;
  const auto* data = static_cast<const uint8_t*>(r.UserData);
  const tlg::Walker walk(meta, data, data == nullptr ? 0 : r.UserDataLength);
  uint64_t off = 0;
  for (uint32_t i = 0; i < meta.fields.size(); i = meta.fields[i].end) {
    uint64_t next = 0, n = 0, first = 0;
    if (!walk.count(i, off, n, first) || !walk.skip_field(i, off, next)) {
      return tdh_result(ERROR_EVT_INVALID_EVENT_DATA,
                        "the event's data does not hold property " + meta.fields[i].name);
    }
    if (meta.fields[i].name == name) {
      if (index == 0xFFFFFFFFu) {
        begin = first;
        end = next;
        return tdh_result(ERROR_SUCCESS);
      }
      if (index >= n) {
        return tdh_result(ERROR_INVALID_PARAMETER, "element " + std::to_string(index) +
                                                       " of property " + name + ", which has " +
                                                       std::to_string(n));
      }
      uint64_t at = first;
      for (uint32_t e = 0; e < index; ++e) walk.skip_element(i, at, at);
      begin = at;
      walk.skip_element(i, at, end);
      return tdh_result(ERROR_SUCCESS);
    }
    off = next;
  }
  return tdh_result(ERROR_NOT_FOUND, "the event has no property " + name);
}

}  // namespace pfc::etw
