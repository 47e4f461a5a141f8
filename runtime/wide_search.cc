// runtime/wide_search.cc — wide_find / wide_find_nul (wide_search.h): the needle's unit
// classes, the scalar and Knuth–Morris–Pratt passes, the SSE2 loops (x86-64's baseline)
// and the choice of the widest implementation the CPU runs, made once.
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
#endif

int wide_impls(WideImpl* out) {
  int k = 0;
  out[k++] = {"scalar", wide_find_scalar, wide_find_nul_scalar};
#if defined(__x86_64__)
  out[k++] = {"sse2", wide_find_sse2, wide_find_nul_sse2};
  if (cpu_has_avx2()) out[k++] = {"avx2", wide_find_avx2, wide_find_nul_avx2};
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

}  // namespace pfc
