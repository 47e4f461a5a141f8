// compiler/str_literals.cc — see str_literals.h: bucket assignment, the nibble tables, the
// byte-by-byte filter and the exact verification.
#include "compiler/str_literals.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace pfc::internal {
namespace {

#if defined(__x86_64__)
bool cpu_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}
#endif

// Every position of byte `v`'s nibble in both lanes' copy of table row `row`.
void set_bit(uint8_t (&row)[32], unsigned nibble, uint8_t bit) {
  row[nibble] |= bit;
  row[nibble + 16] |= bit;
}

}  // namespace

AsciiLiterals::AsciiLiterals(std::vector<AsciiLiteral> literals) {
  for (AsciiLiteral& l : literals) {
    Entry e;
    const size_t head = std::min<size_t>(l.bytes.size(), 8);
    std::memcpy(&e.head, l.bytes.data(), head);
    e.head_mask = head == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * head)) - 1;
    e.lit = std::move(l);
    literals_.push_back(std::move(e));
  }
  const size_t count = literals_.size();
  tables_.groups = count > 8 ? 2 : 1;
  const size_t nb = 8 * size_t(tables_.groups);
  buckets_.resize(nb);
  // Literals with the same first bytes share a bucket, so their nibbles overlap.
  std::vector<uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return literals_[a].lit.bytes.compare(0, LiteralTables::kOffsets, literals_[b].lit.bytes, 0,
                                          LiteralTables::kOffsets) < 0;
  });
  for (size_t i = 0; i < count; ++i) {
    const uint32_t k = order[i];
    const size_t b = i * nb / count;
    buckets_[b].push_back(k);
    full_ |= literals_[k].lit.mask;
    const std::string& s = literals_[k].lit.bytes;
    const auto bit = uint8_t(1u << (b % 8));
    for (int off = 0; off < LiteralTables::kOffsets; ++off) {
      uint8_t(&lo)[32] = tables_.lo[b / 8][off];
      uint8_t(&hi)[32] = tables_.hi[b / 8][off];
      if (size_t(off) < s.size()) {
        set_bit(lo, uint8_t(s[size_t(off)]) & 15, bit);
        set_bit(hi, uint8_t(s[size_t(off)]) >> 4, bit);
      } else {  // any byte
        for (unsigned v = 0; v < 16; ++v) {
          set_bit(lo, v, bit);
          set_bit(hi, v, bit);
        }
      }
    }
  }
#if defined(__x86_64__)
  avx2_ = cpu_has_avx2();
#endif
}

uint64_t AsciiLiterals::verify(const uint8_t* text, size_t n, size_t p, unsigned b,
                               uint64_t acc) const {
  uint64_t word;  // text[p, p + 8): within the padding after the text
  std::memcpy(&word, text + p, sizeof word);
  for (uint32_t k : buckets_[b]) {
    const Entry& e = literals_[k];
    const AsciiLiteral& l = e.lit;
    if ((word & e.head_mask) != e.head || (l.mask & ~acc) == 0 || l.bytes.size() > n - p) continue;
    if ((l.start && p != 0) || (l.end && p + l.bytes.size() != n)) continue;
    if (l.bytes.size() <= 8 ||
        std::memcmp(text + p + 8, l.bytes.data() + 8, l.bytes.size() - 8) == 0)
      acc |= l.mask;
  }
  return acc;
}

uint64_t AsciiLiterals::match_scalar(uint8_t* text, size_t n, uint64_t acc) const {
  std::memset(text + n, 0x80, kPad);  // matches no literal byte
  for (size_t p = 0; p < n; ++p) {
    for (int g = 0; g < tables_.groups; ++g) {
      unsigned m = 0xFF;
      for (int off = 0; off < LiteralTables::kOffsets; ++off) {
        const uint8_t c = text[p + size_t(off)];
        m &= unsigned(tables_.lo[g][off][c & 15]) & tables_.hi[g][off][(c >> 4) & 15];
      }
      for (; m != 0; m &= m - 1) {
        acc = verify(text, n, p, unsigned(8 * g + __builtin_ctz(m)), acc);
        if ((acc & full_) == full_) return acc;
      }
    }
  }
  return acc;
}

uint64_t AsciiLiterals::match(uint8_t* text, size_t n, uint64_t acc) const {
#if defined(__x86_64__)
  if (avx2_) {
    std::memset(text + n, 0x80, kPad);
    return ascii_literals_avx2(*this, tables_, full_, text, n, acc);
  }
#endif
  return match_scalar(text, n, acc);
}

}  // namespace pfc::internal
