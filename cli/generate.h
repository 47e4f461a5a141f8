// cli/generate.h — synthetic events for `pfc gen`: every provider and event of a checked
// script's schema, field values drawn per type (biased towards the constants the sessions'
// filters mention, so that matches happen), and an optional exact fraction of events that
// some session receives, reached by routing candidates with the reference interpreter.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "compiler/check.h"

namespace pfc::cli {

struct GenOptions {
  uint64_t count = 0;
  uint64_t seed = 0;
  // Fraction (0..1) of events that at least one session receives; absent = whatever the
  // random draw gives. Event i is a match iff round(rate·(i+1)) > round(rate·i), so any
  // prefix of the capture has the rate too.
  std::optional<double> match_rate;
};

struct GenOutput {
  std::vector<uint8_t> capture;  // a complete capture file (pfc/capture.h)
  uint64_t matching = 0;         // events some session receives
};

struct GenError {
  std::string message;    // one sentence, for "pfc: error: …" / "pfc: internal error: …"
  bool internal = false;  // false: a problem with the script or options (exit 1)
};

// Fails for a script without events, an unreachable --match-rate, or (internal) a router
// or encoder failure. The output is deterministic for a given script, options and build.
// Thread-safe (builds its own router; no global state).
std::expected<GenOutput, GenError> generate_events(const CheckedScript& script,
                                                   const GenOptions& options);

}  // namespace pfc::cli
