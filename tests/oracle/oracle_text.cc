// tests/oracle/oracle_text.cc — the oracle's own text handling: UTF-8 / UTF-16LE decoding
// and a hand-written simple case folding. The folding covers the needle alphabet (ASCII,
// Latin-1, Latin Extended-A, Greek and Coptic, Cyrillic) plus every code point outside it
// whose simple folding (CaseFolding.txt status C + S) lands in the folded alphabet;
// oracle_test checks this claim against /usr/share/unicode/CaseFolding.txt.
#include "tests/oracle/oracle_internal.h"

namespace pfc::oracle_internal {
namespace {

bool in(char32_t c, char32_t lo, char32_t hi) { return c >= lo && c <= hi; }
bool even(char32_t c) { return c % 2 == 0; }

// Code points outside U+0000–U+04FF that fold into it.
char32_t fold_outside(char32_t c) {
  switch (c) {
    case 0x1C80: return 0x0432;  // CYRILLIC SMALL LETTER ROUNDED VE
    case 0x1C81: return 0x0434;
    case 0x1C82: return 0x043E;
    case 0x1C83: return 0x0441;
    case 0x1C84:                 // TALL TE
    case 0x1C85: return 0x0442;  // THREE-LEGGED TE
    case 0x1C86: return 0x044A;
    case 0x1C87: return 0x0463;
    case 0x1E9E: return 0x00DF;  // LATIN CAPITAL LETTER SHARP S
    case 0x1FBE: return 0x03B9;  // GREEK PROSGEGRAMMENI
    case 0x2126: return 0x03C9;  // OHM SIGN
    case 0x212A: return 0x006B;  // KELVIN SIGN
    case 0x212B: return 0x00E5;  // ANGSTROM SIGN
    default: return c;
  }
}

char32_t fold_latin(char32_t c) {
  if (in(c, 'A', 'Z')) return c + 32;
  if (c == 0x00B5) return 0x03BC;  // MICRO SIGN → GREEK SMALL LETTER MU
  if (in(c, 0x00C0, 0x00DE) && c != 0x00D7) return c + 32;
  if (in(c, 0x0100, 0x012F) && even(c)) return c + 1;
  if (in(c, 0x0132, 0x0137) && even(c)) return c + 1;
  if (in(c, 0x0139, 0x0148) && !even(c)) return c + 1;
  if (in(c, 0x014A, 0x0177) && even(c)) return c + 1;
  if (c == 0x0178) return 0x00FF;  // Ÿ → ÿ
  if (in(c, 0x0179, 0x017E) && !even(c)) return c + 1;
  if (c == 0x017F) return 's';  // LONG S
  return c;
}

char32_t fold_greek(char32_t c) {
  if (c == 0x0345) return 0x03B9;
  if (c == 0x0370 || c == 0x0372 || c == 0x0376) return c + 1;
  if (c == 0x037F) return 0x03F3;
  if (c == 0x0386) return 0x03AC;
  if (in(c, 0x0388, 0x038A)) return c + 37;
  if (c == 0x038C) return 0x03CC;
  if (c == 0x038E || c == 0x038F) return c + 63;
  if (in(c, 0x0391, 0x03AB) && c != 0x03A2) return c + 32;
  if (c == 0x03C2) return 0x03C3;
  if (c == 0x03CF) return 0x03D7;
  if (c == 0x03D0) return 0x03B2;
  if (c == 0x03D1) return 0x03B8;
  if (c == 0x03D5) return 0x03C6;
  if (c == 0x03D6) return 0x03C0;
  if (in(c, 0x03D8, 0x03EF) && even(c)) return c + 1;
  if (c == 0x03F0) return 0x03BA;
  if (c == 0x03F1) return 0x03C1;
  if (c == 0x03F4) return 0x03B8;
  if (c == 0x03F5) return 0x03B5;
  if (c == 0x03F7 || c == 0x03FA) return c + 1;
  if (c == 0x03F9) return 0x03F2;
  if (in(c, 0x03FD, 0x03FF)) return c - 130;
  return c;
}

char32_t fold_cyrillic(char32_t c) {
  if (in(c, 0x0400, 0x040F)) return c + 80;
  if (in(c, 0x0410, 0x042F)) return c + 32;
  if (in(c, 0x0460, 0x0481) && even(c)) return c + 1;
  if (in(c, 0x048A, 0x04BF) && even(c)) return c + 1;
  if (c == 0x04C0) return 0x04CF;
  if (in(c, 0x04C1, 0x04CE) && !even(c)) return c + 1;
  if (in(c, 0x04D0, 0x04FF) && even(c)) return c + 1;
  return c;
}

// Length of the well-formed UTF-8 sequence at p (Unicode Table 3-7), or 0.
size_t utf8_sequence(const unsigned char* p, size_t n, char32_t* out) {
  const unsigned b = p[0];
  auto cont = [&](size_t i, unsigned lo, unsigned hi) { return i < n && p[i] >= lo && p[i] <= hi; };
  if (b < 0x80) {
    *out = b;
    return 1;
  }
  if (b >= 0xC2 && b <= 0xDF && cont(1, 0x80, 0xBF)) {
    *out = ((b & 0x1F) << 6) | (p[1] & 0x3F);
    return 2;
  }
  unsigned lo = 0x80, hi = 0xBF;
  if (b == 0xE0) lo = 0xA0;
  if (b == 0xED) hi = 0x9F;
  if (b >= 0xE0 && b <= 0xEF && cont(1, lo, hi) && cont(2, 0x80, 0xBF)) {
    *out = ((b & 0x0F) << 12) | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
    return 3;
  }
  lo = 0x80, hi = 0xBF;
  if (b == 0xF0) lo = 0x90;
  if (b == 0xF4) hi = 0x8F;
  if (b >= 0xF0 && b <= 0xF4 && cont(1, lo, hi) && cont(2, 0x80, 0xBF) && cont(3, 0x80, 0xBF)) {
    *out = ((b & 0x07) << 18) | ((p[1] & 0x3F) << 12) | ((p[2] & 0x3F) << 6) | (p[3] & 0x3F);
    return 4;
  }
  return 0;
}

}  // namespace

bool in_needle_alphabet(char32_t c) { return c <= 0x017F || in(c, 0x0370, 0x04FF); }

char32_t fold(char32_t c) {
  if (c < 0x0250) return fold_latin(c);
  if (in(c, 0x0300, 0x03FF)) return fold_greek(c);
  if (in(c, 0x0400, 0x04FF)) return fold_cyrillic(c);
  return fold_outside(c);
}

std::u32string decode_utf8(std::string_view bytes) {
  std::u32string out;
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  size_t i = 0;
  while (i < bytes.size()) {
    char32_t c = 0;
    const size_t n = utf8_sequence(p + i, bytes.size() - i, &c);
    if (n == 0) {
      out.push_back(0xDC00 + p[i]);
      ++i;
    } else {
      out.push_back(c);
      i += n;
    }
  }
  return out;
}

std::u32string decode_utf16le(const uint8_t* p, size_t size) {
  std::u32string out;
  for (size_t i = 0; i + 1 < size; i += 2) {
    const char32_t u = p[i] | (p[i + 1] << 8);
    if (u >= 0xD800 && u <= 0xDBFF && i + 3 < size) {
      const char32_t v = p[i + 2] | (p[i + 3] << 8);
      if (v >= 0xDC00 && v <= 0xDFFF) {
        out.push_back(0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00));
        i += 2;
        continue;
      }
    }
    out.push_back(u);
  }
  return out;
}

}  // namespace pfc::oracle_internal
