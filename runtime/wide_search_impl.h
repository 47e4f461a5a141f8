// runtime/wide_search_impl.h — the vector loops of wide_find / wide_find_nul
// (runtime/wide_search.h), written once over a vector type `T` and instantiated by
// wide_search.cc (SSE2) and wide_search_avx2.cc (compiled with -mavx2). Only those two
// include it. Everything here has internal linkage and uses no library templates, so no
// AVX2 copy of an inline function can be shared with code that runs on any CPU.
//
// `T` provides: V (a vector of kBytes / 2 units), load (unaligned), splat (one 16-bit value
// in every unit), eq (unit-wise ==, all ones or zero), bit_or, bit_and, and mask (one bit
// per byte: two equal bits per unit, so a unit's byte offset is its lowest set bit).
#pragma once

#include <cstdint>
#include <cstring>

#include "runtime/wide_search.h"

namespace pfc::internal {
namespace {

inline uint16_t load_unit(const uint8_t* p) {
  uint16_t u;
  std::memcpy(&u, p, sizeof u);  // little-endian hosts only (x86-64)
  return u;
}

template <class T>
struct VecClass {
  typename T::V or_bits, value, wide;
};

template <class T>
VecClass<T> vec_class(const WideUnitClass& c) {
  return {T::splat(c.or_bits), T::splat(c.value), T::splat(c.wide)};
}

// All ones in the units of x that match class c; kWide: c.wide may differ from c.value
// (else that compare is left out).
template <class T, bool kWide>
typename T::V matches(typename T::V x, const VecClass<T>& c) {
  const typename T::V m = T::eq(T::bit_or(x, c.or_bits), c.value);
  if constexpr (kWide) return T::bit_or(m, T::eq(x, c.wide));
  return m;
}

// wide_unit_matches with the ASCII cases inline.
inline bool unit_matches(const WideNeedle& n, uint64_t i, uint16_t u) {
  const char32_t c = n.cps[i];
  if (u == c) return true;
  if (!n.fold) return false;
  if (u < 0x80) return (u | 0x20) == c && c >= 'a' && c <= 'z';
  return wide_unit_matches(n, i, u);
}

// Is there a match of the whole needle at q, whose first unit is known to match? The last
// unit first (texts full of near misses, like "time" for "timeout", fail there), then the
// others. Counts the units compared into *work.
inline bool verify(const uint8_t* q, const uint8_t* end, const WideNeedle& n, uint64_t* work) {
  if (static_cast<uint64_t>(end - q) / 2 < n.len) return false;
  const uint64_t last = n.len - 1;
  ++*work;
  if (!unit_matches(n, last, load_unit(q + 2 * last))) return false;
  for (uint64_t i = 1; i < last; ++i) {
    ++*work;
    if (!unit_matches(n, i, load_unit(q + 2 * i))) return false;
  }
  return true;
}

// The scan's state: the text, the needle and the verification work so far.
struct Scan {
  const uint8_t* p;
  const uint8_t* end;
  const WideNeedle& n;
  uint64_t work = 0;
  // Verification may cost as many units as were scanned plus a constant; beyond that the
  // candidates keep failing late, and the rest goes to the linear KMP pass.
  bool over_budget(const uint8_t* at) const {
    return work > static_cast<uint64_t>(at - p) / 2 + 64;
  }
};

constexpr const uint8_t* kNone = nullptr;

// One block at b: `nul` and `cand` are its masks of 0x0000 units and of candidates (only
// bits of unscanned units set). Returns the first verified candidate before the first NUL,
// else that NUL, else the KMP pass's answer once over budget, else kNone (scan on). Out of
// line: the loops keep their vectors in registers across the rare calls.
[[gnu::noinline]] const uint8_t* settle(Scan& s, const uint8_t* b, uint32_t nul, uint32_t cand) {
  if (nul != 0) cand &= (uint32_t{1} << __builtin_ctz(nul)) - 1;
  while (cand != 0) {
    const unsigned k = __builtin_ctz(cand);
    if (verify(b + k, s.end, s.n, &s.work)) return b + k;
    if (s.over_budget(b + k)) return wide_find_kmp(b + k + 2, s.end, s.n);
    cand &= ~(uint32_t{3} << k);
  }
  return nul != 0 ? b + __builtin_ctz(nul) : kNone;
}

// The first 0x0000 unit of [q, end), or end, with vectors of T: whole blocks, then one
// ending at end (masking off the units before q). Reads [min(q, end - kBytes), end): the
// text must hold at least one block before end.
template <class T>
const uint8_t* nul_from(const uint8_t* q, const uint8_t* end) {
  constexpr uint64_t kB = T::kBytes;
  const typename T::V zero = T::splat(0);
  for (; static_cast<uint64_t>(end - q) >= kB; q += kB) {
    const uint32_t nul = T::mask(T::eq(T::load(q), zero));
    if (nul != 0) return q + __builtin_ctz(nul);
  }
  if (q == end) return end;
  const uint8_t* b = end - kB;  // b < q
  const uint32_t nul = T::mask(T::eq(T::load(b), zero)) & (~uint32_t{0} << (q - b));
  return nul != 0 ? b + __builtin_ctz(nul) : end;
}

// wide_find_nul with vectors of T.
template <class T>
const uint8_t* find_nul(const uint8_t* p, const uint8_t* end) {
  if (static_cast<uint64_t>(end - p) < T::kBytes) return wide_find_nul_scalar(p, end);
  return nul_from<T>(p, end);
}

// One pair of blocks at b: its first units, and the units len - 1 further (at b + span),
// against the needle's first and last characters, bits below `fresh` dropped. Then settle.
template <class T, bool kWide>
const uint8_t* pair_at(Scan& s, const uint8_t* b, uint64_t span, uint32_t fresh,
                       const VecClass<T>& first, const VecClass<T>& last) {
  const typename T::V a = T::load(b);
  const typename T::V nul = T::eq(a, T::splat(0));
  const typename T::V cand =
      T::bit_and(matches<T, kWide>(a, first), matches<T, kWide>(T::load(b + span), last));
  if ((T::mask(T::bit_or(nul, cand)) & fresh) == 0) return kNone;
  return settle(s, b, T::mask(nul) & fresh, T::mask(cand) & fresh);
}

// wide_find with vectors of T (wide_search.h) on a text of at least one block. Candidates
// are the units u < end - span (span: bytes from a needle's first unit to its last) whose
// unit matches the first character and whose unit span bytes on matches the last. Blocks
// of them while both loads stay inside [p, end); then one pair of blocks ending at end -
// span (overlapping what was scanned, masked off), and the NUL units of the last span
// bytes. A text shorter than span + one block instead goes on in blocks of first units
// alone, the last of them ending at end.
template <class T, bool kWide>
const uint8_t* find_blocks(const uint8_t* p, const uint8_t* end, const WideNeedle& n) {
  constexpr uint64_t kB = T::kBytes;
  Scan s{p, end, n};
  const VecClass<T> first = vec_class<T>(n.first), last = vec_class<T>(n.last);
  const uint64_t span = 2 * (n.len - 1);
  const uint8_t* q = p;
  if (static_cast<uint64_t>(end - p) >= span + kB) {
    for (; static_cast<uint64_t>(end - q) >= span + kB; q += kB) {
      if (const uint8_t* r = pair_at<T, kWide>(s, q, span, ~uint32_t{0}, first, last)) return r;
    }
    const uint8_t* stop = end - span;  // no match starts at or after it
    if (q < stop) {
      const uint8_t* b = stop - kB;  // p <= b < q
      if (const uint8_t* r = pair_at<T, kWide>(s, b, span, ~uint32_t{0} << (q - b), first, last))
        return r;
      q = stop;
    }
    return nul_from<T>(q, end);
  }
  const typename T::V zero = T::splat(0);
  while (q < end) {
    const uint8_t* b = static_cast<uint64_t>(end - q) >= kB ? q : end - kB;
    const uint32_t fresh = ~uint32_t{0} << (q - b);  // q - b < kB <= 32
    const typename T::V a = T::load(b);
    const uint32_t nul = T::mask(T::eq(a, zero)) & fresh;
    const uint32_t cand = T::mask(matches<T, kWide>(a, first)) & fresh;
    if ((nul | cand) != 0) {
      if (const uint8_t* r = settle(s, b, nul, cand)) return r;
    }
    q = b + kB;
  }
  return end;
}

template <class T>
const uint8_t* find(const uint8_t* p, const uint8_t* end, const WideNeedle& n) {
  if (static_cast<uint64_t>(end - p) < T::kBytes) return wide_find_scalar(p, end, n);
  const bool wide = n.first.wide != n.first.value || n.last.wide != n.last.value;
  return wide ? find_blocks<T, true>(p, end, n) : find_blocks<T, false>(p, end, n);
}

}  // namespace
}  // namespace pfc::internal
