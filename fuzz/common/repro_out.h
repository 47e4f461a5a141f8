// fuzz/common/repro_out.h — reporting a routing disagreement found by a fuzz target: the
// case as script.pfs + events.jsonl + the oracle's expected `pfc run` output on stderr and,
// when PFC_FUZZ_REPRO_DIR is set, as files in that directory (ready to become a
// tests/former_bugs case). Then the caller aborts so libFuzzer saves the input.
#pragma once

#include <string>
#include <vector>

#include "pfc/event.h"
#include "runtime/routing_program.h"

namespace pfc::fuzz {

// `results[i]` is the oracle's decision for `events[i]`; `what` says who disagreed how.
void report_mismatch(const std::string& what, const ProgramSpec& spec,
                     const std::vector<Event>& events, const std::vector<RouteResult>& results);

}  // namespace pfc::fuzz
