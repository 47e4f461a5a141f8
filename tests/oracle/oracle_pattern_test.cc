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
