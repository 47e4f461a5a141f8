// cli/gen_values.h — the random parts of `pfc gen` (cli/generate.h): a small portable PRNG
// and per-type field values, biased towards the constants the script's filters mention.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "pfc/guid.h"
#include "pfc/schema.h"
#include "runtime/encode.h"

namespace pfc::cli {

// xoshiro256** seeded through splitmix64: the same sequence on every platform and build
// (unlike std::uniform_*_distribution). Not thread-safe.
class Rng {
 public:
  explicit Rng(uint64_t seed);
  uint64_t next();
  uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }  // [0, n)
  bool chance(uint32_t percent) { return below(100) < percent; }

 private:
  uint64_t s_[4];
};

// Constants the filters compare one field against (from every session's predicates).
struct FieldHints {
  std::vector<uint64_t> ints;      // lo, hi and their neighbours (two's complement bits)
  std::vector<std::string> texts;  // string needles, UTF-8
  std::vector<Guid> guids;
};

// Values for one event's fields, in the form encode_payload takes. Count and length
// source fields are left out (the encoder derives them); fields sharing a source get
// arrays/strings of one common size. `hints` is indexed like event.fields.
std::vector<std::pair<std::string, FieldValue>> random_fields(const EventDef& event,
                                                              const std::vector<FieldHints>& hints,
                                                              Rng& rng);

}  // namespace pfc::cli
