// compiler/str_match.h — the patterns of a `mask.strs` (ir::StrMap, docs/ir.md §4 "String
// indexing") matched in one pass: a StrMatcher holds a filter of the ASCII literals
// (str_literals.h), Hyperscan databases of the other literals and globs and RE2 sets of the
// regexes, built once per program, and answers exactly what testing each pattern
// on its own with pfc_tdh_str_pred / pfc_ir_pred_regex_next answers (docs/jit.md "String
// indexing" gives the argument). Both engines call the helpers below: the interpreter the
// one-by-one reference, JIT code the matcher.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "compiler/ir.h"
#include "compiler/str_literals.h"

namespace pfc {
struct HsImage;
struct ProgramKey;
}  // namespace pfc

namespace pfc::internal {

// What installing a program's Hyperscan databases did (install_str_databases): a
// process's counters (etw/shared_compiler.h).
struct HsDbCounts {
  uint32_t loaded = 0;    // deserialised from the namespace's file
  uint32_t compiled = 0;  // compiled by this process
  uint32_t refused = 0;   // of those compiled, the ones the file had no usable entry for
  std::string why;        // the latest refusal's reason, on one line ("" when none)
};

// The operators of mask.strs patterns: CONTAINS, STARTSWITH, ENDSWITH, IS, MATCHES, REGEX
// and their `.cs` forms (the lowering's pattern terms, the verifier's rule for string maps).
bool is_str_map_op(PayloadOp op);

class StrMatcher {
 public:
  // Compile: the Hyperscan databases are built with the matcher. Defer: they are left
  // for install_databases (LowerOptions::defer_string_databases).
  enum class Databases : uint8_t { Compile, Defer };
  // Builds the matcher of the patterns of `map` (preds index `str_preds`, verified).
  // Never fails: a pattern Hyperscan rejects is tested on its own on every text.
  static std::shared_ptr<const StrMatcher> build(const ir::StrMap& map,
                                                 const std::vector<ir::StrPred>& str_preds,
                                                 Databases databases = Databases::Compile);
  ~StrMatcher();
  StrMatcher(const StrMatcher&) = delete;
  StrMatcher& operator=(const StrMatcher&) = delete;

  // The OR of the masks of the patterns that hold for the decodable string field at `off`
  // whose characters are the bytes [b, e) of the payload (in_type 1: UTF-16LE, 2: 8-bit).
  // Allocates only when a thread's scratch space or buffers must grow.
  uint64_t match(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                 uint64_t length, const uint8_t* b, const uint8_t* e) const;

  // A Defer matcher's databases, once (later calls, and calls on a Compile matcher, do
  // nothing): each one deserialised from its entry of `image` (the namespace's file for
  // the program; null when there is none) for string map `map_index` when the entry
  // passes every check (compiler/hs_image.h), else compiled here, counted in `counts`
  // (`missing`: why there is no image). Thread-safe; until it returns, match() tests the
  // databases' patterns one by one.
  void install_databases(const HsImage* image, uint32_t map_index, const std::string& missing,
                         HsDbCounts& counts) const;

  struct Db;     // one Hyperscan database and what its pattern ids mean (str_match.cc)
  struct Dbs;    // the Hyperscan databases of both case rules (str_match.cc)
  struct Spec;   // one database's expressions before it is compiled (str_match.cc)
  struct Sets;   // the regexes as RE2 sets, case-insensitive and `.cs` (str_match.cc)
  struct Image;  // serialize_str_databases's writer (str_match.cc)
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

  void install(std::unique_ptr<Spec> fold, std::unique_ptr<Spec> plain, const HsImage* image,
               uint32_t map_index, const std::string& missing, HsDbCounts* counts) const;
  void serialize(uint32_t map_index, Image& out) const;
  friend std::string serialize_str_databases(const ir::Program& prog, const ProgramKey& key);

  std::vector<Pattern> patterns_;
  std::unique_ptr<AsciiLiterals> fold_ascii_;   // caseless literals with ASCII needles
  std::unique_ptr<AsciiLiterals> plain_ascii_;  // `.cs` literals with ASCII needles
  std::unique_ptr<Sets> sets_;                  // every regex
  std::vector<uint32_t> always_;                // patterns tested on their own on every text
  // The Hyperscan databases: the caseless one scans the text folded, the `.cs` one as it
  // is, both as generalised UTF-8 (other literals than always_'s, globs). Installed once
  // (published with a release store, read with acquire); a Defer matcher holds their
  // specs until then and tests their patterns (`pending_`) one by one.
  mutable std::mutex install_mu_;
  mutable std::unique_ptr<Spec> fold_spec_, plain_spec_;  // under install_mu_
  mutable std::unique_ptr<const Dbs> dbs_owned_;          // under install_mu_
  mutable std::atomic<const Dbs*> dbs_{nullptr};
  std::vector<uint32_t> pending_;
};

// Builds the matcher of every str_maps entry of `prog` (verified): for programs not built by
// the lowering (which builds each map's when it adds it).
void attach_str_matchers(ir::Program& prog);

// The file of the Hyperscan databases of `prog`'s matchers (compiler/hs_image.h: the
// compile service's `prog-KEY.hsdb`), "" when they have none.
std::string serialize_str_databases(const ir::Program& prog, const ProgramKey& key);
// install_databases for every string map of `prog` (`image` and `missing` as there).
HsDbCounts install_str_databases(const ir::Program& prog, const HsImage* image,
                                 const std::string& missing);

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
