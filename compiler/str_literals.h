// compiler/str_literals.h — up to 64 ASCII literals of a `mask.strs` (compiler/str_match.h)
// found in one pass over a text narrowed to bytes (runtime/wide_search.h wide_narrow, or
// 8-bit text transcoded to UTF-8). A Teddy-style filter (docs/jit.md "String indexing"):
// each literal sits in one of 8 or 16 buckets; per text position, nibble tables of the
// literals' first 4 bytes give the buckets that may start there (a superset), and every
// literal of such a bucket is then compared byte for byte, so the result is exact.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pfc::internal {

struct AsciiLiteral {
  std::string bytes;   // 1..any bytes, each 0x01..0x7F
  bool start = false;  // counts only at the text's start (STARTSWITH, IS)
  bool end = false;    // counts only ending at the text's end (ENDSWITH, IS)
  uint64_t mask = 0;
};

// The filter's tables, shared by its implementations (str_literals.cc, _avx2.cc).
struct LiteralTables {
  static constexpr int kOffsets = 4;  // bytes of each literal in the filter
  int groups = 1;                     // 8 buckets each
  // lo/hi[g][k]: for nibble value v (twice: both 128-bit lanes of an AVX2 shuffle), the
  // buckets of group g having a literal whose byte k has that low/high nibble, or that is
  // shorter than k + 1 bytes.
  alignas(32) uint8_t lo[2][kOffsets][32] = {};
  alignas(32) uint8_t hi[2][kOffsets][32] = {};
};

class AsciiLiterals {
 public:
  static constexpr size_t kMax = 64;
  // Bytes the text buffer passed to match must have after the text (match writes them).
  static constexpr size_t kPad = 64;

  // 1..kMax literals.
  explicit AsciiLiterals(std::vector<AsciiLiteral> literals);

  // acc or'ed with the masks of the literals occurring in text[0, n); stops once every
  // literal's mask is in it. Overwrites text[n, n + kPad) (the buffer must hold them).
  uint64_t match(uint8_t* text, size_t n, uint64_t acc) const;

  // The same with the filter evaluated byte by byte (tests compare the two).
  uint64_t match_scalar(uint8_t* text, size_t n, uint64_t acc) const;

  // acc or'ed with the masks of bucket `b`'s literals found at position p of text[0, n).
  uint64_t verify(const uint8_t* text, size_t n, size_t p, unsigned b, uint64_t acc) const;

  uint64_t full() const { return full_; }
  const LiteralTables& tables() const { return tables_; }

 private:
  // A literal as verify compares it: its first 8 bytes (zero-filled) as a word and the mask
  // of those it has; the whole literal when longer.
  struct Entry {
    uint64_t head = 0, head_mask = 0;
    AsciiLiteral lit;
  };
  std::vector<Entry> literals_;
  std::vector<std::vector<uint32_t>> buckets_;  // bucket → literal indices
  LiteralTables tables_;
  uint64_t full_ = 0;
  bool avx2_ = false;
};

// The AVX2 filter (str_literals_avx2.cc, x86-64 only; called only when the CPU has AVX2)
// over `lits`' tables and full mask, passed in so that the AVX2 file calls no inline
// function it could share with code that runs everywhere.
uint64_t ascii_literals_avx2(const AsciiLiterals& lits, const LiteralTables& tables, uint64_t full,
                             const uint8_t* text, size_t n, uint64_t acc);

}  // namespace pfc::internal
