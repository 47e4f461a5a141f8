// tests/tdh/str_search_test.cc — the linear-time CONTAINS (runtime/str_search.h, issue B9)
// against the old naive semantics: decode the whole field into folded code points, then try
// the needle at every code-point boundary. Random fields and needles over a small alphabet
// full of case-folding traps (Kelvin sign, long s, sharp s, supplementary letters, lone
// surrogates, invalid UTF-8) so that partial matches and KMP fall-backs happen constantly.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "base/utf8.h"
#include "pfc/enable.h"
#include "runtime/casefold.h"
#include "runtime/str_search.h"
#include "runtime/tdh.h"

namespace pfc {
namespace {

constexpr uint64_t kNoLen = PFC_TDH_NO_LENGTH;

// The old search, kept as the specification: every start, compared code point by code point.
bool naive_contains(const std::u32string& hay, const std::u32string& needle) {
  if (needle.empty()) return true;
  for (size_t i = 0; i + needle.size() <= hay.size(); ++i) {
    size_t k = 0;
    while (k < needle.size() && hay[i + k] == needle[k]) ++k;
    if (k == needle.size()) return true;
  }
  return false;
}

std::u32string folded_utf16(const std::vector<uint8_t>& bytes) {
  std::u32string out;
  const uint8_t* p = bytes.data();
  while (p < bytes.data() + bytes.size())
    out += fold_case(decode_utf16le_step(p, bytes.data() + bytes.size()));
  return out;
}

std::u32string folded_utf8(const std::vector<uint8_t>& bytes) {
  std::u32string out;
  const uint8_t* p = bytes.data();
  while (p < bytes.data() + bytes.size())
    out += fold_case(decode_utf8_step(p, bytes.data() + bytes.size()));
  return out;
}

// Code points whose folding collides with others, and code units that are not characters.
constexpr char32_t kAlphabet[] = {'a',   'A',  'b',    'k',     'K',     0x212A, 's',    'S',
                                  0x17F, 0xDF, 0x1E9E, 0x10400, 0x10428, 0xD800, 0xDC00, 0xE9};

std::vector<uint8_t> utf16_field(const std::u32string& cps) {
  std::vector<uint8_t> out;
  auto unit = [&](char32_t u) { out.push_back(uint8_t(u)), out.push_back(uint8_t(u >> 8)); };
  for (char32_t c : cps) {
    if (c > 0xFFFF) unit(0xD800 + ((c - 0x10000) >> 10)), unit(0xDC00 + ((c - 0x10000) & 0x3FF));
    else unit(c);
  }
  return out;
}

std::vector<uint8_t> utf8_field(const std::u32string& cps, std::mt19937& rng) {
  std::string s;
  for (char32_t c : cps) {
    if (is_surrogate(c)) s += rng() % 2 ? '\xFF' : '\xC3';  // invalid bytes instead
    else append_utf8(s, c);
  }
  return {s.begin(), s.end()};
}

std::u32string random_text(std::mt19937& rng, size_t max_len, size_t letters) {
  std::u32string out(rng() % (max_len + 1), 0);
  for (char32_t& c : out) c = kAlphabet[rng() % letters];
  return out;
}

int contains(const std::vector<uint8_t>& field, uint32_t in_type, uint64_t length,
             const std::u32string& needle, PayloadOp o = PayloadOp::Contains) {
  const std::vector<uint32_t> links = needle_links(needle);
  return pfc_tdh_str_pred(field.data(), field.size(), 0, in_type, length, uint32_t(o),
                          needle.data(), needle.size(), links.data());
}

TEST(StrSearch, NeedleLinks) {
  EXPECT_EQ(needle_links(U""), std::vector<uint32_t>{});
  EXPECT_EQ(needle_links(U"aabaaab"), (std::vector<uint32_t>{0, 1, 0, 1, 2, 2, 3}));
  EXPECT_EQ(needle_links(U"abcabd"), (std::vector<uint32_t>{0, 0, 0, 1, 2, 0}));
  EXPECT_EQ(needle_links(U"aaaa"), (std::vector<uint32_t>{0, 1, 2, 3}));
}

// Every field/needle pair: the same answer as the naive search, for UTF-16 fields with a
// terminator (the single-pass path) or a length, and for 8-bit fields.
TEST(StrSearch, AgreesWithTheNaiveSearchOnRandomInputs) {
  std::mt19937 rng(12);
  int found = 0;
  for (int round = 0; round < 60000; ++round) {
    const size_t letters = round % 3 == 0 ? 3 : std::size(kAlphabet);  // a/A/b: many borders
    const std::u32string text = random_text(rng, 40, letters);
    std::u32string needle_cps = random_text(rng, 6, letters);
    if (round % 2 && !text.empty()) {  // often a piece of the text, so that matches happen
      const size_t at = rng() % text.size();
      needle_cps = text.substr(at, 1 + rng() % 8);
    }
    std::string needle_utf8;
    for (char32_t c : needle_cps) append_utf8(needle_utf8, is_surrogate(c) ? U'x' : c);
    const std::u32string needle = fold_utf8(needle_utf8);

    const std::vector<uint8_t> wide = utf16_field(text);
    const bool expect16 = naive_contains(folded_utf16(wide), needle);
    std::vector<uint8_t> terminated = wide;
    terminated.insert(terminated.end(), {0, 0, 'z', 0});
    ASSERT_EQ(contains(terminated, 1, kNoLen, needle), expect16) << round;
    ASSERT_EQ(contains(terminated, 1, kNoLen, needle, PayloadOp::DoesntContain), !expect16)
        << round;
    ASSERT_EQ(contains(wide, 1, wide.size() / 2, needle), expect16) << round;

    const std::vector<uint8_t> narrow = utf8_field(text, rng);
    const bool expect8 = naive_contains(folded_utf8(narrow), needle);
    ASSERT_EQ(contains(narrow, 2, narrow.size(), needle), expect8) << round;
    found += expect16;
  }
  EXPECT_GT(found, 20000);  // the generator produces both outcomes
}

}  // namespace
}  // namespace pfc
