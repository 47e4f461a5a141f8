// etw/tdh_tlg.h — TDH decoding of TraceLogging events (docs/etw.md "TraceLogging"): an
// EVENT_RECORD with an EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL item is decoded from that
// metadata alone (DecodingSourceTlg), never from a manifest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pfc/etw/evntcons.h"

namespace pfc::etw {

// TRACE_EVENT_INFO of a TraceLogging event, or nullopt when `r` is not one. The error
// ERROR_EVT_INVALID_EVENT_DATA names the byte where its metadata is damaged.
std::optional<uint32_t> tlg_event_info(const EVENT_RECORD& r, std::vector<uint8_t>& out);
// Where top-level property `name` (element `index`, or all of it for 0xFFFFFFFF) lies in
// the event's data; nullopt when `r` is not a TraceLogging event.
std::optional<uint32_t> tlg_property_span(const EVENT_RECORD& r, const std::string& name,
                                          uint32_t index, uint64_t& begin, uint64_t& end);
// The TDH_OUTTYPE a TraceLogging out-type stands for with `in_type`.
uint16_t tlg_tdh_out_type(uint8_t in_type, uint8_t out_type);

}  // namespace pfc::etw
