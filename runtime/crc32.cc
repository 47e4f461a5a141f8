// runtime/crc32.cc — internal::crc32 (runtime/capture.h), the CRC-32 of capture bodies.
// On x86-64 CPUs with PCLMULQDQ and SSE4.1, whole 16-byte blocks of inputs of at least 64
// bytes are folded with carry-less multiplication (Intel, "Fast CRC Computation for
// Generic Polynomials Using PCLMULQDQ Instruction", 2009: fold by four 128-bit lanes, then
// by one, then Barrett reduction; ≈ 0.3 instructions a byte instead of zlib's ≈ 3.9), with
// VPCLMULQDQ and AVX2 on four 256-bit registers from 128 bytes (≈ 0.15 a byte); the rest,
// and every input elsewhere, goes through zlib's crc32_z. Both give the same value
// (tests/capture/capture_test.cc compares them on every length and alignment).
#include <zlib.h>

#include <cstdint>
#include <span>

#include "runtime/capture.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define PFC_CRC32_CLMUL 1
#endif

namespace pfc::internal {
namespace {

uint32_t crc32_zlib(const uint8_t* p, size_t n, uint32_t crc) {
  return static_cast<uint32_t>(::crc32_z(crc, p, n));
}

#ifdef PFC_CRC32_CLMUL

// x^k mod P constants of the bit-reflected CRC-32 polynomial (the paper's k1..k5, μ, P').
alignas(16) constexpr uint64_t kK1K2[2] = {0x0154442bd4, 0x01c6e41596};
alignas(16) constexpr uint64_t kK3K4[2] = {0x01751997d0, 0x00ccaa009e};
alignas(16) constexpr uint64_t kK5[2] = {0x0163cd6124, 0};
alignas(16) constexpr uint64_t kPoly[2] = {0x01db710641, 0x01f7011641};

#define PFC_CLMUL_TARGET __attribute__((target("pclmul,sse4.1")))

PFC_CLMUL_TARGET inline __m128i load(const uint8_t* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

// One fold of `x` by the constants `k` onto `next`.
PFC_CLMUL_TARGET inline __m128i fold(__m128i x, __m128i k, __m128i next) {
  const __m128i lo = _mm_clmulepi64_si128(x, k, 0x00);
  const __m128i hi = _mm_clmulepi64_si128(x, k, 0x11);
  return _mm_xor_si128(_mm_xor_si128(hi, lo), next);
}

// The 128-bit register after `n` more bytes at `p` (a multiple of 16), 16 at a time.
PFC_CLMUL_TARGET __m128i fold_16s(const uint8_t* p, size_t n, __m128i x) {
  const __m128i k34 = _mm_load_si128(reinterpret_cast<const __m128i*>(kK3K4));
  for (; n >= 16; p += 16, n -= 16) x = fold(x, k34, load(p));
  return x;
}

// The raw 32-bit CRC of the 128-bit register: 128 → 64 bits, then Barrett reduction.
PFC_CLMUL_TARGET uint32_t reduce(__m128i x1) {
  const __m128i k34 = _mm_load_si128(reinterpret_cast<const __m128i*>(kK3K4));
  const __m128i mask32 = _mm_setr_epi32(~0, 0, ~0, 0);
  x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), _mm_clmulepi64_si128(x1, k34, 0x10));
  const __m128i k5 = _mm_load_si128(reinterpret_cast<const __m128i*>(kK5));
  x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k5, 0x00),
                     _mm_srli_si128(x1, 4));
  const __m128i poly = _mm_load_si128(reinterpret_cast<const __m128i*>(kPoly));
  __m128i t = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), poly, 0x10);
  t = _mm_clmulepi64_si128(_mm_and_si128(t, mask32), poly, 0x00);
  return static_cast<uint32_t>(_mm_extract_epi32(_mm_xor_si128(x1, t), 1));
}

// The raw (not inverted) CRC register after `n` bytes, n ≥ 64 and a multiple of 16,
// starting from the raw register `crc`: four 128-bit lanes folded 64 bytes at a time.
PFC_CLMUL_TARGET uint32_t crc32_clmul(const uint8_t* p, size_t n, uint32_t crc) {
  __m128i x1 = _mm_xor_si128(load(p), _mm_cvtsi32_si128(static_cast<int>(crc)));
  __m128i x2 = load(p + 16), x3 = load(p + 32), x4 = load(p + 48);
  p += 64;
  n -= 64;
  const __m128i k12 = _mm_load_si128(reinterpret_cast<const __m128i*>(kK1K2));
  for (; n >= 64; p += 64, n -= 64) {
    x1 = fold(x1, k12, load(p));
    x2 = fold(x2, k12, load(p + 16));
    x3 = fold(x3, k12, load(p + 32));
    x4 = fold(x4, k12, load(p + 48));
  }
  const __m128i k34 = _mm_load_si128(reinterpret_cast<const __m128i*>(kK3K4));
  x1 = fold(fold(fold(x1, k34, x2), k34, x3), k34, x4);
  return reduce(fold_16s(p, n, x1));
}

// The same with VPCLMULQDQ on four 256-bit registers, 128 bytes at a time (n ≥ 128):
// the constants are x^(D±32) mod P for the fold distances D = 1024 and 256 bits.
#define PFC_VCLMUL_TARGET __attribute__((target("avx2,vpclmulqdq,pclmul,sse4.1")))

PFC_VCLMUL_TARGET inline __m256i fold(__m256i x, __m256i k, __m256i next) {
  const __m256i lo = _mm256_clmulepi64_epi128(x, k, 0x00);
  const __m256i hi = _mm256_clmulepi64_epi128(x, k, 0x11);
  return _mm256_xor_si256(_mm256_xor_si256(hi, lo), next);
}

PFC_VCLMUL_TARGET inline __m256i load256(const uint8_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

PFC_VCLMUL_TARGET uint32_t crc32_vclmul(const uint8_t* p, size_t n, uint32_t crc) {
  const __m256i seed = _mm256_zextsi128_si256(_mm_cvtsi32_si128(static_cast<int>(crc)));
  __m256i y1 = _mm256_xor_si256(load256(p), seed);
  __m256i y2 = load256(p + 32), y3 = load256(p + 64), y4 = load256(p + 96);
  p += 128;
  n -= 128;
  const __m256i k1024 = _mm256_setr_epi64x(0x01e88ef372, 0x014a7fe880, 0x01e88ef372, 0x014a7fe880);
  for (; n >= 128; p += 128, n -= 128) {
    y1 = fold(y1, k1024, load256(p));
    y2 = fold(y2, k1024, load256(p + 32));
    y3 = fold(y3, k1024, load256(p + 64));
    y4 = fold(y4, k1024, load256(p + 96));
  }
  const __m256i k256 = _mm256_setr_epi64x(0x00f1da05aa, 0x015a546366, 0x00f1da05aa, 0x015a546366);
  const __m256i y = fold(fold(fold(y1, k256, y2), k256, y3), k256, y4);
  const __m128i k34 = _mm_load_si128(reinterpret_cast<const __m128i*>(kK3K4));
  const __m128i x = fold(_mm256_castsi256_si128(y), k34, _mm256_extracti128_si256(y, 1));
  return reduce(fold_16s(p, n, x));
}

bool has_vclmul() {
  static const bool yes = __builtin_cpu_supports("vpclmulqdq") && __builtin_cpu_supports("avx2") &&
                          __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
  return yes;
}

bool has_clmul() {
  static const bool yes = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
  return yes;
}

#endif

}  // namespace

uint32_t crc32(std::span<const uint8_t> bytes, uint32_t crc) {
  // zlib's crc32_z is this CRC (reflected polynomial 0xEDB88320, initial value and final
  // XOR 0xFFFFFFFF) and continues from a previous result the same way. It returns 0 for a
  // null buffer whatever `crc` is, so an empty span must not reach it.
  const uint8_t* p = bytes.data();
  size_t n = bytes.size();
#ifdef PFC_CRC32_CLMUL
  if (n >= 64 && has_clmul()) {
    const size_t blocks = n & ~size_t{15};
    crc = ~(blocks >= 128 && has_vclmul() ? crc32_vclmul(p, blocks, ~crc)
                                          : crc32_clmul(p, blocks, ~crc));
    p += blocks;
    n -= blocks;
  }
#endif
  if (n == 0) return crc;
  return crc32_zlib(p, n, crc);
}

}  // namespace pfc::internal
