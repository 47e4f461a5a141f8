// runtime/wide_search_avx2.cc — the AVX2 instances of wide_search_impl.h's loops, compiled
// with -mavx2 (runtime/CMakeLists.txt) on x86-64 only. Called only after wide_impls has
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

}  // namespace

const uint8_t* wide_find_avx2(const uint8_t* p, const uint8_t* end, const WideNeedle& n) {
  return find<Avx2>(p, end, n);
}

const uint8_t* wide_find_nul_avx2(const uint8_t* p, const uint8_t* end) {
  return find_nul<Avx2>(p, end);
}

}  // namespace pfc::internal
