// tests/base/hex_test.cc — base/hex.h and base/quote.h: digit values of every byte,
// formatting with minimum widths and both cases, byte escapes, and message quoting.
#include "base/hex.h"

#include <gtest/gtest.h>

#include "base/quote.h"

namespace pfc {
namespace {

TEST(Hex, DigitValueOfEveryByte) {
  const std::string digits = "0123456789abcdef";
  int valid = 0;
  for (int i = 0; i < 256; ++i) {
    const auto c = static_cast<char>(i);
    const int v = hex_digit_value(c);
    valid += v >= 0;
    const size_t at = digits.find(static_cast<char>(i >= 'A' && i <= 'F' ? i + 32 : i));
    EXPECT_EQ(v, i != 0 && at != std::string::npos ? int(at) : -1) << i;
  }
  EXPECT_EQ(valid, 22);
  for (char c : {'/', ':', '@', 'G', '`', 'g', 'x', ' '}) EXPECT_EQ(hex_digit_value(c), -1) << c;
}

TEST(Hex, Digit) {
  EXPECT_EQ(hex_digit(0), '0');
  EXPECT_EQ(hex_digit(9), '9');
  EXPECT_EQ(hex_digit(10), 'a');
  EXPECT_EQ(hex_digit(15, HexCase::Upper), 'F');
  EXPECT_EQ(hex_digit(0x1F), 'f');  // only the low four bits
}

TEST(Hex, ToHex) {
  struct Row {
    uint64_t v;
    int min_digits;
    HexCase letters;
    const char* out;
  };
  const Row rows[] = {
      {0, 1, HexCase::Lower, "0x0"},
      {0, 0, HexCase::Lower, "0x0"},  // at least one digit
      {0, 8, HexCase::Lower, "0x00000000"},
      {0x1F, 1, HexCase::Lower, "0x1f"},
      {0x1F, 1, HexCase::Upper, "0x1F"},
      {0xAB, 2, HexCase::Upper, "0xAB"},
      {0xABC, 2, HexCase::Lower, "0xabc"},  // a minimum, not a cut
      {0xCBF43926, 8, HexCase::Lower, "0xcbf43926"},
      {0x1234, 8, HexCase::Lower, "0x00001234"},
      {~uint64_t{0}, 1, HexCase::Lower, "0xffffffffffffffff"},
      {1, 16, HexCase::Lower, "0x0000000000000001"},
      {1, 40, HexCase::Lower, "0x0000000000000001"},  // at most 16
  };
  for (const Row& r : rows) EXPECT_EQ(to_hex(r.v, r.min_digits, r.letters), r.out) << r.out;
  std::string out = "x=";
  append_hex(out, 0xBEEF, 6);
  EXPECT_EQ(out, "x=00beef");
}

TEST(Hex, ByteEscape) {
  std::string out;
  append_byte_escape(out, 0x00, HexCase::Lower);
  append_byte_escape(out, 0x1B, HexCase::Lower);
  append_byte_escape(out, 0x1B, HexCase::Upper);
  append_byte_escape(out, 0xFF, HexCase::Upper);
  EXPECT_EQ(out, "\\x00\\x1b\\x1B\\xFF");
}

TEST(Quote, EscapesControlBytesAndCuts) {
  struct Row {
    std::string in, out;
  };
  const Row rows[] = {
      {"", "''"},
      {"abc", "'abc'"},
      {"a\nb", "'a\\x0ab'"},
      {std::string("\0", 1), "'\\x00'"},
      {"\x1F\x7F", "'\\x1f\\x7f'"},
      {" ~", "' ~'"},
      {"it's", "'it's'"},                  // quotes are not escaped
      {"\xC3\xA9\xFF", "'\xC3\xA9\xFF'"},  // non-ASCII bytes as they are
      {std::string(64, 'x'), "'" + std::string(64, 'x') + "'"},
      {std::string(65, 'x'), "'" + std::string(64, 'x') + "...'"},
      {std::string(63, 'x') + "\t\t", "'" + std::string(63, 'x') + "\\x09...'"},
  };
  for (const Row& r : rows) EXPECT_EQ(quote_text(r.in), r.out) << r.out;
}

}  // namespace
}  // namespace pfc
