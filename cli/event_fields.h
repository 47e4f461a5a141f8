// cli/event_fields.h — the "fields" and "payload_hex" members of an event line turned into
// payload bytes: JSON values → runtime/encode.h FieldValues → TDH encoding per schema.
#pragma once

#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pfc/schema.h"

namespace pfc::cli {

// Encodes `fields` (a JSON object: field name → value) for `event` in the schema's field
// order. Fails with a one-line message (unknown field, wrong value type, out of range...).
std::expected<std::vector<uint8_t>, std::string> encode_json_fields(const EventDef& event,
                                                                    const nlohmann::json& fields);

// Decodes a hex string (either case, even length, no separators) as-is. Fails with a
// message naming the first bad character or the odd length.
std::expected<std::vector<uint8_t>, std::string> decode_payload_hex(const std::string& hex);

}  // namespace pfc::cli
