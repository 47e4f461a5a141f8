// io/event_decode.h — an event's payload decoded back into field values per its schema
// (the inverse of the encoding of "fields", runtime/encode.h), for events-file lines
// (io/event_line.h, pfc/events.h events_fields_json), `pfc run --output csv` and CTF. A
// decoding is returned only when it is exact: encoding the decoded values gives the
// payload back byte for byte, and every value can be written as JSON (strings
// are valid UTF-8, numbers finite). Otherwise (a truncated or malformed payload, an
// undeclared event, a lone surrogate...) the caller writes the raw bytes (payload_hex).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pfc/event.h"
#include "runtime/encode.h"

namespace pfc::io {

using DecodedFields = std::vector<std::pair<std::string, FieldValue>>;

// The fields of `payload` (every field of `def`, in declaration order), or nullopt.
std::optional<DecodedFields> decode_fields(const EventDef& def, const EventView& event);

// `value` as JSON text: numbers (doubles always with a '.' or exponent, so they read back
// as doubles), true/false, null, strings, "{GUID}" strings, arrays; bytes as arrays of
// integers.
std::string field_value_json(const FieldValue& value);

// The payload bytes as hex digits (lower case, two per byte).
std::string payload_hex(const EventView& view);
void append_payload_hex(std::string& out, const EventView& view);

// Appends the payload member of an events-file line (docs/cli.md "The events file"):
// ,"fields":{...} when `def` is non-null and decode_fields succeeds, else
// ,"payload_hex":"…" (lower case).
void append_payload_json(std::string& out, const EventDef* def, const EventView& view);

}  // namespace pfc::io
