// tests/tdh/tdh_fast_test.cc — the fast paths of the TDH string helpers (word-at-a-time
// UTF-16 terminator scan, candidate-skipping `contains`, pfc_tdh_str_pred_next) against a
// straightforward reference written here: decode the whole field into folded code points,
// then compare / std::u32string::find. Randomized (fixed seeds) plus table cases.
#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "base/utf8.h"
#include "payload_builder.h"
#include "pfc/enable.h"
#include "pfc/schema.h"
#include "runtime/casefold.h"
#include "runtime/str_search.h"
#include "runtime/tdh.h"

namespace pfc {
namespace {

using testing::exact_copy;

constexpr uint64_t kBad = PFC_TDH_BAD_OFFSET;
constexpr uint64_t kNoLen = PFC_TDH_NO_LENGTH;
constexpr PayloadOp kOps[] = {PayloadOp::Is, PayloadOp::IsNot, PayloadOp::Contains,
                              PayloadOp::DoesntContain, PayloadOp::Eq};

uint32_t op(PayloadOp o) { return static_cast<uint32_t>(o); }

// ---- Reference ------------------------------------------------------------------------

struct RefField {
  bool ok = false;
  uint64_t end = 0;   // characters are [off, end)
  uint64_t next = 0;  // just past the field
};

bool is_nul(const uint8_t* p, uint64_t i, uint64_t unit) {
  return p[i] == 0 && (unit == 1 || p[i + 1] == 0);
}

RefField ref_field(const uint8_t* p, uint64_t size, uint64_t off, uint64_t unit, uint64_t length) {
  RefField f;
  if (off > size) return f;
  if (length == kNoLen) {
    for (uint64_t i = off; i + unit <= size; i += unit) {
      if (is_nul(p, i, unit)) return {true, i, i + unit};
    }
    return f;
  }
  const unsigned __int128 bytes = static_cast<unsigned __int128>(length) * unit;
  if (bytes > size - off) return f;
  const uint64_t stop = off + static_cast<uint64_t>(bytes);
  f = {true, stop, stop};
  for (uint64_t i = off; i + unit <= stop; i += unit) {
    if (is_nul(p, i, unit)) {
      f.end = i;
      break;
    }
  }
  return f;
}

// pfc_tdh_skip for the two string in-types.
uint64_t ref_skip(const uint8_t* p, uint64_t size, uint64_t off, uint64_t unit, uint64_t count,
                  uint64_t length) {
  if (off > size) return kBad;
  for (uint64_t i = 0; i < count; ++i) {
    const RefField f = ref_field(p, size, off, unit, length);
    if (!f.ok) return kBad;
    off = f.next;
  }
  return off;
}

std::u32string ref_decode(const uint8_t* p, uint64_t off, uint64_t end, uint64_t unit) {
  std::u32string out;
  const uint8_t* q = p + off;
  const uint8_t* e = p + end;
  while (q < e) {
    out.push_back(fold_case(unit == 2 ? decode_utf16le_step(q, e) : decode_utf8_step(q, e)));
  }
  return out;
}

int ref_pred(const uint8_t* p, uint64_t size, uint64_t off, uint32_t in_type, uint64_t length,
             uint32_t o, const std::u32string& needle) {
  if (in_type != 1 && in_type != 2) return 0;
  const uint64_t unit = in_type == 1 ? 2 : 1;
  const RefField f = ref_field(p, size, off, unit, length);
  if (!f.ok) return 0;
  const std::u32string s = ref_decode(p, off, f.end, unit);
  switch (static_cast<PayloadOp>(o)) {
    case PayloadOp::Is: return s == needle;
    case PayloadOp::IsNot: return s != needle;
    case PayloadOp::Contains: return s.find(needle) != std::u32string::npos;
    case PayloadOp::DoesntContain: return s.find(needle) == std::u32string::npos;
    default: return 0;
  }
}

// ---- Generator ------------------------------------------------------------------------

// UTF-16 units: ASCII near the interesting letters, the two non-ASCII code points folding
// to ASCII, other cased letters, paired and lone surrogates, NUL.
constexpr char16_t kUnits[] = {u'k',   u'K',   u's',   u'S',   u't',   u'T',   u'a',   u' ',
                               0x212A, 0x017F, 0x00E9, 0x00C9, 0x03A3, 0x03C2, 0x03C3, 0xD83D,
                               0xDE00, 0xDC00, 0xD800, 0x0000, 0x4B00, 0x6B00, 0x2000, 0x0173};
// 8-bit pieces: the same code points in UTF-8, plus invalid and truncated sequences.
constexpr std::string_view kPieces[] = {"k",
                                        "K",
                                        "s",
                                        "S",
                                        "t",
                                        "T",
                                        "a",
                                        " ",
                                        "\xE2\x84\xAA",
                                        "\xC5\xBF",
                                        "\xC3\xA9",
                                        "\xC3\x89",
                                        "\xCE\xA3",
                                        "\xCF\x82",
                                        "\xF0\x9F\x98\x80",
                                        "\xE2\x84",
                                        "\xE2",
                                        "\xC5",
                                        "\xC5\x41",
                                        "\xE2\x80\x80",
                                        "\x80",
                                        "\xBF",
                                        "\xFF",
                                        "\xED\xA0\x80",
                                        std::string_view("\0", 1)};

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}
  uint64_t below(uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }
  bool chance(uint64_t in) { return below(in) == 0; }

  // A random UTF-16 or 8-bit string section (often NUL-terminated), as bytes.
  std::vector<uint8_t> text(bool wide) {
    std::vector<uint8_t> b;
    const uint64_t n = below(chance(4) ? 80 : 14);
    for (uint64_t i = 0; i < n; ++i) {
      if (wide) {
        const char16_t u =
            chance(8) ? static_cast<char16_t>(below(0x10000)) : kUnits[below(std::size(kUnits))];
        b.push_back(static_cast<uint8_t>(u));
        b.push_back(static_cast<uint8_t>(u >> 8));
      } else if (chance(20)) {
        b.push_back(0);
      } else {
        const std::string_view s =
            chance(8) ? std::string_view("\xA0\xC0", 2) : kPieces[below(std::size(kPieces))];
        b.insert(b.end(), s.begin(), s.end());
      }
    }
    if (!chance(5)) b.insert(b.end(), wide ? 2 : 1, 0);
    return b;
  }

  // A folded needle: usually a piece of the decoded text, sometimes random code points.
  std::u32string needle(const std::u32string& decoded) {
    std::u32string n;
    if (!decoded.empty() && !chance(3)) {
      const uint64_t at = below(decoded.size());
      n = decoded.substr(at, below(5));
    } else {
      static constexpr char32_t kCps[] = {U'k',   U's',   U't',    U'a',   U' ',
                                          0xE9,   0x3C3,  0x1F600, 0xD83D, 0xDC00,
                                          0xDCFF, 0x2000, 0x212A,  U'K',   0};
      const uint64_t len = below(4);
      for (uint64_t i = 0; i < len; ++i) n.push_back(kCps[below(std::size(kCps))]);
    }
    if (chance(4) && !n.empty()) n[below(n.size())] = U'k';
    if (!chance(10)) {  // mostly folded, as the compiler passes it; sometimes raw ('K')
      for (char32_t& c : n) c = fold_case(c);
    }
    return n;
  }

 private:
  std::mt19937_64 rng_;
};

uint64_t pick_length(Gen& g, uint64_t size, uint64_t unit) {
  switch (g.below(8)) {
    case 0: return g.below(size / unit + 3);
    case 1: return g.below(6);
    case 2: return g.chance(2) ? UINT64_MAX / 2 + 1 : UINT64_MAX - 1;  // overflows
    default: return kNoLen;
  }
}

uint64_t pick_offset(Gen& g, uint64_t prefix, uint64_t size) {
  switch (g.below(10)) {
    case 0: return g.below(size + 3);
    case 1: return kBad;
    default: return prefix;
  }
}

// ---- Randomized differential tests ----------------------------------------------------

TEST(TdhFast, StrPredNextAndSkipMatchTheReference) {
  Gen g(0x7d4f00d);
  uint64_t checked = 0, decodable = 0, hits = 0;
  for (int round = 0; round < 12000; ++round) {
    const bool wide = g.chance(2);
    const uint64_t unit = wide ? 2 : 1;
    std::vector<uint8_t> bytes(g.below(4), 0xEE);  // 0–3 bytes before: odd alignment
    const uint64_t prefix = bytes.size();
    const std::vector<uint8_t> text = g.text(wide);
    bytes.insert(bytes.end(), text.begin(), text.end());
    for (uint64_t i = g.below(4); i > 0; --i) bytes.push_back(static_cast<uint8_t>(g.below(3)));
    uint64_t size = bytes.size();
    if (g.chance(4)) size = g.below(size + 1);  // truncation
    const auto buf = exact_copy(bytes, size);
    const uint8_t* p = buf.get();
    const uint64_t off = pick_offset(g, prefix, size);
    const uint64_t length = pick_length(g, size, unit);
    uint32_t in_type = wide ? 1 : 2;
    if (g.chance(40)) in_type = std::array<uint32_t, 5>{0, 3, 14, 0x10001, 0x10002}[g.below(5)];

    const bool is_string = in_type == 1 || in_type == 2;
    const RefField f = is_string ? ref_field(p, size, off, unit, length) : RefField{};
    const std::u32string decoded = f.ok ? ref_decode(p, off, f.end, unit) : std::u32string{};
    decodable += f.ok;
    for (int k = 0; k < 3; ++k) {
      const std::u32string needle = g.needle(decoded);
      for (const PayloadOp po : kOps) {
        const uint32_t o = op(po);
        SCOPED_TRACE(::testing::Message() << "round " << round << " op " << o << " off " << off
                                          << " length " << length << " type " << in_type);
        const int expected = ref_pred(p, size, off, in_type, length, o, needle);
        uint64_t next = 12345;
        const int got = pfc_tdh_str_pred_next(p, size, off, in_type, length, o, needle.data(),
                                              needle.size(), needle_links(needle).data(), &next);
        ASSERT_EQ(got, expected);
        ASSERT_EQ(pfc_tdh_str_pred(p, size, off, in_type, length, o, needle.data(), needle.size(),
                                   needle_links(needle).data()),
                  expected);
        ASSERT_EQ(next, pfc_tdh_skip(p, size, off, in_type, 1, length));
        if (is_string) {
          ASSERT_EQ(next, f.ok ? f.next : kBad);
        }
        hits += po == PayloadOp::Contains && expected;
        ++checked;
      }
    }
    if (is_string) {
      const uint64_t count = g.below(4);
      ASSERT_EQ(pfc_tdh_skip(p, size, off, in_type, count, length),
                ref_skip(p, size, off, unit, count, length))
          << round;
    }
  }
  // The generator must exercise both outcomes, or the comparison proves little.
  EXPECT_GT(decodable, 5000u);
  EXPECT_GT(hits, 5000u);
  EXPECT_GT(checked, 150000u);
}

// contains(needle) on `s` placed `pad` bytes into an exactly-sized payload, as UTF-16
// (type 1) or UTF-8 (type 2); also checks *next.
int contains_in(const std::u16string& s, uint64_t pad, uint32_t type,
                const std::u32string& needle) {
  testing::Payload pl;
  pl.put(0xEE, static_cast<int>(pad));
  if (type == 1) {
    pl.wstr(s);
  } else {
    std::string s8;
    EXPECT_TRUE(utf16_to_utf8(s, s8, Unpaired::Reject));
    pl.str(s8);
  }
  const auto buf = exact_copy(pl.bytes, pl.size());
  uint64_t next = 0;
  const int r =
      pfc_tdh_str_pred_next(buf.get(), pl.size(), pad, type, kNoLen, op(PayloadOp::Contains),
                            needle.data(), needle.size(), needle_links(needle).data(), &next);
  EXPECT_EQ(next, pl.size());
  return r;
}

// Every position of a candidate unit relative to the 8-byte words and the tail, with and
// without a match, for both encodings and four alignments of `off`.
TEST(TdhFast, ContainsAtEveryPositionAndAlignment) {
  const std::u32string needle = {U'k', U'e', U'y'};
  for (uint64_t pad = 0; pad < 4; ++pad) {
    for (uint64_t len = 3; len < 24; ++len) {
      for (uint64_t at = 0; at + 3 <= len; ++at) {
        for (char16_t k : {u'k', u'K', char16_t{0x212A}}) {
          for (uint32_t type : {1u, 2u}) {
            SCOPED_TRACE(::testing::Message() << pad << " " << len << " " << at << " " << type);
            std::u16string s(len, u'x');
            s[at] = k, s[at + 1] = u'E', s[at + 2] = u'y';
            EXPECT_EQ(contains_in(s, pad, type, needle), 1);
            s[at + 2] = u'z';
            EXPECT_EQ(contains_in(s, pad, type, needle), 0);
            s[at + 2] = u'y', s[at] = u'j';
            EXPECT_EQ(contains_in(s, pad, type, needle), 0);
          }
        }
      }
    }
  }
}

// ---- Table cases ----------------------------------------------------------------------

struct PredNext {
  int pred;
  uint64_t next;
  bool operator==(const PredNext&) const = default;
};
std::ostream& operator<<(std::ostream& os, const PredNext& r) {
  return os << "{" << r.pred << ", " << r.next << "}";
}

// pfc_tdh_str_pred_next on an exact copy of `bytes`, checked against pfc_tdh_str_pred and
// pfc_tdh_skip on the way.
PredNext call(const std::vector<uint8_t>& bytes, uint64_t off, uint32_t type, uint64_t length,
              PayloadOp o, const std::u32string& needle) {
  const auto buf = exact_copy(bytes, bytes.size());
  const uint8_t* p = buf.get();
  PredNext r{0, 777};
  const std::vector<uint32_t> links = needle_links(needle);
  r.pred = pfc_tdh_str_pred_next(p, bytes.size(), off, type, length, op(o), needle.data(),
                                 needle.size(), links.data(), &r.next);
  EXPECT_EQ(r.pred, pfc_tdh_str_pred(p, bytes.size(), off, type, length, op(o), needle.data(),
                                     needle.size(), links.data()));
  EXPECT_EQ(r.next, pfc_tdh_skip(p, bytes.size(), off, type, 1, length));
  return r;
}

std::vector<uint8_t> wide(const std::u16string& s, bool terminate = true) {
  testing::Payload p;
  p.wstr(s, terminate);
  return p.bytes;
}
std::vector<uint8_t> narrow(std::string_view s) { return {s.begin(), s.end()}; }

TEST(TdhFast, StrPredNextEdgeCases) {
  using enum PayloadOp;
  const std::u32string ab = U"ab", empty;
  // 10 bytes: an embedded NUL, no terminator.
  const auto abcd = wide(std::u16string(u"ab\0cd", 5), false);
  // Declared length with an embedded NUL: the value stops there, the field does not.
  EXPECT_EQ(call(abcd, 0, 1, 5, Is, ab), (PredNext{1, 10}));
  EXPECT_EQ(call(abcd, 0, 1, 4, Contains, U"c"), (PredNext{0, 8}));
  EXPECT_EQ(call(abcd, 0, 1, 2, Is, ab), (PredNext{1, 4}));
  EXPECT_EQ(call(abcd, 6, 1, 2, Is, U"cd"), (PredNext{1, 10}));
  EXPECT_EQ(call(abcd, 10, 1, 0, Is, empty), (PredNext{1, 10}));             // length 0 at the end
  EXPECT_EQ(call(abcd, 0, 1, 6, DoesntContain, U"z"), (PredNext{0, kBad}));  // too long
  EXPECT_EQ(call(abcd, 0, 1, kNoLen, Is, ab), (PredNext{1, 6}));  // terminated by the NUL
  // Length overflow (length * 2 wraps) and lengths of 2^63 and more.
  EXPECT_EQ(call(abcd, 0, 1, UINT64_MAX / 2 + 1, IsNot, ab), (PredNext{0, kBad}));
  EXPECT_EQ(call(abcd, 0, 1, UINT64_MAX - 1, IsNot, ab), (PredNext{0, kBad}));
  EXPECT_EQ(call(narrow("ab"), 0, 2, UINT64_MAX - 1, IsNot, ab), (PredNext{0, kBad}));
  // Bad offsets.
  EXPECT_EQ(call(abcd, 11, 1, 0, IsNot, ab), (PredNext{0, kBad}));
  EXPECT_EQ(call(abcd, kBad, 1, kNoLen, IsNot, ab), (PredNext{0, kBad}));
  EXPECT_EQ(call(abcd, kBad, 2, 0, IsNot, ab), (PredNext{0, kBad}));
  EXPECT_EQ(call({}, 0, 2, kNoLen, DoesntContain, ab), (PredNext{0, kBad}));
  EXPECT_EQ(call({}, 0, 1, 0, Is, empty), (PredNext{1, 0}));
  // No terminator: none at all, only an odd trailing byte, or a misaligned 0x0000.
  EXPECT_EQ(call(wide(u"abc", false), 0, 1, kNoLen, DoesntContain, ab), (PredNext{0, kBad}));
  EXPECT_EQ(call(narrow("abc"), 0, 2, kNoLen, DoesntContain, ab), (PredNext{0, kBad}));
  EXPECT_EQ(call({'a', 0, 'b', 0, 0}, 0, 1, kNoLen, IsNot, ab), (PredNext{0, kBad}));
  EXPECT_EQ(call({'a', 0, 0, 'b', 0, 0}, 0, 1, kNoLen, Contains, U"a\u6200"), (PredNext{1, 6}));
  EXPECT_EQ(call({0xEE, 'a', 0, 0, 'b', 0, 0}, 1, 1, kNoLen, Is, U"a\u6200"), (PredNext{1, 7}));
  EXPECT_EQ(call({0xEE, 'a', 0, 0, 0, 'b'}, 1, 1, kNoLen, Is, U"a"), (PredNext{1, 5}));
  // Not a string in-type: predicate 0, next as pfc_tdh_skip gives for that type.
  const std::vector<uint8_t> eight(8, 'a');
  EXPECT_EQ(call(eight, 1, 3, kNoLen, IsNot, ab), (PredNext{0, 2}));  // Int8
  EXPECT_EQ(call(eight, 0, 14, 4, IsNot, ab), (PredNext{0, 4}));      // Binary, length 4
  EXPECT_EQ(call(eight, 0, 0, kNoLen, IsNot, ab), (PredNext{0, kBad}));
  EXPECT_EQ(call(eight, 4, 9, kNoLen, IsNot, ab), (PredNext{0, kBad}));  // Int64 too long
  call(eight, 0, 0x10001, 3, IsNot, ab);  // wide values: whatever pfc_tdh_skip does
  call(eight, 0, 0x10002, kNoLen, IsNot, ab);
}

TEST(TdhFast, ContainsCandidatesThatAreNotMatches) {
  using enum PayloadOp;
  // U+212A and U+017F fold to k and s in both encodings; their lead bytes alone do not.
  EXPECT_EQ(call(wide(u"100\u212A"), 0, 1, kNoLen, Contains, U"0k").pred, 1);
  EXPECT_EQ(call(narrow("100\xE2\x84\xAA"), 0, 2, 6, Contains, U"0k").pred, 1);
  EXPECT_EQ(call(wide(u"\u017Fun"), 0, 1, kNoLen, Is, U"sun").pred, 1);
  EXPECT_EQ(call(narrow("\xC5\xBFun"), 0, 2, 4, Is, U"sun").pred, 1);
  EXPECT_EQ(call(narrow("\xE2\x80\x80k"), 0, 2, 4, Contains, U"k").pred, 1);  // U+2000 k
  EXPECT_EQ(call(narrow("\xE2\x84k"), 0, 2, 3, Contains, U"\xDCE2\xDC84k").pred, 1);
  EXPECT_EQ(call(narrow("\xE2\x84K"), 0, 2, 3, Contains, U"\xDC84k").pred, 1);  // truncated
  EXPECT_EQ(call(narrow("\xC5"
                        "A"),
                 0, 2, 2, Contains,
                 U"\xDCC5"
                 "a")
                .pred,
            1);
  EXPECT_EQ(call(narrow("\xC5"
                        "A"),
                 0, 2, 2, Contains, U"s")
                .pred,
            0);
  EXPECT_EQ(call(narrow("\xE2\x84\xAA"), 0, 2, 3, Contains, U"\xDCE2").pred, 0);
  // A lone high surrogate before k, a pair, a lone low surrogate.
  EXPECT_EQ(call(wide(u"\xD83Dk"), 0, 1, kNoLen, Contains, U"k").pred, 1);
  EXPECT_EQ(call(wide(u"\xD83Dk"), 0, 1, kNoLen, Is, U"\xD83Dk").pred, 1);
  EXPECT_EQ(call(wide(u"k\U0001F600"), 0, 1, kNoLen, Contains, U"k\U0001F600").pred, 1);
  EXPECT_EQ(call(wide(u"k\xDE00"), 0, 1, kNoLen, Contains, U"k\xDE00").pred, 1);
  // Needles arrive folded: an upper-case first character never matches; NUL never does.
  EXPECT_EQ(call(wide(u"KKK"), 0, 1, kNoLen, Contains, U"K").pred, 0);
  EXPECT_EQ(call(narrow("KKK"), 0, 2, 3, DoesntContain, U"K").pred, 1);
  EXPECT_EQ(
      call(wide(std::u16string(u"ab\0", 3), false), 0, 1, 3, Contains, std::u32string(1, 0)).pred,
      0);
  // The single pass (terminated UTF-16, needle without U+0000) and the general path.
  const auto xka = wide(u"xka");  // the terminator is the payload's last unit
  EXPECT_EQ(call(xka, 0, 1, kNoLen, DoesntContain, U"ab"), (PredNext{1, 8}));
  EXPECT_EQ(call(xka, 0, 1, kNoLen, Contains, U"ka"), (PredNext{1, 8}));
  EXPECT_EQ(call(xka, 0, 1, kNoLen, Contains, U"kab"), (PredNext{0, 8}));
  EXPECT_EQ(call(xka, 0, 1, kNoLen, Contains, std::u32string(U"a\0", 2)), (PredNext{0, 8}));
  EXPECT_EQ(call(xka, 2, 1, kNoLen, Contains, U"x"), (PredNext{0, 8}));
  EXPECT_EQ(call(wide(u"xka", false), 0, 1, kNoLen, Contains, U"ka"), (PredNext{0, kBad}));
  // A candidate whose verification runs out of string ends the search.
  EXPECT_EQ(call(wide(u"xxxxxxxxxxxke"), 0, 1, kNoLen, Contains, U"key").pred, 0);
  EXPECT_EQ(call(wide(u"kekekekekekey"), 0, 1, kNoLen, Contains, U"key").pred, 1);
}

// contains() skips to the units that can start a code point folding to an ASCII needle
// start: ASCII itself, U+212A (→ k) and U+017F (→ s). Check that claim over every code
// point, and against the Unicode data file when it is installed.
TEST(TdhFast, OnlyKelvinAndLongSFoldToAsciiFromOutside) {
  std::set<uint32_t> outside;
  for (char32_t c = 0; c < 0x110000; ++c) {
    const char32_t f = fold_case(c);
    if (f < 0x80 && c >= 0x80) outside.insert(c);
    if (f < 0x80) {
      EXPECT_FALSE(f >= 'A' && f <= 'Z') << static_cast<uint32_t>(c);
    }
  }
  EXPECT_EQ(outside, (std::set<uint32_t>{0x017F, 0x212A}));
  EXPECT_EQ(fold_case(0x017F), U's');
  EXPECT_EQ(fold_case(0x212A), U'k');
}

TEST(TdhFast, CaseFoldingFileAgrees) {
  std::ifstream in("/usr/share/unicode/CaseFolding.txt");
  if (!in) GTEST_SKIP() << "no /usr/share/unicode/CaseFolding.txt";
  std::set<uint32_t> outside;
  std::string line;
  while (std::getline(in, line)) {  // "017F; C; 0073; # LATIN SMALL LETTER LONG S"
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string from, status, to;
    std::getline(fields, from, ';');
    std::getline(fields, status, ';');
    std::getline(fields, to, ';');
    if (status != " C" && status != " S") continue;
    const auto cp_from = static_cast<char32_t>(std::stoul(from, nullptr, 16));
    const auto cp_to = static_cast<char32_t>(std::stoul(to, nullptr, 16));
    if (cp_from >= 0x80 && cp_to < 0x80) outside.insert(cp_from);
  }
  EXPECT_EQ(outside, (std::set<uint32_t>{0x017F, 0x212A}));
}

}  // namespace
}  // namespace pfc
