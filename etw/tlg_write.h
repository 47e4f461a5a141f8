// etw/tlg_write.h — the provider side of TraceLogging (docs/etw.md "TraceLogging"): an
// EventWrite* call whose data descriptors include the provider traits and event metadata
// blobs (EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA / _EVENT_METADATA) writes the other
// descriptors as the payload, names the event for EVENT_NAME filters, and carries both
// blobs behind the payload into the sessions' records (runtime/tlg.h "kRecordFlag").
#pragma once

#include <cstdint>

#include "pfc/etw/evntprov.h"
#include "pfc/event.h"

namespace pfc::etw {

class TlgWrite {
 public:
  // Takes the metadata descriptors out of `data`. ERROR_INVALID_PARAMETER for a second
  // blob of one type, or one of fewer than 2 or more than 65535 bytes.
  // The provider runs it only for an event some descriptor of which has a type byte
  // (etw/provider.cc finds those while it copies the payload).
  ULONG take(ULONG count, const EVENT_DATA_DESCRIPTOR* data) {
    count_ = count;
    data_ = data;
    ULONG types = 0;
    for (ULONG i = 0; i < count; ++i) types |= data[i].Reserved;
    if ((types & 0xFF) == 0) [[likely]]
      return ERROR_SUCCESS;
    return take_metadata(count, data);
  }
  bool present() const { return meta_ != nullptr; }
  // The descriptors left for the payload (the caller's own when there was no metadata).
  ULONG count() const { return count_; }
  const EVENT_DATA_DESCRIPTOR* data() const { return data_; }
  // Appends the blobs and the trailer behind the assembled payload in `view` and sets its
  // event name; ERROR_ARITHMETIC_OVERFLOW when the whole exceeds `max_payload`.
  ULONG finish(EventView& view, uint64_t max_payload) const;

 private:
  // take's path when some descriptor has a type: the metadata ones taken out, the others
  // kept in order.
  ULONG take_metadata(ULONG count, const EVENT_DATA_DESCRIPTOR* data);

  ULONG count_ = 0;
  const EVENT_DATA_DESCRIPTOR* data_ = nullptr;
  const EVENT_DATA_DESCRIPTOR* traits_ = nullptr;
  const EVENT_DATA_DESCRIPTOR* meta_ = nullptr;
  EVENT_DATA_DESCRIPTOR rest_[MAX_EVENT_DATA_DESCRIPTORS];
};

}  // namespace pfc::etw
