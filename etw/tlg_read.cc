// etw/tlg_read.cc — TraceLogging blobs as extended items (etw/tlg_read.h).
#include "etw/tlg_read.h"

#include "runtime/tlg.h"

namespace pfc::etw {

TlgPayload tlg_payload(uint16_t flags, const uint8_t* payload, uint32_t size,
                       EVENT_HEADER_EXTENDED_DATA_ITEM* items, USHORT& n) {
  TlgPayload out{static_cast<uint16_t>(flags & ~tlg::kRecordFlag), payload, size};
  tlg::Split s;
  if ((flags & tlg::kRecordFlag) == 0 || !tlg::split(payload, size, s)) return out;
  out.data = s.payload;
  out.size = s.payload_size;
  if (s.traits_size != 0) {
    items[n].ExtType = EVENT_HEADER_EXT_TYPE_PROV_TRAITS;
    items[n].DataSize = s.traits_size;
    items[n].DataPtr = reinterpret_cast<uintptr_t>(s.traits);
    ++n;
  }
  if (s.meta_size == 0) return out;  // the registration's traits alone (EventSetInformation)
  items[n].ExtType = EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL;
  items[n].DataSize = s.meta_size;
  items[n].DataPtr = reinterpret_cast<uintptr_t>(s.meta);
  ++n;
  return out;
}

}  // namespace pfc::etw
