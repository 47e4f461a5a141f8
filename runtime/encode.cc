// runtime/encode.cc — encode_payload (encode.h): resolves the given values against the
// event's fields, derives missing count/length sources, and writes each field in
// declaration order with encode_element (encode_value.cc).
#include "runtime/encode.h"

#include <algorithm>
#include <charconv>
#include <optional>

#include "runtime/encode_value.h"

namespace pfc {

FieldValue FieldValue::of_int(int64_t v) {
  FieldValue f;
  f.kind = Kind::Int, f.int_value = v;
  return f;
}
FieldValue FieldValue::of_uint(uint64_t v) {
  FieldValue f;
  f.kind = Kind::UInt, f.uint_value = v;
  return f;
}
FieldValue FieldValue::of_double(double v) {
  FieldValue f;
  f.kind = Kind::Double, f.double_value = v;
  return f;
}
FieldValue FieldValue::of_bool(bool v) {
  FieldValue f;
  f.kind = Kind::Bool, f.bool_value = v;
  return f;
}
FieldValue FieldValue::of_string(std::string v) {
  FieldValue f;
  f.kind = Kind::String, f.string_value = std::move(v);
  return f;
}
FieldValue FieldValue::of_guid(const Guid& v) {
  FieldValue f;
  f.kind = Kind::Guid, f.guid_value = v;
  return f;
}
FieldValue FieldValue::of_bytes(std::vector<uint8_t> v) {
  FieldValue f;
  f.kind = Kind::Bytes, f.bytes = std::move(v);
  return f;
}
FieldValue FieldValue::of_array(std::vector<FieldValue> v) {
  FieldValue f;
  f.kind = Kind::Array, f.array = std::move(v);
  return f;
}

std::string FieldValue::describe() const {
  switch (kind) {
    case Kind::Null: return "null";
    case Kind::Int: return std::to_string(int_value);
    case Kind::UInt: return std::to_string(uint_value);
    case Kind::Double: {
      char buf[64];
      const auto r = std::to_chars(buf, buf + sizeof buf, double_value);  // shortest round trip
      return std::string(buf, r.ptr);
    }
    case Kind::Bool: return bool_value ? "true" : "false";
    case Kind::String:
      if (string_value.size() > 40) return "\"" + string_value.substr(0, 40) + "...\"";
      return "\"" + string_value + "\"";
    case Kind::Guid: return guid_value.to_string();
    case Kind::Bytes: return std::to_string(bytes.size()) + " bytes";
    case Kind::Array: return "an array of " + std::to_string(array.size()) + " elements";
  }
  return "?";
}

namespace {

// kMaxPayloadBytes (encode.h) bounds the whole encoded payload, so that a huge count or
// length given for a missing field is an error rather than an allocation failure.

Error field_error(const std::string& name, const std::string& what) {
  return Error{"field '" + name + "': " + what};
}

// Per field: the given value, or nullptr when missing or null.
Result<std::vector<const FieldValue*>> collect_values(
    const EventDef& event, const std::vector<std::pair<std::string, FieldValue>>& values) {
  std::vector<const FieldValue*> given(event.fields.size(), nullptr);
  std::vector<bool> seen(event.fields.size(), false);
  for (const auto& [name, value] : values) {
    const std::optional<uint32_t> index = event.find_field(name);
    if (!index) return make_error("unknown field '" + name + "' in event '" + event.name + "'");
    if (seen[*index]) return make_error("field '" + name + "' is given twice");
    seen[*index] = true;
    if (value.kind != FieldValue::Kind::Null) given[*index] = &value;
  }
  return given;
}

// The count or length that the given value of `field` implies for its source, if any.
std::optional<uint64_t> implied_extent(const FieldDef& field, const FieldValue& value,
                                       bool is_count) {
  if (is_count) {
    if (value.kind != FieldValue::Kind::Array) return std::nullopt;
    return value.array.size();
  }
  if (!field.count.present()) return internal::element_length(field.type, value);
  if (value.kind != FieldValue::Kind::Array) return std::nullopt;
  uint64_t longest = 0;
  for (const FieldValue& e : value.array) {
    longest = std::max(longest, internal::element_length(field.type, e).value_or(0));
  }
  return longest;
}

// The value of every count/length source field: given, else implied by its first given
// dependent, else 0. Non-sources stay nullopt.
Result<std::vector<std::optional<uint64_t>>> resolve_sources(
    const EventDef& event, const std::vector<const FieldValue*>& given) {
  const size_t n = event.fields.size();
  std::vector<std::optional<uint64_t>> source(n);
  for (size_t i = 0; i < n; ++i) {
    const FieldDef& f = event.fields[i];
    for (const bool is_count : {true, false}) {
      const Extent& e = is_count ? f.count : f.length;
      if (e.kind != Extent::Kind::Field) continue;
      const size_t k = e.value;
      if (k >= i || !in_type_is_integer(event.fields[k].type) || event.fields[k].count.present()) {
        return std::unexpected(
            field_error(f.name, "its count/length source is not an earlier integer scalar field"));
      }
      if (source[k]) continue;
      if (given[k] != nullptr) {
        source[k] = internal::as_count(*given[k]);
        if (!source[k]) {
          return std::unexpected(field_error(
              event.fields[k].name, "expected a non-negative integer (it is the " +
                                        std::string(is_count ? "count" : "length") + " of '" +
                                        f.name + "'), got " + given[k]->describe()));
        }
      } else if (given[i] != nullptr) {
        source[k] = implied_extent(f, *given[i], is_count);
      }
    }
  }
  return source;
}

// A lower bound on the encoded size of one element (bounds arrays before encoding them).
uint64_t min_element_size(InType type, std::optional<uint64_t> length) {
  switch (type) {
    case InType::UnicodeString: return length ? 2 * *length : 2;
    case InType::AnsiString: return length ? *length : 1;
    case InType::Binary: return length.value_or(0);
    case InType::Sid: return 8;
    default: return in_type_fixed_size(type);
  }
}

std::optional<uint64_t> extent_value(const Extent& e,
                                     const std::vector<std::optional<uint64_t>>& source) {
  switch (e.kind) {
    case Extent::Kind::None: return std::nullopt;
    case Extent::Kind::Fixed: return e.value;
    case Extent::Kind::Field: return source[e.value].value_or(0);
  }
  return std::nullopt;
}

// An array field of `count` elements (value null: `count` default elements).
Result<void> encode_array(const EventDef& event, const FieldDef& f, const FieldValue* value,
                          uint64_t count, std::optional<uint64_t> length,
                          std::vector<uint8_t>& out) {
  if (value != nullptr && value->kind != FieldValue::Kind::Array) {
    return std::unexpected(field_error(f.name, "expected an array, got " + value->describe()));
  }
  if (value != nullptr && value->array.size() != count) {
    std::string why = f.count.kind == Extent::Kind::Fixed
                          ? "its count is " + std::to_string(count)
                          : "its count field '" + event.fields[f.count.value].name + "' is " +
                                std::to_string(count);
    return std::unexpected(field_error(f.name, value->describe() + ", but " + why));
  }
  const uint64_t room = kMaxPayloadBytes - std::min<uint64_t>(out.size(), kMaxPayloadBytes);
  if (count > room / std::max<uint64_t>(1, min_element_size(f.type, length))) {
    return std::unexpected(field_error(f.name, std::to_string(count) +
                                                   " elements would exceed the payload limit of " +
                                                   std::to_string(kMaxPayloadBytes) + " bytes"));
  }
  if (value == nullptr) {  // `count` copies of one default element
    std::vector<uint8_t> element;
    auto r = internal::encode_element(f.type, nullptr, length, f.name, element);
    if (!r) return r;
    if (std::all_of(element.begin(), element.end(), [](uint8_t b) { return b == 0; })) {
      out.resize(out.size() + count * element.size());  // bounded by the check above
      return {};
    }
    for (uint64_t j = 0; j < count; ++j) out.insert(out.end(), element.begin(), element.end());
    return {};
  }
  for (uint64_t j = 0; j < count; ++j) {
    auto r = internal::encode_element(f.type, &value->array[j], length,
                                      f.name + "[" + std::to_string(j) + "]", out);
    if (!r) return r;
    if (out.size() > kMaxPayloadBytes) {  // given elements may be larger than the minimum
      return std::unexpected(field_error(
          f.name, "the payload exceeds " + std::to_string(kMaxPayloadBytes) + " bytes"));
    }
  }
  return {};
}

Result<void> encode_field(const EventDef& event, size_t i, const FieldValue* value,
                          const std::vector<std::optional<uint64_t>>& source,
                          std::vector<uint8_t>& out) {
  const FieldDef& f = event.fields[i];
  const std::optional<uint64_t> length = extent_value(f.length, source);
  const uint64_t room = kMaxPayloadBytes - std::min<uint64_t>(out.size(), kMaxPayloadBytes);
  // The whole payload is bounded, not each field: a length is checked against what is left.
  const bool scalar = !f.count.present();  // arrays check count × element size themselves
  if (length &&
      (*length > kMaxPayloadBytes || (scalar && min_element_size(f.type, length) > room))) {
    return std::unexpected(field_error(f.name, "length " + std::to_string(*length) +
                                                   " would exceed the payload limit of " +
                                                   std::to_string(kMaxPayloadBytes) + " bytes"));
  }
  if (!scalar) return encode_array(event, f, value, *extent_value(f.count, source), length, out);
  auto r = internal::encode_element(f.type, value, length, f.name, out);
  if (r && out.size() > kMaxPayloadBytes) {  // a given value may be larger than the minimum
    return std::unexpected(
        field_error(f.name, "the payload exceeds " + std::to_string(kMaxPayloadBytes) + " bytes"));
  }
  return r;
}

}  // namespace

Result<std::vector<uint8_t>> encode_payload(
    const EventDef& event, const std::vector<std::pair<std::string, FieldValue>>& values) {
  auto given = collect_values(event, values);
  if (!given) return std::unexpected(given.error());
  auto source = resolve_sources(event, *given);
  if (!source) return std::unexpected(source.error());
  std::vector<uint8_t> out;
  for (size_t i = 0; i < event.fields.size(); ++i) {
    const FieldValue* value = (*given)[i];
    FieldValue derived;
    if (value == nullptr && (*source)[i]) {
      derived = FieldValue::of_uint(*(*source)[i]);
      value = &derived;
    }
    auto r = encode_field(event, i, value, *source, out);
    if (!r) return std::unexpected(r.error());
  }
  return out;
}

}  // namespace pfc
