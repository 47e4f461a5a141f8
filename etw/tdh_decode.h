// etw/tdh_decode.h — TDH decoding (docs/etw.md "TDH decoding"): an event's decoding
// schema, independent of where it came from, and the sources it is looked up in. A
// source turns its own description (a loaded manifest, a schema a `pfc trace enable
// --script` published, later TraceLogging metadata) into an EventSchema; the exports
// (tdh_decode.cc, tdh_format.cc) only ever see EventSchema and MapSchema.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etw/tdh_store.h"
#include "pfc/etw/tdh.h"

namespace pfc::etw {

// One property of TRACE_EVENT_INFO, with the field layout that locates it in the data.
struct PropertySchema {
  std::string name;
  FieldDef layout;        // in-type, count and length as the payload is laid out
  uint16_t out_type = 0;  // TDH_OUTTYPE (the in-type's default when the source has none)
  std::string map;        // "" = no map
};

// Everything TRACE_EVENT_INFO says about one event. Empty texts are left out (offset 0).
struct EventSchema {
  GUID provider{};
  EVENT_DESCRIPTOR descriptor{};
  DECODING_SOURCE source = DecodingSourceXMLFile;
  std::string provider_name, level_name, channel_name, task_name, opcode_name;
  std::string event_message, provider_message, event_name;
  std::vector<std::string> keyword_names;
  std::vector<PropertySchema> properties;  // all top level (pfc lays out no structs)
};

// A value map or bit map as EVENT_MAP_INFO gives it.
struct MapSchema {
  std::string name;
  MAP_FLAGS flag = EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP;
  std::vector<std::pair<uint32_t, std::string>> entries;  // texts as the consumer sees them
};

// The provider description that decodes events of `provider` in this thread: a manifest
// loaded with TdhLoadManifest* first, else the schemas of the trace whose events the
// thread is delivering (tdh_context.h). Null when none describes it.
std::shared_ptr<const LoadedProvider> find_decoding_provider(const GUID& provider);

// The schema of `record`'s event, or ERROR_NOT_FOUND (with the thread's TDH message set).
// ERROR_NOT_SUPPORTED when a count or length does not fit EVENT_PROPERTY_INFO's 16 bits.
uint32_t event_schema(const EVENT_RECORD& record, EventSchema& out);
// The map `name` of `record`'s provider, or ERROR_NOT_FOUND.
uint32_t map_schema(const EVENT_RECORD& record, std::string_view name, MapSchema& out);

// The default TDH_OUTTYPE of an in-type: the first output type the manifest schema lists
// for it (docs/etw.md "TDH decoding").
uint16_t default_out_type(uint16_t in_type);

}  // namespace pfc::etw
