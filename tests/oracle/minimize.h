// tests/oracle/minimize.h — greedy shrinking of a failing routing case, so reproducers
// printed by the fuzzers and tests are small: one event, the fewest sessions, filters and
// schema events that still show the failure.
#pragma once

#include <functional>

#include "tests/oracle/gen.h"

namespace pfc::gen {

// Returns a case for which `fails` is still true, obtained from `c` (for which it is true)
// by dropping events, sessions, filters, options and unused schema events one at a time,
// as long as something can be dropped. `fails` must be deterministic. Bounded: every step
// removes something, so at most (size of the case) rounds of passes.
Case minimize(Case c, const std::function<bool(const Case&)>& fails);

}  // namespace pfc::gen
