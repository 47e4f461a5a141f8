// compiler/str_match.h — the patterns of a `mask.strs` (ir::StrMap, docs/ir.md §4 "String
// indexing") matched in one pass: a StrMatcher holds a filter of the ASCII literals
// (str_literals.h), Hyperscan databases of the other literals and globs and RE2 sets of the
// regexes, built once per program, and answers exactly what testing each pattern
// on its own with pfc_tdh_str_pred / pfc_ir_pred_regex_next answers (docs/jit.md "String
// indexing" gives the argument). Both engines call the helpers below: the interpreter the
// one-by-one reference, JIT code the matcher.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "compiler/ir.h"
#include "compiler/str_literals.h"

namespace pfc::internal {

// The operators of mask.strs patterns: CONTAINS, STARTSWITH, ENDSWITH, IS, MATCHES, REGEX
// and their `.cs` forms (the lowering's pattern terms, the verifier's rule for string maps).
bool is_str_map_op(PayloadOp op);

class StrMatcher {
 public:
  // Builds the databases for the patterns of `map` (preds index `str_preds`, verified).
  // Never fails: a pattern Hyperscan rejects is tested on its own on every text.
  static std::shared_ptr<const StrMatcher> build(const ir::StrMap& map,
                                                 const std::vector<ir::StrPred>& str_preds);
  ~StrMatcher();
  StrMatcher(const StrMatcher&) = delete;
  StrMatcher& operator=(const StrMatcher&) = delete;

  // The OR of the masks of the patterns that hold for the decodable string field at `off`
  // whose characters are the bytes [b, e) of the payload (in_type 1: UTF-16LE, 2: 8-bit).
  // Allocates only when a thread's scratch space or buffers must grow.
  uint64_t match(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                 uint64_t length, const uint8_t* b, const uint8_t* e) const;

  struct Db;    // one Hyperscan database and what its pattern ids mean (str_match.cc)
  struct Sets;  // the regexes as RE2 sets, case-insensitive and `.cs` (str_match.cc)
  struct Pattern {
    ir::StrPred pred;
    uint64_t mask = 0;
  };

 private:
  StrMatcher() = default;
  uint64_t scan(const Db& db, const uint8_t* data, uint64_t n, uint64_t acc, bool* ok) const;
  uint64_t scan_rule(const AsciiLiterals* ascii, const Db* utf8, bool fold, const uint8_t* b,
                     const uint8_t* e, uint32_t unit, uint64_t acc, bool* ok) const;
  uint64_t sets(const uint8_t* b, const uint8_t* e, uint32_t unit, uint64_t acc, bool* ok) const;
  uint64_t each(const std::vector<uint32_t>& ids, const uint8_t* payload, uint64_t size,
                uint64_t off, uint32_t in_type, uint64_t length, uint64_t acc) const;

  std::vector<Pattern> patterns_;
  std::unique_ptr<AsciiLiterals> fold_ascii_;   // caseless literals with ASCII needles
  std::unique_ptr<AsciiLiterals> plain_ascii_;  // `.cs` literals with ASCII needles
  std::unique_ptr<Db>
      fold_;  // the text folded, as generalised UTF-8: other caseless literals, globs
  std::unique_ptr<Db> plain_;     // the text as generalised UTF-8: other `.cs` literals and globs
  std::unique_ptr<Sets> sets_;    // every regex
  std::vector<uint32_t> always_;  // patterns tested on their own on every text
};

// Builds the matcher of every str_maps entry of `prog` (verified): for programs not built by
// the lowering (which builds each map's when it adds it).
void attach_str_matchers(ir::Program& prog);

}  // namespace pfc::internal

extern "C" {

// Op::MaskStrs, the reference: map->base, or'ed with the masks of map's patterns that hold
// for the string field at `off` (in_type, length as pfc_tdh_str_pred), each tested on its
// own; *next receives what pfc_tdh_skip returns for the field.
uint64_t pfc_ir_mask_strs_each(const uint8_t* payload, uint64_t size, uint64_t off,
                               uint32_t in_type, uint64_t length, const pfc::ir::StrMap* map,
                               const pfc::ir::StrPred* str_preds, uint64_t* next);
// The same result through map->matcher (one scan; JIT code calls it); without a matcher as
// pfc_ir_mask_strs_each.
uint64_t pfc_ir_mask_strs_next(const uint8_t* payload, uint64_t size, uint64_t off,
                               uint32_t in_type, uint64_t length, const pfc::ir::StrMap* map,
                               uint64_t* next);
}
