// tests/base/utf16_test.cc — base/utf8.h, UTF-16 side: the decoding steps over code units
// and over little-endian bytes (pairs, unpaired surrogates, odd bytes), and UTF-16 → UTF-8
// under both unpaired-surrogate policies.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/utf8.h"

namespace pfc {
namespace {

std::vector<uint8_t> le_bytes(std::u16string_view units) {
  std::vector<uint8_t> out;
  for (char16_t u : units) out.push_back(uint8_t(u)), out.push_back(uint8_t(u >> 8));
  return out;
}

struct StepRow {
  std::u16string in;
  std::u32string out;
  const char* what;
};

const StepRow kStepRows[] = {
    {u"", U"", "empty"},
    {u"Ab\u00E9\u20AC", U"Ab\u00E9\u20AC", "BMP"},
    {{0xD83D, 0xDE00}, {0x1F600}, "pair"},
    {{0xDBFF, 0xDFFF, u'x'}, {0x10FFFF, U'x'}, "last pair"},
    {{0xD800}, {0xD800}, "high surrogate at the end"},
    {{0xD800, u'x'}, {0xD800, U'x'}, "high surrogate before a non-surrogate"},
    {{0xD800, 0xD800, 0xDC00}, {0xD800, 0x10000}, "high, then a pair"},
    {{0xDC00, 0xD800}, {0xDC00, 0xD800}, "low before high"},
    {{0xDFFF}, {0xDFFF}, "lone low surrogate"},
    {{0x0000, u'a'}, {0, U'a'}, "NUL"},
};

TEST(Utf16, DecodeStepOverUnits) {
  for (const StepRow& r : kStepRows) {
    std::u32string got;
    const char16_t* p = r.in.data();
    const char16_t* end = p + r.in.size();
    while (p < end) got.push_back(decode_utf16_step(p, end));
    EXPECT_EQ(p, end) << r.what;
    EXPECT_EQ(got, r.out) << r.what;
  }
}

TEST(Utf16, DecodeStepOverLittleEndianBytes) {
  for (const StepRow& r : kStepRows) {
    const std::vector<uint8_t> b = le_bytes(r.in);
    std::u32string got;
    const uint8_t* p = b.data();
    const uint8_t* end = p + b.size();
    while (p < end) got.push_back(decode_utf16le_step(p, end));
    EXPECT_EQ(p, end) << r.what;
    EXPECT_EQ(got, r.out) << r.what;
  }
}

TEST(Utf16, HighSurrogateBeforeOddByteIsNotPaired) {
  const uint8_t b[] = {0x00, 0xD8, 0x00};  // D800 and one stray byte
  const uint8_t* p = b;
  EXPECT_EQ(decode_utf16le_step(p, b + 3), 0xD800u);
  EXPECT_EQ(p, b + 2);
}

struct ConvertRow {
  std::u16string in;
  bool reject_ok;        // result under Unpaired::Reject
  std::string rejected;  // `out` after Reject (the part before the failure)
  std::string replaced;  // `out` under Unpaired::Replace
};

const ConvertRow kConvertRows[] = {
    {u"", true, "", ""},
    {u"a\u00E9\u20AC", true, "a\xC3\xA9\xE2\x82\xAC", "a\xC3\xA9\xE2\x82\xAC"},
    {{0xD83D, 0xDE00}, true, "\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80"},
    {{u'a', 0xD800}, false, "a", "a\xEF\xBF\xBD"},
    {{u'a', 0xDC00, u'b'},
     false,
     "a",
     "a\xEF\xBF\xBD"
     "b"},
    {{0xD800, 0xD800, 0xDC00}, false, "", "\xEF\xBF\xBD\xF0\x90\x80\x80"},
    {{u'a', 0x0000, u'b'}, true, std::string("a\0b", 3), std::string("a\0b", 3)},
};

TEST(Utf16, ToUtf8Units) {
  for (const ConvertRow& r : kConvertRows) {
    std::string out = "<";
    EXPECT_EQ(utf16_to_utf8(r.in, out, Unpaired::Reject), r.reject_ok);
    EXPECT_EQ(out, "<" + r.rejected);
    out = "<";
    EXPECT_TRUE(utf16_to_utf8(r.in, out, Unpaired::Replace));
    EXPECT_EQ(out, "<" + r.replaced);
  }
}

TEST(Utf16, ToUtf8LittleEndianBytes) {
  for (const ConvertRow& r : kConvertRows) {
    std::vector<uint8_t> b = {0x99};  // start at an odd address: no alignment assumed
    const std::vector<uint8_t> le = le_bytes(r.in);
    b.insert(b.end(), le.begin(), le.end());
    const std::span<const uint8_t> units(b.data() + 1, le.size());
    std::string out;
    EXPECT_EQ(utf16le_to_utf8(units, out, Unpaired::Reject), r.reject_ok);
    EXPECT_EQ(out, r.rejected);
    out.clear();
    EXPECT_TRUE(utf16le_to_utf8(units, out, Unpaired::Replace));
    EXPECT_EQ(out, r.replaced);
  }
  const uint8_t odd[] = {'h', 0, 'i', 0, 'X'};  // the odd final byte is ignored
  std::string out;
  EXPECT_TRUE(utf16le_to_utf8(odd, out, Unpaired::Reject));
  EXPECT_EQ(out, "hi");
}

}  // namespace
}  // namespace pfc
