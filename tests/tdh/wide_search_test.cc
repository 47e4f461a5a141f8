// tests/tdh/wide_search_test.cc — the unit-at-a-time search of ASCII needles in UTF-16
// text (runtime/wide_search.h): every implementation the CPU runs (scalar, SSE2, AVX2)
// against a reference that decodes the text into (folded) code points and searches those,
// over random texts of 0..70 units (around the vector widths) and longer ones, with the
// code points that fold to ASCII, case variants, surrogate pairs and lone surrogates,
// NUL units, needles at the very start and end, and odd alignments; texts live in
// exactly-sized heap buffers, so a read past the end is an ASan error. Then CONTAINS and
// its `.cs` and negated forms through pfc_tdh_str_pred_next, odd byte lengths included.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/utf8.h"
#include "payload_builder.h"
#include "pfc/enable.h"
#include "runtime/casefold.h"
#include "runtime/str_search.h"
#include "runtime/tdh.h"
#include "runtime/wide_search.h"

namespace pfc {
namespace {

using internal::WideImpl;
using testing::exact_copy;

// ---- Reference ------------------------------------------------------------------------

// wide_find's contract computed the slow way: the unit offset of the first match (over
// decoded, optionally folded code points of the text up to its first 0x0000 unit), else of
// that NUL, else units.size().
size_t ref_find(const std::u16string& units, const std::u32string& needle, bool fold) {
  size_t stop = 0;
  while (stop < units.size() && units[stop] != 0) ++stop;
  std::u32string cps;
  std::vector<size_t> at;  // unit offset of each code point
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < stop; ++i)
    bytes.insert(bytes.end(), {uint8_t(units[i]), uint8_t(units[i] >> 8)});
  const uint8_t* p = bytes.data();
  const uint8_t* end = p + bytes.size();
  while (p < end) {
    at.push_back(static_cast<size_t>(p - bytes.data()) / 2);
    const char32_t c = decode_utf16le_step(p, end);
    cps.push_back(fold ? fold_case(c) : c);
  }
  const size_t hit = cps.find(needle);
  return hit == std::u32string::npos ? stop : at[hit];
}

// ---- Generator ------------------------------------------------------------------------

// ASCII in both cases around the needle letters, the code points folding to ASCII, other
// non-ASCII letters (İ folds to nothing simple; ß, é, Σ), surrogates, NUL.
constexpr char16_t kUnits[] = {u'k',   u'K',   u's',   u'S',   u't',   u'T',   u'i',   u'I',
                               u'm',   u'e',   u'o',   u'u',   u'a',   u' ',   u'0',   u'@',
                               u'`',   0x212A, 0x017F, 0x00E9, 0x0130, 0x00DF, 0x03A3, 0xD83D,
                               0xDE00, 0xDC00, 0xD800, 0x4B00, 0x6B00, 0xFF4B, 0x0000};
constexpr char32_t kNeedleCps[] = {U'k', U's', U't', U'i', U'm', U'e', U'o', U'u',
                                   U'a', U' ', U'0', U'@', U'K', U'S', U'`', U'T'};

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}
  uint64_t below(uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }
  bool chance(uint64_t in) { return below(in) == 0; }

  std::u32string needle() {
    std::u32string n;
    const uint64_t len = 1 + (chance(8) ? below(40) : below(9));
    const uint64_t alphabet = chance(2) ? 4 : std::size(kNeedleCps);  // few letters: repeats
    for (uint64_t i = 0; i < len; ++i) n.push_back(kNeedleCps[below(alphabet)]);
    return n;
  }

  // A text of `len` units; sometimes with copies of the needle (case-varied, k and s
  // sometimes as U+212A / U+017F) planted, at the very start and end among other places.
  std::u16string text(uint64_t len, const std::u32string& needle) {
    std::u16string s;
    const bool rare_nul = !chance(3);
    for (uint64_t i = 0; i < len; ++i) {
      char16_t u = chance(10) ? char16_t(below(0x10000)) : kUnits[below(std::size(kUnits))];
      if (u == 0 && rare_nul && !chance(8)) u = u'x';
      s.push_back(u);
    }
    for (uint64_t k = below(3); k > 0 && needle.size() <= len; --k) {
      const uint64_t at = chance(3)   ? 0
                          : chance(2) ? len - needle.size()
                                      : below(len - needle.size() + 1);
      for (size_t i = 0; i < needle.size(); ++i) s[at + i] = variant(needle[i]);
    }
    return s;
  }

 private:
  char16_t variant(char32_t c) {
    if (c == U'k' && chance(4)) return 0x212A;
    if (c == U's' && chance(4)) return 0x017F;
    if (c >= U'a' && c <= U'z' && chance(2)) return char16_t(c - 0x20);
    return char16_t(c);
  }
  std::mt19937_64 rng_;
};

// The implementations this CPU runs.
std::vector<WideImpl> impls() {
  WideImpl all[3];
  return {all, all + internal::wide_impls(all)};
}

// `units` as UTF-16LE at `shift` bytes into an exactly-sized heap buffer (owned by *keep).
const uint8_t* place(const std::u16string& units, uint64_t shift,
                     std::unique_ptr<uint8_t[]>* keep) {
  std::vector<uint8_t> bytes(shift, 0xEE);
  for (char16_t u : units) bytes.insert(bytes.end(), {uint8_t(u), uint8_t(u >> 8)});
  *keep = exact_copy(bytes, bytes.size());
  return *keep ? keep->get() + shift : nullptr;
}

// ---- Tests ----------------------------------------------------------------------------

TEST(WideSearch, FoldSourcesAreExactlyTheCodePointsFoldingToAscii) {
  char16_t seen[0x80] = {};
  for (char32_t c = 0x80; c <= 0x10FFFF; ++c) {
    const char32_t f = fold_case(c);
    if (f >= 0x80) continue;
    ASSERT_EQ(seen[f], 0) << "two code points fold to " << uint32_t(f);
    ASSERT_LT(c, 0x10000u);
    seen[f] = char16_t(c);
  }
  for (char32_t a = 0; a < 0x80; ++a) EXPECT_EQ(fold_source_above_ascii(a), seen[a]) << uint32_t(a);
  EXPECT_EQ(fold_source_above_ascii(U'k'), 0x212A);
  EXPECT_EQ(fold_source_above_ascii(U's'), 0x017F);
}

TEST(WideSearch, NeedlesThatCannotBeSearchedByUnits) {
  WideNeedle n;
  const uint32_t links[4] = {};
  EXPECT_FALSE(wide_needle(U"", links, 0, true, &n));
  EXPECT_FALSE(wide_needle(U"a\u00e9", links, 2, true, &n));
  EXPECT_FALSE(wide_needle(U"a\0b", links, 3, false, &n));
  EXPECT_FALSE(wide_needle(U"aK", links, 2, true, &n));  // unfolded: nothing matches it
  EXPECT_TRUE(wide_needle(U"aK", links, 2, false, &n));
  EXPECT_TRUE(wide_needle(U"k", links, 1, true, &n));
  EXPECT_EQ(n.first.wide, 0x212A);
}

TEST(WideSearch, EveryImplementationMatchesTheReference) {
  Gen g(0x5eed16);
  uint64_t found = 0, checked = 0;
  for (int round = 0; round < 30000; ++round) {
    const std::u32string needle = g.needle();
    const bool fold = !g.chance(4);
    const uint64_t len = g.chance(10) ? g.below(400) : g.below(71);
    const std::u16string text = g.text(len, needle);
    std::unique_ptr<uint8_t[]> keep;
    const uint8_t* p = place(text, g.below(4), &keep);
    const uint8_t* end = p + 2 * text.size();
    const std::vector<uint32_t> links = needle_links(needle);
    WideNeedle n;
    const bool ok = wide_needle(needle.data(), links.data(), needle.size(), fold, &n);
    bool folded = true;
    for (char32_t c : needle) folded = folded && fold_case(c) == c;
    ASSERT_EQ(ok, folded || !fold);
    if (!ok) continue;
    const size_t want = ref_find(text, needle, fold);
    size_t nul = 0;
    while (nul < text.size() && text[nul] != 0) ++nul;
    for (const WideImpl& impl : impls()) {
      SCOPED_TRACE(::testing::Message() << impl.name << " round " << round << " len " << len);
      ASSERT_EQ(static_cast<size_t>(impl.find(p, end, n) - p) / 2, want);
      ASSERT_EQ(static_cast<size_t>(impl.find_nul(p, end) - p) / 2, nul);
    }
    ASSERT_EQ(static_cast<size_t>(wide_find(p, end, n) - p) / 2, want);
    found += want < nul;
    ++checked;
  }
  EXPECT_GT(found, 8000u);
  EXPECT_GT(checked - found, 8000u);
}

// Every position of a match relative to the vector blocks and the end, for every length
// 1..70, in each implementation, with a near miss one unit short before it.
TEST(WideSearch, MatchAtEveryPositionOfEveryLength) {
  const std::u32string needle = U"timeout";
  const std::vector<uint32_t> links = needle_links(needle);
  WideNeedle n;
  ASSERT_TRUE(wide_needle(needle.data(), links.data(), needle.size(), true, &n));
  for (uint64_t len = 0; len <= 70; ++len) {
    for (uint64_t at = 0; at + needle.size() <= len + 1; ++at) {
      std::u16string text(len, u'x');
      if (at + needle.size() <= len) {
        text.replace(at, needle.size(), u"TiMeOuT");
      } else if (len > 0) {
        text.replace(len - std::min<uint64_t>(len, 6), std::min<uint64_t>(len, 6),
                     std::u16string(u"timeou").substr(6 - std::min<uint64_t>(len, 6)));
      }
      std::unique_ptr<uint8_t[]> keep;
      const uint8_t* p = place(text, 0, &keep);
      const size_t want = ref_find(text, needle, true);
      for (const WideImpl& impl : impls()) {
        SCOPED_TRACE(::testing::Message() << impl.name << " len " << len << " at " << at);
        ASSERT_EQ(static_cast<size_t>(impl.find(p, p + 2 * len, n) - p) / 2, want);
      }
    }
  }
}

// Candidates that fail late, everywhere: the switch to the KMP pass keeps the answer.
TEST(WideSearch, LateFailuresHandOverToKmp) {
  const std::u32string needle = std::u32string(30, U'a') + U'b' + std::u32string(30, U'a');
  const std::vector<uint32_t> links = needle_links(needle);
  WideNeedle n;
  ASSERT_TRUE(wide_needle(needle.data(), links.data(), needle.size(), true, &n));
  for (uint64_t len : {61u, 100u, 1000u, 5000u}) {
    for (uint64_t at : {uint64_t{0}, len / 3, len - 61, len}) {
      std::u16string text(len, u'A');
      if (at + 61 <= len) text[at + 30] = u'B';
      std::unique_ptr<uint8_t[]> keep;
      const uint8_t* p = place(text, 1, &keep);
      const size_t want = ref_find(text, needle, true);
      for (const WideImpl& impl : impls()) {
        SCOPED_TRACE(::testing::Message() << impl.name << " len " << len << " at " << at);
        ASSERT_EQ(static_cast<size_t>(impl.find(p, p + 2 * len, n) - p) / 2, want);
      }
    }
  }
}

// ---- Through pfc_tdh_str_pred_next ----------------------------------------------------

uint32_t op(PayloadOp o) { return static_cast<uint32_t>(o); }

// CONTAINS and its forms on a UTF-16 field against the reference: NUL-terminated or with a
// length, truncated payloads (odd byte lengths), bad offsets.
TEST(WideSearch, ContainsFormsMatchTheReference) {
  Gen g(0xc0a7a1);
  uint64_t hits = 0;
  for (int round = 0; round < 20000; ++round) {
    const std::u32string needle = g.needle();
    const std::u16string text = g.text(g.below(90), needle);
    std::vector<uint8_t> bytes(g.below(3), 0xEE);
    const uint64_t off = bytes.size();
    for (char16_t u : text) bytes.insert(bytes.end(), {uint8_t(u), uint8_t(u >> 8)});
    if (!g.chance(4)) bytes.insert(bytes.end(), {0, 0});
    for (uint64_t i = g.below(4); i > 0; --i) bytes.push_back(uint8_t(g.below(2) * 'k'));
    const uint64_t size = g.chance(3) ? g.below(bytes.size() + 1) : bytes.size();
    const uint64_t length = g.chance(3) ? g.below(text.size() + 3) : PFC_TDH_NO_LENGTH;
    const uint64_t at = g.chance(20) ? g.below(size + 2) : off;
    const auto buf = exact_copy(bytes, size);
    // The reference field: its units, or none when it cannot be decoded.
    std::u16string units;
    bool ok = at <= size;
    uint64_t next = PFC_TDH_BAD_OFFSET;
    if (ok && length == PFC_TDH_NO_LENGTH) {
      ok = false;
      for (uint64_t i = at; i + 2 <= size && !ok; i += 2) {
        const char16_t u = char16_t(bytes[i] | bytes[i + 1] << 8);
        if (u == 0) ok = true, next = i + 2;
        else units.push_back(u);
      }
    } else if (ok) {
      ok = length <= (size - at) / 2;
      for (uint64_t i = 0; ok && i < length; ++i)
        units.push_back(char16_t(bytes[at + 2 * i] | bytes[at + 2 * i + 1] << 8));
      if (ok) next = at + 2 * length;
    }
    const std::vector<uint32_t> links = needle_links(needle);
    for (PayloadOp o : {PayloadOp::Contains, PayloadOp::DoesntContain, PayloadOp::ContainsCs,
                        PayloadOp::DoesntContainCs}) {
      const bool cs = o == PayloadOp::ContainsCs || o == PayloadOp::DoesntContainCs;
      const bool neg = o == PayloadOp::DoesntContain || o == PayloadOp::DoesntContainCs;
      const size_t stop = std::min(units.find(u'\0'), units.size());
      const bool in = ok && ref_find(units, needle, !cs) < stop;
      const int want = ok ? int(in != neg) : 0;
      uint64_t got_next = 7;
      SCOPED_TRACE(::testing::Message() << "round " << round << " op " << op(o));
      ASSERT_EQ(pfc_tdh_str_pred_next(buf.get(), size, at, 1, length, op(o), needle.data(),
                                      needle.size(), links.data(), &got_next),
                want);
      ASSERT_EQ(got_next, next);
      hits += o == PayloadOp::Contains && in;
    }
  }
  EXPECT_GT(hits, 4000u);
}

// The JIT's short-needle helper (1..4 folded ASCII characters, NUL-terminated fields) gives
// what the general helper gives, on texts below and above the length where it switches to
// the vector search.
TEST(WideSearch, ShortNeedleHelperMatchesTheGeneralOne) {
  Gen g(0x5407);
  for (int round = 0; round < 20000; ++round) {
    std::u32string needle = g.needle().substr(0, 1 + g.below(PFC_TDH_SHORT_NEEDLE));
    for (char32_t& c : needle) c = fold_case(c);
    const std::u16string text = g.text(g.below(90), needle);
    std::vector<uint8_t> bytes(g.below(3), 0xEE);
    const uint64_t off = bytes.size();
    for (char16_t u : text) bytes.insert(bytes.end(), {uint8_t(u), uint8_t(u >> 8)});
    if (!g.chance(6)) bytes.insert(bytes.end(), {0, 0});
    const uint64_t size = g.chance(4) ? g.below(bytes.size() + 1) : bytes.size();
    const auto buf = exact_copy(bytes, size);
    uint64_t packed = 0;
    for (size_t i = 0; i < needle.size(); ++i) packed |= uint64_t{needle[i]} << (16 * i);
    const std::vector<uint32_t> links = needle_links(needle);
    for (PayloadOp o : {PayloadOp::Contains, PayloadOp::DoesntContain}) {
      SCOPED_TRACE(::testing::Message() << "round " << round << " op " << op(o));
      uint64_t want_next = 0, got_next = 0;
      const int want =
          pfc_tdh_str_pred_next(buf.get(), size, off, 1, PFC_TDH_NO_LENGTH, op(o), needle.data(),
                                needle.size(), links.data(), &want_next);
      const uint32_t op_len = op(o) | uint32_t(needle.size()) << 16;
      ASSERT_EQ(pfc_tdh_wstr_short_pred_next(buf.get(), size, off, packed, op_len, &got_next),
                want);
      ASSERT_EQ(got_next, want_next);
    }
  }
}

}  // namespace
}  // namespace pfc

// ---- wide_narrow ----------------------------------------------------------------------

namespace pfc {
namespace {

// wide_narrow's contract computed unit by unit from fold_case.
std::vector<uint8_t> ref_narrow(const std::u16string& units, bool fold) {
  std::vector<uint8_t> out;
  for (char16_t u : units) {
    const char32_t c = fold ? fold_case(char32_t{u}) : char32_t{u};
    out.push_back(c < 0x80 ? uint8_t(c) : 0x80);
  }
  return out;
}

// Every implementation against the reference on `text` at byte offset `shift`; the output
// buffer is exactly sized, so a write past it is an ASan error.
void check_narrow(const std::u16string& text, uint64_t shift, bool fold, const char* what) {
  std::unique_ptr<uint8_t[]> keep;
  const uint8_t* p = place(text, shift, &keep);
  const std::vector<uint8_t> want = ref_narrow(text, fold);
  for (const WideImpl& impl : impls()) {
    std::unique_ptr<uint8_t[]> out =
        exact_copy(std::vector<uint8_t>(text.size(), 0xEE), text.size());
    impl.narrow(p, p + 2 * text.size(), fold, out.get());
    ASSERT_EQ(std::vector<uint8_t>(out.get(), out.get() + text.size()), want)
        << impl.name << " " << what << " len " << text.size() << " fold " << fold;
  }
}

// Random texts of every unit kind (the fold sources, case variants, surrogates, NUL,
// arbitrary units), 0..100 units and longer, at odd alignments.
TEST(WideNarrow, EveryImplementationMatchesTheReference) {
  Gen g(0x6e6172);
  for (int round = 0; round < 6000; ++round) {
    const uint64_t len = g.chance(10) ? g.below(300) : g.below(101);
    const std::u16string text = g.text(len, U"ks");
    ASSERT_NO_FATAL_FAILURE(check_narrow(text, g.below(4), !g.chance(4), "random"));
  }
}

// One non-ASCII unit (each fold source, a letter folding elsewhere, a surrogate) at every
// position of every length 1..70 — the last unit of a vector block included — in ASCII
// text of both cases; and the empty text.
TEST(WideNarrow, NonAsciiUnitAtEveryPosition) {
  const char16_t odd[] = {0x212A, 0x017F, 0x00C9, 0x00DF, 0x1E9E, 0xD800, 0xFFFF, 0x0080};
  ASSERT_NO_FATAL_FAILURE(check_narrow(u"", 0, true, "empty"));
  for (uint64_t len = 1; len <= 70; ++len) {
    std::u16string base;
    for (uint64_t i = 0; i < len; ++i) base.push_back(char16_t(i % 3 == 0 ? u'K' : u'a' + i % 26));
    for (uint64_t at = 0; at < len; ++at) {
      for (char16_t u : odd) {
        std::u16string text = base;
        text[at] = u;
        for (bool fold : {true, false})
          ASSERT_NO_FATAL_FAILURE(check_narrow(text, at % 2, fold, "one unit"));
      }
    }
  }
}

}  // namespace
}  // namespace pfc
