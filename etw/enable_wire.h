// etw/enable_wire.h — EnableTraceEx2's ENABLE_TRACE_PARAMETERS as bytes, so a controller
// can publish them in the trace namespace and every provider process converts them itself
// with convert_enable (docs/namespace.md §2: each process compiles its own programs from
// the arguments the controller gave). Layout: u32 version, u32 EnableProperty,
// u32 ControlFlags, GUID SourceId, u32 count, then per descriptor u32 Type, u32 Size and
// Size bytes. Empty bytes = no ENABLE_TRACE_PARAMETERS (a NULL pointer).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pfc/etw/evntrace.h"

namespace pfc::etw {

// The caller's parameters (validated enough to be read: count ≤ MAX_EVENT_FILTERS_COUNT
// with an array, each descriptor's Ptr non-null when Size is non-zero); nullopt otherwise.
std::optional<std::vector<uint8_t>> encode_enable_parameters(const ENABLE_TRACE_PARAMETERS* params);

// Parameters pointing into `storage`, decoded from bytes (untrusted). `has` false when the
// bytes are empty (NULL parameters). nullopt when the bytes are malformed.
struct DecodedParameters {
  bool has = false;
  ENABLE_TRACE_PARAMETERS params{};
  std::vector<EVENT_FILTER_DESCRIPTOR> descriptors;
  std::vector<std::vector<uint8_t>> data;  // one per descriptor
};
std::optional<DecodedParameters> decode_enable_parameters(const std::vector<uint8_t>& bytes);

}  // namespace pfc::etw
