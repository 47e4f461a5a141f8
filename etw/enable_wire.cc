// etw/enable_wire.cc — see enable_wire.h.
#include "etw/enable_wire.h"

#include "trace/state.h"
#include "trace/wire.h"

namespace pfc::etw {

std::optional<std::vector<uint8_t>> encode_enable_parameters(const ENABLE_TRACE_PARAMETERS* p) {
  if (p == nullptr) return std::vector<uint8_t>{};
  // Version 1 has one descriptor pointer and no count; both are written as version 2.
  const EVENT_FILTER_DESCRIPTOR* filters = p->EnableFilterDesc;
  uint32_t count = 0;
  if (p->Version == ENABLE_TRACE_PARAMETERS_VERSION) {
    filters = reinterpret_cast<const ENABLE_TRACE_PARAMETERS_V1*>(p)->EnableFilterDesc;
    count = filters != nullptr ? 1 : 0;
  } else if (p->Version == ENABLE_TRACE_PARAMETERS_VERSION_2) {
    count = p->FilterDescCount;
  } else {
    return std::nullopt;
  }
  if (count > MAX_EVENT_FILTERS_COUNT || (count != 0 && filters == nullptr)) return std::nullopt;
  trace::ByteWriter w;
  w.put<uint32_t>(ENABLE_TRACE_PARAMETERS_VERSION_2);
  w.put<uint32_t>(p->EnableProperty);
  w.put<uint32_t>(p->ControlFlags);
  w.put(p->SourceId);
  w.put<uint32_t>(count);
  for (uint32_t i = 0; i < count; ++i) {
    const EVENT_FILTER_DESCRIPTOR& d = filters[i];
    if (d.Size != 0 && d.Ptr == 0) return std::nullopt;
    if (d.Size > trace::kMaxFilterBytes) return std::nullopt;
    w.put<uint32_t>(d.Type);
    const auto* b = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(d.Ptr));
    w.bytes(std::vector<uint8_t>(b, b + d.Size));
  }
  return std::move(w.data());
}

std::optional<DecodedParameters> decode_enable_parameters(const std::vector<uint8_t>& bytes) {
  DecodedParameters out;
  if (bytes.empty()) return out;
  trace::ByteReader r(bytes.data(), bytes.size());
  out.has = true;
  out.params.Version = r.get<uint32_t>();
  out.params.EnableProperty = r.get<uint32_t>();
  out.params.ControlFlags = r.get<uint32_t>();
  out.params.SourceId = r.get<GUID>();
  const uint32_t count = r.get<uint32_t>();
  if (count > MAX_EVENT_FILTERS_COUNT) return std::nullopt;
  for (uint32_t i = 0; r.ok() && i < count; ++i) {
    EVENT_FILTER_DESCRIPTOR d{};
    d.Type = r.get<uint32_t>();
    out.data.push_back(r.bytes(trace::kMaxFilterBytes));
    d.Size = static_cast<ULONG>(out.data.back().size());
    out.descriptors.push_back(d);
  }
  if (!r.ok() || !r.at_end()) return std::nullopt;
  for (size_t i = 0; i < out.descriptors.size(); ++i)
    out.descriptors[i].Ptr = reinterpret_cast<uintptr_t>(out.data[i].data());
  out.params.EnableFilterDesc = out.descriptors.empty() ? nullptr : out.descriptors.data();
  out.params.FilterDescCount = count;
  return out;
}

}  // namespace pfc::etw
