// tests/oracle/oracle_pattern_test.cc — the oracle's own glob and regex matchers
// (oracle_pattern.cc) against docs/semantics.md §2.2, by hand.
#include <gtest/gtest.h>

#include "tests/oracle/oracle_internal.h"

namespace pfc::oracle_internal {
namespace {

TEST(OraclePattern, Glob) {
  EXPECT_TRUE(glob_match("*.exe", U"APP.EXE", true));
  EXPECT_FALSE(glob_match("*.exe", U"APP.EXE", false));
  EXPECT_TRUE(glob_match("a?c", U"abc", true));
  EXPECT_FALSE(glob_match("a?c", U"ac", true));
  EXPECT_TRUE(glob_match("[a-c]x", U"Bx", true));
  EXPECT_FALSE(glob_match("[!a-c]x", U"bx", true));
  EXPECT_TRUE(glob_match("[]x]", U"]", true));
  EXPECT_TRUE(glob_match("[x-]", U"-", true));
  EXPECT_TRUE(glob_match("\\*", U"*", true));
  EXPECT_FALSE(glob_match("\\*", U"a", true));
  EXPECT_TRUE(glob_match("", U"", true));
  EXPECT_TRUE(glob_match("*", U"", true));
  EXPECT_TRUE(glob_match("*a*b*c", U"xxaxxbxxcxc", true));
  EXPECT_FALSE(glob_match("[a", U"[a", true));                  // rejected by the checker
  EXPECT_TRUE(glob_match("\xCF\x83*", U"\u03A3\u03BF", true));  // σ* on Σο
}

// A class matches c case-insensitively iff c or a character with c's folding is a member as
// written: never less than the case-sensitive form accepts.
TEST(OraclePattern, GlobClassesCaseInsensitively) {
  struct Row {
    const char* pattern;
    std::u32string text;
    bool ci, cs;
  };
  const Row rows[] = {
      {"[A-z]", U"_", true, true},       {"[A-z]", U"`", true, true},
      {"[A-z]", U"\u212A", true, false}, {"[A-z]", U"\u017F", true, false},
      {"[A-z]", U"@", false, false},     {"[!A-z]", U"_", false, false},
      {"[Z-a]", U"a", true, true},       {"[Z-a]", U"A", true, false},
      {"[Z-a]", U"z", true, false},      {"[Z-a]", U"b", false, false},
      {"[\u212A]", U"k", true, false},   {"[\u212A]", U"K", true, false},
      {"[R-T]", U"\u017F", true, false}, {"[\u017F]", U"S", true, false},
      {"[!Z-a]", U"Z", false, false},    {"[\u0391-\u03A9]", U"\u03C2", true, false},
  };
  for (const Row& r : rows) {
    EXPECT_EQ(glob_match(r.pattern, r.text, true), r.ci) << r.pattern;
    EXPECT_EQ(glob_match(r.pattern, r.text, false), r.cs) << r.pattern;
  }
}

TEST(OraclePattern, RegexSubset) {
  EXPECT_EQ(regex_match("^a.c$", U"ABC", true, false), true);
  EXPECT_EQ(regex_match("^a.c$", U"ABC", false, false), false);
  EXPECT_EQ(regex_match("ab+", U"xabbby", true, false), true);
  EXPECT_EQ(regex_match("ab?c", U"ac", true, false), true);
  EXPECT_EQ(regex_match("^$", U"", true, false), true);
  EXPECT_EQ(regex_match("[a-f]z", U"Dz", true, false), true);
  EXPECT_EQ(regex_match("[a-f]z", U"Dz", false, false), false);
  EXPECT_EQ(regex_match("k", U"\u212A", true, false), true);  // KELVIN SIGN folds to k
  EXPECT_EQ(regex_match("a.b", U"a\nb", true, false), false);
  EXPECT_EQ(regex_match("a.b", std::u32string{U'a', char32_t{0xDCFF}, U'b'}, true, true),
            false);  // invalid byte
  EXPECT_EQ(regex_match("a\\-b", U"a-b", true, false), true);
  EXPECT_EQ(regex_match("(a|b)", U"a", true, false), std::nullopt);  // outside the subset
}

}  // namespace
}  // namespace pfc::oracle_internal
