// io/event_decode.cc — TDH payload → FieldValues (io/event_decode.h), with the exactness
// check by re-encoding.
#include "io/event_decode.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "base/hex.h"
#include "base/utf8.h"
#include "io/json_text.h"
#include "pfc/events.h"
#include "runtime/tdh.h"

namespace pfc::io {
namespace {

class Decoder {
 public:
  Decoder(const EventDef& def, const EventView& e) : def_(def), p_(e.payload), n_(e.payload_size) {}

  std::optional<DecodedFields> run() {
    DecodedFields out;
    ints_.assign(def_.fields.size(), std::nullopt);
    for (size_t i = 0; i < def_.fields.size(); ++i) {
      auto v = field(i);
      if (!v) return std::nullopt;
      out.emplace_back(def_.fields[i].name, std::move(*v));
    }
    if (off_ != n_) return std::nullopt;  // bytes after the last field
    return out;
  }

 private:
  std::optional<uint64_t> extent(const Extent& x) const {
    if (x.kind == Extent::Kind::Fixed) return x.value;
    if (x.kind == Extent::Kind::Field && x.value < ints_.size()) return ints_[x.value];
    return std::nullopt;
  }

  std::optional<FieldValue> field(size_t i) {
    const FieldDef& f = def_.fields[i];
    uint64_t length = PFC_TDH_NO_LENGTH;
    if (f.length.present()) {
      const auto l = extent(f.length);
      if (!l) return std::nullopt;
      length = pfc_tdh_field_length(*l);
    }
    if (!f.count.present()) {
      auto v = element(f.type, length);
      if (v && v->kind == FieldValue::Kind::UInt) ints_[i] = v->uint_value;
      if (v && v->kind == FieldValue::Kind::Int) ints_[i] = uint64_t(v->int_value);
      return v;
    }
    const auto count = extent(f.count);
    if (!count || *count > n_ - off_) return std::nullopt;  // each element takes ≥ 1 byte
    std::vector<FieldValue> items;
    items.reserve(size_t(*count));
    for (uint64_t k = 0; k < *count; ++k) {
      auto v = element(f.type, length);
      if (!v) return std::nullopt;
      items.push_back(std::move(*v));
    }
    return FieldValue::of_array(std::move(items));
  }

  std::optional<FieldValue> element(InType type, uint64_t length) {
    const uint64_t next = pfc_tdh_skip(p_, n_, off_, uint32_t(type), 1, length);
    if (next == PFC_TDH_BAD_OFFSET) return std::nullopt;
    const uint8_t* at = p_ + off_;
    const size_t size = size_t(next - off_);
    std::optional<FieldValue> v = value(type, at, size, length != PFC_TDH_NO_LENGTH);
    off_ = next;
    return v;
  }

  std::optional<FieldValue> value(InType type, const uint8_t* at, size_t size, bool has_length) {
    switch (type) {
      case InType::Float: {
        float f = 0;
        std::memcpy(&f, at, sizeof f);
        return finite(f);
      }
      case InType::Double: {
        double d = 0;
        std::memcpy(&d, at, sizeof d);
        return finite(d);
      }
      case InType::Guid: return FieldValue::of_guid(Guid::from_bytes(at));
      case InType::Sid:
      case InType::Binary: return FieldValue::of_bytes(std::vector<uint8_t>(at, at + size));
      case InType::SystemTime: {
        std::vector<FieldValue> parts;
        parts.reserve(8);
        for (int k = 0; k < 8; ++k)
          parts.push_back(FieldValue::of_uint(uint64_t(at[2 * k]) | uint64_t(at[2 * k + 1]) << 8));
        return FieldValue::of_array(std::move(parts));
      }
      case InType::UnicodeString: return wide(at, has_length ? size : size - 2);
      case InType::AnsiString: return narrow(at, has_length ? size : size - 1);
      default: return integer(type);
    }
  }

  static std::optional<FieldValue> finite(double d) {
    if (!std::isfinite(d)) return std::nullopt;
    return FieldValue::of_double(d);
  }

  std::optional<FieldValue> integer(InType type) {
    int ok = 0;
    const uint64_t v = pfc_tdh_load_int(p_, n_, off_, uint32_t(type), &ok);
    if (!ok) return std::nullopt;
    if (type == InType::Boolean) {
      if (v > 1) return std::nullopt;
      return FieldValue::of_bool(v == 1);
    }
    if (in_type_is_signed(type) && int64_t(v) < 0) return FieldValue::of_int(int64_t(v));
    return FieldValue::of_uint(v);
  }

  // Text up to the first NUL (a given length pads with NULs).
  static std::optional<FieldValue> narrow(const uint8_t* at, size_t size) {
    const void* nul = std::memchr(at, 0, size);
    const size_t len = nul == nullptr ? size : size_t(static_cast<const uint8_t*>(nul) - at);
    std::string text(reinterpret_cast<const char*>(at), len);
    if (!is_valid_utf8(text)) return std::nullopt;
    return FieldValue::of_string(std::move(text));
  }

  static std::optional<FieldValue> wide(const uint8_t* at, size_t size) {
    size_t len = 0;
    while (len + 1 < size && (at[len] | at[len + 1]) != 0) len += 2;
    std::string text;
    if (!utf16le_to_utf8({at, len}, text, Unpaired::Reject)) return std::nullopt;
    return FieldValue::of_string(std::move(text));
  }

  const EventDef& def_;
  const uint8_t* p_;
  uint64_t n_;
  uint64_t off_ = 0;
  std::vector<std::optional<uint64_t>> ints_;  // scalar integer values (count/length sources)
};

void append_json(std::string& out, const FieldValue& v) {
  switch (v.kind) {
    case FieldValue::Kind::Null: out += "null"; return;
    case FieldValue::Kind::Int: out += std::to_string(v.int_value); return;
    case FieldValue::Kind::UInt: out += std::to_string(v.uint_value); return;
    case FieldValue::Kind::Bool: out += v.bool_value ? "true" : "false"; return;
    case FieldValue::Kind::String: out += json_quote(v.string_value); return;
    case FieldValue::Kind::Guid: out += '"' + v.guid_value.to_string() + '"'; return;
    case FieldValue::Kind::Double: {
      char buf[40];
      const auto r = std::to_chars(buf, buf + sizeof buf, v.double_value);
      const std::string_view text(buf, size_t(r.ptr - buf));
      out += text;
      if (text.find_first_of(".e") == std::string_view::npos) out += ".0";
      return;
    }
    case FieldValue::Kind::Bytes:
      out += '[';
      for (size_t i = 0; i < v.bytes.size(); ++i) {
        if (i != 0) out += ',';
        out += std::to_string(v.bytes[i]);
      }
      out += ']';
      return;
    case FieldValue::Kind::Array:
      out += '[';
      for (size_t i = 0; i < v.array.size(); ++i) {
        if (i != 0) out += ',';
        append_json(out, v.array[i]);
      }
      out += ']';
      return;
  }
}

}  // namespace

std::optional<DecodedFields> decode_fields(const EventDef& def, const EventView& event) {
  auto fields = Decoder(def, event).run();
  if (!fields) return std::nullopt;
  const auto again = encode_payload(def, *fields);
  if (!again || again->size() != event.payload_size ||
      (event.payload_size != 0 &&
       std::memcmp(again->data(), event.payload, event.payload_size) != 0))
    return std::nullopt;
  return fields;
}

std::string field_value_json(const FieldValue& value) {
  std::string out;
  append_json(out, value);
  return out;
}

// Appends two lower-case hex digits per payload byte (sized once, no per-byte growth).
void append_payload_hex(std::string& out, const EventView& view) {
  const size_t at = out.size();
  out.resize(at + 2 * view.payload_size);
  char* p = out.data() + at;
  for (uint64_t i = 0; i < view.payload_size; ++i) {
    *p++ = hex_digit(view.payload[i] >> 4);
    *p++ = hex_digit(view.payload[i]);
  }
}

std::string payload_hex(const EventView& view) {
  std::string out;
  append_payload_hex(out, view);
  return out;
}

// Appends {"name":value,...} for decoded fields.
void append_fields_object(std::string& out, const DecodedFields& fields) {
  out += '{';
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i != 0) out += ',';
    out += json_quote(fields[i].first);
    out += ':';
    append_json(out, fields[i].second);
  }
  out += '}';
}

void append_payload_json(std::string& out, const EventDef* def, const EventView& view) {
  const std::optional<DecodedFields> fields =
      def != nullptr ? decode_fields(*def, view) : std::nullopt;
  if (!fields) {
    out += ",\"payload_hex\":\"";
    append_payload_hex(out, view);
    out += '"';
    return;
  }
  out += ",\"fields\":";
  append_fields_object(out, *fields);
}

}  // namespace pfc::io

namespace pfc {

std::optional<std::string> events_fields_json(const EventDef& def, const EventView& event) {
  const std::optional<io::DecodedFields> fields = io::decode_fields(def, event);
  if (!fields) return std::nullopt;
  std::string out;
  io::append_fields_object(out, *fields);
  return out;
}

}  // namespace pfc
