// tests/jit/ext_ops_test.cc — pfc's script-only operators (docs/language.md §3.1,
// docs/semantics.md §2.2) end to end: script text → checker → lowering → the reference
// interpreter and native code at O0/O1/O2, on wstring and string fields (non-ASCII case
// folding, empty strings, truncated payloads), integer lists, GUID lists and field-to-field
// comparisons. Expectations are written by hand from the docs.
#include <string>
#include <vector>

#include "base/utf8.h"
#include "compiler/lower.h"
#include "tests/jit/jit_test_util.h"

namespace pfc::testing {
namespace {

// Routes `payload` through `payload E where EXPR;` over an event with fields DECL; returns
// whether the session got it (every engine must agree).
bool routes(const std::string& decl, const std::string& expr, const std::vector<uint8_t>& payload) {
  const std::string text = "provider P { event E (id=1) { " + decl +
                           " } }\nsession S { enable P { payload E where " + expr + "; } }\n";
  ProgramSpec spec = spec_from_script(text);
  auto prog = lower(spec);
  EXPECT_TRUE(prog.has_value()) << text;
  if (!prog) return false;
  AllEngines engines(*prog);
  EXPECT_TRUE(engines.ok()) << text;
  if (!engines.ok()) return false;
  Event e;
  e.desc.id = 1;
  e.payload = payload;
  EngineResults r = engines.route(e.view());
  for (int l = 0; l < 3; ++l) EXPECT_EQ(r.native[l], r.interp) << "O" << l << ": " << text;
  return r.interp.deliver == 1;
}

std::vector<uint8_t> wstr(const std::u16string& s, bool nul = true) {
  std::vector<uint8_t> b;
  put_wstring(b, s, nul);
  return b;
}
std::vector<uint8_t> astr(const std::string& s, bool nul = true) {
  std::vector<uint8_t> b;
  put_string(b, s, nul);
  return b;
}

struct StrRow {
  const char* expr;  // over field S
  std::u16string text;
  bool want;
};

// Every row runs on a wstring and (for ASCII/UTF-8-expressible text) a string field.
const StrRow kStrRows[] = {
    {"S startswith \"HEL\"", u"hello", true},
    {"S startswith \"HEL\"", u"he", false},
    {"S startswith \"\"", u"", true},
    {"S startswith \"\"", u"x", true},
    {"S startswith \"\u00e9\"", u"\u00c9crit", true},  // É folds to é
    {"S endswith \"LO\"", u"hello", true},
    {"S endswith \"ll\"", u"hello", false},
    {"S endswith \"ab\"", u"aaab", true},  // KMP state across a partial match
    {"S endswith \"aab\"", u"ab", false},  // needle longer than the text
    {"S endswith \"\"", u"", true},
    {"S endswith \"\u03c3\"", u"\u03bf\u03b4\u03bf\u03c2", true},  // final sigma folds to σ
    {"S is.cs \"User\"", u"User", true},
    {"S is.cs \"User\"", u"user", false},
    {"S isnot.cs \"User\"", u"user", true},
    {"S contains.cs \"UNI\"", u"community", false},
    {"S contains.cs \"UNI\"", u"comUNIty", true},
    {"S doesntcontain.cs \"UNI\"", u"community", true},
    {"S startswith.cs \"\u00c9\"", u"\u00e9cole", false},
    {"S endswith.cs \"E\"", u"ECOLE", true},
    {"S matches \"*.exe\"", u"APP.EXE", true},
    {"S matches \"a?c\"", u"abc", true},
    {"S matches \"a?c\"", u"ac", false},
    {"S matches \"[a-c]x\"", u"Bx", true},
    {"S matches.cs \"[a-c]x\"", u"Bx", false},
    {"S matches \"[!a]*\"", u"abc", false},
    {"S matches \"[^a]*\"", u"xbc", true},
    {"S matches \"\\\\*\"", u"*", true},
    {"S matches \"\\\\*\"", u"a", false},
    {"S matches \"*\"", u"", true},
    {"S matches \"\"", u"", true},
    {"S matches \"\"", u"a", false},
    {"S matches \"\u00e9*\"", u"\u00c9cole", true},
    {"S matches \"*a*b*c\"", u"xxaxxbxxcxc", true},
    {"S matches \"*a*b*c\"", u"xxaxxbxxcxd", false},
    {"S matches \"[]]\"", u"]", true},
    {"S regex \"^a.c$\"", u"ABC", true},
    {"S regex.cs \"^a.c$\"", u"ABC", false},
    {"S regex \"ab+\"", u"xabbby", true},
    {"S regex \"\u03c3\"", u"\u03a3", true},
    {"S regex \"^$\"", u"", true},
    {"S regex \"^$\"", u"a", false},
    {"S regex \"(foo|bar)baz\"", u"xBARBAZ", true},
    {"S in \"a.exe\", \"B.EXE\"", u"b.exe", true},
    {"S in \"a.exe\", \"B.EXE\"", u"c.exe", false},
    {"S not in \"a.exe\", \"B.EXE\"", u"c.exe", true},
    {"S not in \"a.exe\", \"B.EXE\"", u"A.exe", false},
    {"S in \"\"", u"", true},
};

bool ascii_or_latin1(const std::u16string& s) {
  return std::all_of(s.begin(), s.end(), [](char16_t c) { return c < 0x80; });
}

TEST(ExtOps, StringOperatorsOnWideAndAnsiFields) {
  for (const StrRow& r : kStrRows) {
    EXPECT_EQ(routes("S: wstring;", r.expr, wstr(r.text)), r.want) << "wstring: " << r.expr;
    if (ascii_or_latin1(r.text)) {
      EXPECT_EQ(routes("S: string;", r.expr, astr(std::string(r.text.begin(), r.text.end()))),
                r.want)
          << "string: " << r.expr;
    }
  }
}

TEST(ExtOps, AnsiUtf8Folding) {
  EXPECT_TRUE(routes("S: string;", "S startswith \"\u00e9\"",
                     astr("\xC3\x89"
                          "cole")));
  EXPECT_TRUE(routes("S: string;", "S matches \"[\u00e0-\u00ea]*\"",
                     astr("\xC3\x89"
                          "cole")));
  EXPECT_FALSE(routes("S: string;", "S matches.cs \"[\u00e0-\u00ea]*\"",
                      astr("\xC3\x89"
                           "cole")));
  EXPECT_TRUE(routes("S: string;", "S regex \"^\u00e9\"",
                     astr("\xC3\x89"
                          "cole")));
}

// Case-insensitive glob classes (docs/semantics.md §2.2): c is in `[...]` iff c or a
// character with c's simple case folding is a member as written, so `matches` accepts at
// least what `matches.cs` does, whatever the range's endpoints are.
struct GlobRow {
  const char* cls;
  std::u16string text;
  bool ci;  // matches
  bool cs;  // matches.cs
};
const GlobRow kGlobClassRows[] = {
    {"[A-z]", u"_", true, true},  // the range spans letters and [\]^_`
    {"[A-z]", u"`", true, true},
    {"[A-z]", u"^", true, true},
    {"[A-z]", u"Q", true, true},
    {"[A-z]", u"@", false, false},
    {"[A-z]", u"{", false, false},
    {"[A-z]", u"\u212a", true, false},  // KELVIN SIGN folds to k
    {"[A-z]", u"\u017f", true, false},  // ſ folds to s
    {"[!A-z]", u"_", false, false},
    {"[!A-z]", u"\u212a", false, true},
    {"[Z-a]", u"a", true, true},  // a valid range that looks reversed case-insensitively
    {"[Z-a]", u"A", true, false},
    {"[Z-a]", u"Z", true, true},
    {"[Z-a]", u"z", true, false},
    {"[Z-a]", u"_", true, true},
    {"[Z-a]", u"b", false, false},
    {"[Z-a]", u"Y", false, false},
    {"[!Z-a]", u"z", false, true},
    {"[!Z-a]", u"y", true, true},
    {"[K]", u"\u212a", true, false},
    {"[\u212a]", u"k", true, false},  // a member that folds to another character
    {"[\u212a]", u"K", true, false},
    {"[\u212a]", u"\u212a", true, true},
    {"[R-T]", u"\u017f", true, false},  // S is a member and ſ folds to s
    {"[\u017f]", u"S", true, false},
    {"[\u017f]", u"s", true, false},
    {"[\u00c0-\u00de]", u"\u00e9", true, false},   // É in the range
    {"[\u00c0-\u00de]", u"\u00f7", false, false},  // ÷: × U+00D7 is a member, ÷ no folding
    {"[\u0391-\u03a9]", u"\u03c2", true, false},   // final sigma: Σ is a member
    {"[\u0400-\u040f]", u"\u0451", true, false},   // ё: Ё is a member
    {"[a-c]", u"B", true, false},
    {"[ -\U0010ffff]", u"\u212a", true, true},
};

TEST(ExtOps, CaseInsensitiveGlobClassesTestTheFoldedText) {
  for (const GlobRow& r : kGlobClassRows) {
    for (const char* decl : {"S: wstring;", "S: string;"}) {
      std::string utf8;
      utf16_to_utf8(r.text, utf8, Unpaired::Reject);
      const std::vector<uint8_t> payload = decl[3] == 'w' ? wstr(r.text) : astr(utf8);
      const std::string cls = r.cls;
      EXPECT_EQ(routes(decl, "S matches \"" + cls + "\"", payload), r.ci) << decl << " " << cls;
      EXPECT_EQ(routes(decl, "S matches.cs \"" + cls + "\"", payload), r.cs) << decl << " " << cls;
      EXPECT_EQ(routes(decl, "S matches \"*" + cls + "*\"", payload), r.ci) << decl << " " << cls;
    }
  }
}

// A truncated string (no terminator) is undecodable: every operator is false, `not` true.
TEST(ExtOps, TruncatedStringsAreFalseForEveryOperator) {
  const char* ops[] = {"startswith",
                       "endswith",
                       "matches",
                       "regex",
                       "is.cs",
                       "isnot.cs",
                       "contains.cs",
                       "doesntcontain.cs",
                       "startswith.cs",
                       "endswith.cs",
                       "matches.cs",
                       "regex.cs",
                       "in",
                       "not in"};
  for (const char* op : ops) {
    const std::string expr = std::string("S ") + op + " \"zz\"";
    for (const auto& [decl, payload] : {std::pair{"S: wstring;", wstr(u"abc", false)},
                                        std::pair{"S: string;", astr("abc", false)},
                                        std::pair{"S: wstring;", std::vector<uint8_t>{'a'}}}) {
      EXPECT_FALSE(routes(decl, expr, payload)) << decl << " " << expr;
      EXPECT_TRUE(routes(decl, "not " + expr, payload)) << decl << " not " << expr;
    }
  }
}

std::vector<uint8_t> le(uint64_t v, int bytes) {
  std::vector<uint8_t> b;
  put_le(b, v, bytes);
  return b;
}

TEST(ExtOps, IntegerLists) {
  EXPECT_TRUE(routes("V: int16;", "V in 1, 3, 500", le(500, 2)));
  EXPECT_FALSE(routes("V: int16;", "V in 1, 3, 500", le(2, 2)));
  EXPECT_TRUE(routes("V: int16;", "V in -1, 7", le(0xFFFF, 2)));  // sign-extended
  EXPECT_TRUE(routes("V: int16;", "V not in 1, 3", le(2, 2)));
  EXPECT_FALSE(routes("V: int16;", "V not in 1, 3", le(3, 2)));
  EXPECT_TRUE(routes("V: uint64;", "V in 0, 18446744073709551615", le(~uint64_t{0}, 8)));
  EXPECT_TRUE(routes("V: uint32;", "V in \"7\", 0x10", le(16, 4)));  // strings convert
  EXPECT_TRUE(routes("V: bool;", "V in 1", le(1, 4)));
  EXPECT_TRUE(routes("V: uint8;", "V in 4", le(4, 1)));  // one value
  // Undecodable (payload too short): both false, `not` of both true.
  for (const char* e : {"V in 1, 2", "V not in 1, 2"}) {
    EXPECT_FALSE(routes("V: uint32;", e, le(1, 2))) << e;
    EXPECT_TRUE(routes("V: uint32;", std::string("not ") + e, le(1, 2))) << e;
  }
  // Many values (more than the JIT's inline windows): the shared binary search.
  std::string many = "V in 0";
  for (int i = 1; i < 1000; ++i) many += ", " + std::to_string(i * 97);
  EXPECT_TRUE(routes("V: uint32;", many, le(97 * 999, 4)));
  EXPECT_FALSE(routes("V: uint32;", many, le(97 * 999 + 1, 4)));
}

TEST(ExtOps, GuidLists) {
  const std::string g1 = "{00000000-0000-0000-0000-000000000001}";
  const std::string g2 = "{0E95CFBC-58D4-44BA-BE40-E63A853536DF}";
  std::vector<uint8_t> one(16, 0);
  one[15] = 1;
  EXPECT_TRUE(routes("G: guid;", "G in " + g1 + ", " + g2, one));
  EXPECT_FALSE(routes("G: guid;", "G not in " + g1 + ", " + g2, one));
  EXPECT_TRUE(routes("G: guid;", "G not in " + g2, one));
  EXPECT_FALSE(routes("G: guid;", "G in " + g1, std::vector<uint8_t>(15, 0)));  // truncated
}

std::vector<uint8_t> cat(std::vector<uint8_t> a, const std::vector<uint8_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(ExtOps, FieldToField) {
  const char* decl = "A: int32; B: uint16;";
  EXPECT_TRUE(routes(decl, "A gt B", cat(le(5, 4), le(4, 2))));
  EXPECT_FALSE(routes(decl, "A gt B", cat(le(uint32_t(-3), 4), le(4, 2))));  // signed: -3 < 4
  EXPECT_TRUE(routes(decl, "A lt B", cat(le(uint32_t(-3), 4), le(4, 2))));
  EXPECT_TRUE(routes(decl, "A eq B", cat(le(4, 4), le(4, 2))));
  EXPECT_TRUE(routes(decl, "A >= B", cat(le(4, 4), le(4, 2))));
  EXPECT_TRUE(routes(decl, "A != B", cat(le(3, 4), le(4, 2))));
  EXPECT_TRUE(routes(decl, "B le A", cat(le(4, 4), le(4, 2))));
  // Both unsigned 64-bit: unsigned comparison.
  EXPECT_TRUE(routes("X: uint64; Y: uint64;", "X gt Y", cat(le(~uint64_t{0}, 8), le(1, 8))));
  // B truncated: false whatever the operator, `not` true.
  for (const char* e : {"A gt B", "A le B", "A ne B"}) {
    EXPECT_FALSE(routes(decl, e, cat(le(5, 4), le(4, 1)))) << e;
    EXPECT_TRUE(routes(decl, std::string("not ") + e, cat(le(5, 4), le(4, 1)))) << e;
  }
}

}  // namespace
}  // namespace pfc::testing
