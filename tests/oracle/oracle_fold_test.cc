// tests/oracle/oracle_fold_test.cc — checks the oracle's hand-written case folding against
// the Unicode data (CaseFolding.txt, status C + S) for the claim of oracle_internal.h, and
// its UTF-8 / UTF-16 decoders on hand-made byte strings.
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/oracle/oracle_internal.h"

namespace pfc::oracle_internal {
namespace {

std::map<char32_t, char32_t> read_case_folding(const char* path) {
  std::map<char32_t, char32_t> m;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream fields(line);
    std::string code, status, mapping;
    if (!std::getline(fields, code, ';') || !std::getline(fields, status, ';') ||
        !std::getline(fields, mapping, ';')) {
      continue;  // blank or comment line
    }
    if (status.find('C') == std::string::npos && status.find('S') == std::string::npos) continue;
    m[static_cast<char32_t>(std::stoul(code, nullptr, 16))] =
        static_cast<char32_t>(std::stoul(mapping, nullptr, 16));
  }
  return m;
}

// For every code point c: if the true folding of c, or the oracle's, is the folding of some
// alphabet character, the two agree. Then comparisons against alphabet needles are exact.
TEST(OracleFold, ExactWhereItMatters) {
  const auto real = read_case_folding("/usr/share/unicode/CaseFolding.txt");
  if (real.empty()) GTEST_SKIP() << "no /usr/share/unicode/CaseFolding.txt (unicode-data)";
  auto truth = [&](char32_t c) {
    auto it = real.find(c);
    return it == real.end() ? c : it->second;
  };
  std::set<char32_t> folded_alphabet;
  for (char32_t c = 0; c < 0x110000; ++c) {
    if (in_needle_alphabet(c)) folded_alphabet.insert(truth(c));
  }
  int failures = 0;
  for (char32_t c = 0; c < 0x110000 && failures < 20; ++c) {
    const char32_t t = truth(c);
    const char32_t o = fold(c);
    if ((folded_alphabet.count(t) || folded_alphabet.count(o)) && t != o) {
      ADD_FAILURE() << std::hex << "U+" << uint32_t(c) << ": oracle U+" << uint32_t(o)
                    << ", CaseFolding.txt U+" << uint32_t(t);
      ++failures;
    }
  }
}

TEST(OracleText, Utf8InvalidBytesOneByOne) {
  struct Row {
    std::string in;
    std::u32string out;
  };
  using S = std::u32string;
  const Row rows[] = {
      {"a\xC3\xA9", S{'a', 0xE9}},
      {"\xC3"
       "A",
       S{0xDCC3, 'A'}},  // truncated sequence, then ASCII
      {"\xE2\x82"
       "A",
       S{0xDCE2, 0xDC82, 'A'}},                     // every byte of a bad sequence
      {"\xC0\x80", S{0xDCC0, 0xDC80}},              // overlong
      {"\xED\xA0\x80", S{0xDCED, 0xDCA0, 0xDC80}},  // encoded surrogate
      {"\xF0\x9F\x98\x80", S{0x1F600}},
      {"\xF4\x90\x80\x80", S{0xDCF4, 0xDC90, 0xDC80, 0xDC80}},  // above U+10FFFF
  };
  for (const Row& r : rows) EXPECT_EQ(decode_utf8(r.in), r.out);
}

TEST(OracleText, Utf16Surrogates) {
  const uint8_t pair[] = {0x3D, 0xD8, 0x00, 0xDE, 0x41, 0x00};
  EXPECT_EQ(decode_utf16le(pair, sizeof pair), (std::u32string{0x1F600, 'A'}));
  const uint8_t lone[] = {0x00, 0xDC, 0x00, 0xD8, 0x41, 0x00};
  EXPECT_EQ(decode_utf16le(lone, sizeof lone), (std::u32string{0xDC00, 0xD800, 'A'}));
}

}  // namespace
}  // namespace pfc::oracle_internal
