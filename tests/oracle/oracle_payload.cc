// tests/oracle/oracle_payload.cc — the oracle's own payload decoder (field layout and TDH
// in-types: docs/semantics.md §6) and predicate evaluation (§2.1–§2.2). Decodes
// every field of the event into a value up front, with plain byte arithmetic on
// mathematical (unbounded, here: checked) sizes; no code shared with runtime/tdh.cc.
#include <cstring>

#include "tests/oracle/oracle_internal.h"

namespace pfc::oracle_internal {
namespace {

constexpr uint64_t kMax = ~uint64_t{0};

// Reads `width` little-endian bytes as an unsigned number.
uint64_t read_le(const uint8_t* p, uint32_t width) {
  uint64_t v = 0;
  for (uint32_t i = 0; i < width; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

// The value of an extent: a constant, or the 64-bit value of an earlier decoded field
// (nullopt if that field did not decode).
std::optional<uint64_t> extent_value(const Extent& e, const std::vector<Decoded>& done) {
  if (e.kind == Extent::Kind::Fixed) return e.value;
  if (e.value >= done.size() || !done[e.value].ok) return std::nullopt;
  return done[e.value].int_value;
}

// Where one element starting at `off` ends, or nullopt when it does not fit in `size`.
// `length` is nullopt for "no length declared".
std::optional<uint64_t> element_end(const FieldDef& f, const uint8_t* p, uint64_t size,
                                    uint64_t off, std::optional<uint64_t> length) {
  const uint64_t room = size - off;
  if (f.type == InType::UnicodeString || f.type == InType::AnsiString) {
    const uint64_t unit = f.type == InType::UnicodeString ? 2 : 1;
    if (length) {
      if (*length > room / unit) return std::nullopt;
      return off + *length * unit;
    }
    for (uint64_t i = off; i + unit <= size; i += unit) {  // find the terminator
      if (p[i] == 0 && (unit == 1 || p[i + 1] == 0)) return i + unit;
    }
    return std::nullopt;
  }
  if (f.type == InType::Binary) {
    if (!length || *length > room) return std::nullopt;
    return off + *length;
  }
  if (f.type == InType::Sid) {
    if (room < 8) return std::nullopt;
    const uint64_t n = 8 + 4 * uint64_t{p[off + 1]};
    if (n > room) return std::nullopt;
    return off + n;
  }
  const uint64_t n = type_size(f.type);
  if (n == 0 || n > room) return std::nullopt;
  return off + n;
}

// The characters of a decoded string element [begin, end) with an optional length.
std::u32string string_text(const FieldDef& f, const uint8_t* p, uint64_t begin, uint64_t end,
                           bool has_length) {
  const uint64_t unit = f.type == InType::UnicodeString ? 2 : 1;
  uint64_t stop = has_length ? end : end - unit;           // drop the terminator
  for (uint64_t i = begin; i + unit <= stop; i += unit) {  // padded strings end at a NUL
    if (p[i] == 0 && (unit == 1 || p[i + 1] == 0)) {
      stop = i;
      break;
    }
  }
  if (unit == 2) return decode_utf16le(p + begin, stop - begin);
  return decode_utf8(std::string_view(reinterpret_cast<const char*>(p + begin), stop - begin));
}

// Decodes one field at `off`; `done` holds the earlier fields.
Decoded decode_field(const FieldDef& f, const uint8_t* p, uint64_t size, uint64_t off,
                     const std::vector<Decoded>& done) {
  Decoded d;
  d.begin = off;
  std::optional<uint64_t> count = uint64_t{1};
  if (f.count.present()) count = extent_value(f.count, done);
  std::optional<uint64_t> length;
  if (f.length.present()) {
    length = extent_value(f.length, done);
    if (!length) return d;  // its source did not decode (then neither does this field)
  }
  if (!count) return d;
  const bool zero_size =
      length && *length == 0 &&
      (f.type == InType::UnicodeString || f.type == InType::AnsiString || f.type == InType::Binary);
  uint64_t end = off;
  if (!zero_size) {
    for (uint64_t i = 0; i < *count; ++i) {  // every element takes ≥ 1 byte: ≤ size rounds
      std::optional<uint64_t> e = element_end(f, p, size, end, length);
      if (!e) return d;
      end = *e;
    }
  }
  d.ok = true;
  d.end = end;
  if (f.count.present() || zero_size) return d;  // arrays have no value; "" stays empty
  if (type_is_integer(f.type)) {
    const uint32_t w = type_size(f.type);
    d.int_value = read_le(p + off, w);
    if (type_is_signed(f.type) && w < 8 && (d.int_value >> (8 * w - 1)) != 0) {
      d.int_value |= kMax << (8 * w);
    }
  } else if (type_is_string(f.type)) {
    d.text = string_text(f, p, off, end, length.has_value());
  } else if (f.type == InType::Guid) {
    d.bytes.assign(p + off, p + end);
  }
  return d;
}

bool compare_signed(PayloadOp op, int64_t v, int64_t lo, int64_t hi) {
  switch (op) {
    case PayloadOp::Eq: return v == lo;
    case PayloadOp::Ne: return v != lo;
    case PayloadOp::Le: return v <= lo;
    case PayloadOp::Gt: return v > lo;
    case PayloadOp::Lt: return v < lo;
    case PayloadOp::Ge: return v >= lo;
    case PayloadOp::Between: return lo <= v && v <= hi;
    case PayloadOp::NotBetween: return v < lo || v > hi;
    case PayloadOp::Modulo: return lo != 0 && (lo == -1 || v % lo == 0);
    default: return false;
  }
}

bool compare_unsigned(PayloadOp op, uint64_t v, uint64_t lo, uint64_t hi) {
  switch (op) {
    case PayloadOp::Eq: return v == lo;
    case PayloadOp::Ne: return v != lo;
    case PayloadOp::Le: return v <= lo;
    case PayloadOp::Gt: return v > lo;
    case PayloadOp::Lt: return v < lo;
    case PayloadOp::Ge: return v >= lo;
    case PayloadOp::Between: return lo <= v && v <= hi;
    case PayloadOp::NotBetween: return v < lo || v > hi;
    case PayloadOp::Modulo: return lo != 0 && v % lo == 0;
    default: return false;
  }
}

// TDH_INTYPE_GUID layout: Data1, Data2, Data3 little-endian, then Data4.
std::vector<uint8_t> guid_bytes(const Guid& g) {
  std::vector<uint8_t> b;
  b.reserve(4);
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(g.data1 >> (8 * i)));
  for (int i = 0; i < 2; ++i) b.push_back(static_cast<uint8_t>(g.data2 >> (8 * i)));
  for (int i = 0; i < 2; ++i) b.push_back(static_cast<uint8_t>(g.data3 >> (8 * i)));
  b.insert(b.end(), g.data4.begin(), g.data4.end());
  return b;
}

std::u32string folded(std::u32string s) {
  for (char32_t& c : s) c = fold(c);
  return s;
}

bool case_sensitive(PayloadOp op) {
  switch (op) {
    case PayloadOp::IsCs:
    case PayloadOp::IsNotCs:
    case PayloadOp::ContainsCs:
    case PayloadOp::DoesntContainCs:
    case PayloadOp::StartsWithCs:
    case PayloadOp::EndsWithCs:
    case PayloadOp::MatchesCs:
    case PayloadOp::RegexCs: return true;
    default: return false;
  }
}

bool string_predicate(PayloadOp op, const std::u32string& field, const std::string& value,
                      bool eight_bit) {
  const bool cs = case_sensitive(op);
  const std::u32string hay = cs ? field : folded(field);
  const std::u32string needle = cs ? decode_utf8(value) : folded(decode_utf8(value));
  const bool found = hay.find(needle) != std::u32string::npos;
  switch (op) {
    case PayloadOp::Is:
    case PayloadOp::IsCs: return hay == needle;
    case PayloadOp::IsNot:
    case PayloadOp::IsNotCs: return hay != needle;
    case PayloadOp::Contains:
    case PayloadOp::ContainsCs: return found;
    case PayloadOp::DoesntContain:
    case PayloadOp::DoesntContainCs: return !found;
    case PayloadOp::StartsWith:
    case PayloadOp::StartsWithCs: return hay.substr(0, needle.size()) == needle;
    case PayloadOp::EndsWith:
    case PayloadOp::EndsWithCs:
      return hay.size() >= needle.size() && hay.substr(hay.size() - needle.size()) == needle;
    case PayloadOp::Matches:
    case PayloadOp::MatchesCs: return glob_match(value, field, !cs);
    case PayloadOp::Regex:
    case PayloadOp::RegexCs: return regex_match(value, field, !cs, eight_bit).value_or(false);
    default: return false;
  }
}

}  // namespace

std::vector<Decoded> decode_payload(const EventDef& event, const uint8_t* payload, uint64_t size) {
  std::vector<Decoded> out;
  bool fits = true;
  uint64_t off = 0;
  for (const FieldDef& f : event.fields) {
    Decoded d;
    if (fits) d = decode_field(f, payload, size, off, out);
    fits = fits && d.ok;
    off = d.end;
    out.push_back(std::move(d));
  }
  return out;
}

bool eval_field_predicate(const EventDef& event, const std::vector<Decoded>& values,
                          const PayloadPredicate& pred) {
  const uint64_t other = pred.value.lo;
  if (pred.field >= values.size() || other >= values.size()) return false;
  const Decoded& a = values[pred.field];
  const Decoded& b = values[other];
  const FieldDef& fa = event.fields[pred.field];
  const FieldDef& fb = event.fields[other];
  if (!a.ok || !b.ok || fa.count.present() || fb.count.present()) return false;
  if (!type_is_integer(fa.type) || !type_is_integer(fb.type)) return false;
  // Mathematical comparison of the two values (the checker rules out the pairs where a
  // 64-bit comparison could not give it).
  const bool sa = type_is_signed(fa.type) && static_cast<int64_t>(a.int_value) < 0;
  const bool sb = type_is_signed(fb.type) && static_cast<int64_t>(b.int_value) < 0;
  int cmp = 0;
  if (sa != sb) cmp = sa ? -1 : 1;
  else if (sa)
    cmp = static_cast<int64_t>(a.int_value) < static_cast<int64_t>(b.int_value)
              ? -1
              : a.int_value != b.int_value;
  else cmp = a.int_value < b.int_value ? -1 : a.int_value != b.int_value;
  switch (pred.op) {
    case PayloadOp::FieldEq: return cmp == 0;
    case PayloadOp::FieldNe: return cmp != 0;
    case PayloadOp::FieldLe: return cmp <= 0;
    case PayloadOp::FieldGt: return cmp > 0;
    case PayloadOp::FieldLt: return cmp < 0;
    case PayloadOp::FieldGe: return cmp >= 0;
    default: return false;
  }
}

bool eval_predicate(const FieldDef& field, const Decoded& value, const PayloadPredicate& pred) {
  if (!value.ok || field.count.present()) return false;  // §2.1: undecodable → false
  if (type_is_integer(field.type)) {
    if (type_is_signed(field.type)) {
      return compare_signed(pred.op, static_cast<int64_t>(value.int_value),
                            static_cast<int64_t>(pred.value.lo),
                            static_cast<int64_t>(pred.value.hi));
    }
    return compare_unsigned(pred.op, value.int_value, pred.value.lo, pred.value.hi);
  }
  if (type_is_string(field.type))
    return string_predicate(pred.op, value.text, pred.value.text, field.type == InType::AnsiString);
  if (field.type == InType::Guid) {
    if (pred.op != PayloadOp::Is && pred.op != PayloadOp::IsNot) return false;
    return (value.bytes == guid_bytes(pred.value.guid)) == (pred.op == PayloadOp::Is);
  }
  return false;
}

uint32_t type_size(InType t) {
  switch (t) {
    case InType::Int8:
    case InType::UInt8: return 1;
    case InType::Int16:
    case InType::UInt16: return 2;
    case InType::Int32:
    case InType::UInt32:
    case InType::Float:
    case InType::Boolean:
    case InType::HexInt32: return 4;
    case InType::Int64:
    case InType::UInt64:
    case InType::Double:
    case InType::Pointer:
    case InType::FileTime:
    case InType::HexInt64: return 8;
    case InType::Guid:
    case InType::SystemTime: return 16;
    default: return 0;
  }
}

bool type_is_integer(InType t) {
  switch (t) {
    case InType::Int8:
    case InType::UInt8:
    case InType::Int16:
    case InType::UInt16:
    case InType::Int32:
    case InType::UInt32:
    case InType::Int64:
    case InType::UInt64:
    case InType::Boolean:
    case InType::HexInt32:
    case InType::HexInt64:
    case InType::FileTime:
    case InType::Pointer: return true;
    default: return false;
  }
}

bool type_is_signed(InType t) {
  return t == InType::Int8 || t == InType::Int16 || t == InType::Int32 || t == InType::Int64;
}

bool type_is_string(InType t) { return t == InType::UnicodeString || t == InType::AnsiString; }

}  // namespace pfc::oracle_internal
