// tests/tdh/glob_test.cc — case-insensitive glob classes (runtime/glob.h, docs/semantics.md
// §2.2) against their definition over every code point: c is in a class iff c or a
// character with c's simple case folding is a member as written; and foldings_in
// (runtime/casefold.h), which the glob compiler widens classes with.
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/payload_ops.h"
#include "base/utf8.h"
#include "runtime/casefold.h"
#include "runtime/glob.h"
#include "runtime/tdh.h"

namespace pfc {
namespace {

constexpr char32_t kEnd = 0x110000;

// The code points that fold to each folding, other than the folding itself.
const std::map<char32_t, std::vector<char32_t>>& sources() {
  static const auto* m = [] {
    auto* out = new std::map<char32_t, std::vector<char32_t>>;
    for (char32_t c = 0; c < kEnd; ++c)
      if (fold_case(c) != c) (*out)[fold_case(c)].push_back(c);
    return out;
  }();
  return *m;
}

TEST(Glob, FoldingIsIdempotent) {  // what compiling classes against folded text relies on
  for (char32_t c = 0; c < kEnd; ++c)
    ASSERT_EQ(uint32_t(fold_case(fold_case(c))), uint32_t(fold_case(c))) << uint32_t(c);
}

TEST(Glob, FoldingsInAreTheFoldingsOfTheRange) {
  const std::pair<char32_t, char32_t> windows[] = {
      {0, kEnd - 1},    {U'A', U'z'},       {U'Z', U'a'},        {0x100, 0x101},
      {0x101, 0x101},   {0x101, 0x17F},     {0x212A, 0x212A},    {0x2000, 0x2200},
      {0xAB70, 0xABBF}, {0x1E900, 0x1E921}, {0x10FFFF, 0x10FFFF}};
  for (const auto& [first, last] : windows) {
    std::set<uint32_t> want;
    for (char32_t c = first; c <= last; ++c)
      if (fold_case(c) != c) want.insert(fold_case(c));
    std::set<uint32_t> got;
    for (const auto& [lo, hi] : foldings_in(first, last)) {
      ASSERT_LE(uint32_t(lo), uint32_t(hi));
      for (char32_t c = lo; c <= hi; ++c) got.insert(c);
    }
    EXPECT_EQ(got, want) << std::hex << uint32_t(first) << "-" << uint32_t(last);
  }
}

// Whether `pattern` matches the one code point `c` (a wstring of it, through the matcher
// of both engines).
bool matches(const GlobResult& g, char32_t c, bool fold) {
  std::u16string units;
  if (c >= 0x10000) {
    units += char16_t(0xD800 + ((c - 0x10000) >> 10));
    units += char16_t(0xDC00 + ((c - 0x10000) & 0x3FF));
  } else {
    units += char16_t(c);
  }
  units += char16_t(0);
  std::vector<uint8_t> payload;
  for (char16_t u : units) payload.insert(payload.end(), {uint8_t(u), uint8_t(u >> 8)});
  const auto op = uint32_t(fold ? PayloadOp::Matches : PayloadOp::MatchesCs);
  return pfc_tdh_str_pred(payload.data(), payload.size(), 0, 1, PFC_TDH_NO_LENGTH, op,
                          g.code.data(), g.code.size(), nullptr) != 0;
}

// The code points where a class's answer can change: everything below U+3000, every code
// point that folds or is folded to, the members' edges, and every 97th one besides; no NUL
// or surrogate (not one code point of a wstring).
std::vector<char32_t> candidates(const std::vector<std::pair<char32_t, char32_t>>& members) {
  std::set<char32_t> out;
  for (char32_t c = 0; c < kEnd; ++c)
    if (c < 0x3000 || c % 97 == 0 || fold_case(c) != c || sources().contains(c)) out.insert(c);
  for (const auto& [lo, hi] : members)
    for (char32_t c : {char32_t(lo - 1), lo, hi, char32_t(hi + 1)}) out.insert(c);
  std::erase_if(out,
                [](char32_t c) { return c == 0 || c >= kEnd || (c >= 0xD800 && c <= 0xDFFF); });
  return {out.begin(), out.end()};
}

TEST(Glob, CaseInsensitiveClassesMatchTheMembersFoldings) {
  struct Class {
    const char* pattern;
    std::vector<std::pair<char32_t, char32_t>> members;  // as written
    bool negate = false;
  };
  const Class classes[] = {
      {"[A-z]", {{U'A', U'z'}}},
      {"[Z-a]", {{U'Z', U'a'}}},
      {"[!A-z]", {{U'A', U'z'}}, true},
      {"[a-c]", {{U'a', U'c'}}},
      {"[\u212A]", {{0x212A, 0x212A}}},
      {"[R-T\u00C0]", {{U'R', U'T'}, {0xC0, 0xC0}}},
      {"[\u017F]", {{0x17F, 0x17F}}},
      {"[\u0100-\u0130]", {{0x100, 0x130}}},
      {"[\u2000-\U0010FFFF]", {{0x2000, 0x10FFFF}}},
      {"[\uAB70-\uABBF]", {{0xAB70, 0xABBF}}},  // Cherokee small letters fold to capitals
  };
  for (const Class& k : classes) {
    const GlobResult ci = compile_glob(k.pattern, true);
    const GlobResult cs = compile_glob(k.pattern, false);
    ASSERT_TRUE(ci.error.empty() && cs.error.empty()) << k.pattern;
    auto member = [&](char32_t x) {
      for (const auto& [lo, hi] : k.members)
        if (lo <= x && x <= hi) return true;
      return false;
    };
    int failures = 0;
    for (char32_t c : candidates(k.members)) {
      if (failures >= 10) break;
      bool in = member(c) || member(fold_case(c));
      if (auto it = sources().find(fold_case(c)); it != sources().end())
        for (char32_t x : it->second) in = in || member(x);
      const bool want_ci = in != k.negate;
      const bool want_cs = member(c) != k.negate;
      if (matches(ci, c, true) != want_ci || matches(cs, c, false) != want_cs) {
        ADD_FAILURE() << k.pattern << std::hex << " U+" << uint32_t(c) << ": want " << want_ci
                      << "/" << want_cs;
        ++failures;
      }
    }
  }
}

}  // namespace
}  // namespace pfc
