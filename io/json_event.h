// io/json_event.h — one event of an events file (docs/cli.md "The events file"): a parsed
// JSON object (simdjson DOM) resolved against a schema (pfc/events.h SourceSchema) into an owning
// Event, its provider, schema event and exclusion mask.
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "pfc/event.h"
#include "pfc/events.h"

namespace pfc::io {

struct InputEvent {
  uint32_t provider = 0;          // index into SourceSchema::schema.providers
  const EventDef* def = nullptr;  // the schema's event; null for an undeclared id (payload_hex)
  Event event;
  uint64_t exclude = 0;  // bit s = session slot s named in "exclude"
};

// A problem with one event; `key` is the top-level member it concerns ("" = the whole
// object), `nth` which occurrence of that key (duplicates), for the caret.
struct JsonEventError {
  std::string key;
  unsigned nth = 0;
  std::string message;
};

// Fills `out` (its buffers are reused) from `value`. Every member is checked: unknown keys,
// duplicate keys, types and ranges, the schema's names. An id the schema does not declare is
// accepted only with "payload_hex" (the event is then written exactly as given; its
// descriptor defaults to 0 where not given).
std::expected<void, JsonEventError> read_json_event(simdjson::dom::element value,
                                                    const SourceSchema& script, InputEvent& out);

}  // namespace pfc::io
