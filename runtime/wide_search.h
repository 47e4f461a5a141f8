// runtime/wide_search.h — CONTAINS of an ASCII needle in UTF-16LE text a vector of code
// units at a time (AVX2 where the CPU has it, else SSE2; a scalar loop elsewhere), for the
// string predicates of runtime/tdh.cc (docs/limits.md "String predicates"), and the same
// units narrowed to bytes for the multi-pattern matcher (compiler/str_match.h).
//
// Why units suffice: a code point that folds (or, case-sensitively, is equal) to an ASCII
// character is one UTF-16 unit outside the surrogates — the ASCII characters themselves
// and the few above U+007F of fold_source_above_ascii (casefold.h) — and such a unit always
// begins a decode step of decode_utf16le_step. So an ASCII needle matches the decoded,
// folded code points of a text exactly where its characters match consecutive units, each
// unit u compared as fold_case(u) (unpaired surrogates and the halves of a pair fold to
// themselves, never to ASCII). Pure functions: thread-safe.
#pragma once

#include <cstdint>

namespace pfc {

// The units that match one needle character: u with (u | or_bits) == value or u == wide.
struct WideUnitClass {
  uint16_t or_bits;  // 0x20 for 'a'..'z' when folding (the upper case matches), else 0
  uint16_t value;    // the needle character
  uint16_t wide;     // the unit above U+007F folding to it, else `value` again
};

// A needle prepared by wide_needle for wide_find.
struct WideNeedle {
  const char32_t* cps;    // the needle's code points: ASCII, none 0
  const uint32_t* links;  // their KMP failure links (runtime/str_search.h needle_links)
  uint64_t len;           // at least 1
  bool fold;              // compare fold_case(unit) (CONTAINS) or the unit itself (.cs)
  WideUnitClass first, last;
};

// Prepares the needle `cps` (`len` code points, with its failure links) for wide_find and
// returns true, or returns false when it cannot be searched unit by unit: empty, a code
// point that is 0 or not ASCII, or — when folding — one that is not its own case folding
// (needles arrive folded, and no text matches an unfolded one). O(len), no allocation.
bool wide_needle(const char32_t* cps, const uint32_t* links, uint64_t len, bool fold,
                 WideNeedle* out);

// Over the UTF-16LE units [p, end) ((end - p) even; any alignment): the first unit that
// begins a match of the needle, else the first 0x0000 unit, else end — whichever comes
// first (a match never includes a 0x0000 unit). Reads only [p, end). Linear in the text:
// candidates that keep failing late hand the rest of the text to a Knuth–Morris–Pratt pass.
const uint8_t* wide_find(const uint8_t* p, const uint8_t* end, const WideNeedle& needle);

// The first 0x0000 unit of [p, end) ((end - p) even), or end. Reads only [p, end).
const uint8_t* wide_find_nul(const uint8_t* p, const uint8_t* end);

// Narrows the UTF-16LE units [p, end) ((end - p) even, any alignment) to one byte each in
// out[0 .. (end - p) / 2): a unit below U+0080 as itself, ASCII-lower-cased when `fold`;
// when `fold`, a unit of fold_source_above_ascii as the ASCII character it folds to; every
// other unit (non-ASCII, surrogates) as 0x80. By the argument above, an ASCII needle (folded
// when `fold`; no character 0) matches the text's decoded (folded) code points exactly where
// its bytes match consecutive bytes of out, at the same unit offsets — so anchors at the
// text's start and end carry over too. Reads only [p, end); writes only those bytes.
void wide_narrow(const uint8_t* p, const uint8_t* end, bool fold, uint8_t* out);

namespace internal {

// The units above U+007F that fold to ASCII (fold_source_above_ascii) and what they fold
// to, for the narrowing loops: at most one per ASCII character.
struct WideFoldSources {
  uint16_t from[0x80];
  uint8_t to[0x80];
  int n;
};
const WideFoldSources& wide_fold_sources();
// The vector narrowing loops keep at most this many sources in registers (2 in Unicode
// 15); with more they hand the text to wide_narrow_scalar.
inline constexpr int kWideVectorSources = 8;

// One implementation of wide_find / wide_find_nul / wide_narrow (the ones the CPU can run
// are listed by wide_impls, for tests; the public functions use the last, the widest).
struct WideImpl {
  const char* name;
  const uint8_t* (*find)(const uint8_t*, const uint8_t*, const WideNeedle&);
  const uint8_t* (*find_nul)(const uint8_t*, const uint8_t*);
  void (*narrow)(const uint8_t*, const uint8_t*, bool, uint8_t*);
};
// Writes up to 3 implementations (scalar, SSE2, AVX2) into `out`; returns how many.
int wide_impls(WideImpl* out);

// Does unit `u` match needle character i?
bool wide_unit_matches(const WideNeedle& n, uint64_t i, uint16_t u);
// The Knuth–Morris–Pratt pass over units of wide_find's contract, from p.
const uint8_t* wide_find_kmp(const uint8_t* p, const uint8_t* end, const WideNeedle& n);
// The scalar wide_find / wide_find_nul.
const uint8_t* wide_find_scalar(const uint8_t* p, const uint8_t* end, const WideNeedle& n);
const uint8_t* wide_find_nul_scalar(const uint8_t* p, const uint8_t* end);
void wide_narrow_scalar(const uint8_t* p, const uint8_t* end, bool fold, uint8_t* out);
// The SSE2 and AVX2 ones (x86-64 only; AVX2 only where the CPU has it).
const uint8_t* wide_find_sse2(const uint8_t* p, const uint8_t* end, const WideNeedle& n);
const uint8_t* wide_find_nul_sse2(const uint8_t* p, const uint8_t* end);
const uint8_t* wide_find_avx2(const uint8_t* p, const uint8_t* end, const WideNeedle& n);
const uint8_t* wide_find_nul_avx2(const uint8_t* p, const uint8_t* end);
void wide_narrow_sse2(const uint8_t* p, const uint8_t* end, bool fold, uint8_t* out);
void wide_narrow_avx2(const uint8_t* p, const uint8_t* end, bool fold, uint8_t* out);

}  // namespace internal
}  // namespace pfc
