// runtime/utf.h — UTF-8 / UTF-16 helpers shared by the TDH decoder (tdh.cc), the payload
// encoder (encode.cc) and the compiler (needle folding). Header-only decoding steps so
// the hot paths inline; conversions that allocate live in utf.cc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pfc {

// Decodes one code point of 8-bit text at p (p < end) and returns it, advancing p.
// Well-formed UTF-8 (no overlongs, no encoded surrogates, ≤ U+10FFFF) decodes normally;
// every byte b that does not start a well-formed sequence decodes alone to U+DC00 + b
// (Python's "surrogateescape"), so decoding never fails. Reads only [p, end).
inline char32_t decode_utf8_step(const uint8_t*& p, const uint8_t* end) {
  const uint8_t b0 = *p;
  if (b0 < 0x80) {
    ++p;
    return b0;
  }
  int len = 0;
  char32_t cp = 0;
  char32_t min = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  }
  if (len == 0 || end - p < len) {
    ++p;
    return 0xDC00 + b0;
  }
  for (int i = 1; i < len; ++i) {
    const uint8_t b = p[i];
    if ((b & 0xC0) != 0x80) {
      ++p;
      return 0xDC00 + b0;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++p;
    return 0xDC00 + b0;
  }
  p += len;
  return cp;
}

// Decodes one code point of UTF-16LE at p (at least 2 bytes before end), advancing p by
// 2 or 4 bytes. A surrogate pair decodes to its supplementary code point; an unpaired
// surrogate decodes to itself. Reads only [p, end); end - p must be even or the odd final
// byte is ignored.
inline char32_t decode_utf16le_step(const uint8_t*& p, const uint8_t* end) {
  const char32_t u = static_cast<char32_t>(p[0] | (p[1] << 8));
  p += 2;
  if (u >= 0xD800 && u <= 0xDBFF && end - p >= 2) {
    const char32_t v = static_cast<char32_t>(p[0] | (p[1] << 8));
    if (v >= 0xDC00 && v <= 0xDFFF) {
      p += 2;
      return 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00);
    }
  }
  return u;
}

// Whole-string conversions. `utf8` must be well-formed UTF-8 (no surrogateescape bytes):
// utf8_to_utf16 returns false (leaving `out` unspecified) otherwise. Not for hot paths.
bool utf8_to_utf16(std::string_view utf8, std::u16string& out);
// Decodes with decode_utf8_step (never fails).
std::u32string utf8_to_utf32(std::string_view utf8);
// True when `utf8` is well-formed UTF-8.
bool is_valid_utf8(std::string_view utf8);
// Appends the UTF-8 encoding of `cp` (any value ≤ 0x10FFFF, surrogates included as
// 3-byte sequences — only for diagnostics); larger values append U+FFFD.
void append_utf8(std::string& out, char32_t cp);

}  // namespace pfc
