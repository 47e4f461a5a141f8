// tests/tdh/casefold_test.cc — simple Unicode case folding and upper-casing samples, table
// integrity over every code point, and fold_utf8 (the needle form).
#include "runtime/casefold.h"

#include <gtest/gtest.h>

namespace pfc {
namespace {

TEST(CaseFold, Samples) {
  struct Row {
    char32_t in, out;
    const char* what;
  };
  const Row rows[] = {
      {U'A', U'a', "ASCII upper"},
      {U'z', U'z', "ASCII lower"},
      {U'@', U'@', "ASCII before A"},
      {U'[', U'[', "ASCII after Z"},
      {U'0', U'0', "digit"},
      {0x00C9, 0x00E9, "Latin-1 E acute"},
      {0x00D7, 0x00D7, "multiplication sign (between Latin-1 ranges)"},
      {0x00DF, 0x00DF, "sharp s has only a full folding"},
      {0x00B5, 0x03BC, "micro sign -> Greek mu"},
      {0x0100, 0x0101, "Latin Extended-A even"},
      {0x0101, 0x0101, "Latin Extended-A odd"},
      {0x0130, 0x0130, "dotted I has only T/F foldings"},
      {0x017F, U's', "long s"},
      {0x03A3, 0x03C3, "Greek capital sigma"},
      {0x03C2, 0x03C3, "Greek final sigma"},
      {0x03C3, 0x03C3, "Greek small sigma"},
      {0x0414, 0x0434, "Cyrillic De"},
      {0x0401, 0x0451, "Cyrillic Io"},
      {0x1E9E, 0x00DF, "capital sharp s"},
      {0x212A, U'k', "Kelvin sign"},
      {0x212B, 0x00E5, "Angstrom sign"},
      {0xAB70, 0x13A0, "Cherokee small letter folds to capital"},
      {0x10400, 0x10428, "Deseret"},
      {0x1E921, 0x1E943, "Adlam, last range"},
      {0xD800, 0xD800, "surrogate"},
      {0xDCFF, 0xDCFF, "surrogate-escaped byte"},
      {0x10FFFF, 0x10FFFF, "last code point"},
      {0x110000, 0x110000, "beyond Unicode"},
  };
  for (const Row& r : rows) EXPECT_EQ(fold_case(r.in), r.out) << r.what;
}

TEST(CaseFold, EveryCodePointIsStableAndTableIsComplete) {
  uint32_t changed = 0;
  for (char32_t c = 0; c <= 0x10FFFF; ++c) {
    const char32_t f = fold_case(c);
    if (f != c) ++changed;
    ASSERT_EQ(fold_case(f), f) << std::hex << static_cast<uint32_t>(c);
    ASSERT_LE(f, 0x10FFFFu);
  }
  // CaseFolding.txt 15.0.0 has 1454 mappings with status C or S (regenerate → update).
  EXPECT_EQ(changed, 1454u);
}

TEST(CaseFold, UpperCase) {
  EXPECT_EQ(upper_case(U'a'), U'A');
  EXPECT_EQ(upper_case(U'A'), U'A');
  EXPECT_EQ(upper_case(U'-'), U'-');
  EXPECT_EQ(upper_case(0x00E9), 0x00C9);
  EXPECT_EQ(upper_case(0x00FF), 0x0178);
  EXPECT_EQ(upper_case(0x03C2), 0x03A3);
  EXPECT_EQ(upper_case(0x0434), 0x0414);
  EXPECT_EQ(upper_case(0x00DF), 0x00DF);  // no simple upper case
}

TEST(CaseFold, FoldUtf8) {
  EXPECT_EQ(fold_utf8("AbC"), U"abc");
  EXPECT_EQ(fold_utf8("\xC3\x89t\xC3\xA9"), U"\u00E9t\u00E9");  // Été
  EXPECT_EQ(fold_utf8("\xE2\x84\xAA"), U"k");                   // Kelvin sign
  EXPECT_EQ(fold_utf8("\xF0\x90\x90\x80"), U"\U00010428");      // Deseret
  EXPECT_EQ(fold_utf8("a\xFF"
                      "b"),
            std::u32string({U'a', 0xDCFF, U'b'}));  // invalid byte
  EXPECT_EQ(fold_utf8(""), U"");
}

}  // namespace
}  // namespace pfc
