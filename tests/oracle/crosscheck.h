// tests/oracle/crosscheck.h — runs one routing case (gen.h) through every engine — lowering
// + verifier + reference interpreter, the JIT at O0 and at the default level — and the
// oracle, and says whether they agree. Shared by oracle_test and fuzz/route.
#pragma once

#include <string>
#include <vector>

#include "pfc/event.h"
#include "tests/oracle/gen.h"

namespace pfc::gen {

struct Verdict {
  bool agree = true;                // false: a new disagreement (not a known finding)
  std::string known;                // the known finding (docs/fuzzing.md) that explains a
                                    // disagreement, e.g. "F1"; agree stays true then
  std::string what;                 // who disagreed, on which event, with which masks
  std::vector<RouteResult> oracle;  // the oracle's decision per event
  Case minimized;                   // crosscheck_and_explain: the shrunk failing case
};

struct EngineSet {
  bool interp = true;
  bool jit_o0 = true;
  bool jit_default = true;
};

// Lowering or compilation failures are disagreements too (the case is checker-valid).
// Disagreements explained by a known, reported finding (known_finding) are not failures:
// they are counted through Verdict::known so the search goes on for new ones; each known
// finding has a failing regression test in tests/former_bugs until it is fixed.
// Thread-compatible; compiles into the process-wide JIT.
Verdict crosscheck(const Case& c, const EngineSet& engines = {});

// The known finding that could explain a disagreement on `events[event]` of `c`, or "".
std::string known_finding(const Case& c, size_t event);

// crosscheck; on disagreement also minimize (the verdict then describes `minimized`) and
// append a reproducer (script, events, the oracle's expected output) to `what`.
Verdict crosscheck_and_explain(const Case& c, const EngineSet& engines = {});

}  // namespace pfc::gen
