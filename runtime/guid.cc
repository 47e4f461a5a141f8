// runtime/guid.cc — Guid parsing, printing, payload byte order and the provider-name hash
// (EventSource / TraceLogging convention), declared in include/pfc/guid.h.
#include "pfc/guid.h"

#include <array>
#include <cstdio>

#include "base/hex.h"
#include "base/utf8.h"
#include "runtime/casefold.h"
#include "runtime/sha1.h"

namespace pfc {
namespace {

// The namespace GUID 482C2DB2-C390-47C8-87F8-1A15BFC130FB in big-endian field order.
constexpr uint8_t kProviderNamespace[16] = {0x48, 0x2C, 0x2D, 0xB2, 0xC3, 0x90, 0x47, 0xC8,
                                            0x87, 0xF8, 0x1A, 0x15, 0xBF, 0xC1, 0x30, 0xFB};

}  // namespace

namespace {

// hex_digit_value of every byte, -1 for non-digits: one load per digit in Guid::parse.
constexpr std::array<int16_t, 256> kHexValue = [] {
  std::array<int16_t, 256> t{};
  for (int c = 0; c < 256; ++c) t[size_t(c)] = int16_t(hex_digit_value(char(c)));
  return t;
}();

// Offsets in the text of the 16 bytes' two-digit groups, in the order written.
constexpr std::array<uint8_t, 16> kByteAt = {1,  3,  5,  7,  10, 12, 15, 17,
                                             20, 22, 25, 27, 29, 31, 33, 35};

}  // namespace

std::optional<Guid> Guid::parse(std::string_view text) {
  // {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}: 38 characters, dashes at 9, 14, 19, 24.
  if (text.size() != 38 || text.front() != '{' || text.back() != '}') return std::nullopt;
  if (text[9] != '-' || text[14] != '-' || text[19] != '-' || text[24] != '-') return std::nullopt;
  uint8_t bytes[16];  // big-endian field order, as written
  int bad = 0;        // negative once any digit is not hex
  for (size_t n = 0; n < 16; ++n) {
    const int hi = kHexValue[uint8_t(text[kByteAt[n]])];
    const int lo = kHexValue[uint8_t(text[kByteAt[n] + 1])];
    bad |= hi | lo;
    bytes[n] = static_cast<uint8_t>(hi << 4 | lo);
  }
  if (bad < 0) return std::nullopt;
  Guid g;
  g.data1 =
      uint32_t{bytes[0]} << 24 | uint32_t{bytes[1]} << 16 | uint32_t{bytes[2]} << 8 | bytes[3];
  g.data2 = static_cast<uint16_t>(bytes[4] << 8 | bytes[5]);
  g.data3 = static_cast<uint16_t>(bytes[6] << 8 | bytes[7]);
  for (int i = 0; i < 8; ++i) g.data4[i] = bytes[8 + i];
  return g;
}

std::string Guid::to_string() const {
  char buf[40];
  std::snprintf(buf, sizeof buf, "{%08X-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X}",
                static_cast<unsigned>(data1), unsigned{data2}, unsigned{data3}, data4[0], data4[1],
                data4[2], data4[3], data4[4], data4[5], data4[6], data4[7]);
  return buf;
}

std::array<uint8_t, 16> Guid::to_bytes() const {
  std::array<uint8_t, 16> b{};
  for (int i = 0; i < 4; ++i) b[i] = static_cast<uint8_t>(data1 >> (8 * i));
  for (int i = 0; i < 2; ++i) b[4 + i] = static_cast<uint8_t>(data2 >> (8 * i));
  for (int i = 0; i < 2; ++i) b[6 + i] = static_cast<uint8_t>(data3 >> (8 * i));
  for (int i = 0; i < 8; ++i) b[8 + i] = data4[i];
  return b;
}

Guid Guid::from_bytes(const uint8_t* b) {
  Guid g;
  g.data1 = uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24;
  g.data2 = static_cast<uint16_t>(b[4] | b[5] << 8);
  g.data3 = static_cast<uint16_t>(b[6] | b[7] << 8);
  for (int i = 0; i < 8; ++i) g.data4[i] = b[8 + i];
  return g;
}

// SHA-1 over the namespace bytes and the upper-cased name in UTF-16BE (simple Unicode
// upper-casing, as .NET's ToUpperInvariant; invalid UTF-8 bytes b hash as U+DC00 + b);
// the first 16 bytes with the version nibble set to 5, read as a payload-order GUID.
Guid Guid::from_provider_name(std::string_view name) {
  internal::Sha1 sha;
  sha.update(kProviderNamespace, sizeof kProviderNamespace);
  const auto* p = reinterpret_cast<const uint8_t*>(name.data());
  const auto* end = p + name.size();
  while (p < end) {
    const char32_t cp = upper_case(decode_utf8_step(p, end));
    char16_t units[2];
    int n = 1;
    if (cp >= 0x10000) {
      units[0] = static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10));
      units[1] = static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF));
      n = 2;
    } else {
      units[0] = static_cast<char16_t>(cp);
    }
    for (int i = 0; i < n; ++i) {
      const uint8_t be[2] = {static_cast<uint8_t>(units[i] >> 8), static_cast<uint8_t>(units[i])};
      sha.update(be, 2);
    }
  }
  std::array<uint8_t, 20> hash = sha.finish();
  hash[7] = static_cast<uint8_t>((hash[7] & 0x0F) | 0x50);
  return from_bytes(hash.data());
}

}  // namespace pfc
