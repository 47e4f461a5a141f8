// tests/base/ascii_test.cc — base/ascii.h: classes and case mapping at the edges of the
// letter ranges, for every character type, non-ASCII values left alone, case-insensitive
// equality and trimming.
#include "base/ascii.h"

#include <gtest/gtest.h>

namespace pfc {
namespace {

// Every byte: lower/upper change exactly the 26 letters, by 0x20, and nothing else.
TEST(Ascii, CaseMappingOfEveryByte) {
  int lowered = 0, uppered = 0;
  for (int i = 0; i < 256; ++i) {
    const auto c = static_cast<char>(i);
    const auto u = static_cast<unsigned char>(i);
    const bool upper = i >= 'A' && i <= 'Z', lower = i >= 'a' && i <= 'z';
    EXPECT_EQ(ascii_lower(c), upper ? static_cast<char>(i + 32) : c) << i;
    EXPECT_EQ(ascii_upper(c), lower ? static_cast<char>(i - 32) : c) << i;
    EXPECT_EQ(ascii_lower(u), upper ? i + 32 : i) << i;
    EXPECT_EQ(is_ascii_upper(c), upper) << i;
    EXPECT_EQ(is_ascii_lower(c), lower) << i;
    EXPECT_EQ(is_ascii_alpha(c), upper || lower) << i;
    EXPECT_EQ(is_ascii_digit(c), i >= '0' && i <= '9') << i;
    EXPECT_EQ(is_ascii_alnum(c), upper || lower || (i >= '0' && i <= '9')) << i;
    lowered += ascii_lower(c) != c;
    uppered += ascii_upper(c) != c;
  }
  EXPECT_EQ(lowered, 26);
  EXPECT_EQ(uppered, 26);
}

TEST(Ascii, WideTypesLeaveNonAsciiAlone) {
  EXPECT_EQ(ascii_lower(char16_t{u'Q'}), u'q');
  EXPECT_EQ(ascii_lower(char16_t{0x00C9}), char16_t{0x00C9});  // É: not ASCII
  EXPECT_EQ(ascii_lower(char16_t{0x0141}), char16_t{0x0141});  // 0x41 in the low byte
  EXPECT_EQ(ascii_lower(char32_t{0x10041}), char32_t{0x10041});
  EXPECT_EQ(ascii_upper(char32_t{0x212A}), char32_t{0x212A});  // KELVIN SIGN
  EXPECT_EQ(ascii_upper(char32_t{U'z'}), U'Z');
  EXPECT_EQ(ascii_lower(uint8_t{0xC9}), uint8_t{0xC9});
}

TEST(Ascii, Space) {
  for (char c : std::string(" \t\n\v\f\r")) EXPECT_TRUE(is_ascii_space(c)) << int(c);
  for (int c : {0, 0x08, 0x0E, 0x1C, 0x1F, 0x21, 0x7F, 0x85, 0xA0})
    EXPECT_FALSE(is_ascii_space(static_cast<char>(c))) << c;
  EXPECT_FALSE(is_ascii_space(char16_t{0x3000}));  // IDEOGRAPHIC SPACE is not ASCII
}

TEST(Ascii, ToLower) {
  EXPECT_EQ(to_ascii_lower(""), "");
  EXPECT_EQ(to_ascii_lower("UInt32 @[`{"), "uint32 @[`{");
  EXPECT_EQ(to_ascii_lower("\xC3\x89T\xC3\x89"), "\xC3\x89t\xC3\x89");  // ÉTÉ: only T
}

TEST(Ascii, IEquals) {
  struct Row {
    std::string_view a, b;
    bool equal;
  };
  const Row rows[] = {
      {"", "", true},
      {"abc", "ABC", true},
      {"Svc.EXE", "svc.exe", true},
      {"abc", "abcd", false},
      {"[", "{", false},
      {"@", "`", false},
      {"\xC3\xA9", "\xC3\x89", false},  // é / É differ outside ASCII
  };
  for (const Row& r : rows) {
    EXPECT_EQ(iequals_ascii(r.a, r.b), r.equal) << r.a << " / " << r.b;
    EXPECT_EQ(iequals_ascii(r.b, r.a), r.equal) << r.b << " / " << r.a;
  }
  EXPECT_TRUE(iequals_ascii(u"MyTrace", u"MYTRACE"));
  EXPECT_FALSE(iequals_ascii(u"\u00E9", u"\u00C9"));
  EXPECT_FALSE(iequals_ascii(u"a", u"ab"));
}

TEST(Ascii, Trim) {
  EXPECT_EQ(trim_ascii_space(""), "");
  EXPECT_EQ(trim_ascii_space(" \t\n\v\f\r"), "");
  EXPECT_EQ(trim_ascii_space("  a b\t"), "a b");
  EXPECT_EQ(trim_ascii_space("x"), "x");
  EXPECT_EQ(trim_ascii_space("\xC2\xA0x\xC2\xA0"), "\xC2\xA0x\xC2\xA0");  // NBSP stays
  EXPECT_EQ(trim_ascii_space(std::string_view("\0x\0", 3)), std::string_view("\0x\0", 3));
}

}  // namespace
}  // namespace pfc
