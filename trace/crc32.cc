// trace/crc32.cc — see crc32.h.
//
// The folding (the method of Intel's "Fast CRC Computation for Generic Polynomials Using
// PCLMULQDQ"): the raw CRC (register 0, no final xor) of a message depends only on the
// message as a polynomial modulo P, so the bytes are reduced, 64 at a time, to a 16-byte
// block congruent to all of them, and zlib finishes the CRC of that block and of the last
// bytes (fewer than 16). A loaded 16-byte block `a` stands for the polynomial whose
// degree-127 coefficient is bit 0 of byte 0 (the reflected bit order); its first 8 bytes
// are H, the next 8 are L (a = H·x^64 + L). Moving it F bits further on is
// H·x^(F+64) + L·x^F, and carry-less multiplications of H and L by the 33-bit constants
// below give exactly that, congruent modulo P, in the same representation (a reflected
// product is one bit short: the constants carry x^32 less and are shifted left by one).
// The initial register goes into the first 4 bytes (xor), as a table CRC would apply it.
#include "trace/crc32.h"

#include <zlib.h>

#include <algorithm>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace pfc::trace {
namespace {

// x^n mod P, P = x^32 + ... the CRC-32 polynomial in the normal bit order (0x04C11DB7).
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

// Moving H and L by 512 bits (four blocks) and by 128 bits (one block).
constexpr uint64_t kFold4H = fold_constant(512 + 32), kFold4L = fold_constant(512 - 32);
constexpr uint64_t kFold1H = fold_constant(128 + 32), kFold1L = fold_constant(128 - 32);
// The values of Intel's paper (k1, k2 and k3, k4): a check on the derivation above.
static_assert(kFold4H == 0x154442bd4ull && kFold4L == 0x1c6e41596ull);
static_assert(kFold1H == 0x1751997d0ull && kFold1L == 0x0ccaa009eull);

#if defined(__x86_64__)
__attribute__((target("pclmul"))) inline __m128i fold(__m128i a, __m128i k, __m128i next) {
  const __m128i h = _mm_clmulepi64_si128(a, k, 0x00);  // H × k.lo
  const __m128i l = _mm_clmulepi64_si128(a, k, 0x11);  // L × k.hi
  return _mm_xor_si128(_mm_xor_si128(h, l), next);
}

inline __m128i load(const uint8_t* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

__attribute__((target("pclmul"))) uint32_t crc32_folded(const uint8_t* p, size_t n, uint32_t crc) {
  const __m128i k4 =
      _mm_set_epi64x(static_cast<long long>(kFold4L), static_cast<long long>(kFold4H));
  const __m128i k1 =
      _mm_set_epi64x(static_cast<long long>(kFold1L), static_cast<long long>(kFold1H));
  __m128i x0 = _mm_xor_si128(load(p), _mm_cvtsi32_si128(static_cast<int>(~crc)));
  __m128i x1 = load(p + 16), x2 = load(p + 32), x3 = load(p + 48);
  p += 64;
  n -= 64;
  for (; n >= 64; p += 64, n -= 64) {
    x0 = fold(x0, k4, load(p));
    x1 = fold(x1, k4, load(p + 16));
    x2 = fold(x2, k4, load(p + 32));
    x3 = fold(x3, k4, load(p + 48));
  }
  __m128i x = fold(fold(fold(x0, k1, x1), k1, x2), k1, x3);
  for (; n >= 16; p += 16, n -= 16) x = fold(x, k1, load(p));
  uint8_t block[16];
  _mm_storeu_si128(reinterpret_cast<__m128i*>(block), x);
  // zlib with 0xFFFFFFFF starts from register 0: the raw CRC of the block, then the rest.
  return crc32_zlib(p, n, crc32_zlib(block, sizeof block, 0xFFFFFFFFu));
}
#endif

}  // namespace

uint32_t crc32_zlib(const uint8_t* p, size_t n, uint32_t crc) {
  uLong c = crc;
  while (n > 0) {
    const auto chunk = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    c = ::crc32(c, p, chunk);
    p += chunk;
    n -= chunk;
  }
  return static_cast<uint32_t>(c);
}

bool crc32_has_clmul() {
#if defined(__x86_64__)
  static const bool has = __builtin_cpu_supports("pclmul") != 0;
  return has;
#else
  return false;
#endif
}

uint32_t crc32_clmul(const uint8_t* p, size_t n, uint32_t crc) {
#if defined(__x86_64__)
  if (n >= 64 && crc32_has_clmul()) return crc32_folded(p, n, crc);
#endif
  return crc32_zlib(p, n, crc);
}

uint32_t crc32(const uint8_t* p, size_t n, uint32_t crc) { return crc32_clmul(p, n, crc); }

}  // namespace pfc::trace
