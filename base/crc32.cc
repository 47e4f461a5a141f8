// base/crc32.cc — see crc32.h.
//
// The folding (Intel, "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ
// Instruction", 2009): the raw CRC (register 0, no final XOR) of a message depends only on
// the message as a polynomial modulo P, so whole 16-byte blocks are folded, four 128-bit
// lanes 64 bytes at a time (or four 256-bit lanes 128 bytes at a time), into one 128-bit
// register congruent to all of them, which is reduced to 64 bits and then to 32 by Barrett
// reduction (≈ 0.3 instructions a byte with 128 bits, ≈ 0.15 with 256, instead of zlib's
// ≈ 3.9). The bytes after the last whole block go through zlib's crc32_z.
//
// A loaded 16-byte block stands for a polynomial whose degree-127 coefficient is bit 0 of
// byte 0 (the reflected bit order); its first 8 bytes are H, the next 8 are L. Moving it F
// bits further on is H·x^(F+64) + L·x^F, and carry-less products of H and L by 33-bit
// constants give that modulo P in the same representation (a reflected product is one bit
// short: the constants carry x^32 less and are shifted left by one) — fold_constant below,
// checked against the literal constants.
#include "base/crc32.h"

#include <zlib.h>

#include <cstddef>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define PFC_CRC32_CLMUL 1
#endif

namespace pfc {
namespace {

uint32_t crc32_zlib(const uint8_t* p, size_t n, uint32_t crc) {
  // crc32_z returns 0 for a null buffer whatever `crc` is: an empty input must not reach it.
  if (n == 0) return crc;
  return static_cast<uint32_t>(::crc32_z(crc, p, n));
}

#ifdef PFC_CRC32_CLMUL

// x^n mod P, P the CRC-32 polynomial in the normal bit order (0x104C11DB7).
constexpr uint64_t xpow_mod(unsigned n) {
  uint64_t r = 1;
  for (unsigned i = 0; i < n; ++i) {
    r <<= 1;
    if ((r & (uint64_t{1} << 32)) != 0) r ^= 0x104C11DB7ull;
  }
  return r;
}

constexpr uint64_t reverse32(uint64_t v) {
  uint64_t r = 0;
  for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1) << (31 - i);
  return r;
}

// The multiplier that moves a 64-bit half by x^(n+32) in the reflected representation.
constexpr uint64_t fold_constant(unsigned n) { return reverse32(xpow_mod(n)) << 1; }

// x^k mod P constants (the paper's k1..k5, then μ and P').
alignas(16) constexpr uint64_t kK1K2[2] = {0x0154442bd4, 0x01c6e41596};  // 512 bits
alignas(16) constexpr uint64_t kK3K4[2] = {0x01751997d0, 0x00ccaa009e};  // 128 bits
alignas(16) constexpr uint64_t kK5[2] = {0x0163cd6124, 0};
alignas(16) constexpr uint64_t kPoly[2] = {0x01db710641, 0x01f7011641};
constexpr long long kK1024H = 0x01e88ef372, kK1024L = 0x014a7fe880;  // 1024 bits (256-bit lanes)
constexpr long long kK256H = 0x00f1da05aa, kK256L = 0x015a546366;    // 256 bits
static_assert(kK1K2[0] == fold_constant(512 + 32) && kK1K2[1] == fold_constant(512 - 32));
static_assert(kK3K4[0] == fold_constant(128 + 32) && kK3K4[1] == fold_constant(128 - 32));
static_assert(kK5[0] == fold_constant(64));
static_assert(uint64_t(kK1024H) == fold_constant(1024 + 32) &&
              uint64_t(kK1024L) == fold_constant(1024 - 32));
static_assert(uint64_t(kK256H) == fold_constant(256 + 32) &&
              uint64_t(kK256L) == fold_constant(256 - 32));

#define PFC_CLMUL_TARGET __attribute__((target("pclmul,sse4.1")))
// The helpers below are inlined into each path, so each gets them in its own encoding (the
// AVX path's three-operand VEX form needs no register copies: about a third fewer
// instructions).
#define PFC_CLMUL_INLINE PFC_CLMUL_TARGET __attribute__((always_inline)) inline

PFC_CLMUL_INLINE __m128i load(const uint8_t* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

// One fold of `x` by the constants `k` onto `next`.
PFC_CLMUL_INLINE __m128i fold(__m128i x, __m128i k, __m128i next) {
  const __m128i lo = _mm_clmulepi64_si128(x, k, 0x00);
  const __m128i hi = _mm_clmulepi64_si128(x, k, 0x11);
  return _mm_xor_si128(_mm_xor_si128(hi, lo), next);
}

// The 128-bit register after `n` more bytes at `p` (a multiple of 16), 16 at a time.
PFC_CLMUL_INLINE __m128i fold_16s(const uint8_t* p, size_t n, __m128i x) {
  const __m128i k34 = _mm_load_si128(reinterpret_cast<const __m128i*>(kK3K4));
  for (; n >= 16; p += 16, n -= 16) x = fold(x, k34, load(p));
  return x;
}

// The raw 32-bit CRC of the 128-bit register: 128 → 64 bits, then Barrett reduction.
PFC_CLMUL_INLINE uint32_t reduce(__m128i x1) {
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
PFC_CLMUL_INLINE uint32_t fold_128_body(const uint8_t* p, size_t n, uint32_t crc) {
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

// fold_128_body in SSE encoding...
PFC_CLMUL_TARGET uint32_t fold_128(const uint8_t* p, size_t n, uint32_t crc) {
  return fold_128_body(p, n, crc);
}

// ... and in AVX (VEX) encoding: the same instructions without the register copies.
__attribute__((target("avx,pclmul,sse4.1"))) uint32_t fold_128_avx(const uint8_t* p, size_t n,
                                                                   uint32_t crc) {
  return fold_128_body(p, n, crc);
}

// The same with VPCLMULQDQ on four 256-bit registers, 128 bytes at a time (n ≥ 128).
#define PFC_VCLMUL_TARGET __attribute__((target("avx2,vpclmulqdq,pclmul,sse4.1")))

PFC_VCLMUL_TARGET inline __m256i fold(__m256i x, __m256i k, __m256i next) {
  const __m256i lo = _mm256_clmulepi64_epi128(x, k, 0x00);
  const __m256i hi = _mm256_clmulepi64_epi128(x, k, 0x11);
  return _mm256_xor_si256(_mm256_xor_si256(hi, lo), next);
}

PFC_VCLMUL_TARGET inline __m256i load256(const uint8_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

PFC_VCLMUL_TARGET uint32_t fold_256(const uint8_t* p, size_t n, uint32_t crc) {
  const __m256i seed = _mm256_zextsi128_si256(_mm_cvtsi32_si128(static_cast<int>(crc)));
  __m256i y1 = _mm256_xor_si256(load256(p), seed);
  __m256i y2 = load256(p + 32), y3 = load256(p + 64), y4 = load256(p + 96);
  p += 128;
  n -= 128;
  const __m256i k1024 = _mm256_setr_epi64x(kK1024H, kK1024L, kK1024H, kK1024L);
  for (; n >= 128; p += 128, n -= 128) {
    y1 = fold(y1, k1024, load256(p));
    y2 = fold(y2, k1024, load256(p + 32));
    y3 = fold(y3, k1024, load256(p + 64));
    y4 = fold(y4, k1024, load256(p + 96));
  }
  const __m256i k256 = _mm256_setr_epi64x(kK256H, kK256L, kK256H, kK256L);
  const __m256i y = fold(fold(fold(y1, k256, y2), k256, y3), k256, y4);
  const __m128i k34 = _mm_load_si128(reinterpret_cast<const __m128i*>(kK3K4));
  const __m128i x = fold(_mm256_castsi256_si128(y), k34, _mm256_extracti128_si256(y, 1));
  return reduce(fold_16s(p, n, x));
}

// The widest path this CPU runs, detected once.
Crc32Path detect() {
  if (!__builtin_cpu_supports("pclmul") || !__builtin_cpu_supports("sse4.1"))
    return Crc32Path::kZlib;
  if (!__builtin_cpu_supports("avx")) return Crc32Path::kClmul128;
  if (__builtin_cpu_supports("vpclmulqdq") && __builtin_cpu_supports("avx2"))
    return Crc32Path::kClmul256;
  return Crc32Path::kClmulAvx128;
}

#else

Crc32Path detect() { return Crc32Path::kZlib; }

#endif

Crc32Path best_path() {
  static const Crc32Path path = detect();
  return path;
}

uint32_t compute(Crc32Path path, const uint8_t* p, size_t n, uint32_t crc) {
#ifdef PFC_CRC32_CLMUL
  if (path != Crc32Path::kZlib && n >= 64) {
    const size_t blocks = n & ~size_t{15};
    if (path == Crc32Path::kClmul256 && blocks >= 128) crc = ~fold_256(p, blocks, ~crc);
    else if (path >= Crc32Path::kClmulAvx128) crc = ~fold_128_avx(p, blocks, ~crc);
    else crc = ~fold_128(p, blocks, ~crc);
    p += blocks;
    n -= blocks;
  }
#else
  (void)path;
#endif
  return crc32_zlib(p, n, crc);
}

}  // namespace

uint32_t crc32(std::span<const uint8_t> bytes, uint32_t crc) {
  return compute(best_path(), bytes.data(), bytes.size(), crc);
}

uint32_t crc32_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b) {
  return static_cast<uint32_t>(::crc32_combine64(crc_a, crc_b, static_cast<z_off64_t>(len_b)));
}

bool crc32_has(Crc32Path path) { return path == Crc32Path::kZlib || path <= best_path(); }

uint32_t crc32_with(Crc32Path path, std::span<const uint8_t> bytes, uint32_t crc) {
  return compute(crc32_has(path) ? path : Crc32Path::kZlib, bytes.data(), bytes.size(), crc);
}

}  // namespace pfc
