// tests/compiler/str_literals_test.cc — the ASCII literal filter of string maps
// (compiler/str_literals.h): match (AVX2 where the CPU has it) and match_scalar against a
// plain search of each literal, over random sets of 1..64 literals of 1..12 bytes with
// start/end anchors and shared masks, on texts of 0..150 bytes (narrowed 0x80 bytes and
// UTF-8 lead/continuation bytes mixed in), literals planted at the very start and end,
// and texts in exactly-sized heap buffers (text plus the promised padding).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "compiler/str_literals.h"

namespace pfc::internal {
namespace {

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}
  uint64_t below(uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }
  bool chance(uint64_t in) { return below(in) == 0; }

  // Few letters, so that literals share prefixes and occur often.
  std::string word(uint64_t len) {
    static constexpr char kLetters[] = "abcks k0~";
    std::string w;
    for (uint64_t i = 0; i < len; ++i) w += kLetters[below(sizeof kLetters - 1)];
    return w;
  }

  std::vector<AsciiLiteral> literals(size_t count) {
    std::vector<AsciiLiteral> out;
    for (size_t i = 0; i < count; ++i) {
      AsciiLiteral l;
      l.bytes = word(1 + (chance(5) ? below(12) : below(5)));
      l.start = chance(4);
      l.end = chance(4);
      l.mask = uint64_t{1} << (chance(3) ? below(4) : below(64));
      out.push_back(std::move(l));
    }
    return out;
  }

  std::string text(uint64_t len, const std::vector<AsciiLiteral>& lits) {
    std::string s;
    for (uint64_t i = 0; i < len; ++i) s += chance(8) ? char(0x80 + below(0x80)) : word(1)[0];
    for (uint64_t k = below(4); k > 0; --k) {
      const std::string& w = lits[below(lits.size())].bytes;
      if (w.size() > len) continue;
      const uint64_t at = chance(3) ? 0 : chance(2) ? len - w.size() : below(len - w.size() + 1);
      s.replace(at, w.size(), w);
    }
    return s;
  }

 private:
  std::mt19937_64 rng_;
};

uint64_t reference(const std::vector<AsciiLiteral>& lits, const std::string& text, uint64_t acc) {
  for (const AsciiLiteral& l : lits) {
    for (size_t p = 0; p + l.bytes.size() <= text.size(); ++p) {
      if ((l.start && p != 0) || (l.end && p + l.bytes.size() != text.size())) continue;
      if (text.compare(p, l.bytes.size(), l.bytes) == 0) acc |= l.mask;
    }
  }
  return acc;
}

// match and match_scalar on `text` in a buffer of exactly text + kPad bytes.
void check(const AsciiLiterals& m, const std::vector<AsciiLiteral>& lits, const std::string& text,
           uint64_t acc, const std::string& what) {
  const uint64_t want = reference(lits, text, acc);
  for (bool scalar : {false, true}) {
    auto buf = std::make_unique<uint8_t[]>(text.size() + AsciiLiterals::kPad);
    std::memcpy(buf.get(), text.data(), text.size());
    const uint64_t got =
        scalar ? m.match_scalar(buf.get(), text.size(), acc) : m.match(buf.get(), text.size(), acc);
    ASSERT_EQ(got, want) << what << (scalar ? " scalar" : " match") << " text '" << text << "'";
  }
}

TEST(AsciiLiterals, RandomSetsMatchThePlainSearch) {
  Gen g(0x7edd1);
  uint64_t hits = 0;
  for (int round = 0; round < 4000; ++round) {
    const size_t count = g.chance(3) ? AsciiLiterals::kMax : 1 + g.below(AsciiLiterals::kMax);
    const std::vector<AsciiLiteral> lits = g.literals(count);
    const AsciiLiterals m(lits);
    for (int t = 0; t < 5; ++t) {
      const uint64_t len = g.chance(4) ? g.below(3) : g.below(151);
      const std::string text = g.text(len, lits);
      const uint64_t acc = g.chance(4) ? uint64_t{1} << g.below(64) : 0;
      ASSERT_NO_FATAL_FAILURE(check(m, lits, text, acc, "round " + std::to_string(round)));
      hits += reference(lits, text, 0) != 0;
    }
  }
  EXPECT_GT(hits, 5000u);
}

// One literal at every position of every text length 0..70 (the ends of the 32-byte
// blocks included), anchored and not, with 63 others that never occur.
TEST(AsciiLiterals, EveryPositionOfEveryLength) {
  for (bool start : {false, true}) {
    for (bool end : {false, true}) {
      std::vector<AsciiLiteral> lits;
      lits.push_back({"kelvin", start, end, 1});
      for (uint64_t i = 1; i < 64; ++i)
        lits.push_back({"q" + std::to_string(i) + "zz", false, false, uint64_t{1} << i});
      const AsciiLiterals m(lits);
      for (uint64_t len = 0; len <= 70; ++len) {
        for (uint64_t at = 0; at + 6 <= len; ++at) {
          std::string text(len, 'x');
          text.replace(at, 6, "kelvin");
          ASSERT_NO_FATAL_FAILURE(check(m, lits, text, 0, "at " + std::to_string(at)));
          text[at + 5] = char(0x80);  // one byte short
          ASSERT_NO_FATAL_FAILURE(check(m, lits, text, 0, "near " + std::to_string(at)));
        }
        ASSERT_NO_FATAL_FAILURE(check(m, lits, std::string(len, 'k'), 0, "none"));
      }
    }
  }
}

// Literals of one byte and literals longer than the text, on the empty and 1-byte texts.
TEST(AsciiLiterals, TinyTexts) {
  const std::vector<AsciiLiteral> lits = {
      {"a", false, false, 1}, {"a", true, true, 2}, {"ab", false, false, 4}, {"b", false, true, 8}};
  const AsciiLiterals m(lits);
  for (const char* text : {"", "a", "b", "\x80", "ab", "ba"})
    ASSERT_NO_FATAL_FAILURE(check(m, lits, text, 0, "tiny"));
}

}  // namespace
}  // namespace pfc::internal
