// base/utf8.cc — the UTF conversions of base/utf8.h that append to strings.
#include "base/utf8.h"

namespace pfc {
namespace {

const uint8_t* bytes_of(std::string_view text) {
  return reinterpret_cast<const uint8_t*>(text.data());
}

// Calls visit(cp) for every code point of `text` in order; false at the first byte that
// does not start a well-formed sequence.
template <class Visit>
bool visit_well_formed(std::string_view text, Visit&& visit) {
  const uint8_t* p = bytes_of(text);
  for (size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const size_t len = decode_utf8_sequence(p + i, text.size() - i, &cp);
    if (len == 0) return false;
    visit(cp);
    i += len;
  }
  return true;
}

// Appends `cp` (a decoded UTF-16 code point) under the unpaired-surrogate policy.
bool append_utf16_code_point(std::string& out, char32_t cp, Unpaired unpaired) {
  if (is_surrogate(cp) && unpaired == Unpaired::Reject) return false;
  append_utf8(out, cp);  // a surrogate becomes U+FFFD
  return true;
}

}  // namespace

void append_utf8(std::string& out, char32_t cp) {
  if (!is_scalar_value(cp)) cp = kReplacementCharacter;
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

bool is_valid_utf8(std::string_view text) {
  return visit_well_formed(text, [](char32_t) {});
}

std::u32string utf8_to_utf32(std::string_view text) {
  std::u32string out;
  out.reserve(text.size());
  const uint8_t* p = bytes_of(text);
  const uint8_t* end = p + text.size();
  while (p < end) out.push_back(decode_utf8_step(p, end));
  return out;
}

bool utf8_to_utf16(std::string_view utf8, std::u16string& out) {
  out.clear();
  out.reserve(utf8.size());
  return visit_well_formed(utf8, [&out](char32_t cp) {
    if (cp >= 0x10000) {
      out.push_back(static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
  });
}

bool utf16_to_utf8(std::u16string_view units, std::string& out, Unpaired unpaired) {
  const char16_t* p = units.data();
  const char16_t* end = p + units.size();
  while (p < end) {
    if (!append_utf16_code_point(out, decode_utf16_step(p, end), unpaired)) return false;
  }
  return true;
}

bool utf16le_to_utf8(std::span<const uint8_t> bytes, std::string& out, Unpaired unpaired) {
  const uint8_t* p = bytes.data();
  const uint8_t* end = p + (bytes.size() & ~size_t{1});
  while (p < end) {
    if (!append_utf16_code_point(out, decode_utf16le_step(p, end), unpaired)) return false;
  }
  return true;
}

}  // namespace pfc
