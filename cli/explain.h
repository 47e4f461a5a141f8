// cli/explain.h — `pfc run --explain`: an engine-independent, rule-by-rule evaluation of
// one session's EnableParams against one event (docs/semantics.md §1–§2), naming the first
// check that rejected it. `pfc run` compares its verdicts with the engine's route result
// on every event, so the explanation and the routing can never silently disagree.
#pragma once

#include <cstdint>
#include <string_view>

#include "pfc/enable.h"
#include "pfc/event.h"
#include "pfc/schema.h"

namespace pfc::cli {

// Reason words, in the order the checks run (docs/cli.md "--explain").
inline constexpr std::string_view kWhyNotEnabled = "not enabled";
inline constexpr std::string_view kWhyLevel = "level";
inline constexpr std::string_view kWhyKeyword = "keyword";
inline constexpr std::string_view kWhyPid = "pid";
inline constexpr std::string_view kWhyExe = "exe";
inline constexpr std::string_view kWhyPackageId = "package_id";
inline constexpr std::string_view kWhyAppId = "app_id";
inline constexpr std::string_view kWhyEventId = "event_id";
inline constexpr std::string_view kWhyEventName = "event_name";
inline constexpr std::string_view kWhyPayload = "payload";
inline constexpr std::string_view kWhyExcluded = "excluded";

struct SessionVerdict {
  std::string_view rejected_by;  // empty: the session's filters accept the event
  bool stack = false;            // accepted and a stack is collected (docs/semantics.md §1.6)
};

// Evaluates `params` (one session's enable state on `provider`) against `event`, check by
// check in the order of the kWhy constants (exclusion is the caller's business). Never
// reads outside the event's payload; undecodable fields make predicates false (docs/semantics.md §2.1).
// Pure and thread-safe.
SessionVerdict explain_session(const ProviderDef& provider, const EnableParams& params,
                               const EventView& event);

}  // namespace pfc::cli
