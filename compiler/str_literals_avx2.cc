// compiler/str_literals_avx2.cc — the AVX2 filter of str_literals.h, compiled with -mavx2
// (compiler/CMakeLists.txt) on x86-64 only and called only when the CPU has AVX2. 32 text
// positions a step: per filter offset one unaligned load, its nibbles, and per group two
// shuffles of the tables; positions whose bucket byte is not 0 go to verify. It calls no
// inline function of a header (only verify, defined in str_literals.cc), so no AVX2 copy of
// one can be shared with code that runs on any CPU.
#include <immintrin.h>

#include "compiler/str_literals.h"

namespace pfc::internal {
namespace {

__m256i table(const uint8_t (&row)[32]) {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(row));
}

}  // namespace

namespace {

// The filter for kGroups groups of 8 buckets.
template <int kGroups>
uint64_t filter(const AsciiLiterals& lits, const LiteralTables& t, uint64_t full,
                const uint8_t* text, size_t n, uint64_t acc) {
  const __m256i low = _mm256_set1_epi8(0x0F);
  for (size_t i = 0; i < n; i += 32) {
    __m256i m[kGroups];
    for (int g = 0; g < kGroups; ++g) m[g] = _mm256_set1_epi8(-1);
#pragma GCC unroll 4
    for (int off = 0; off < LiteralTables::kOffsets; ++off) {
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(text + i + off));
      const __m256i lo = _mm256_and_si256(v, low);
      const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), low);
      for (int g = 0; g < kGroups; ++g) {
        m[g] = _mm256_and_si256(m[g], _mm256_shuffle_epi8(table(t.lo[g][off]), lo));
        m[g] = _mm256_and_si256(m[g], _mm256_shuffle_epi8(table(t.hi[g][off]), hi));
      }
    }
    for (int g = 0; g < kGroups; ++g) {
      auto cand = ~unsigned(_mm256_movemask_epi8(_mm256_cmpeq_epi8(m[g], _mm256_setzero_si256())));
      if (cand == 0) continue;
      alignas(32) uint8_t buckets[32];
      _mm256_store_si256(reinterpret_cast<__m256i*>(buckets), m[g]);
      for (; cand != 0; cand &= cand - 1) {
        const auto p = unsigned(__builtin_ctz(cand));
        if (i + p >= n) break;
        for (unsigned b = buckets[p]; b != 0; b &= b - 1) {
          acc = lits.verify(text, n, i + p, unsigned(8 * g) + unsigned(__builtin_ctz(b)), acc);
          if ((acc & full) == full) return acc;
        }
      }
    }
  }
  return acc;
}

}  // namespace

uint64_t ascii_literals_avx2(const AsciiLiterals& lits, const LiteralTables& tables, uint64_t full,
                             const uint8_t* text, size_t n, uint64_t acc) {
  return tables.groups == 1 ? filter<1>(lits, tables, full, text, n, acc)
                            : filter<2>(lits, tables, full, text, n, acc);
}

}  // namespace pfc::internal
