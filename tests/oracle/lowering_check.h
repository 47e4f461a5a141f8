// tests/oracle/lowering_check.h — the oracle test of a lowering choice (predicate indexing,
// scope indexing): a spec lowered two ways, both interpreted and the first also compiled by
// the JIT, every engine checked against the oracle and the two `--explain`s against each
// other.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/interp.h"
#include "compiler/lower.h"

namespace pfc {

// lower → Interpreter, failing the current test (and returning null) on an error.
std::unique_ptr<Interpreter> lowered_interp(const ProgramSpec& spec, const LowerOptions& options);

// Routes `events` on the interpreters of `spec` lowered with `on` and with `off`, and when
// `jit` on native code (O0, O1, O2) of the `on` program: each must give the oracle's
// result, and the first failed check of every session must be the same with `on` and with
// `off`. Failures name `what` and the event's index. Returns the number of events on which
// something disagreed.
int check_lowerings(const ProgramSpec& spec, const std::vector<EventView>& events,
                    const LowerOptions& on, const LowerOptions& off, bool jit,
                    const std::string& what);

}  // namespace pfc
