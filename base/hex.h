// base/hex.h — hexadecimal digits: parsing one digit, and writing numbers and bytes in hex
// ("0x1f", "0x0000001f", "\x1F"). Pure functions: thread-safe.
#pragma once

#include <cstdint>
#include <string>

namespace pfc {

enum class HexCase { Lower, Upper };

// The value (0-15) of an ASCII hex digit of either case, or -1 for any other character.
constexpr int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The hex digit of the low four bits of `v`.
constexpr char hex_digit(unsigned v, HexCase letters = HexCase::Lower) {
  return (letters == HexCase::Lower ? "0123456789abcdef" : "0123456789ABCDEF")[v & 0xF];
}

// Appends `v` in hex without leading zeros but with at least `min_digits` digits (1-16),
// no prefix: (0x1f, 4) → "001f".
void append_hex(std::string& out, uint64_t v, int min_digits = 1, HexCase letters = HexCase::Lower);

// "0x" and append_hex: to_hex(0) == "0x0", to_hex(~0ull) == "0xffffffffffffffff",
// to_hex(0x1f, 8) == "0x0000001f", to_hex(0xAB, 2, HexCase::Upper) == "0xAB".
std::string to_hex(uint64_t v, int min_digits = 1, HexCase letters = HexCase::Lower);

// Appends the escape "\x" and the two hex digits of `byte`: "\x1b" (or "\x1B").
void append_byte_escape(std::string& out, uint8_t byte, HexCase letters);

}  // namespace pfc
