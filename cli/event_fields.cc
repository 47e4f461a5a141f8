// cli/event_fields.cc — JSON field values → runtime/encode.h, and payload_hex decoding.
#include "cli/event_fields.h"

#include <utility>

#include "base/hex.h"
#include "runtime/encode.h"

namespace pfc::cli {
namespace {

using nlohmann::json;

// Field values nest at most this deep (an array of arrays of bytes, e.g. an array of SIDs);
// the bound keeps the conversion's recursion independent of the input.
constexpr int kMaxValueDepth = 3;

std::expected<FieldValue, std::string> to_field_value(const json& v, int depth) {
  switch (v.type()) {
    case json::value_t::null: return FieldValue::null();
    case json::value_t::boolean: return FieldValue::of_bool(v.get<bool>());
    case json::value_t::number_unsigned: return FieldValue::of_uint(v.get<uint64_t>());
    case json::value_t::number_integer: return FieldValue::of_int(v.get<int64_t>());
    case json::value_t::number_float: return FieldValue::of_double(v.get<double>());
    case json::value_t::string: return FieldValue::of_string(v.get<std::string>());
    case json::value_t::array: {
      if (depth >= kMaxValueDepth) return std::unexpected("arrays nested too deeply");
      std::vector<FieldValue> items;
      items.reserve(v.size());
      for (const json& item : v) {
        auto converted = to_field_value(item, depth + 1);
        if (!converted) return converted;
        items.push_back(std::move(*converted));
      }
      return FieldValue::of_array(std::move(items));
    }
    default: return std::unexpected("an object is not a field value");
  }
}

}  // namespace

std::expected<std::vector<uint8_t>, std::string> encode_json_fields(const EventDef& event,
                                                                    const json& fields) {
  std::vector<std::pair<std::string, FieldValue>> values;
  values.reserve(fields.size());
  for (const auto& [name, value] : fields.items()) {
    auto converted = to_field_value(value, 1);
    if (!converted) return std::unexpected("field '" + name + "': " + converted.error());
    values.emplace_back(name, std::move(*converted));
  }
  Result<std::vector<uint8_t>> bytes = encode_payload(event, values);
  if (!bytes) return std::unexpected(bytes.error().message);
  return std::move(*bytes);
}

std::expected<std::vector<uint8_t>, std::string> decode_payload_hex(const std::string& hex) {
  for (size_t i = 0; i < hex.size(); ++i)
    if (hex_digit_value(hex[i]) < 0)
      return std::unexpected("\"payload_hex\" has a non-hex character at index " +
                             std::to_string(i));
  if (hex.size() % 2 != 0)
    return std::unexpected("\"payload_hex\" has an odd number of digits (" +
                           std::to_string(hex.size()) + ")");
  std::vector<uint8_t> bytes(hex.size() / 2);
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<uint8_t>(hex_digit_value(hex[2 * i]) << 4 | hex_digit_value(hex[2 * i + 1]));
  return bytes;
}

}  // namespace pfc::cli
