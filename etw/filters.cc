// etw/filters.cc — EVENT_FILTER_DESCRIPTOR validation and conversion into EnableParams
// (docs/etw.md "Filters": the types, layouts and limits). Reads caller memory only inside
// each descriptor's [Ptr, Ptr + Size), with memcpy (no alignment assumed).
#include "etw/filters.h"

#include <cstring>

#include "base/scope_kinds.h"
#include "base/utf8.h"
#include "etw/enable_ext.h"
#include "etw/payload_blob.h"
#include "etw/tdh_store.h"
#include "etw/util.h"

namespace pfc::etw {
namespace {

const uint8_t* bytes_of(const EVENT_FILTER_DESCRIPTOR& d) {
  return reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(d.Ptr));
}

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

uint32_t convert_pids(const EVENT_FILTER_DESCRIPTOR& d, EnableParams& p) {
  if (d.Size == 0 || d.Size % 4 != 0 || d.Size / 4 > MAX_EVENT_FILTER_PID_COUNT)
    return ERROR_INVALID_PARAMETER;
  std::vector<uint32_t> pids;
  for (uint32_t off = 0; off < d.Size; off += 4) pids.push_back(load<uint32_t>(bytes_of(d) + off));
  p.pids = std::move(pids);
  return ERROR_SUCCESS;
}

// The scope table's ETW filter types are the SDK's (pfc/etw/evntprov.h).
using internal::scope_kind;
using internal::ScopeKind;
static_assert(scope_kind(ScopeKind::Pid).etw_filter_type == EVENT_FILTER_TYPE_PID &&
                  scope_kind(ScopeKind::Exe).etw_filter_type == EVENT_FILTER_TYPE_EXECUTABLE_NAME &&
                  scope_kind(ScopeKind::PackageId).etw_filter_type ==
                      EVENT_FILTER_TYPE_PACKAGE_ID &&
                  scope_kind(ScopeKind::AppId).etw_filter_type ==
                      EVENT_FILTER_TYPE_PACKAGE_APP_ID &&
                  internal::kScopeKindCount == 4,
              "base/scope_kinds.h's filter types");

// A name scope's descriptor (`s`: its row) into the session's list of that kind.
uint32_t convert_names(const EVENT_FILTER_DESCRIPTOR& d, const internal::ScopeKindInfo& s,
                       EnableParams& p) {
  if (d.Size < 2 || d.Size % 2 != 0 || d.Size > MAX_EVENT_FILTER_DATA_SIZE)
    return ERROR_INVALID_PARAMETER;
  std::vector<std::string> names;
  if (!split_name_list(bytes_of(d), d.Size, s.final_component, names))
    return ERROR_INVALID_PARAMETER;
  p.*s.names = std::move(names);
  return ERROR_SUCCESS;
}

uint32_t convert_event_ids(const EVENT_FILTER_DESCRIPTOR& d, std::optional<EventIdFilter>& target) {
  if (d.Size < 4) return ERROR_INVALID_PARAMETER;
  const uint8_t* b = bytes_of(d);
  const auto count = load<uint16_t>(b + offsetof(EVENT_FILTER_EVENT_ID, Count));
  if (count == 0 || count > MAX_EVENT_FILTER_EVENT_ID_COUNT || d.Size < 4u + 2u * count)
    return ERROR_INVALID_PARAMETER;
  EventIdFilter f;
  f.filter_in = b[offsetof(EVENT_FILTER_EVENT_ID, FilterIn)] != 0;
  for (uint32_t i = 0; i < count; ++i) f.ids.push_back(load<uint16_t>(b + 4 + 2 * i));
  target = std::move(f);
  return ERROR_SUCCESS;
}

uint32_t convert_event_names(const EVENT_FILTER_DESCRIPTOR& d,
                             std::optional<EventNameFilter>& target) {
  constexpr uint32_t kNames = offsetof(EVENT_FILTER_EVENT_NAME, Names);
  if (d.Size <= kNames || d.Size > MAX_EVENT_FILTER_EVENT_NAME_SIZE) return ERROR_INVALID_PARAMETER;
  const uint8_t* b = bytes_of(d);
  EventNameFilter f;
  f.any = load<uint64_t>(b + offsetof(EVENT_FILTER_EVENT_NAME, MatchAnyKeyword));
  f.all = load<uint64_t>(b + offsetof(EVENT_FILTER_EVENT_NAME, MatchAllKeyword));
  f.level = b[offsetof(EVENT_FILTER_EVENT_NAME, Level)];
  f.filter_in = b[offsetof(EVENT_FILTER_EVENT_NAME, FilterIn)] != 0;
  const auto count = load<uint16_t>(b + offsetof(EVENT_FILTER_EVENT_NAME, NameCount));
  if (count == 0) return ERROR_INVALID_PARAMETER;
  uint32_t off = kNames;
  for (uint32_t i = 0; i < count; ++i) {
    const void* nul = std::memchr(b + off, 0, d.Size - off);
    if (nul == nullptr) return ERROR_INVALID_PARAMETER;
    const auto len = static_cast<uint32_t>(static_cast<const uint8_t*>(nul) - (b + off));
    std::string name(reinterpret_cast<const char*>(b + off), len);
    if (len == 0 || !is_valid_utf8(name)) return ERROR_INVALID_PARAMETER;
    f.names.push_back(std::move(name));
    off += len + 1;  // memchr on an empty rest fails the next name
  }
  target = std::move(f);
  return ERROR_SUCCESS;
}

uint32_t convert_level_kw(const EVENT_FILTER_DESCRIPTOR& d,
                          std::optional<LevelKeywordFilter>& target) {
  if (d.Size < sizeof(EVENT_FILTER_LEVEL_KW)) return ERROR_INVALID_PARAMETER;
  const uint8_t* b = bytes_of(d);
  LevelKeywordFilter f;
  f.any = load<uint64_t>(b + offsetof(EVENT_FILTER_LEVEL_KW, MatchAnyKeyword));
  f.all = load<uint64_t>(b + offsetof(EVENT_FILTER_LEVEL_KW, MatchAllKeyword));
  f.level = b[offsetof(EVENT_FILTER_LEVEL_KW, Level)];
  f.filter_in = b[offsetof(EVENT_FILTER_LEVEL_KW, FilterIn)] != 0;
  target = f;
  return ERROR_SUCCESS;
}

uint32_t convert_schematized(const EVENT_FILTER_DESCRIPTOR& d, std::vector<uint8_t>& target) {
  constexpr uint32_t kHeader = sizeof(EVENT_FILTER_HEADER);
  if (d.Size < kHeader || d.Size > MAX_EVENT_FILTER_DATA_SIZE) return ERROR_INVALID_PARAMETER;
  const uint8_t* b = bytes_of(d);
  uint32_t size = load<uint32_t>(b + offsetof(EVENT_FILTER_HEADER, Size));
  if (size == 0) size = d.Size;  // controllers may leave it to the descriptor
  if (size < kHeader || size > d.Size) return ERROR_INVALID_PARAMETER;
  target.assign(b, b + size);
  std::memcpy(target.data() + offsetof(EVENT_FILTER_HEADER, Size), &size, sizeof size);
  return ERROR_SUCCESS;
}

// EVENT_FILTER_TYPE_PAYLOAD: a TdhAggregatePayloadFilters blob (or a copy of one). It
// carries its events' layouts; the provider's loaded manifest, when there is one, must
// agree with them.
uint32_t convert_payload(const EVENT_FILTER_DESCRIPTOR& d, EnableRequest& out) {
  if (d.Size == 0 || d.Size > MAX_EVENT_FILTER_PAYLOAD_SIZE) return ERROR_INVALID_PARAMETER;
  const std::optional<BlobContents> blob = decode_blob(bytes_of(d), d.Size);
  if (!blob) return ERROR_INVALID_PARAMETER;
  std::shared_ptr<const ProviderDef> schema = TdhStore::get().find_loaded(blob->provider);
  std::optional<std::vector<PayloadFilter>> filters = resolve_blob(*blob, schema.get());
  if (!filters) return ERROR_INVALID_PARAMETER;
  if (out.payload_provider && !(*out.payload_provider == blob->provider))
    return ERROR_INVALID_PARAMETER;
  out.params.payload.insert(out.params.payload.end(), filters->begin(), filters->end());
  out.payload_provider = blob->provider;
  return ERROR_SUCCESS;
}

// The pfc enable extension (etw/enable_ext.h): payload expressions with their layouts and
// the provider's schema.
uint32_t convert_extension(const EVENT_FILTER_DESCRIPTOR& d, EnableRequest& out) {
  if (d.Size < kExtHeaderSize || d.Size > kExtMaxBytes) return ERROR_INVALID_PARAMETER;
  const Guid provider = Guid::from_bytes(bytes_of(d) + 16);
  std::shared_ptr<const ProviderDef> loaded = TdhStore::get().find_loaded(provider);
  std::optional<ExtContents> ext = decode_ext(bytes_of(d), d.Size, loaded.get());
  if (!ext || (out.payload_provider && !(*out.payload_provider == provider)))
    return ERROR_INVALID_PARAMETER;
  out.params.payload.insert(out.params.payload.end(), ext->payload.begin(), ext->payload.end());
  out.payload_provider = provider;
  out.schema = std::move(ext->schema);
  return ERROR_SUCCESS;
}

}  // namespace

bool split_name_list(const uint8_t* data, uint32_t size, bool final_component,
                     std::vector<std::string>& out) {
  size_t units = 0;  // up to the first NUL unit
  while (2 * units + 1 < size && (data[2 * units] | data[2 * units + 1]) != 0) ++units;
  std::string text;
  if (!utf16le_to_utf8({data, 2 * units}, text, Unpaired::Reject)) return false;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find(';', start);
    if (end == std::string::npos) end = text.size();
    std::string_view name(text.data() + start, end - start);
    if (final_component) name = internal::final_path_component(name);
    if (!name.empty()) out.emplace_back(name);
    start = end + 1;
  }
  return !out.empty();
}

uint32_t convert_filter(const EVENT_FILTER_DESCRIPTOR& d, EnableRequest& out, bool allow_private) {
  if (d.Type == EVENT_FILTER_TYPE_NONE) return ERROR_SUCCESS;
  if (d.Ptr == 0) return ERROR_INVALID_PARAMETER;
  if (d.Type == kFilterTypePfcExtension && allow_private) return convert_extension(d, out);
  EnableParams& p = out.params;
  if (const internal::ScopeKindInfo* s = internal::find_scope_kind_by_etw_type(d.Type))
    return s->names == nullptr ? convert_pids(d, p) : convert_names(d, *s, p);
  switch (d.Type) {
    case EVENT_FILTER_TYPE_EVENT_ID: return convert_event_ids(d, p.event_ids);
    case EVENT_FILTER_TYPE_STACKWALK: return convert_event_ids(d, p.stack_ids);
    case EVENT_FILTER_TYPE_EVENT_NAME: return convert_event_names(d, p.event_names);
    case EVENT_FILTER_TYPE_STACKWALK_NAME: return convert_event_names(d, p.stack_names);
    case EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW: return convert_level_kw(d, p.stack_level_kw);
    case EVENT_FILTER_TYPE_SCHEMATIZED: return convert_schematized(d, out.params.provider_filter);
    case EVENT_FILTER_TYPE_PAYLOAD: return convert_payload(d, out);
    default:
      // TRACEHANDLE (kernel rundown), SYSTEM_FLAGS,
      // CONTAINER and provider-defined types have no meaning here.
      return ERROR_INVALID_PARAMETER;
  }
}

uint32_t convert_enable(uint8_t level, uint64_t match_any, uint64_t match_all,
                        const ENABLE_TRACE_PARAMETERS* params, EnableRequest* out,
                        bool allow_private) {
  EnableRequest req;
  req.params.level = level;
  req.params.any = match_any;
  req.params.all = match_all;
  const EVENT_FILTER_DESCRIPTOR* filters = nullptr;
  uint32_t count = 0;
  if (params != nullptr) {
    if (params->Version == ENABLE_TRACE_PARAMETERS_VERSION) {
      const auto* v1 = reinterpret_cast<const ENABLE_TRACE_PARAMETERS_V1*>(params);
      filters = v1->EnableFilterDesc;
      count = filters != nullptr ? 1 : 0;
    } else if (params->Version == ENABLE_TRACE_PARAMETERS_VERSION_2) {
      filters = params->EnableFilterDesc;
      count = params->FilterDescCount;
      if (count > MAX_EVENT_FILTERS_COUNT || (count != 0 && filters == nullptr))
        return ERROR_INVALID_PARAMETER;
    } else {
      return ERROR_INVALID_PARAMETER;
    }
    // Both versions share the first 32 bytes.
    if ((params->EnableProperty & kUnsupportedEnableProperties) != 0) return ERROR_NOT_SUPPORTED;
    req.params.properties = params->EnableProperty;
    req.params.source_id = to_pfc(params->SourceId);
  }
  for (uint32_t i = 0; i < count; ++i) {
    for (uint32_t j = 0; j < i; ++j)
      if (filters[j].Type == filters[i].Type && filters[i].Type != EVENT_FILTER_TYPE_NONE)
        return ERROR_INVALID_PARAMETER;  // each type at most once
    if (const uint32_t rc = convert_filter(filters[i], req, allow_private); rc != ERROR_SUCCESS)
      return rc;
  }
  *out = std::move(req);
  return ERROR_SUCCESS;
}

std::vector<uint8_t> chain_filter_blocks(const std::vector<FilterBlock>& blocks) {
  std::vector<uint8_t> out;
  size_t prev = 0;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const size_t start = (out.size() + 7) & ~size_t{7};
    if (i > 0) {
      const auto next = static_cast<uint32_t>(start - prev);
      std::memcpy(out.data() + prev + offsetof(EVENT_FILTER_HEADER, NextOffset), &next, 4);
    }
    out.resize(start);
    out.insert(out.end(), blocks[i].data->begin(), blocks[i].data->end());
    std::memcpy(out.data() + start + offsetof(EVENT_FILTER_HEADER, InstanceId),
                &blocks[i].instance_id, 8);
    const uint32_t zero = 0;
    std::memcpy(out.data() + start + offsetof(EVENT_FILTER_HEADER, NextOffset), &zero, 4);
    prev = start;
  }
  return out;
}

}  // namespace pfc::etw
