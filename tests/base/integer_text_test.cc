// tests/base/integer_text_test.cc — base/integer_text.h: decimal and hex forms, the 64-bit
// boundary, malformed text of every kind, and the sign.
#include "base/integer_text.h"

#include <gtest/gtest.h>

namespace pfc {
namespace {

struct UnsignedRow {
  std::string_view in;
  bool ok;
  uint64_t value;
  bool overflow;
};

TEST(IntegerText, Unsigned) {
  const UnsignedRow rows[] = {
      {"0", true, 0, false},
      {"007", true, 7, false},
      {"42", true, 42, false},
      {"0x0", true, 0, false},
      {"0x1f", true, 31, false},
      {"0X1F", true, 31, false},
      {"0xAbCd", true, 0xABCD, false},
      {"18446744073709551615", true, ~uint64_t{0}, false},
      {"18446744073709551616", true, 0, true},
      {"99999999999999999999999", true, 0, true},
      {"0xffffffffffffffff", true, ~uint64_t{0}, false},
      {"0x10000000000000000", true, 0, true},
      {"0x00000000000000000000000000000001", true, 1, false},  // leading zeros never overflow
      {"", false, 0, false},
      {"0x", false, 0, false},
      {"0X", false, 0, false},
      {"x1", false, 0, false},
      {"0xg", false, 0, false},
      {"0x-1", false, 0, false},
      {"0x 1", false, 0, false},
      {"1f", false, 0, false},  // hex digits need the prefix
      {"1e3", false, 0, false},
      {"0b1", false, 0, false},
      {"+1", false, 0, false},
      {"-1", false, 0, false},
      {" 1", false, 0, false},
      {"1 ", false, 0, false},
      {"1_000", false, 0, false},
      {"1,5", false, 0, false},
      {"99999999999999999999z", false, 0, false},  // malformed, not an overflow
      {std::string_view("1\0", 2), false, 0, false},
  };
  for (const UnsignedRow& r : rows) {
    const std::optional<ParsedUnsigned> got = parse_unsigned_text(r.in);
    ASSERT_EQ(got.has_value(), r.ok) << r.in;
    if (!got) continue;
    EXPECT_EQ(got->value, r.value) << r.in;
    EXPECT_EQ(got->overflow, r.overflow) << r.in;
  }
}

TEST(IntegerText, Signed) {
  struct Row {
    std::string_view in;
    bool ok;
    uint64_t magnitude;
    bool negative, overflow;
  };
  const Row rows[] = {
      {"5", true, 5, false, false},
      {"-5", true, 5, true, false},
      {"-0", true, 0, true, false},  // the sign as written
      {"-0x10", true, 16, true, false},
      {"-9223372036854775808", true, 9223372036854775808ull, true, false},
      {"-18446744073709551616", true, 0, true, true},
      {"-", false, 0, false, false},
      {"--1", false, 0, false, false},
      {"- 1", false, 0, false, false},
      {"+5", false, 0, false, false},
      {"-x", false, 0, false, false},
  };
  for (const Row& r : rows) {
    const std::optional<ParsedInteger> got = parse_integer_text(r.in);
    ASSERT_EQ(got.has_value(), r.ok) << r.in;
    if (!got) continue;
    EXPECT_EQ(got->magnitude, r.magnitude) << r.in;
    EXPECT_EQ(got->negative, r.negative) << r.in;
    EXPECT_EQ(got->overflow, r.overflow) << r.in;
  }
}

}  // namespace
}  // namespace pfc
