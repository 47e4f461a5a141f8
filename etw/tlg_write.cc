// etw/tlg_write.cc — TraceLogging metadata on the EventWrite* path (etw/tlg_write.h).
#include "etw/tlg_write.h"

#include <cstring>
#include <vector>

#include "base/tls.h"
#include "runtime/tlg.h"

namespace pfc::etw {
namespace {

const uint8_t* bytes_of(const EVENT_DATA_DESCRIPTOR& d) {
  return reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(d.Ptr));
}

}  // namespace

ULONG TlgWrite::take_metadata(ULONG count, const EVENT_DATA_DESCRIPTOR* data) {
  ULONG n = 0;
  for (ULONG i = 0; i < count; ++i) {
    const uint8_t type = static_cast<uint8_t>(data[i].Reserved & 0xFF);
    const EVENT_DATA_DESCRIPTOR** slot = type == EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA ? &meta_
                                         : type == EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA
                                             ? &traits_
                                             : nullptr;
    if (slot == nullptr) {
      rest_[n++] = data[i];
      continue;
    }
    if (*slot != nullptr || data[i].Size < 2 || data[i].Size > 0xFFFF || data[i].Ptr == 0)
      return ERROR_INVALID_PARAMETER;
    *slot = &data[i];
  }
  count_ = n;
  data_ = rest_;
  return ERROR_SUCCESS;
}

ULONG TlgWrite::finish(EventView& view, uint64_t max_payload) const {
  const uint32_t traits = traits_ != nullptr ? traits_->Size : 0;
  const uint32_t meta = meta_->Size;
  if (view.payload_size + traits + meta + 4 > max_payload) return ERROR_ARITHMETIC_OVERFLOW;
  PFC_TLS_HOT thread_local std::vector<uint8_t> buf;
  buf.assign(view.payload, view.payload + view.payload_size);
  if (traits != 0) buf.insert(buf.end(), bytes_of(*traits_), bytes_of(*traits_) + traits);
  buf.insert(buf.end(), bytes_of(*meta_), bytes_of(*meta_) + meta);
  tlg::append_trailer(buf, static_cast<uint16_t>(traits), static_cast<uint16_t>(meta));
  view.name = StrRef::of(tlg::event_name(buf.data() + buf.size() - 4 - meta, meta));
  view.meta = bytes_of(*meta_);  // the writer's own blob: one address per call site
  view.meta_size = meta;
  view.data_size = static_cast<uint32_t>(view.payload_size);  // before the blobs are appended
  view.payload = buf.data();
  view.payload_size = buf.size();
  return ERROR_SUCCESS;
}

}  // namespace pfc::etw
