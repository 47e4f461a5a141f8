// runtime/wide_search.cc — wide_find / wide_find_nul / wide_narrow (wide_search.h): the
// needle's unit classes, the scalar and Knuth–Morris–Pratt passes, the SSE2 loops (x86-64's
// baseline) and the choice of the widest implementation the CPU runs, made once.
#include "runtime/wide_search.h"

#include "runtime/casefold.h"
#include "runtime/str_search.h"

#if defined(__x86_64__)
#include <emmintrin.h>

#include "runtime/wide_search_impl.h"
#endif

namespace pfc {
namespace {

WideUnitClass unit_class(char32_t c, bool fold) {
  const auto v = static_cast<uint16_t>(c);
  if (!fold) return {0, v, v};
  const char16_t wide = fold_source_above_ascii(c);
  return {static_cast<uint16_t>(c >= 'a' && c <= 'z' ? 0x20 : 0), v,
          static_cast<uint16_t>(wide != 0 ? wide : v)};
}

uint16_t unit_at(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }

#if defined(__x86_64__)
struct Sse2 {
  using V = __m128i;
  static constexpr uint64_t kBytes = 16;
  static V load(const uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
  static V splat(uint16_t x) { return _mm_set1_epi16(static_cast<short>(x)); }
  static V eq(V a, V b) { return _mm_cmpeq_epi16(a, b); }
  static V bit_or(V a, V b) { return _mm_or_si128(a, b); }
  static V bit_and(V a, V b) { return _mm_and_si128(a, b); }
  static uint32_t mask(V a) { return static_cast<uint32_t>(_mm_movemask_epi8(a)); }
};

// ASCII-lower-cases bytes of x that are all at most 0x80 (0x80 compares as -128, below 'A').
inline __m128i lower_bytes(__m128i x) {
  const __m128i upper = _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('A' - 1)),
                                      _mm_cmpgt_epi8(_mm_set1_epi8('Z' + 1), x));
  return _mm_or_si128(x, _mm_and_si128(upper, _mm_set1_epi8(0x20)));
}

// The fold sources as vectors (kFold only), for narrow8.
struct Sources8 {
  __m128i from[internal::kWideVectorSources], to[internal::kWideVectorSources];
  int n;
};

// Eight units narrowed to 16-bit lanes of at most 0x80 (wide_narrow, before lower_bytes).
template <bool kFold>
inline __m128i narrow8(__m128i x, const Sources8& s) {
  const __m128i ascii =
      _mm_cmpeq_epi16(_mm_and_si128(x, _mm_set1_epi16(int16_t(0xFF80))), _mm_setzero_si128());
  __m128i y = _mm_or_si128(_mm_and_si128(ascii, x), _mm_andnot_si128(ascii, _mm_set1_epi16(0x80)));
  if (kFold) {
    for (int k = 0; k < s.n; ++k) {
      const __m128i m = _mm_cmpeq_epi16(x, s.from[k]);
      y = _mm_or_si128(_mm_andnot_si128(m, y), _mm_and_si128(m, s.to[k]));
    }
  }
  return y;
}

// wide_narrow of the 16 units at p into out.
template <bool kFold>
inline void narrow16(const uint8_t* p, uint8_t* out, const Sources8& s) {
  const __m128i a = narrow8<kFold>(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), s);
  const __m128i b = narrow8<kFold>(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16)), s);
  __m128i x = _mm_packus_epi16(a, b);
  if (kFold) x = lower_bytes(x);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), x);
}

// wide_narrow of the 8 units at p into out.
template <bool kFold>
inline void narrow8_at(const uint8_t* p, uint8_t* out, const Sources8& s) {
  const __m128i a = narrow8<kFold>(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), s);
  __m128i x = _mm_packus_epi16(a, a);
  if (kFold) x = lower_bytes(x);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), x);
}

// wide_narrow of n >= 8 units: blocks of 16 (or one of 8), the last block overlapping the
// one before it (rewriting the same bytes) instead of a scalar tail.
template <bool kFold>
void narrow_sse2(const uint8_t* p, uint64_t n, uint8_t* out, const Sources8& s) {
  if (n < 16) {
    narrow8_at<kFold>(p, out, s);
    narrow8_at<kFold>(p + 2 * (n - 8), out + (n - 8), s);
    return;
  }
  uint64_t i = 0;
  for (; i + 16 <= n; i += 16) narrow16<kFold>(p + 2 * i, out + i, s);
  if (i < n) narrow16<kFold>(p + 2 * (n - 16), out + (n - 16), s);
}

bool cpu_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}
#endif

}  // namespace

bool wide_needle(const char32_t* cps, const uint32_t* links, uint64_t len, bool fold,
                 WideNeedle* out) {
  if (len == 0) return false;
  // Every code point ASCII and not 0; folded: not 'A'..'Z'. Branch-free (vectorizable): it
  // runs on every call.
  const char32_t upper = fold ? 26 : 0;
  bool bad = false;
  for (uint64_t i = 0; i < len; ++i) bad |= (cps[i] - 1 >= 0x7F) | (cps[i] - 'A' < upper);
  if (bad) return false;
  *out = {cps, links, len, fold, unit_class(cps[0], fold), unit_class(cps[len - 1], fold)};
  return true;
}

namespace internal {

bool wide_unit_matches(const WideNeedle& n, uint64_t i, uint16_t u) {
  const char32_t c = n.cps[i];
  return (n.fold ? fold_case(char32_t{u}) : char32_t{u}) == c;
}

const uint8_t* wide_find_kmp(const uint8_t* p, const uint8_t* end, const WideNeedle& n) {
  uint64_t matched = 0;
  for (; p < end; p += 2) {
    const uint16_t u = unit_at(p);
    if (u == 0) return p;
    const char32_t c = n.fold ? fold_case(char32_t{u}) : char32_t{u};
    matched = kmp_step(n.cps, n.links, matched, c);
    if (matched == n.len) return p - 2 * (n.len - 1);
  }
  return end;
}

// Unit by unit: a candidate first unit is verified in place; a run of failures as long as
// the text hands over to the KMP pass, as the vector loops do.
const uint8_t* wide_find_scalar(const uint8_t* p, const uint8_t* end, const WideNeedle& n) {
  uint64_t work = 0;
  for (const uint8_t* q = p; q < end; q += 2) {
    const uint16_t u = unit_at(q);
    if (u == 0) return q;
    if ((u | n.first.or_bits) != n.first.value && u != n.first.wide) continue;
    if (static_cast<uint64_t>(end - q) / 2 < n.len) continue;
    uint64_t i = 1;
    while (i < n.len && wide_unit_matches(n, i, unit_at(q + 2 * i))) ++i;
    if (i == n.len) return q;
    work += i;
    if (work > static_cast<uint64_t>(q - p) / 2 + 64) return wide_find_kmp(q + 2, end, n);
  }
  return end;
}

const WideFoldSources& wide_fold_sources() {
  static const WideFoldSources sources = [] {
    WideFoldSources t{};
    for (char32_t c = 0; c < 0x80; ++c) {
      if (const char16_t w = fold_source_above_ascii(c); w != 0) {
        t.from[t.n] = static_cast<uint16_t>(w);
        t.to[t.n] = static_cast<uint8_t>(c);
        ++t.n;
      }
    }
    return t;
  }();
  return sources;
}

void wide_narrow_scalar(const uint8_t* p, const uint8_t* end, bool fold, uint8_t* out) {
  const WideFoldSources& f = wide_fold_sources();
  for (; p < end; p += 2) {
    const uint16_t u = unit_at(p);
    uint8_t b = 0x80;
    if (u < 0x80) {
      b = static_cast<uint8_t>(fold && static_cast<unsigned>(u - 'A') < 26 ? u + 0x20 : u);
    } else if (fold) {
      for (int k = 0; k < f.n; ++k) {
        if (f.from[k] == u) b = f.to[k];
      }
    }
    *out++ = b;
  }
}

const uint8_t* wide_find_nul_scalar(const uint8_t* p, const uint8_t* end) {
  for (; p < end; p += 2) {
    if (p[0] == 0 && p[1] == 0) return p;
  }
  return end;
}

#if defined(__x86_64__)
const uint8_t* wide_find_sse2(const uint8_t* p, const uint8_t* end, const WideNeedle& n) {
  return find<Sse2>(p, end, n);
}
const uint8_t* wide_find_nul_sse2(const uint8_t* p, const uint8_t* end) {
  return find_nul<Sse2>(p, end);
}
void wide_narrow_sse2(const uint8_t* p, const uint8_t* end, bool fold, uint8_t* out) {
  const WideFoldSources& f = wide_fold_sources();
  const auto n = static_cast<uint64_t>(end - p) / 2;
  if (n < 8 || f.n > kWideVectorSources) return wide_narrow_scalar(p, end, fold, out);
  Sources8 s;
  s.n = fold ? f.n : 0;
  for (int k = 0; k < s.n; ++k) {
    s.from[k] = _mm_set1_epi16(static_cast<int16_t>(f.from[k]));
    s.to[k] = _mm_set1_epi16(f.to[k]);
  }
  if (fold) narrow_sse2<true>(p, n, out, s);
  else narrow_sse2<false>(p, n, out, s);
}
#endif

int wide_impls(WideImpl* out) {
  int k = 0;
  out[k++] = {"scalar", wide_find_scalar, wide_find_nul_scalar, wide_narrow_scalar};
#if defined(__x86_64__)
  out[k++] = {"sse2", wide_find_sse2, wide_find_nul_sse2, wide_narrow_sse2};
  if (cpu_has_avx2()) out[k++] = {"avx2", wide_find_avx2, wide_find_nul_avx2, wide_narrow_avx2};
#endif
  return k;
}

}  // namespace internal

namespace {
// The widest implementation, chosen on first use (thread-safe static initialization).
const internal::WideImpl& best() {
  static const internal::WideImpl impl = [] {
    internal::WideImpl all[3];
    return all[internal::wide_impls(all) - 1];
  }();
  return impl;
}
}  // namespace

const uint8_t* wide_find(const uint8_t* p, const uint8_t* end, const WideNeedle& needle) {
  return best().find(p, end, needle);
}

const uint8_t* wide_find_nul(const uint8_t* p, const uint8_t* end) {
  return best().find_nul(p, end);
}

void wide_narrow(const uint8_t* p, const uint8_t* end, bool fold, uint8_t* out) {
  best().narrow(p, end, fold, out);
}

}  // namespace pfc
