// api/explain.h — why each session did or did not receive an event (`pfc run --explain`,
// Filter::explain of pfc/filter.h).
// The explanation is derived from the engine, not re-evaluated (docs/cli.md "--explain"):
// each provider's program is the IR the router installed (Router::program_spec, lowered),
// run on the reference interpreter, whose check notes name the first check that rejected
// the event (Interpreter::explain). `pfc run` compares the explained result with the
// engine's route result on every event.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "compiler/interp.h"
#include "runtime/router.h"

namespace pfc {

// Reason words besides the checks' own (ir::kCheckNames: level, keyword, pid, exe,
// package_id, app_id, event_id, event_name, payload).
inline constexpr std::string_view kWhyNotEnabled = "not enabled";
inline constexpr std::string_view kWhyExcluded = "excluded";

// Why a session did not receive an event: slot + reason word.
struct Rejection {
  uint32_t slot = 0;
  std::string_view reason;
};

struct ExplainedRoute {
  RouteResult result;          // deliver / stack as the explanation sees them
  std::vector<Rejection> why;  // one per session slot that does not receive the event
};

// Built once, after the router is set up; valid while its programs stay installed.
class Explainer {
 public:
  // One interpreter per entry of `providers` (handles of `router`), over `num_sessions`
  // session slots. Fails when a program cannot be lowered (an internal error).
  static Result<Explainer> create(const Router& router,
                                  const std::vector<ProviderHandle>& providers,
                                  uint32_t num_sessions);

  // Event of providers[provider] with EventWriteEx's `exclude` mask. Reasons per slot:
  // "not enabled", the first failed check, or "excluded". Thread-safe.
  ExplainedRoute explain(uint32_t provider, const EventView& event, uint64_t exclude) const;

 private:
  std::vector<std::shared_ptr<const Interpreter>> programs_;  // null: no session enables it
  uint32_t num_sessions_ = 0;
};

}  // namespace pfc
