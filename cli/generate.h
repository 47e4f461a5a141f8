// cli/generate.h — synthetic events for `pfc gen`: every provider and event of a checked
// script's schema, field values drawn per type (biased towards the constants the sessions'
// filters mention, so that matches happen), and an optional exact fraction of events that
// some session receives, reached by routing candidates with the reference interpreter.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "compiler/check.h"
#include "pfc/event.h"

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
  uint64_t matching = 0;  // events some session receives
};

// Receives each generated event in order: its provider (index into the schema's providers),
// the event and its timestamp. An error stops the generation (reported as internal).
using GenEmit =
    std::function<Result<void>(uint16_t provider, const Event& event, uint64_t timestamp)>;

struct GenError {
  std::string message;    // one sentence, for "pfc: error: …" / "pfc: internal error: …"
  bool internal = false;  // false: a problem with the script or options (exit 1)
};

// Generates options.count events into `emit`, holding none of them. Fails for a script
// without events, an unreachable --match-rate, or (internal) a router, encoder or `emit`
// failure. The events are deterministic for a given script, options and build.
// Thread-safe (builds its own router; no global state).
std::expected<GenOutput, GenError> generate_events(const CheckedScript& script,
                                                   const GenOptions& options, const GenEmit& emit);

}  // namespace pfc::cli
