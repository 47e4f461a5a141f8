// io/event_fields.cc — JSON field values → runtime/encode.h, and payload_hex decoding.
#include "io/event_fields.h"

#include <utility>

#include "base/hex.h"
#include "io/event_fields_simple.h"
#include "io/limits.h"
#include "pfc/events.h"
#include "runtime/encode.h"

namespace pfc::io {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// Field values nest at most this deep (an array of arrays of bytes, e.g. an array of SIDs);
// the bound keeps the conversion's recursion independent of the input.
constexpr int kMaxValueDepth = 3;

struct Converter {
  uint64_t elements = 0;  // array elements converted so far (kMaxFieldElements)

  std::expected<FieldValue, std::string> convert(element v, int depth) {
    switch (v.type()) {
      case element_type::NULL_VALUE: return FieldValue::null();
      case element_type::BOOL: return FieldValue::of_bool(bool(v.get_bool()));
      case element_type::UINT64: return FieldValue::of_uint(uint64_t(v.get_uint64()));
      case element_type::INT64: {
        const int64_t i = v.get_int64();
        return i < 0 ? FieldValue::of_int(i) : FieldValue::of_uint(uint64_t(i));
      }
      case element_type::DOUBLE: return FieldValue::of_double(double(v.get_double()));
      case element_type::STRING:
        return FieldValue::of_string(std::string(std::string_view(v.get_string())));
      case element_type::ARRAY: return convert_array(v.get_array(), depth);
      default: return std::unexpected("an object is not a field value");
    }
  }

  std::expected<FieldValue, std::string> convert_array(simdjson::dom::array a, int depth) {
    if (depth >= kMaxValueDepth) return std::unexpected("arrays nested too deeply");
    const size_t n = a.size();
    if (n > kMaxFieldElements - elements)
      return std::unexpected("more than " + std::to_string(kMaxFieldElements) +
                             " array elements in one event (the limit; use \"payload_hex\")");
    elements += n;
    std::vector<FieldValue> items;
    items.reserve(n);
    for (element item : a) {
      auto converted = convert(item, depth + 1);
      if (!converted) return converted;
      items.push_back(std::move(*converted));
    }
    return FieldValue::of_array(std::move(items));
  }
};

}  // namespace

std::expected<void, std::string> encode_json_fields(const EventDef& event,
                                                    simdjson::dom::object fields,
                                                    std::vector<uint8_t>& out) {
  if (encode_simple_fields(event, fields, out)) return {};
  return encode_json_fields_general(event, fields, out);
}

std::expected<void, std::string> encode_json_fields_general(const EventDef& event,
                                                            simdjson::dom::object fields,
                                                            std::vector<uint8_t>& out) {
  std::vector<std::pair<std::string, FieldValue>> values;
  values.reserve(fields.size());
  Converter converter;
  for (simdjson::dom::key_value_pair member : fields) {
    auto converted = converter.convert(member.value, 1);
    if (!converted)
      return std::unexpected("field '" + std::string(member.key) + "': " + converted.error());
    values.emplace_back(std::string(member.key), std::move(*converted));
  }
  Result<std::vector<uint8_t>> bytes = encode_payload(event, values);
  if (!bytes) return std::unexpected(bytes.error().message);
  out = std::move(*bytes);
  return {};
}

std::expected<void, std::string> decode_payload_hex(std::string_view hex,
                                                    std::vector<uint8_t>& out) {
  for (size_t i = 0; i < hex.size(); ++i)
    if (hex_digit_value(hex[i]) < 0)
      return std::unexpected("\"payload_hex\" has a non-hex character at index " +
                             std::to_string(i));
  if (hex.size() % 2 != 0)
    return std::unexpected("\"payload_hex\" has an odd number of digits (" +
                           std::to_string(hex.size()) + ")");
  out.resize(hex.size() / 2);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] =
        static_cast<uint8_t>(hex_digit_value(hex[2 * i]) << 4 | hex_digit_value(hex[2 * i + 1]));
  return {};
}

}  // namespace pfc::io

namespace pfc {

std::string events_encode_fields(const EventDef& def, std::string_view fields_json,
                                 std::vector<uint8_t>* payload) {
  if (fields_json.size() > io::kMaxEventText)
    return "the fields exceed the limit of " + std::to_string(io::kMaxEventText) + " bytes";
  simdjson::dom::parser parser;
  const simdjson::padded_string text(fields_json);
  simdjson::dom::element doc;
  if (const auto error = parser.parse(text).get(doc); error != simdjson::SUCCESS)
    return std::string("the fields are not valid JSON: ") + simdjson::error_message(error);
  if (doc.type() != simdjson::dom::element_type::OBJECT) return "the fields must be a JSON object";
  auto encoded = io::encode_json_fields(def, doc.get_object(), *payload);
  if (!encoded) return encoded.error();
  return {};
}

}  // namespace pfc
