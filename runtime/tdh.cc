// runtime/tdh.cc — the TDH payload decoding primitives of runtime/tdh.h (docs/semantics.md §6),
// called by the reference interpreter and, as absolute symbols, by JIT-compiled code.
// Every read is checked against `size` first; nothing allocates or throws.
//
// Decisions beyond tdh.h:
// - count 0 leaves the offset unchanged (even at the payload's end); zero-size elements
//   (length 0) take no bytes whatever the count. Unknown in-types and binary without a
//   length are bad. A NUL-terminated wstring's terminator is a 0x0000 code unit aligned to
//   the field start, and must lie entirely inside the payload.
// - String predicates: without a length the value runs to its terminator (excluded); with a
//   length the field must fit `length` units and the value stops at the first NUL unit
//   inside it (fixed-length strings are NUL-padded). UTF-16 surrogate pairs decode to one
//   code point, unpaired surrogates to themselves; 8-bit text decodes as UTF-8 with each
//   invalid byte b → U+DC00 + b (as fold_utf8 does for needles). Every code point is
//   simple-case-folded before comparing; the empty needle is contained in every string.
// - MODULO with lo == 0 is false (the compiler rejects it); signed x % -1 is true.
#include "runtime/tdh.h"

#include <bit>
#include <cstring>
#include <type_traits>

#include "base/ascii.h"
#include "base/utf8.h"
#include "pfc/enable.h"
#include "pfc/schema.h"
#include "runtime/casefold.h"
#include "runtime/glob.h"
#include "runtime/str_search.h"
#include "runtime/wide_search.h"

namespace pfc {
namespace {

constexpr uint64_t kBad = PFC_TDH_BAD_OFFSET;
constexpr uint64_t kNoLength = PFC_TDH_NO_LENGTH;

// Element size of a fixed-size in-type; 0 for variable-size or unknown in-types.
uint64_t fixed_size(uint32_t in_type) {
  if (in_type > 0xFFFF) return 0;  // InType is 16-bit: do not let a wide value alias one
  return in_type_fixed_size(static_cast<InType>(in_type));
}

// `count` elements of `elem` bytes each from off (off <= size), or kBad when they do not fit.
uint64_t skip_fixed(uint64_t size, uint64_t off, uint64_t count, uint64_t elem) {
  if (elem == 0) return off;
  if (count > (size - off) / elem) return kBad;
  return off + count * elem;
}

// SWAR constants: one bit per 16-bit lane / per byte of a 64-bit word.
constexpr uint64_t kLanes16Low = 0x0001000100010001;
constexpr uint64_t kLanes16High = 0x8000800080008000;
constexpr uint64_t kLanes8Low = 0x0101010101010101;
constexpr uint64_t kLanes8High = 0x8080808080808080;

// The 8 bytes at p as a little-endian word (any alignment): lane k holds bytes 2k, 2k+1
// (16-bit lanes) or byte k (8-bit lanes).
inline uint64_t load_word(const uint8_t* p) {
  static_assert(std::endian::native == std::endian::little);
  uint64_t x;
  std::memcpy(&x, p, sizeof x);
  return x;
}

// The high bit of every zero 16-bit lane of x. Lanes above the first zero lane may be
// flagged spuriously (by the borrow), but the lowest flagged lane is always the first zero.
inline uint64_t zero_lanes16(uint64_t x) { return (x - kLanes16Low) & ~x & kLanes16High; }
inline uint64_t zero_lanes8(uint64_t x) { return (x - kLanes8Low) & ~x & kLanes8High; }

// Byte index (from the word's first byte) of the lowest flagged lane of a nonzero mask.
inline uint64_t first_lane16(uint64_t mask) {
  return (static_cast<uint32_t>(std::countr_zero(mask)) >> 3) & ~uint32_t{1};
}
inline uint64_t first_lane8(uint64_t mask) { return std::countr_zero(mask) >> 3; }

// Offset of the first 0x0000 code unit (aligned to off) in [off, end), or kBad; 8 bytes
// (4 units) at a time, the tail as the last 8 bytes (overlapping units already known
// nonzero), unit by unit only when all of it is under 8 bytes. Reads only [off, end).
// 8 to 16 bytes (a short text with its NUL, such as a user or host name) are the first and
// the last word with no loop.
[[gnu::always_inline]] inline uint64_t find_nul16(const uint8_t* payload, uint64_t off,
                                                  uint64_t end) {
  const uint8_t* p = payload + off;
  const uint64_t n = (end - off) & ~uint64_t{1};  // whole units; an odd last byte is ignored
  if (n - 8 <= 8) {                               // 8 <= n <= 16 (n < 8 wraps around)
    const uint64_t first = zero_lanes16(load_word(p));
    if (first != 0) return off + first_lane16(first);
    const uint64_t last = zero_lanes16(load_word(p + n - 8));
    return last != 0 ? off + n - 8 + first_lane16(last) : kBad;
  }
  uint64_t i = 0;
  if (n >= 8) {
    for (; n - i >= 8; i += 8) {
      const uint64_t zero = zero_lanes16(load_word(p + i));
      if (zero != 0) return off + i + first_lane16(zero);
    }
    if (i == n) return kBad;
    const uint64_t zero = zero_lanes16(load_word(p + n - 8));
    return zero != 0 ? off + n - 8 + first_lane16(zero) : kBad;
  }
  for (; i < n; i += 2) {
    if (p[i] == 0 && p[i + 1] == 0) return off + i;
  }
  return kBad;
}

// Offset of the first NUL code unit (1 or 2 bytes wide) in [off, end), or kBad. Forced
// inline: as a call it cost ~13 instructions per event of bench_limit's Example1.
[[gnu::always_inline]] inline uint64_t find_nul(const uint8_t* payload, uint64_t off, uint64_t end,
                                                uint64_t unit) {
  if (end - off < unit) return kBad;  // also keeps a null `payload` away from memchr
  if (unit == 1) {
    const void* hit = std::memchr(payload + off, 0, end - off);
    return hit ? static_cast<uint64_t>(static_cast<const uint8_t*>(hit) - payload) : kBad;
  }
  return find_nul16(payload, off, end);
}

// find_nul16 for texts that may be long: the first 32 bytes word by word (short
// texts pay no call), the rest by wide_find_nul's vector loop.
uint64_t find_nul16_long(const uint8_t* payload, uint64_t off, uint64_t end) {
  constexpr uint64_t kHead = 32;
  if (end - off <= kHead) return find_nul16(payload, off, end);
  const uint64_t head = find_nul16(payload, off, off + kHead);
  if (head != kBad) return head;
  const uint8_t* b = payload + off + kHead;
  const uint8_t* e = b + ((end - off - kHead) & ~uint64_t{1});
  const uint8_t* nul = wide_find_nul(b, e);
  return nul == e ? kBad : static_cast<uint64_t>(nul - payload);
}

// Offset just past `count` NUL-terminated strings from off (off <= size), or kBad. Each
// string takes at least one code unit, so the loop ends after at most size/unit rounds.
uint64_t skip_terminated(const uint8_t* payload, uint64_t size, uint64_t off, uint64_t count,
                         uint64_t unit) {
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t nul = find_nul(payload, off, size, unit);
    if (nul == kBad) return kBad;
    off = nul + unit;
  }
  return off;
}

uint64_t skip_sid(const uint8_t* payload, uint64_t size, uint64_t off, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) {  // each SID is ≥ 8 bytes: bounded by size / 8
    if (size - off < 8) return kBad;
    const uint64_t elem = 8 + 4 * uint64_t{payload[off + 1]};
    if (size - off < elem) return kBad;
    off += elem;
  }
  return off;
}

template <typename T>
int compare(uint32_t op, T v, T lo, T hi) {
  switch (static_cast<PayloadOp>(op)) {
    case PayloadOp::Eq: return v == lo;
    case PayloadOp::Ne: return v != lo;
    case PayloadOp::Le: return v <= lo;
    case PayloadOp::Gt: return v > lo;
    case PayloadOp::Lt: return v < lo;
    case PayloadOp::Ge: return v >= lo;
    case PayloadOp::Between: return lo <= v && v <= hi;
    case PayloadOp::NotBetween: return !(lo <= v && v <= hi);
    case PayloadOp::Modulo:
      if (lo == 0) return 0;  // excluded by the compiler; stay defined
      if constexpr (std::is_signed_v<T>) {
        if (lo == -1) return 1;  // x % -1 == 0 (INT64_MIN % -1 would trap)
      }
      return v % lo == 0;
    default: return 0;
  }
}

// The code units that can begin a code point whose simple case folding is the ASCII
// character `c` (a needle's first code point), for contains(). Besides the ASCII
// characters, at most one BMP code point outside the surrogates folds to each ASCII
// character (fold_source_above_ascii: U+212A KELVIN SIGN → 'k' and U+017F LATIN SMALL
// LETTER LONG S → 's'; checked over every code point by tdh_fast_test); surrogates,
// supplementary code points and the U+DC00 + b of invalid 8-bit bytes all fold to non-ASCII.
// Absent targets repeat `c`, so every test below stays branch-free.
struct AsciiStarts {
  uint8_t c;
  uint8_t or_bits;  // 0x20 when c is 'a'..'z': unit | 0x20 == c matches c and its upper case
  uint16_t wide;    // UTF-16: 0x212A for 'k', 0x017F for 's', else c
  uint8_t lead;     // UTF-8 lead byte of that code point: 0xE2 / 0xC5, else c
};

AsciiStarts ascii_starts(char32_t c) {
  const auto b = static_cast<uint8_t>(c);
  AsciiStarts a{b, static_cast<uint8_t>(is_ascii_lower(b) ? 0x20 : 0), b, b};
  if (const char16_t w = fold_source_above_ascii(c)) {
    a.wide = w;
    a.lead = static_cast<uint8_t>(w < 0x800 ? 0xC0 | (w >> 6) : 0xE0 | (w >> 12));
  }
  return a;
}

// Folded (kFold) or plain code points of a string field's bytes [p, end). skip_to() moves by
// code units, for contains(); its candidates are those of the folded text, a superset of
// the plain text's.
template <bool kFold>
struct Utf8SourceT {
  const uint8_t* p;
  const uint8_t* end;
  bool done() const { return p >= end; }
  char32_t next() {
    const uint8_t b = *p;
    if (b < 0x80) {
      ++p;
      return kFold ? ascii_lower(char32_t{b}) : char32_t{b};
    }
    const char32_t c = decode_utf8_step(p, end);
    return kFold ? fold_case(c) : c;
  }
  // Advances to the next byte in `a` (true), or to the end (false); 8 bytes at a time.
  bool skip_to(const AsciiStarts& a) {
    const uint64_t fold = a.or_bits * kLanes8Low, ascii = a.c * kLanes8Low;
    const uint64_t lead = a.lead * kLanes8Low;
    for (; end - p >= 8; p += 8) {
      const uint64_t x = load_word(p);
      const uint64_t hit = zero_lanes8((x | fold) ^ ascii) | zero_lanes8(x ^ lead);
      if (hit != 0) {
        p += first_lane8(hit);
        return true;
      }
    }
    for (; p < end; ++p) {
      if ((*p | a.or_bits) == a.c || *p == a.lead) return true;
    }
    return false;
  }
};

template <bool kFold>
struct Utf16SourceT {
  const uint8_t* p;
  const uint8_t* end;  // end - p is even
  bool done() const { return p >= end; }
  char32_t next() {
    if (p[1] == 0 && p[0] < 0x80) {
      const uint8_t b = p[0];
      p += 2;
      return kFold ? ascii_lower(char32_t{b}) : char32_t{b};
    }
    const char32_t c = decode_utf16le_step(p, end);
    return kFold ? fold_case(c) : c;
  }
  // Advances to the next unit in `a` (true), or to the end (false); 4 units at a time.
  bool skip_to(const AsciiStarts& a) { return seek<false>(a) == Stop::Candidate; }

  enum class Stop { Candidate, Nul, End };
  // Advances to the next unit in `a` or (kNul) the next 0x0000 unit, whichever comes first,
  // or to the end; 4 units at a time. `a.c` must not be 0.
  template <bool kNul>
  Stop seek(const AsciiStarts& a) {
    const uint64_t fold = a.or_bits * kLanes16Low, ascii = a.c * kLanes16Low;
    const uint64_t wide = a.wide * kLanes16Low;
    for (; end - p >= 8; p += 8) {
      const uint64_t x = load_word(p);
      uint64_t hit = zero_lanes16((x | fold) ^ ascii) | zero_lanes16(x ^ wide);
      if constexpr (kNul) hit |= zero_lanes16(x);
      if (hit != 0) {
        p += first_lane16(hit);
        return kNul && p[0] == 0 && p[1] == 0 ? Stop::Nul : Stop::Candidate;
      }
    }
    for (; p < end; p += 2) {
      const auto u = static_cast<uint16_t>(p[0] | (p[1] << 8));
      if (kNul && u == 0) return Stop::Nul;
      if ((u | a.or_bits) == a.c || u == a.wide) return Stop::Candidate;
    }
    return Stop::End;
  }
};

using Utf8Source = Utf8SourceT<true>;
using Utf16Source = Utf16SourceT<true>;

template <typename Source>
bool equals(Source s, const char32_t* needle, uint64_t needle_len) {
  for (uint64_t i = 0; i < needle_len; ++i) {
    if (s.done() || s.next() != needle[i]) return false;
  }
  return s.done();
}

// Substring search over folded code points, without buffers: does the needle match from
// some code-point boundary of the sequential decode? Knuth–Morris–Pratt (str_search.h):
// every code point of the field is decoded once, so O(field + needle). While nothing is
// matched and the needle starts with an ASCII character c, only the units of
// ascii_starts(c) can begin a match, and each of them is such a boundary:
// decode_utf16le_step consumes a second unit only when it is a low surrogate
// (0xDC00–0xDFFF), decode_utf8_step consumes after a lead byte only continuation bytes
// (0x80–0xBF), so ASCII units/bytes, U+212A, U+017F and the lead bytes 0xE2 / 0xC5 always
// start a decode step (base/utf8.h). Every other step start decodes to a code point not
// folding to c, which would leave the match empty. So the scan skips word-at-a-time to
// those units, with the same result as decoding every unit.
template <typename Source>
bool contains(Source s, const char32_t* needle, const uint32_t* links, uint64_t needle_len) {
  if (needle_len == 0) return true;
  const bool skip = needle[0] < 0x80;
  const AsciiStarts starts = ascii_starts(skip ? needle[0] : 0);
  uint64_t matched = 0;
  while (true) {
    if (matched == 0 && skip && !s.skip_to(starts)) return false;
    if (s.done()) return false;
    matched = kmp_step(needle, links, matched, s.next());
    if (matched == needle_len) return true;
  }
}

template <typename Source>
bool starts_with(Source s, const char32_t* needle, uint64_t needle_len) {
  for (uint64_t i = 0; i < needle_len; ++i) {
    if (s.done() || s.next() != needle[i]) return false;
  }
  return true;
}

// KMP over the whole text: the final state is the longest needle prefix that is a suffix of
// the text, so the text ends with the needle iff it is the whole needle. O(field + needle).
template <typename Source>
bool ends_with(Source s, const char32_t* needle, const uint32_t* links, uint64_t needle_len) {
  if (needle_len == 0) return true;
  uint64_t matched = 0;
  while (!s.done()) {
    if (matched == needle_len) matched = links[needle_len - 1];
    matched = kmp_step(needle, links, matched, s.next());
  }
  return matched == needle_len;
}

// Code points taken by the glob token at pat[i] (runtime/glob.h).
uint64_t glob_token_size(const char32_t* pat, uint64_t i) {
  return pat[i] == kGlobClass || pat[i] == kGlobNotClass ? 2 + 2 * uint64_t{pat[i + 1]} : 1;
}

bool glob_token_matches(const char32_t* pat, uint64_t i, char32_t c) {
  if (pat[i] == kGlobAny) return true;
  if (pat[i] != kGlobClass && pat[i] != kGlobNotClass) return pat[i] == c;
  bool in = false;
  for (uint64_t k = 0; k < pat[i + 1]; ++k)
    in = in || (pat[i + 2 + 2 * k] <= c && c <= pat[i + 3 + 2 * k]);
  return in != (pat[i] == kGlobNotClass);
}

// Glob match of the whole text: the classic greedy algorithm that remembers only the last
// `*` (a later star subsumes an earlier one), O(field × pattern), never exponential.
// Sources are plain cursors, so a copy is a restart point.
template <typename Source>
bool glob(Source s, const char32_t* pat, uint64_t n) {
  constexpr uint64_t kNone = ~uint64_t{0};
  uint64_t p = 0;
  uint64_t star = kNone;
  Source star_s = s;
  while (!s.done()) {
    if (p < n && pat[p] == kGlobStar) {
      star = ++p;
      star_s = s;
      continue;
    }
    const char32_t c = s.next();
    if (p < n && glob_token_matches(pat, p, c)) {
      p += glob_token_size(pat, p);
      continue;
    }
    if (star == kNone) return false;
    s = star_s;
    s.next();
    star_s = s;
    p = star;
  }
  while (p < n && pat[p] == kGlobStar) ++p;
  return p == n;
}

template <typename Source>
int string_op(uint32_t op, Source s, const char32_t* needle, uint64_t needle_len,
              const uint32_t* links) {
  switch (static_cast<PayloadOp>(op)) {
    case PayloadOp::Is:
    case PayloadOp::IsCs: return equals(s, needle, needle_len);
    case PayloadOp::IsNot:
    case PayloadOp::IsNotCs: return !equals(s, needle, needle_len);
    case PayloadOp::Contains:
    case PayloadOp::ContainsCs: return contains(s, needle, links, needle_len);
    case PayloadOp::DoesntContain:
    case PayloadOp::DoesntContainCs: return !contains(s, needle, links, needle_len);
    case PayloadOp::StartsWith:
    case PayloadOp::StartsWithCs: return starts_with(s, needle, needle_len);
    case PayloadOp::EndsWith:
    case PayloadOp::EndsWithCs: return ends_with(s, needle, links, needle_len);
    case PayloadOp::Matches:
    case PayloadOp::MatchesCs: return glob(s, needle, needle_len);
    default: return 0;
  }
}

bool case_sensitive(uint32_t op) {
  return op >= uint32_t(PayloadOp::IsCs) && op <= uint32_t(PayloadOp::RegexCs);
}

// True when CONTAINS on a NUL-terminated UTF-16 field can take the single pass below.
bool single_pass_contains(uint64_t unit, uint64_t length, uint32_t op, const char32_t* needle,
                          uint64_t needle_len) {
  const auto o = static_cast<PayloadOp>(op);
  if (unit != 2 || length != kNoLength || needle_len == 0 || needle[0] >= 0x80) return false;
  if (o != PayloadOp::Contains && o != PayloadOp::DoesntContain) return false;
  for (uint64_t i = 0; i < needle_len; ++i) {
    if (needle[i] == 0) return false;
  }
  return true;
}

// contains() over the NUL-terminated UTF-16 field at off (off <= size) while looking for
// its terminator, in one pass: stores the result in *found and the terminator's offset in
// *nul, or returns false when there is none. Same result as string_field then contains():
// the needle holds no U+0000, and decode_utf16le_step never consumes a 0x0000 unit as the
// second half of a pair, so the first code point 0 decoded is the terminator, where the
// search ends unmatched. Once the result is known, the rest of the pass only looks for the
// terminator.
bool contains_utf16_terminated(const uint8_t* payload, uint64_t size, uint64_t off,
                               const char32_t* needle, const uint32_t* links, uint64_t needle_len,
                               int* found, uint64_t* nul) {
  Utf16Source s{payload + off, payload + off + ((size - off) & ~uint64_t{1})};
  const AsciiStarts starts = ascii_starts(needle[0]);
  uint64_t matched = 0;
  while (matched < needle_len) {
    if (matched == 0) {
      const Utf16Source::Stop stop = s.seek<true>(starts);
      if (stop == Utf16Source::Stop::End) return false;
      if (stop == Utf16Source::Stop::Nul) break;
    } else if (s.done()) {
      return false;
    }
    if (s.p[0] == 0 && s.p[1] == 0) break;  // the terminator
    matched = kmp_step(needle, links, matched, s.next());
  }
  *found = matched == needle_len;
  *nul = find_nul16(payload, static_cast<uint64_t>(s.p - payload), size);
  return *nul != kBad;
}

bool is_op(uint32_t op, PayloadOp o) { return op == static_cast<uint32_t>(o); }

bool is_contains(uint32_t op) {
  return is_op(op, PayloadOp::Contains) || is_op(op, PayloadOp::ContainsCs) ||
         is_op(op, PayloadOp::DoesntContain) || is_op(op, PayloadOp::DoesntContainCs);
}

// UTF-16 texts shorter than this are searched code point by code point: for them the
// setup of wide_find (checking the needle, choosing the loop) costs more than it saves.
constexpr uint64_t kWideMinBytes = 32;

// Is the UTF-16 field at off at least kWideMinBytes long (or, without a length, does the
// payload hold that many bytes from off, none of them its terminator)? False for bad offsets.
bool wide_text_is_long(const uint8_t* payload, uint64_t size, uint64_t off, uint64_t length) {
  if (off > size) return false;
  if (length != kNoLength) return length >= kWideMinBytes / 2;
  return size - off >= kWideMinBytes && find_nul16(payload, off, off + kWideMinBytes) == kBad;
}

// CONTAINS / DOESNTCONTAIN (`op`, either case form) of the prepared ASCII needle `n` on the
// UTF-16 field at off: the result and *next of string_field then contains(), in one pass
// over the units (runtime/wide_search.h says why units give the same answer as decoded
// code points). The text ends at the first 0x0000 unit or at `length` units; the terminator
// of a field without a length is the first 0x0000 unit of [off, size), an odd last byte
// ignored, as find_nul16 finds it.
int wide_contains(const uint8_t* payload, uint64_t size, uint64_t off, uint64_t length, uint32_t op,
                  const WideNeedle& n, uint64_t* next) {
  *next = kBad;
  if (off > size) return 0;  // includes off == PFC_TDH_BAD_OFFSET
  if (length != kNoLength && length > (size - off) / 2) return 0;
  const uint8_t* b = payload + off;
  const uint8_t* e = b + (length == kNoLength ? (size - off) & ~uint64_t{1} : 2 * length);
  const uint8_t* at = wide_find(b, e, n);
  const bool found = at != e && (at[0] != 0 || at[1] != 0);
  if (length != kNoLength) {
    *next = off + 2 * length;
  } else {
    const uint8_t* nul = found ? wide_find_nul(at, e) : at;
    if (nul == e) return 0;
    *next = static_cast<uint64_t>(nul - payload) + 2;
  }
  return found == (is_op(op, PayloadOp::Contains) || is_op(op, PayloadOp::ContainsCs));
}

// The packed needle of pfc_tdh_wstr_short_pred_next (`n` code points, 16 bits each) as code
// points in cps and its KMP failure links; false when n is over PFC_TDH_SHORT_NEEDLE.
bool unpack_short(uint64_t needle, uint64_t n, char32_t* cps, uint32_t* links) {
  if (n > PFC_TDH_SHORT_NEEDLE) return false;
  for (uint64_t i = 0; i < n; ++i) cps[i] = char32_t((needle >> (16 * i)) & 0xFFFF);
  needle_links_into({cps, n}, links);
  return true;
}

// A string field at off with `unit`-byte code units: [off, *end) holds its characters
// (terminator and anything from an embedded NUL on excluded) and *next is the offset just
// past the field, as pfc_tdh_skip computes it; false (nothing stored) when it does not fit.
bool string_field(const uint8_t* payload, uint64_t size, uint64_t off, uint64_t unit,
                  uint64_t length, uint64_t* end, uint64_t* next) {
  if (off > size) return false;  // includes off == PFC_TDH_BAD_OFFSET
  if (length == kNoLength) {
    const uint64_t nul =
        unit == 2 ? find_nul16_long(payload, off, size) : find_nul(payload, off, size, unit);
    if (nul == kBad) return false;
    *end = nul;
    *next = nul + unit;
    return true;
  }
  // Same condition as pfc_tdh_skip's (length * unit > size - off, without overflow).
  if (length > (size - off) / unit) return false;
  const uint64_t stop = off + length * unit;
  const uint64_t nul = find_nul(payload, off, stop, unit);
  *end = nul == kBad ? stop : nul;
  *next = stop;
  return true;
}

// pfc_tdh_skip's general case; not inlined, so that the wstring case needs no frame.
[[gnu::noinline]] uint64_t skip_general(const uint8_t* payload, uint64_t size, uint64_t off,
                                        uint32_t in_type, uint64_t count, uint64_t length) {
  if (off > size) return kBad;  // includes off == PFC_TDH_BAD_OFFSET
  if (count == 0) return off;
  switch (static_cast<InType>(in_type)) {
    case InType::UnicodeString:
    case InType::AnsiString: {
      const uint64_t unit = in_type == 1 ? 2 : 1;
      if (length == kNoLength) return skip_terminated(payload, size, off, count, unit);
      if (length > UINT64_MAX / unit) return kBad;
      return skip_fixed(size, off, count, length * unit);
    }
    case InType::Binary:
      if (length == kNoLength) return kBad;
      return skip_fixed(size, off, count, length);
    case InType::Sid: return skip_sid(payload, size, off, count);
    default: {
      const uint64_t elem = fixed_size(in_type);
      return elem == 0 ? kBad : skip_fixed(size, off, count, elem);
    }
  }
}
// pfc_tdh_skip_wstr for any length (off < size). Out of line: the short case stays a leaf
// with no saved registers.
[[gnu::noinline]] uint64_t skip_wstr_any(const uint8_t* payload, uint64_t size, uint64_t off) {
  const uint64_t nul = find_nul16(payload, off, size);
  return nul == kBad ? kBad : nul + 2;
}
}  // namespace
}  // namespace pfc

using namespace pfc;

extern "C" {

uint64_t pfc_tdh_skip(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                      uint64_t count, uint64_t length) {
  // One NUL-terminated wstring (the usual variable field in front of the one a filter
  // reads): its scan alone, without the frame of the general case.
  if (in_type == 1 && count == 1 && length == kNoLength) [[likely]]
    return pfc_tdh_skip_wstr(payload, size, off);
  return skip_general(payload, size, off, in_type, count, length);
}

uint64_t pfc_tdh_skip_wstr(const uint8_t* payload, uint64_t size, uint64_t off) {
  if (off >= size) return kBad;  // includes off == PFC_TDH_BAD_OFFSET; no room for a unit
  const uint64_t n = (size - off) & ~uint64_t{1};
  if (n - 8 <= 8) {  // find_nul16's short case, each exit adding the NUL's 2 bytes itself
    const uint8_t* p = payload + off;
    const uint64_t first = zero_lanes16(load_word(p));
    if (first != 0) return off + 2 + first_lane16(first);
    const uint64_t last = zero_lanes16(load_word(p + n - 8));
    return last != 0 ? off + n - 6 + first_lane16(last) : kBad;
  }
  return skip_wstr_any(payload, size, off);
}

uint64_t pfc_tdh_load_int(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                          int* ok) {
  const auto t = static_cast<InType>(in_type);
  const uint64_t width = in_type_is_integer(t) ? fixed_size(in_type) : 0;
  if (width == 0 || off > size || size - off < width) {
    *ok = 0;
    return 0;
  }
  uint64_t v = 0;
  for (uint64_t i = 0; i < width; ++i) v |= uint64_t{payload[off + i]} << (8 * i);
  if (in_type_is_signed(t) && width < 8) {
    const uint64_t sign = uint64_t{1} << (8 * width - 1);
    v = (v ^ sign) - sign;
  }
  *ok = 1;
  return v;
}

int pfc_tdh_int_pred(uint32_t op, int is_signed, uint64_t value, uint64_t lo, uint64_t hi) {
  if (is_signed) {
    return compare<int64_t>(op, static_cast<int64_t>(value), static_cast<int64_t>(lo),
                            static_cast<int64_t>(hi));
  }
  return compare<uint64_t>(op, value, lo, hi);
}

int pfc_tdh_str_pred_next(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                          uint64_t length, uint32_t op, const char32_t* needle, uint64_t needle_len,
                          const uint32_t* links, uint64_t* next) {
  if (in_type != 1 && in_type != 2) {  // not a string: no predicate, but skip as usual
    *next = pfc_tdh_skip(payload, size, off, in_type, 1, length);
    return 0;
  }
  const uint64_t unit = in_type == 1 ? 2 : 1;
  WideNeedle wide;
  if (unit == 2 && is_contains(op) && wide_text_is_long(payload, size, off, length) &&
      wide_needle(needle, links, needle_len, !case_sensitive(op), &wide)) {
    return wide_contains(payload, size, off, length, op, wide, next);
  }
  if (off <= size && single_pass_contains(unit, length, op, needle, needle_len)) {
    int found = 0;
    uint64_t nul = 0;
    if (!contains_utf16_terminated(payload, size, off, needle, links, needle_len, &found, &nul)) {
      *next = kBad;
      return 0;
    }
    *next = nul + 2;
    return is_op(op, PayloadOp::Contains) ? found : !found;
  }
  uint64_t end = 0;
  if (!string_field(payload, size, off, unit, length, &end, next)) {
    *next = kBad;
    return 0;
  }
  const uint8_t* b = payload + off;
  const uint8_t* e = payload + end;
  if (case_sensitive(op)) {
    if (unit == 2) return string_op(op, Utf16SourceT<false>{b, e}, needle, needle_len, links);
    return string_op(op, Utf8SourceT<false>{b, e}, needle, needle_len, links);
  }
  if (unit == 2) return string_op(op, Utf16Source{b, e}, needle, needle_len, links);
  return string_op(op, Utf8Source{b, e}, needle, needle_len, links);
}

int pfc_tdh_wstr_short_pred_next(const uint8_t* payload, uint64_t size, uint64_t off,
                                 uint64_t needle, uint32_t op_len, uint64_t* next) {
  const uint64_t nul = off > size ? kBad : find_nul(payload, off, size, 2);
  if (nul == kBad) {
    *next = kBad;
    return 0;
  }
  *next = nul + 2;
  const auto op = static_cast<PayloadOp>(op_len & 0xFFFF);
  const uint64_t n = op_len >> 16;
  const uint64_t len = (nul - off) / 2;
  const uint8_t* s = payload + off;
  // Each unit on its own: a unit of a surrogate pair folds to itself (no ASCII), and no
  // ASCII unit is ever the second half of a pair, so unit matches are code point matches.
  auto matches_at = [&](uint64_t j) {
    for (uint64_t i = 0; i < n; ++i) {
      const uint8_t* u = s + 2 * (j + i);
      if (fold_case(char32_t(u[0] | (u[1] << 8))) != char32_t((needle >> (16 * i)) & 0xFFFF))
        return false;
    }
    return true;
  };
  bool found = false;
  char32_t cps[PFC_TDH_SHORT_NEEDLE] = {};
  uint32_t links[PFC_TDH_SHORT_NEEDLE] = {};
  WideNeedle wide;
  if (op == PayloadOp::Is || op == PayloadOp::IsNot) {
    found = len == n && matches_at(0);
  } else if (2 * len >= kWideMinBytes && unpack_short(needle, n, cps, links) &&
             wide_needle(cps, links, n, true, &wide)) {
    found = wide_find(s, s + 2 * len, wide) != s + 2 * len;  // [s, s + 2 len) holds no NUL
  } else {
    for (uint64_t j = 0; j + n <= len && !found; ++j) found = matches_at(j);
  }
  return (op == PayloadOp::Is || op == PayloadOp::Contains) ? found : !found;
}

int pfc_tdh_string_bounds(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                          uint64_t length, uint64_t* end, uint64_t* next) {
  if (in_type != 1 && in_type != 2) {
    *next = pfc_tdh_skip(payload, size, off, in_type, 1, length);
    return 0;
  }
  if (!string_field(payload, size, off, in_type == 1 ? 2 : 1, length, end, next)) {
    *next = kBad;
    return 0;
  }
  return 1;
}

int pfc_tdh_str_pred(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                     uint64_t length, uint32_t op, const char32_t* needle, uint64_t needle_len,
                     const uint32_t* links) {
  uint64_t next = 0;
  return pfc_tdh_str_pred_next(payload, size, off, in_type, length, op, needle, needle_len, links,
                               &next);
}

int pfc_tdh_guid_pred(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t op,
                      const uint8_t* value16) {
  if (off > size || size - off < 16) return 0;
  const bool equal = std::memcmp(payload + off, value16, 16) == 0;
  switch (static_cast<PayloadOp>(op)) {
    case PayloadOp::Is: return equal;
    case PayloadOp::IsNot: return !equal;
    default: return 0;
  }
}

}  // extern "C"
