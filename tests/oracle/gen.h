// tests/oracle/gen.h — random routing cases for differential testing: a provider schema
// with every field type (arrays, counts and lengths from fields, NUL-terminated strings),
// sessions with every filter kind and payload expressions, and events with valid,
// truncated, corrupted or garbage payloads. Driven by an Entropy source: a seeded PRNG in
// oracle_test, libFuzzer's FuzzedDataProvider in fuzz/route (so every input is a case).
// Cases are what the checker could produce (names resolved, values in range, operators
// valid for their field), except for the filter kinds the script language cannot express
// (event_names, stack_names, stack_level_kw), which the ETW API produces.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "pfc/event.h"
#include "runtime/routing_program.h"

namespace pfc::gen {

// A source of choices. next(n) returns a value in [0, n) (n ≥ 1); when the source is
// exhausted it returns 0, so generation always terminates with small structures.
class Entropy {
 public:
  virtual ~Entropy() = default;
  virtual uint64_t next(uint64_t n) = 0;
  virtual uint64_t bits64() = 0;  // an arbitrary 64-bit value

  bool chance(uint32_t percent) { return next(100) < percent; }
  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[next(v.size())];
  }
};

// Entropy from a seeded std::mt19937_64 (deterministic per seed).
class RngEntropy final : public Entropy {
 public:
  explicit RngEntropy(uint64_t seed) : rng_(seed) {}
  uint64_t next(uint64_t n) override { return n <= 1 ? 0 : rng_() % n; }
  uint64_t bits64() override { return rng_(); }

 private:
  std::mt19937_64 rng_;
};

struct Limits {
  uint32_t max_events = 4;  // event definitions in the schema
  uint32_t max_fields = 6;  // fields per event
  uint32_t max_sessions = 5;
  uint32_t max_filters = 3;  // payload filters per session
  uint32_t max_preds = 4;    // predicates per payload expression
  uint32_t max_test_events = 8;
  // Now and then 64 sessions with one random pattern each on one string field (docs/ir.md
  // §4 "String indexing"), whatever max_sessions says.
  bool pattern_sweeps = true;
  // Legacy providers with MatchAll or properties diverge between the lowering and
  // docs/semantics.md (tests/former_bugs, finding F1); off until that is settled.
  bool legacy_quirks = false;
};

struct Case {
  ProgramSpec spec;
  std::vector<Event> events;
};

Case generate(Entropy& in, const Limits& limits = {});

}  // namespace pfc::gen
