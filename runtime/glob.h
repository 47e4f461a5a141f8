// runtime/glob.h — glob patterns of the `matches` operator (docs/language.md §3.1): the
// compiled form that pfc_tdh_str_pred matches (runtime/tdh.h) and its compiler, shared by
// the checker (which reports bad patterns) and the lowering (which compiles them).
//
// Syntax: `*` any run of code points (also none), `?` one code point, `[...]` one code point
// in the set (`[!...]` or `[^...]` not in it; `a-z` ranges; `]` first is literal, `-` first
// or last is literal), `\` makes the next code point literal (also inside `[...]`); anything
// else matches itself. The whole string must match. Case-insensitive patterns compare simple
// case foldings: the text and the literals are folded, and a class matches a character iff
// the class as written holds that character or one with the same folding (so `[A-z]`
// matches `_`, as `.cs` does, and `[Z-a]` matches `a`, `A`, `z` and `Z`): its compiled
// ranges are its members as written plus their foldings, sorted and merged.
#pragma once

#include <string>
#include <string_view>

namespace pfc {

// Compiled form: a sequence of code points, each a literal (≤ U+10FFFF) or one of these
// tokens; a class token is followed by its range count n and n (lo, hi) pairs.
inline constexpr char32_t kGlobStar = 0x110000;
inline constexpr char32_t kGlobAny = 0x110001;
inline constexpr char32_t kGlobClass = 0x110002;
inline constexpr char32_t kGlobNotClass = 0x110003;

struct GlobResult {
  std::u32string code;  // valid when error is empty
  std::string error;    // e.g. "unterminated '[' in glob pattern"
  size_t error_at = 0;  // byte offset of the problem in the pattern
};

// Compiles a UTF-8 pattern (invalid bytes b stand for U+DC00 + b, as in fold_utf8).
// `fold`: case-insensitive (literals folded, classes widened by their members' foldings).
GlobResult compile_glob(std::string_view pattern, bool fold);

// Whether `code` is well-formed compiled glob (every class token has its count and pairs
// inside `code`): what the matcher relies on, for the IR verifier.
bool glob_code_ok(std::u32string_view code);

}  // namespace pfc
