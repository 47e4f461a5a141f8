// runtime/wide_search_avx2.cc — the AVX2 instances of wide_search_impl.h's loops and the
// AVX2 wide_narrow, compiled with -mavx2 (runtime/CMakeLists.txt) on x86-64 only. Called
// only after wide_impls has
// found AVX2 on the CPU (wide_search.cc); this file includes nothing that other files
// share inline, so no AVX2 instruction reaches code that runs everywhere.
#include <immintrin.h>

#include "runtime/wide_search_impl.h"

namespace pfc::internal {
namespace {

struct Avx2 {
  using V = __m256i;
  static constexpr uint64_t kBytes = 32;
  static V load(const uint8_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  static V splat(uint16_t x) { return _mm256_set1_epi16(static_cast<short>(x)); }
  static V eq(V a, V b) { return _mm256_cmpeq_epi16(a, b); }
  static V bit_or(V a, V b) { return _mm256_or_si256(a, b); }
  static V bit_and(V a, V b) { return _mm256_and_si256(a, b); }
  static uint32_t mask(V a) { return static_cast<uint32_t>(_mm256_movemask_epi8(a)); }
};

// The fold sources as vectors (kFold only), for narrow16.
struct Sources16 {
  __m256i from[kWideVectorSources], to[kWideVectorSources];
  int n;
};

// Sixteen units narrowed to 16-bit lanes of at most 0x80 (wide_narrow, before lower_bytes).
// kN: the number of fold sources when known at compile time (the loop unrolled), else -1.
template <bool kFold, int kN>
inline __m256i narrow16(__m256i x, const Sources16& s) {
  const __m256i ascii = _mm256_cmpeq_epi16(
      _mm256_and_si256(x, _mm256_set1_epi16(static_cast<int16_t>(0xFF80))), _mm256_setzero_si256());
  __m256i y = _mm256_blendv_epi8(_mm256_set1_epi16(0x80), x, ascii);
  if (kFold) {
    for (int k = 0; k < (kN < 0 ? s.n : kN); ++k)
      y = _mm256_blendv_epi8(y, s.to[k], _mm256_cmpeq_epi16(x, s.from[k]));
  }
  return y;
}

// ASCII-lower-cases bytes of x that are all at most 0x80 (0x80 compares as -128, below 'A').
inline __m256i lower_bytes(__m256i x) {
  const __m256i upper = _mm256_and_si256(_mm256_cmpgt_epi8(x, _mm256_set1_epi8('A' - 1)),
                                         _mm256_cmpgt_epi8(_mm256_set1_epi8('Z' + 1), x));
  return _mm256_or_si256(x, _mm256_and_si256(upper, _mm256_set1_epi8(0x20)));
}

// wide_narrow of the 32 units at p into out.
template <bool kFold, int kN>
inline void narrow32(const uint8_t* p, uint8_t* out, const Sources16& s) {
  const __m256i a = narrow16<kFold, kN>(Avx2::load(p), s);
  const __m256i b = narrow16<kFold, kN>(Avx2::load(p + 32), s);
  // packus works per 128-bit lane: a0-7 b0-7 | a8-15 b8-15; the permute restores the order.
  __m256i x = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8);
  if (kFold) x = lower_bytes(x);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), x);
}

// wide_narrow of n >= 32 units: blocks of 32, the last one overlapping the one before it
// (rewriting the same bytes) instead of a scalar tail.
template <bool kFold, int kN>
void narrow_avx2(const uint8_t* p, uint64_t n, uint8_t* out, const Sources16& s) {
  uint64_t i = 0;
  for (; i + 32 <= n; i += 32) narrow32<kFold, kN>(p + 2 * i, out + i, s);
  if (i < n) narrow32<kFold, kN>(p + 2 * (n - 32), out + (n - 32), s);
}

}  // namespace

const uint8_t* wide_find_avx2(const uint8_t* p, const uint8_t* end, const WideNeedle& n) {
  return find<Avx2>(p, end, n);
}

const uint8_t* wide_find_nul_avx2(const uint8_t* p, const uint8_t* end) {
  return find_nul<Avx2>(p, end);
}

void wide_narrow_avx2(const uint8_t* p, const uint8_t* end, bool fold, uint8_t* out) {
  const WideFoldSources& f = wide_fold_sources();
  const auto n = static_cast<uint64_t>(end - p) / 2;
  if (n < 32 || f.n > kWideVectorSources) return wide_narrow_sse2(p, end, fold, out);
  Sources16 s;
  s.n = fold ? f.n : 0;
  for (int k = 0; k < s.n; ++k) {
    s.from[k] = _mm256_set1_epi16(static_cast<int16_t>(f.from[k]));
    s.to[k] = _mm256_set1_epi16(f.to[k]);
  }
  // Unicode 15 has two fold sources (KELVIN SIGN, LONG S): that count gets its own loop.
  if (!fold) narrow_avx2<false, 0>(p, n, out, s);
  else if (s.n == 2) narrow_avx2<true, 2>(p, n, out, s);
  else narrow_avx2<true, -1>(p, n, out, s);
}

}  // namespace pfc::internal
