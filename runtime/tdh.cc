// runtime/tdh.cc — the TDH payload decoding primitives of runtime/tdh.h (reference §7),
// called by the reference interpreter and, as absolute symbols, by JIT-compiled code.
// Every read is checked against `size` first; nothing allocates or throws.
//
// Decisions beyond tdh.h:
// - count 0 leaves the offset unchanged (even at the payload's end); zero-size elements
//   (length 0) take no bytes whatever the count. Unknown in-types and binary without a
//   length are bad. A NUL-terminated wstring's terminator is a 0x0000 code unit aligned to
//   the field start, and must lie entirely inside the payload.
// - String predicates: without a length the value runs to its terminator (excluded); with a
//   length the field must fit `length` units and the value stops at the first NUL unit
//   inside it (fixed-length strings are NUL-padded). UTF-16 surrogate pairs decode to one
//   code point, unpaired surrogates to themselves; 8-bit text decodes as UTF-8 with each
//   invalid byte b → U+DC00 + b (as fold_utf8 does for needles). Every code point is
//   simple-case-folded before comparing; the empty needle is contained in every string.
// - MODULO with lo == 0 is false (the compiler rejects it); signed x % -1 is true.
#include "runtime/tdh.h"

#include <cstring>
#include <type_traits>

#include "pfc/enable.h"
#include "pfc/schema.h"
#include "runtime/casefold.h"
#include "runtime/utf.h"

namespace pfc {
namespace {

constexpr uint64_t kBad = PFC_TDH_BAD_OFFSET;
constexpr uint64_t kNoLength = PFC_TDH_NO_LENGTH;

// Element size of a fixed-size in-type; 0 for variable-size or unknown in-types.
uint64_t fixed_size(uint32_t in_type) {
  if (in_type > 0xFFFF) return 0;  // InType is 16-bit: do not let a wide value alias one
  return in_type_fixed_size(static_cast<InType>(in_type));
}

// `count` elements of `elem` bytes each from off (off <= size), or kBad when they do not fit.
uint64_t skip_fixed(uint64_t size, uint64_t off, uint64_t count, uint64_t elem) {
  if (elem == 0) return off;
  if (count > (size - off) / elem) return kBad;
  return off + count * elem;
}

// Offset of the first NUL code unit (1 or 2 bytes wide) in [off, end), or kBad.
uint64_t find_nul(const uint8_t* payload, uint64_t off, uint64_t end, uint64_t unit) {
  if (end - off < unit) return kBad;  // also keeps a null `payload` away from memchr
  if (unit == 1) {
    const void* hit = std::memchr(payload + off, 0, end - off);
    return hit ? static_cast<uint64_t>(static_cast<const uint8_t*>(hit) - payload) : kBad;
  }
  for (uint64_t i = off; end - i >= 2; i += 2) {
    if (payload[i] == 0 && payload[i + 1] == 0) return i;
  }
  return kBad;
}

// Offset just past `count` NUL-terminated strings from off (off <= size), or kBad. Each
// string takes at least one code unit, so the loop ends after at most size/unit rounds.
uint64_t skip_terminated(const uint8_t* payload, uint64_t size, uint64_t off, uint64_t count,
                         uint64_t unit) {
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t nul = find_nul(payload, off, size, unit);
    if (nul == kBad) return kBad;
    off = nul + unit;
  }
  return off;
}

uint64_t skip_sid(const uint8_t* payload, uint64_t size, uint64_t off, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) {  // each SID is ≥ 8 bytes: bounded by size / 8
    if (size - off < 8) return kBad;
    const uint64_t elem = 8 + 4 * uint64_t{payload[off + 1]};
    if (size - off < elem) return kBad;
    off += elem;
  }
  return off;
}

template <typename T>
int compare(uint32_t op, T v, T lo, T hi) {
  switch (static_cast<PayloadOp>(op)) {
    case PayloadOp::Eq:
      return v == lo;
    case PayloadOp::Ne:
      return v != lo;
    case PayloadOp::Le:
      return v <= lo;
    case PayloadOp::Gt:
      return v > lo;
    case PayloadOp::Lt:
      return v < lo;
    case PayloadOp::Ge:
      return v >= lo;
    case PayloadOp::Between:
      return lo <= v && v <= hi;
    case PayloadOp::NotBetween:
      return !(lo <= v && v <= hi);
    case PayloadOp::Modulo:
      if (lo == 0) return 0;  // excluded by the compiler; stay defined
      if constexpr (std::is_signed_v<T>) {
        if (lo == -1) return 1;  // x % -1 == 0 (INT64_MIN % -1 would trap)
      }
      return v % lo == 0;
    default:
      return 0;
  }
}

// Folded code points of a string field's bytes [p, end). Copyable: a copy resumes from the
// same position (the substring search restarts from saved positions).
struct Utf8Source {
  const uint8_t* p;
  const uint8_t* end;
  bool done() const { return p >= end; }
  char32_t next() {
    const uint8_t b = *p;
    if (b < 0x80) {
      ++p;
      return (b >= 'A' && b <= 'Z') ? b + 32 : b;
    }
    return fold_case(decode_utf8_step(p, end));
  }
};

struct Utf16Source {
  const uint8_t* p;
  const uint8_t* end;  // end - p is even
  bool done() const { return p >= end; }
  char32_t next() {
    if (p[1] == 0 && p[0] < 0x80) {
      const uint8_t b = p[0];
      p += 2;
      return (b >= 'A' && b <= 'Z') ? b + 32 : b;
    }
    return fold_case(decode_utf16le_step(p, end));
  }
};

template <typename Source>
bool equals(Source s, const char32_t* needle, uint64_t needle_len) {
  for (uint64_t i = 0; i < needle_len; ++i) {
    if (s.done() || s.next() != needle[i]) return false;
  }
  return s.done();
}

// Naive O(n·m) substring search over folded code points, without buffers.
template <typename Source>
bool contains(Source s, const char32_t* needle, uint64_t needle_len) {
  if (needle_len == 0) return true;
  const char32_t first = needle[0];
  while (!s.done()) {
    if (s.next() != first) continue;
    Source t = s;
    uint64_t i = 1;
    while (i < needle_len && !t.done() && t.next() == needle[i]) ++i;
    if (i == needle_len) return true;
    if (t.done()) return false;  // every later start has fewer than needle_len code points
  }
  return false;
}

template <typename Source>
int string_op(uint32_t op, Source s, const char32_t* needle, uint64_t needle_len) {
  switch (static_cast<PayloadOp>(op)) {
    case PayloadOp::Is:
      return equals(s, needle, needle_len);
    case PayloadOp::IsNot:
      return !equals(s, needle, needle_len);
    case PayloadOp::Contains:
      return contains(s, needle, needle_len);
    case PayloadOp::DoesntContain:
      return !contains(s, needle, needle_len);
    default:
      return 0;
  }
}

// The byte range [off, *end) holding a string field's characters (terminator and anything
// after an embedded NUL excluded); false when the field does not fit.
bool string_extent(const uint8_t* payload, uint64_t size, uint64_t off, uint64_t unit,
                   uint64_t length, uint64_t* end) {
  if (off > size) return false;
  if (length == kNoLength) {
    *end = find_nul(payload, off, size, unit);
    return *end != kBad;
  }
  if (length > (size - off) / unit) return false;
  const uint64_t stop = off + length * unit;
  const uint64_t nul = find_nul(payload, off, stop, unit);
  *end = nul == kBad ? stop : nul;
  return true;
}

}  // namespace
}  // namespace pfc

using namespace pfc;

extern "C" {

uint64_t pfc_tdh_skip(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                      uint64_t count, uint64_t length) {
  if (off > size) return kBad;  // includes off == PFC_TDH_BAD_OFFSET
  if (count == 0) return off;
  switch (static_cast<InType>(in_type)) {
    case InType::UnicodeString:
    case InType::AnsiString: {
      const uint64_t unit = in_type == 1 ? 2 : 1;
      if (length == kNoLength) return skip_terminated(payload, size, off, count, unit);
      if (length > UINT64_MAX / unit) return kBad;
      return skip_fixed(size, off, count, length * unit);
    }
    case InType::Binary:
      if (length == kNoLength) return kBad;
      return skip_fixed(size, off, count, length);
    case InType::Sid:
      return skip_sid(payload, size, off, count);
    default: {
      const uint64_t elem = fixed_size(in_type);
      return elem == 0 ? kBad : skip_fixed(size, off, count, elem);
    }
  }
}

uint64_t pfc_tdh_load_int(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                          int* ok) {
  const auto t = static_cast<InType>(in_type);
  const uint64_t width = in_type_is_integer(t) ? fixed_size(in_type) : 0;
  if (width == 0 || off > size || size - off < width) {
    *ok = 0;
    return 0;
  }
  uint64_t v = 0;
  for (uint64_t i = 0; i < width; ++i) v |= uint64_t{payload[off + i]} << (8 * i);
  if (in_type_is_signed(t) && width < 8) {
    const uint64_t sign = uint64_t{1} << (8 * width - 1);
    v = (v ^ sign) - sign;
  }
  *ok = 1;
  return v;
}

int pfc_tdh_int_pred(uint32_t op, int is_signed, uint64_t value, uint64_t lo, uint64_t hi) {
  if (is_signed) {
    return compare<int64_t>(op, static_cast<int64_t>(value), static_cast<int64_t>(lo),
                            static_cast<int64_t>(hi));
  }
  return compare<uint64_t>(op, value, lo, hi);
}

int pfc_tdh_str_pred(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                     uint64_t length, uint32_t op, const char32_t* needle, uint64_t needle_len) {
  if (in_type != 1 && in_type != 2) return 0;
  const uint64_t unit = in_type == 1 ? 2 : 1;
  uint64_t end = 0;
  if (!string_extent(payload, size, off, unit, length, &end)) return 0;
  if (unit == 2)
    return string_op(op, Utf16Source{payload + off, payload + end}, needle, needle_len);
  return string_op(op, Utf8Source{payload + off, payload + end}, needle, needle_len);
}

int pfc_tdh_guid_pred(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t op,
                      const uint8_t* value16) {
  if (off > size || size - off < 16) return 0;
  const bool equal = std::memcmp(payload + off, value16, 16) == 0;
  switch (static_cast<PayloadOp>(op)) {
    case PayloadOp::Is:
      return equal;
    case PayloadOp::IsNot:
      return !equal;
    default:
      return 0;
  }
}

}  // extern "C"
