// runtime/encode_value.cc — per-type element encoding for encode_payload: integer range
// checks, floats, strings (UTF-16LE / 8-bit, terminated or fixed length), GUIDs, binary,
// SID and SYSTEMTIME. See the rules in encode.h.
#include "runtime/encode_value.h"

#include <cfloat>
#include <cmath>
#include <cstring>

#include "base/integer_text.h"
#include "base/utf8.h"

namespace pfc::internal {
namespace {

// A user integer: sign and magnitude (covers int64 and uint64 without loss); `overflow`
// marks integer text beyond 64 bits, which fits no type.
using IntValue = ParsedInteger;

std::optional<IntValue> as_integer(const FieldValue& value) {
  switch (value.kind) {
    case FieldValue::Kind::Int:
      if (value.int_value < 0)
        return IntValue{.magnitude = 0 - static_cast<uint64_t>(value.int_value), .negative = true};
      return IntValue{.magnitude = static_cast<uint64_t>(value.int_value)};
    case FieldValue::Kind::UInt: return IntValue{.magnitude = value.uint_value};
    case FieldValue::Kind::String: {
      std::optional<IntValue> v = parse_integer_text(value.string_value);
      if (v && v->magnitude == 0 && !v->overflow) v->negative = false;  // "-0" is 0
      return v;
    }
    default: return std::nullopt;
  }
}

void put_le(std::vector<uint8_t>& out, uint64_t v, uint32_t width) {
  for (uint32_t i = 0; i < width; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

Error field_error(const std::string& label, const std::string& what) {
  return Error{"field '" + label + "': " + what};
}

Result<void> encode_integer(InType type, const FieldValue* value, const std::string& label,
                            std::vector<uint8_t>& out) {
  const uint32_t width = in_type_fixed_size(type);
  if (value == nullptr) return put_le(out, 0, width), Result<void>{};
  if (type == InType::Boolean && value->kind == FieldValue::Kind::Bool) {
    return put_le(out, value->bool_value ? 1 : 0, width), Result<void>{};
  }
  const std::optional<IntValue> v = as_integer(*value);
  const std::string type_name(in_type_name(type));
  if (!v)
    return std::unexpected(
        field_error(label, "expected an integer for " + type_name + ", got " + value->describe()));
  const uint64_t bits = 8 * uint64_t{width};
  bool fits;
  if (v->overflow) {
    fits = false;
  } else if (type == InType::Boolean) {
    fits = !v->negative && v->magnitude <= 1;
  } else if (in_type_is_signed(type)) {
    const uint64_t limit = uint64_t{1} << (bits - 1);  // |min|; max is limit - 1
    fits = v->negative ? v->magnitude <= limit : v->magnitude < limit;
  } else {
    fits = !v->negative && (bits == 64 || v->magnitude < (uint64_t{1} << bits));
  }
  if (!fits)
    return std::unexpected(field_error(label, value->describe() + " does not fit " + type_name));
  put_le(out, v->negative ? 0 - v->magnitude : v->magnitude, width);
  return {};
}

Result<void> encode_real(InType type, const FieldValue* value, const std::string& label,
                         std::vector<uint8_t>& out) {
  double d = 0;
  if (value != nullptr) {
    switch (value->kind) {
      case FieldValue::Kind::Int: d = static_cast<double>(value->int_value); break;
      case FieldValue::Kind::UInt: d = static_cast<double>(value->uint_value); break;
      case FieldValue::Kind::Double: d = value->double_value; break;
      default:
        return std::unexpected(field_error(label, "expected a number for " +
                                                      std::string(in_type_name(type)) + ", got " +
                                                      value->describe()));
    }
  }
  if (type == InType::Double) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    return put_le(out, bits, 8), Result<void>{};
  }
  if (value != nullptr && std::isfinite(d) && std::fabs(d) > FLT_MAX) {  // null: d is 0
    return std::unexpected(field_error(label, value->describe() + " does not fit float"));
  }
  const float f = static_cast<float>(d);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  put_le(out, bits, 4);
  return {};
}

// The code units of a string value: UTF-16 for wstring, bytes for string.
Result<std::u16string> wide_units(const FieldValue& value, const std::string& label) {
  std::u16string units;
  if (!utf8_to_utf16(value.string_value, units)) {
    return std::unexpected(field_error(label, "the string is not valid UTF-8"));
  }
  return units;
}

// The string's code units as little-endian bytes (UTF-16LE for wstring, as-is for string).
Result<std::string> string_bytes(InType type, const FieldValue& value, const std::string& label) {
  if (value.kind != FieldValue::Kind::String) {
    return std::unexpected(field_error(label, "expected a string, got " + value.describe()));
  }
  if (type == InType::AnsiString) return value.string_value;
  auto units = wide_units(value, label);
  if (!units) return std::unexpected(units.error());
  std::string bytes;
  bytes.reserve(2 * units->size());
  for (char16_t u : *units) bytes += {static_cast<char>(u & 0xFF), static_cast<char>(u >> 8)};
  return bytes;
}

Result<void> encode_string(InType type, const FieldValue* value, std::optional<uint64_t> length,
                           const std::string& label, std::vector<uint8_t>& out) {
  const uint64_t unit = type == InType::UnicodeString ? 2 : 1;
  std::string bytes;
  if (value != nullptr) {
    auto b = string_bytes(type, *value, label);
    if (!b) return std::unexpected(b.error());
    bytes = std::move(*b);
  }
  const uint64_t units = bytes.size() / unit;
  if (length && units > *length) {
    return std::unexpected(field_error(label, "the string has " + std::to_string(units) +
                                                  (unit == 2 ? " UTF-16 code units" : " bytes") +
                                                  ", more than its length " +
                                                  std::to_string(*length)));
  }
  for (uint64_t i = 0; !length && i < bytes.size(); i += unit) {
    if (bytes[i] == 0 && (unit == 1 || bytes[i + 1] == 0)) {
      return std::unexpected(field_error(label, "a NUL-terminated string cannot contain NUL"));
    }
  }
  out.insert(out.end(), bytes.begin(), bytes.end());
  const uint64_t padded = length ? *length : units + 1;
  out.insert(out.end(), (padded - units) * unit, 0);
  return {};
}

// Bytes from a Bytes value or an array of integers 0..255.
Result<std::vector<uint8_t>> byte_list(const FieldValue& value, const std::string& label) {
  if (value.kind == FieldValue::Kind::Bytes) return value.bytes;
  if (value.kind != FieldValue::Kind::Array) {
    return std::unexpected(field_error(label, "expected bytes, got " + value.describe()));
  }
  std::vector<uint8_t> bytes;
  for (const FieldValue& e : value.array) {
    const std::optional<uint64_t> b = as_count(e);
    if (!b || *b > 255)
      return std::unexpected(field_error(label, "expected bytes (0..255), got " + e.describe()));
    bytes.push_back(static_cast<uint8_t>(*b));
  }
  return bytes;
}

Result<void> encode_binary(const FieldValue* value, std::optional<uint64_t> length,
                           const std::string& label, std::vector<uint8_t>& out) {
  if (!length) return std::unexpected(field_error(label, "a binary field needs a length"));
  std::vector<uint8_t> bytes;
  if (value != nullptr) {
    auto b = byte_list(*value, label);
    if (!b) return std::unexpected(b.error());
    bytes = std::move(*b);
  }
  if (bytes.size() > *length) {
    return std::unexpected(field_error(
        label,
        std::to_string(bytes.size()) + " bytes, more than its length " + std::to_string(*length)));
  }
  out.insert(out.end(), bytes.begin(), bytes.end());
  out.insert(out.end(), *length - bytes.size(), 0);
  return {};
}

Result<void> encode_sid(const FieldValue* value, const std::string& label,
                        std::vector<uint8_t>& out) {
  if (value == nullptr) {
    const uint8_t null_sid[8] = {1, 0, 0, 0, 0, 0, 0, 0};  // S-1-0, no sub-authorities
    out.insert(out.end(), null_sid, null_sid + 8);
    return {};
  }
  auto bytes = byte_list(*value, label);
  if (!bytes) return std::unexpected(bytes.error());
  if (bytes->size() < 8 || bytes->size() != 8 + 4 * size_t{(*bytes)[1]}) {
    return std::unexpected(
        field_error(label, "a SID of " + std::to_string(bytes->size()) +
                               " bytes must be 8 + 4 * SubAuthorityCount (byte 1) bytes long"));
  }
  out.insert(out.end(), bytes->begin(), bytes->end());
  return {};
}

Result<void> encode_systemtime(const FieldValue* value, const std::string& label,
                               std::vector<uint8_t>& out) {
  if (value == nullptr) return out.insert(out.end(), 16, 0), Result<void>{};
  if (value->kind == FieldValue::Kind::Bytes && value->bytes.size() == 16) {
    out.insert(out.end(), value->bytes.begin(), value->bytes.end());
    return {};
  }
  if (value->kind != FieldValue::Kind::Array || value->array.size() != 8) {
    return std::unexpected(field_error(
        label, "expected 16 bytes or 8 integers for systemtime, got " + value->describe()));
  }
  for (const FieldValue& e : value->array) {
    const std::optional<uint64_t> v = as_count(e);
    if (!v || *v > 0xFFFF)
      return std::unexpected(
          field_error(label, e.describe() + " does not fit a SYSTEMTIME member (0..65535)"));
    put_le(out, *v, 2);
  }
  return {};
}

Result<void> encode_guid(const FieldValue* value, const std::string& label,
                         std::vector<uint8_t>& out) {
  Guid g;
  if (value != nullptr && value->kind == FieldValue::Kind::Guid) {
    g = value->guid_value;
  } else if (value != nullptr) {
    std::optional<Guid> parsed;
    if (value->kind == FieldValue::Kind::String) parsed = Guid::parse(value->string_value);
    if (!parsed)
      return std::unexpected(
          field_error(label, "expected a GUID \"{...}\", got " + value->describe()));
    g = *parsed;
  }
  const std::array<uint8_t, 16> b = g.to_bytes();
  out.insert(out.end(), b.begin(), b.end());
  return {};
}

}  // namespace

std::optional<uint64_t> as_count(const FieldValue& value) {
  const std::optional<IntValue> v = as_integer(value);
  if (!v || v->negative || v->overflow) return std::nullopt;
  return v->magnitude;
}

std::optional<uint64_t> element_length(InType type, const FieldValue& value) {
  if (type == InType::UnicodeString && value.kind == FieldValue::Kind::String) {
    std::u16string units;
    if (!utf8_to_utf16(value.string_value, units)) return std::nullopt;
    return units.size();
  }
  if (type == InType::AnsiString && value.kind == FieldValue::Kind::String)
    return value.string_value.size();
  if (type == InType::Binary && value.kind == FieldValue::Kind::Bytes) return value.bytes.size();
  if (type == InType::Binary && value.kind == FieldValue::Kind::Array) return value.array.size();
  return std::nullopt;
}

Result<void> encode_element(InType type, const FieldValue* value, std::optional<uint64_t> length,
                            const std::string& label, std::vector<uint8_t>& out) {
  if (value != nullptr && value->kind == FieldValue::Kind::Null) value = nullptr;
  switch (type) {
    case InType::UnicodeString:
    case InType::AnsiString: return encode_string(type, value, length, label, out);
    case InType::Float:
    case InType::Double: return encode_real(type, value, label, out);
    case InType::Guid: return encode_guid(value, label, out);
    case InType::Binary: return encode_binary(value, length, label, out);
    case InType::Sid: return encode_sid(value, label, out);
    case InType::SystemTime: return encode_systemtime(value, label, out);
    default:
      if (in_type_is_integer(type)) return encode_integer(type, value, label, out);
      return std::unexpected(field_error(label, "unsupported type"));
  }
}

}  // namespace pfc::internal
