// base/utf8.h — the one UTF-8 / UTF-16 implementation of pfc: decoding steps (header-only,
// so the TDH hot paths inline them), encoding, validation and whole-string conversions.
// Used by grammar/ (source validation, columns, escapes), runtime/ (TDH strings, payload
// encoding, manifests), compiler/, cli/ and etw/. Pure functions: thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace pfc {

inline constexpr char32_t kReplacementCharacter = 0xFFFD;

constexpr bool is_surrogate(char32_t u) { return u >= 0xD800 && u <= 0xDFFF; }
constexpr bool is_high_surrogate(char32_t u) { return u >= 0xD800 && u <= 0xDBFF; }
constexpr bool is_low_surrogate(char32_t u) { return u >= 0xDC00 && u <= 0xDFFF; }
// A Unicode scalar value: ≤ U+10FFFF and not a surrogate (what UTF-8 may encode).
constexpr bool is_scalar_value(char32_t cp) { return cp <= 0x10FFFF && !is_surrogate(cp); }

// Length (1-4) of the well-formed UTF-8 sequence at p[0..n), or 0 when p[0] does not start
// one: a stray continuation byte, an overlong form, an encoded surrogate, a value above
// U+10FFFF, a bad continuation byte or a sequence cut by the end. Requires n >= 1. Stores
// the code point in *cp when the result is non-zero. Reads only p[0..min(n, 4)).
inline size_t decode_utf8_sequence(const uint8_t* p, size_t n, char32_t* cp) {
  const uint8_t b0 = p[0];
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  size_t len = 0;
  char32_t value = 0;
  char32_t min = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2, value = b0 & 0x1F, min = 0x80;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3, value = b0 & 0x0F, min = 0x800;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4, value = b0 & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (n < len) return 0;
  for (size_t i = 1; i < len; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    value = (value << 6) | (p[i] & 0x3F);
  }
  if (value < min || !is_scalar_value(value)) return 0;
  *cp = value;
  return len;
}

// Bytes one decoding step consumes at p[0..n) (n >= 1): a whole well-formed sequence, else
// the one byte (what decode_utf8_step advances by; one column of a source line).
inline size_t utf8_step_length(const uint8_t* p, size_t n) {
  char32_t cp = 0;
  const size_t len = decode_utf8_sequence(p, n, &cp);
  return len == 0 ? 1 : len;
}

// Decodes one code point of 8-bit text at p (p < end) and returns it, advancing p.
// Well-formed UTF-8 decodes normally; every byte b that does not start a well-formed
// sequence decodes alone to U+DC00 + b (Python's "surrogateescape"), so decoding never
// fails and never skips a byte. Reads only [p, end).
inline char32_t decode_utf8_step(const uint8_t*& p, const uint8_t* end) {
  char32_t cp = 0;
  const size_t len = decode_utf8_sequence(p, static_cast<size_t>(end - p), &cp);
  if (len == 0) return 0xDC00 + *p++;
  p += len;
  return cp;
}

// The code point of a high and a low surrogate.
constexpr char32_t combine_surrogates(char32_t high, char32_t low) {
  return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
}

// Decodes one code point of UTF-16 units at p (p < end), advancing p by 1 or 2 units. A
// surrogate pair decodes to its supplementary code point; an unpaired surrogate decodes to
// itself (callers reject or replace it: is_surrogate).
inline char32_t decode_utf16_step(const char16_t*& p, const char16_t* end) {
  const char32_t u = *p++;
  if (is_high_surrogate(u) && p < end && is_low_surrogate(*p)) return combine_surrogates(u, *p++);
  return u;
}

// As decode_utf16_step, over UTF-16LE bytes at p (at least 2 bytes before end), advancing
// p by 2 or 4 bytes. Reads only [p, end); an odd final byte is never read as a unit.
inline char32_t decode_utf16le_step(const uint8_t*& p, const uint8_t* end) {
  const char32_t u = static_cast<char32_t>(p[0] | (p[1] << 8));
  p += 2;
  if (is_high_surrogate(u) && end - p >= 2) {
    const char32_t v = static_cast<char32_t>(p[0] | (p[1] << 8));
    if (is_low_surrogate(v)) {
      p += 2;
      return combine_surrogates(u, v);
    }
  }
  return u;
}

// Appends the UTF-8 encoding of `cp`. Output is always well-formed UTF-8: a value that is
// not a Unicode scalar value (a surrogate U+D800–U+DFFF, or above U+10FFFF) appends
// U+FFFD REPLACEMENT CHARACTER (EF BF BD) instead.
void append_utf8(std::string& out, char32_t cp);

// True when `text` is well-formed UTF-8 (decode_utf8_sequence accepts every sequence).
bool is_valid_utf8(std::string_view text);

// Every code point of `text` as decode_utf8_step decodes it (never fails).
std::u32string utf8_to_utf32(std::string_view text);

// Well-formed UTF-8 to UTF-16 code units; false (leaving `out` unspecified) when `utf8`
// is not well-formed. `out` is replaced.
bool utf8_to_utf16(std::string_view utf8, std::u16string& out);

// What UTF-16 → UTF-8 conversion does with an unpaired surrogate.
enum class Unpaired {
  Reject,   // the conversion fails
  Replace,  // U+FFFD is written in its place
};

// Appends the UTF-8 form of UTF-16 `units` to `out`. With Unpaired::Reject, returns false
// at the first unpaired surrogate (`out` then holds the part before it); otherwise true.
bool utf16_to_utf8(std::u16string_view units, std::string& out, Unpaired unpaired);
// The same over UTF-16LE bytes (any alignment); an odd final byte is ignored.
bool utf16le_to_utf8(std::span<const uint8_t> bytes, std::string& out, Unpaired unpaired);

}  // namespace pfc
