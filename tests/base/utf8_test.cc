// tests/base/utf8_test.cc — base/utf8.h, UTF-8 side: sequence decoding at every length
// boundary and every kind of malformation, the surrogateescape step, append_utf8 (including
// surrogates and values above U+10FFFF), validation and whole-string conversions.
#include "base/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace pfc {
namespace {

const uint8_t* bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

struct SequenceRow {
  std::string in;
  size_t len;  // 0: malformed
  char32_t cp;
  const char* what;
};

TEST(Utf8, DecodeSequence) {
  const SequenceRow rows[] = {
      {std::string(1, '\0'), 1, 0, "NUL"},
      {"A", 1, 0x41, "ASCII"},
      {"\x7F", 1, 0x7F, "last 1-byte"},
      {"\xC2\x80", 2, 0x80, "first 2-byte"},
      {"\xC3\xA9", 2, 0xE9, "e acute"},
      {"\xDF\xBF", 2, 0x7FF, "last 2-byte"},
      {"\xE0\xA0\x80", 3, 0x800, "first 3-byte"},
      {"\xED\x9F\xBF", 3, 0xD7FF, "just below the surrogates"},
      {"\xEE\x80\x80", 3, 0xE000, "just above the surrogates"},
      {"\xEF\xBF\xBF", 3, 0xFFFF, "last 3-byte"},
      {"\xF0\x90\x80\x80", 4, 0x10000, "first 4-byte"},
      {"\xF0\x9F\x98\x80", 4, 0x1F600, "emoji"},
      {"\xF4\x8F\xBF\xBF", 4, 0x10FFFF, "last code point"},
      {"A\x80", 1, 0x41, "only the first sequence is read"},
      {"\x80", 0, 0, "stray continuation byte"},
      {"\xBF", 0, 0, "stray continuation byte (last)"},
      {"\xC0\x80", 0, 0, "overlong NUL (C0)"},
      {"\xC1\xBF", 0, 0, "overlong 2-byte (C1)"},
      {"\xE0\x80\x80", 0, 0, "overlong 3-byte"},
      {"\xE0\x9F\xBF", 0, 0, "overlong 3-byte (U+07FF)"},
      {"\xF0\x80\x80\x80", 0, 0, "overlong 4-byte"},
      {"\xF0\x8F\xBF\xBF", 0, 0, "overlong 4-byte (U+FFFF)"},
      {"\xED\xA0\x80", 0, 0, "encoded surrogate U+D800"},
      {"\xED\xBF\xBF", 0, 0, "encoded surrogate U+DFFF"},
      {"\xF4\x90\x80\x80", 0, 0, "U+110000"},
      {"\xF5\x80\x80\x80", 0, 0, "lead F5"},
      {"\xF8\x88\x80\x80\x80", 0, 0, "5-byte form"},
      {"\xFE", 0, 0, "lead FE"},
      {"\xFF", 0, 0, "lead FF"},
      {"\xC3", 0, 0, "truncated 2-byte"},
      {"\xE2\x82", 0, 0, "truncated 3-byte"},
      {"\xF0\x9F\x98", 0, 0, "truncated 4-byte"},
      {"\xE2\x28\xA1", 0, 0, "bad second byte"},
      {"\xE2\x82\x28", 0, 0, "bad third byte"},
      {"\xC3\xC3", 0, 0, "lead instead of continuation"},
  };
  for (const SequenceRow& r : rows) {
    char32_t cp = 0xAAAA;
    EXPECT_EQ(decode_utf8_sequence(bytes(r.in), r.in.size(), &cp), r.len) << r.what;
    EXPECT_EQ(cp, r.len != 0 ? r.cp : 0xAAAA) << r.what << " (*cp untouched when malformed)";
    EXPECT_EQ(utf8_step_length(bytes(r.in), r.in.size()), r.len == 0 ? 1 : r.len) << r.what;
  }
}

TEST(Utf8, DecodeSequenceReadsOnlyN) {
  const std::string euro = "\xE2\x82\xAC";
  char32_t cp = 0;
  EXPECT_EQ(decode_utf8_sequence(bytes(euro), 3, &cp), 3u);
  EXPECT_EQ(decode_utf8_sequence(bytes(euro), 2, &cp), 0u);
  EXPECT_EQ(decode_utf8_sequence(bytes(euro), 1, &cp), 0u);
}

TEST(Utf8, DecodeStepEscapesEveryBadByte) {
  struct Row {
    std::string in;
    std::u32string out;
  };
  const Row rows[] = {
      {"", {}},
      {"a\xC3\xA9", {U'a', 0xE9}},
      {"\xC0\x80", {0xDCC0, 0xDC80}},                          // overlong NUL
      {"\xE0\x80\x80", {0xDCE0, 0xDC80, 0xDC80}},              // overlong
      {"\xED\xA0\x80", {0xDCED, 0xDCA0, 0xDC80}},              // encoded surrogate
      {"\xF4\x90\x80\x80", {0xDCF4, 0xDC90, 0xDC80, 0xDC80}},  // > U+10FFFF
      {"\xE2\x82", {0xDCE2, 0xDC82}},                          // truncated at the end
      {"\xE2\x82"
       "A",
       {0xDCE2, 0xDC82, U'A'}},  // bad continuation
      {"\xC3"
       "A",
       {0xDCC3, U'A'}},  // truncated, then ASCII
      {"\xFF\xFE", {0xDCFF, 0xDCFE}},
      {"\xE2\x82\xAC\x7F", {0x20AC, 0x7F}},
  };
  for (const Row& r : rows) {
    EXPECT_EQ(utf8_to_utf32(r.in), r.out) << r.in;
    std::u32string stepped;
    const uint8_t* p = bytes(r.in);
    const uint8_t* end = p + r.in.size();
    while (p < end) stepped.push_back(decode_utf8_step(p, end));
    EXPECT_EQ(p, end);
    EXPECT_EQ(stepped, r.out) << r.in;
  }
}

TEST(Utf8, AppendEncodesScalarValuesAndReplacesTheRest) {
  struct Row {
    char32_t cp;
    std::string out;
  };
  const Row rows[] = {
      {0x00, std::string(1, '\0')},
      {0x41, "A"},
      {0x7F, "\x7F"},
      {0x80, "\xC2\x80"},
      {0x7FF, "\xDF\xBF"},
      {0x800, "\xE0\xA0\x80"},
      {0xD7FF, "\xED\x9F\xBF"},
      {0xD800, "\xEF\xBF\xBD"},  // high surrogate → U+FFFD
      {0xDBFF, "\xEF\xBF\xBD"},
      {0xDC00, "\xEF\xBF\xBD"},  // low surrogate (and surrogateescape values) → U+FFFD
      {0xDFFF, "\xEF\xBF\xBD"},
      {0xE000, "\xEE\x80\x80"},
      {0xFFFD, "\xEF\xBF\xBD"},
      {0xFFFF, "\xEF\xBF\xBF"},
      {0x10000, "\xF0\x90\x80\x80"},
      {0x10FFFF, "\xF4\x8F\xBF\xBF"},
      {0x110000, "\xEF\xBF\xBD"},  // above U+10FFFF → U+FFFD
      {0x1FFFFF, "\xEF\xBF\xBD"},
      {0x200000, "\xEF\xBF\xBD"},
      {0x7FFFFFFF, "\xEF\xBF\xBD"},
      {0xFFFFFFFF, "\xEF\xBF\xBD"},
  };
  for (const Row& r : rows) {
    std::string out = "<";
    append_utf8(out, r.cp);
    EXPECT_EQ(out, "<" + r.out) << std::hex << uint32_t(r.cp);
  }
}

// Every value up to past U+10FFFF: the output is well-formed, and a scalar value decodes
// back to itself in one sequence of the expected length.
TEST(Utf8, AppendRoundTripsEveryCodePoint) {
  for (char32_t cp = 0; cp <= 0x110100; ++cp) {
    std::string out;
    append_utf8(out, cp);
    char32_t back = 0;
    ASSERT_EQ(decode_utf8_sequence(bytes(out), out.size(), &back), out.size()) << uint32_t(cp);
    ASSERT_EQ(back, is_scalar_value(cp) ? cp : kReplacementCharacter) << uint32_t(cp);
    const size_t len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    ASSERT_EQ(out.size(), is_scalar_value(cp) ? len : 3) << uint32_t(cp);
  }
}

TEST(Utf8, IsValid) {
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8(std::string("a\0b", 3)));
  EXPECT_TRUE(is_valid_utf8("\xE2\x82\xAC abc \xF4\x8F\xBF\xBF"));
  EXPECT_FALSE(is_valid_utf8("\xE2\x82"));
  EXPECT_FALSE(is_valid_utf8("abc\x80"));
  EXPECT_FALSE(is_valid_utf8("\xC0\xAF"));
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));
  EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));
}

TEST(Utf8, ToUtf16) {
  std::u16string w = u"old";
  EXPECT_TRUE(utf8_to_utf16("", w));
  EXPECT_EQ(w, u"");
  EXPECT_TRUE(utf8_to_utf16("a\xC3\xA9\xE2\x82\xAC\xF0\x90\x90\x80\xF4\x8F\xBF\xBF", w));
  EXPECT_EQ(w, (std::u16string{u'a', 0xE9, 0x20AC, 0xD801, 0xDC00, 0xDBFF, 0xDFFF}));
  EXPECT_FALSE(utf8_to_utf16("\xFF", w));
  EXPECT_FALSE(utf8_to_utf16("ok\xED\xA0\x80", w));  // an encoded surrogate is not UTF-8
  EXPECT_FALSE(utf8_to_utf16("\xF0\x90\x90", w));
}

TEST(Utf8, ScalarValueClasses) {
  EXPECT_TRUE(is_scalar_value(0));
  EXPECT_TRUE(is_scalar_value(0xD7FF));
  EXPECT_FALSE(is_scalar_value(0xD800));
  EXPECT_FALSE(is_scalar_value(0xDFFF));
  EXPECT_TRUE(is_scalar_value(0xE000));
  EXPECT_TRUE(is_scalar_value(0x10FFFF));
  EXPECT_FALSE(is_scalar_value(0x110000));
  EXPECT_TRUE(is_high_surrogate(0xD800) && is_high_surrogate(0xDBFF));
  EXPECT_FALSE(is_high_surrogate(0xDC00) || is_high_surrogate(0xD7FF));
  EXPECT_TRUE(is_low_surrogate(0xDC00) && is_low_surrogate(0xDFFF));
  EXPECT_FALSE(is_low_surrogate(0xDBFF) || is_low_surrogate(0xE000));
  EXPECT_EQ(combine_surrogates(0xD83D, 0xDE00), 0x1F600u);
  EXPECT_EQ(combine_surrogates(0xDBFF, 0xDFFF), 0x10FFFFu);
}

}  // namespace
}  // namespace pfc
