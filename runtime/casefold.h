// runtime/casefold.h — simple Unicode case folding (CaseFolding.txt status C + S) and simple
// upper-casing, from generated range tables (casefold_table.inc) with an ASCII fast path.
// Used by the TDH string predicates (tdh.cc), the compiler (needle folding), the glob
// compiler (classes, foldings_in) and Guid::from_provider_name. Pure functions on immutable
// tables: thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/ascii.h"

namespace pfc {

namespace internal {
char32_t fold_case_table(char32_t c);
char32_t upper_case_table(char32_t c);
}  // namespace internal

// The simple case folding of `c` (itself when it has none): 'A' → 'a', 'É' → 'é',
// 'ς' → 'σ', 'ẞ' → 'ß', KELVIN SIGN → 'k'. Values above U+10FFFF fold to themselves.
inline char32_t fold_case(char32_t c) {
  if (c < 0x80) return ascii_lower(c);
  return internal::fold_case_table(c);
}

// The simple case foldings of the code points in [first, last] that do not fold to
// themselves, as ranges {lo, hi} of consecutive foldings (a run of letters whose foldings
// are consecutive is one range), in the order of their sources; ranges may overlap. What
// a case-insensitive glob class `[first-last]` matches besides its members as written
// (runtime/glob.h). Linear in the folding table's runs inside [first, last].
std::vector<std::pair<char32_t, char32_t>> foldings_in(char32_t first, char32_t last);

// The simple upper-case mapping of `c` (UnicodeData.txt), itself when it has none.
inline char32_t upper_case(char32_t c) {
  if (c < 0x80) return ascii_upper(c);
  return internal::upper_case_table(c);
}

// The code point above U+007F whose simple case folding is the ASCII character `c`
// (U+212A KELVIN SIGN for 'k', U+017F LATIN SMALL LETTER LONG S for 's'), or 0 when there is
// none. Derived from the fold table when it is compiled, which also checks the properties
// the unit-at-a-time string searches rely on (runtime/wide_search.h): at most one such
// code point per ASCII character, each in the BMP outside the surrogates (one UTF-16 unit,
// never part of a pair). `c` must be below 0x80.
char16_t fold_source_above_ascii(char32_t c);

// Decodes `text` as 8-bit text (UTF-8; invalid bytes b → U+DC00 + b, as the string
// predicates decode 8-bit fields) and folds every code point: the needle form that
// pfc_tdh_str_pred expects.
std::u32string fold_utf8(std::string_view text);

}  // namespace pfc
