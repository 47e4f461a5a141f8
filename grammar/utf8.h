// grammar/utf8.h — small UTF-8 helpers shared by the source file (columns), the source
// validator (parse.cc) and the builder (string escapes). Internal to grammar/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace pfc::internal {

// Length (1-4) of the well-formed UTF-8 sequence at p[0..n), or 0 when p[0] does not
// start one (stray continuation byte, overlong form, surrogate, > U+10FFFF, truncation).
// Requires n >= 1. Stores the code point in *cp when the result is non-zero.
inline size_t utf8_sequence(const unsigned char* p, size_t n, char32_t* cp) {
  const unsigned char b0 = p[0];
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
  if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return 0;
  *cp = value;
  return len;
}

// Number of bytes that make up one column at p: a whole valid sequence, else one byte.
inline size_t utf8_column_width(const unsigned char* p, size_t n) {
  char32_t cp = 0;
  const size_t len = utf8_sequence(p, n, &cp);
  return len == 0 ? 1 : len;
}

// Appends the UTF-8 encoding of a valid code point (not a surrogate, ≤ U+10FFFF).
inline void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace pfc::internal
