// io/event_fields.h — the "fields" and "payload_hex" members of an event turned into
// payload bytes: JSON values (simdjson DOM) → runtime/encode.h FieldValues → TDH encoding
// per schema.
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "pfc/schema.h"

namespace pfc::io {

// Array elements one event's "fields" may hold, counted over all fields and nesting levels
// (docs/cli.md "Limits"): bounds the memory a single line can take while it is converted.
inline constexpr uint64_t kMaxFieldElements = uint64_t{1} << 20;

// Encodes `fields` (a JSON object: field name → value) for `event` in the schema's field
// order into `out` (its contents replaced; its buffer reused). Fails with a one-line message
// (unknown or repeated field, wrong value type, out of range, too many elements...). Simple
// events take io/event_fields_simple.h's path, others (and every error) the general one.
std::expected<void, std::string> encode_json_fields(const EventDef& event,
                                                    simdjson::dom::object fields,
                                                    std::vector<uint8_t>& out);

// The general path of encode_json_fields alone (every event and value; tests compare it with
// the simple one).
std::expected<void, std::string> encode_json_fields_general(const EventDef& event,
                                                            simdjson::dom::object fields,
                                                            std::vector<uint8_t>& out);

// Decodes a hex string (either case, even length, no separators) as-is into `out`. Fails
// with a message naming the first bad character or the odd length.
std::expected<void, std::string> decode_payload_hex(std::string_view hex,
                                                    std::vector<uint8_t>& out);

}  // namespace pfc::io
