// etw/filters.h — validation of EnableTraceEx2's arguments (ENABLE_TRACE_PARAMETERS v1/v2
// and every EVENT_FILTER_DESCRIPTOR type) and their conversion into pfc::EnableParams, plus
// the FilterData chain handed to provider callbacks. Pure functions: no global state.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pfc/enable.h"
#include "pfc/etw/evntcons.h"
#include "pfc/etw/evntprov.h"
#include "pfc/etw/evntrace.h"
#include "pfc/etw/pfc_etw_ext.h"

namespace pfc::etw {

// EnableProperty bits EnableTraceEx2 refuses with ERROR_NOT_SUPPORTED (pfc/etw/pfc_etw_ext.h).
inline constexpr uint32_t kUnsupportedEnableProperties = PFC_ETW_UNSUPPORTED_ENABLE_PROPERTIES;

// One session's enable request, converted. The provider-side (SCHEMATIZED) filter goes
// to params.provider_filter: the router keeps it with the rest of the enable state.
struct EnableRequest {
  EnableParams params;
  // The provider GUID inside an EVENT_FILTER_TYPE_PAYLOAD blob (EnableTraceEx2 requires it
  // to be the enabled provider's); nullopt without a payload filter.
  std::optional<Guid> payload_provider;
  // The provider schema a pfc enable extension carried (etw/enable_ext.h), or nullopt.
  std::optional<ProviderDef> schema;
};

// Validates and converts the arguments of one EnableTraceEx2(ENABLE) call. `params` may be
// NULL. Returns ERROR_SUCCESS, or ERROR_INVALID_PARAMETER for: a Version other than 1 or
// 2; more than MAX_EVENT_FILTERS_COUNT descriptors or a count without an array; a filter
// type given twice; a descriptor violating its type's limits (see convert_filter); and
// ERROR_NOT_SUPPORTED for EVENT_ENABLE_PROPERTY_PROVIDER_GROUP. `allow_private` admits the
// pfc-private types (kFilterTypePfcExtension): true only for pfc's own controllers
// (etw/private_enable.h) and for the published state every provider process converts
// (etw/mirror.cc); the public EnableTraceEx2 passes false.
uint32_t convert_enable(uint8_t level, uint64_t match_any, uint64_t match_all,
                        const ENABLE_TRACE_PARAMETERS* params, EnableRequest* out,
                        bool allow_private = false);

// Converts one descriptor into `out`. ERROR_INVALID_PARAMETER when Ptr is 0 with a size,
// or: PID — size not a non-zero multiple of 4 or more than MAX_EVENT_FILTER_PID_COUNT;
// EXECUTABLE_NAME / PACKAGE_ID / PACKAGE_APP_ID — odd size, over
// MAX_EVENT_FILTER_DATA_SIZE, bad UTF-16 or no name; EVENT_ID / STACKWALK — Count 0 or
// over MAX_EVENT_FILTER_EVENT_ID_COUNT, size below 4 + 2 * Count; EVENT_NAME /
// STACKWALK_NAME — over MAX_EVENT_FILTER_EVENT_NAME_SIZE, NameCount 0, names not NUL-
// terminated inside the data or empty; STACKWALK_LEVEL_KW — size below 24; SCHEMATIZED —
// size below 24 or over MAX_EVENT_FILTER_DATA_SIZE, header Size outside [24, Size];
// PAYLOAD — over MAX_EVENT_FILTER_PAYLOAD_SIZE, a blob that does not decode
// (etw/payload_blob.h), no loaded manifest for its provider, or filters that do not fit
// that manifest's schema (tdh.h);
// the pfc enable extension (allow_private only) — data that decode_ext refuses, or a
// provider other than a PAYLOAD blob's; payload filters of PAYLOAD and of the extension
// aggregate (TdhAggregatePayloadFilters' rule);
// TRACEHANDLE, SYSTEM_FLAGS, CONTAINER and provider-defined types — always.
// EVENT_FILTER_TYPE_NONE is ignored.
uint32_t convert_filter(const EVENT_FILTER_DESCRIPTOR& desc, EnableRequest& out,
                        bool allow_private = false);

// Splits a ';'-separated, NUL-terminated UTF-16 list (`size` bytes at `data`) into UTF-8
// names, dropping empty entries. For executable names only the final path component is
// kept. False for bad UTF-16 (unpaired surrogates) or an empty list.
bool split_name_list(const uint8_t* data, uint32_t size, bool final_component,
                     std::vector<std::string>& out);

// The FilterData a provider callback sees: one block per (InstanceId, schematized filter)
// with InstanceId and NextOffset filled in (blocks 8-byte aligned, NextOffset relative to
// the block, 0 on the last). Empty when `blocks` is empty.
struct FilterBlock {
  uint64_t instance_id = 0;
  const std::vector<uint8_t>* data = nullptr;  // header + provider data
};
std::vector<uint8_t> chain_filter_blocks(const std::vector<FilterBlock>& blocks);

}  // namespace pfc::etw
