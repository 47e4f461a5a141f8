// io/event_fields_simple.cc — encode_simple_fields (io/event_fields_simple.h). The rules
// are those of runtime/encode.h restricted to the cases handled here; anything else is
// declined, never approximated (tests/io/event_fields_test.cc compares both paths).
#include "io/event_fields_simple.h"

#include <array>
#include <cstring>
#include <optional>
#include <string_view>

#include "base/utf8.h"
#include "pfc/guid.h"
#include "runtime/encode.h"

namespace pfc::io {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

bool simple_type(InType t) {
  return in_type_is_integer(t) || t == InType::UnicodeString || t == InType::AnsiString ||
         t == InType::Guid;
}

bool simple_event(const EventDef& event) {
  for (const FieldDef& f : event.fields)
    if (f.count.present() || f.length.present() || !simple_type(f.type)) return false;
  return true;
}

void put_le(std::vector<uint8_t>& out, uint64_t v, uint32_t width) {
  const size_t at = out.size();
  out.resize(at + width);
  for (uint32_t i = 0; i < width; ++i) out[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// A JSON integer (or, for bool, true/false) of `type`, range-checked as encode_integer does.
bool put_integer(InType type, element v, std::vector<uint8_t>& out) {
  const uint32_t width = in_type_fixed_size(type);
  const uint64_t bits = 8 * uint64_t{width};
  uint64_t magnitude = 0;
  bool negative = false;
  switch (v.type()) {
    case element_type::BOOL:
      if (type != InType::Boolean) return false;
      put_le(out, bool(v.get_bool()) ? 1 : 0, width);
      return true;
    case element_type::UINT64: magnitude = uint64_t(v.get_uint64()); break;
    case element_type::INT64: {
      const int64_t i = v.get_int64();
      negative = i < 0;
      magnitude = negative ? 0 - static_cast<uint64_t>(i) : static_cast<uint64_t>(i);
      break;
    }
    default: return false;
  }
  bool fits;
  if (type == InType::Boolean) {
    fits = !negative && magnitude <= 1;
  } else if (in_type_is_signed(type)) {
    const uint64_t limit = uint64_t{1} << (bits - 1);
    fits = negative ? magnitude <= limit : magnitude < limit;
  } else {
    fits = !negative && (bits == 64 || magnitude < (uint64_t{1} << bits));
  }
  if (!fits) return false;
  put_le(out, negative ? 0 - magnitude : magnitude, width);
  return true;
}

// A NUL-terminated string: UTF-16LE for wstring, the UTF-8 bytes for string.
bool put_string(InType type, element v, std::vector<uint8_t>& out) {
  if (v.type() != element_type::STRING) return false;
  const std::string_view s = v.get_string();
  if (s.find('\0') != std::string_view::npos) return false;
  const size_t at = out.size();
  if (type == InType::AnsiString) {
    out.resize(at + s.size() + 1);  // the terminator is the zero resize() writes
    std::memcpy(out.data() + at, s.data(), s.size());
    return true;
  }
  out.resize(at + 2 * s.size() + 2);  // UTF-16 code units never outnumber UTF-8 bytes
  uint8_t* w = out.data() + at;
  const auto unit = [&w](uint32_t u) {
    w[0] = static_cast<uint8_t>(u);
    w[1] = static_cast<uint8_t>(u >> 8);
    w += 2;
  };
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const uint8_t* end = p + s.size();
  while (p != end) {
    if (*p < 0x80) {  // ASCII
      unit(*p++);
      continue;
    }
    char32_t cp = 0;
    const size_t n = decode_utf8_sequence(p, size_t(end - p), &cp);
    if (n == 0) return false;  // not valid UTF-8: the general path reports it
    p += n;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      unit(0xD800 + (cp >> 10));
      cp = 0xDC00 + (cp & 0x3FF);
    }
    unit(cp);
  }
  unit(0);
  out.resize(size_t(w - out.data()));
  return true;
}

bool put_guid(element v, std::vector<uint8_t>& out) {
  if (v.type() != element_type::STRING) return false;
  const std::optional<Guid> g = Guid::parse(std::string_view(v.get_string()));
  if (!g) return false;
  const std::array<uint8_t, 16> b = g->to_bytes();
  out.insert(out.end(), b.begin(), b.end());
  return true;
}

bool put_value(InType type, element v, std::vector<uint8_t>& out) {
  if (type == InType::UnicodeString || type == InType::AnsiString) return put_string(type, v, out);
  if (type == InType::Guid) return put_guid(v, out);
  return put_integer(type, v, out);
}

}  // namespace

bool encode_simple_fields(const EventDef& event, simdjson::dom::object fields,
                          std::vector<uint8_t>& out) {
  if (!simple_event(event)) return false;
  out.clear();
  size_t next = 0;  // fields are taken in declaration order (how pfc writes them)
  for (simdjson::dom::key_value_pair member : fields) {
    if (next == event.fields.size() || event.fields[next].name != member.key) return false;
    if (!put_value(event.fields[next].type, member.value, out)) return false;
    ++next;
  }
  return next == event.fields.size() && out.size() <= kMaxPayloadBytes;
}

}  // namespace pfc::io
