// etw/tlg_read.h — the consumer side of TraceLogging (docs/etw.md "TraceLogging") and of
// provider traits: a record written with its blobs (runtime/tlg.h "kRecordFlag") is delivered
// with the payload alone and the blobs as EVENT_HEADER_EXT_TYPE_PROV_TRAITS and
// EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL extended items, as Windows delivers them.
#pragma once

#include <cstdint>

#include "pfc/etw/evntcons.h"

namespace pfc::etw {

// What an EVENT_RECORD shows of a record: its header flags (kRecordFlag removed) and
// payload.
struct TlgPayload {
  uint16_t flags = 0;
  const uint8_t* data = nullptr;
  uint32_t size = 0;
};

// Splits a record's payload; appends the extended items to `items` (room for two more
// after `n`) when the record carries the blobs: PROV_TRAITS when it has traits,
// EVENT_SCHEMA_TL when it has metadata (a record of a registration's traits alone,
// EventSetInformation, has none). A record whose trailer does not fit is delivered as it
// is, without items.
TlgPayload tlg_payload(uint16_t flags, const uint8_t* payload, uint32_t size,
                       EVENT_HEADER_EXTENDED_DATA_ITEM* items, USHORT& n);

}  // namespace pfc::etw
