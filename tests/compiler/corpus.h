// tests/compiler/corpus.h — routing programs for tests of whole-program transformations (the
// IR wire form, shared compiled code): every provider of every golden-corpus script that
// checks cleanly (tests/golden/*/script.pfs), lowered, and generated cases
// (tests/oracle/gen.h) with their events.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir.h"
#include "pfc/event.h"

namespace pfc::testing {

struct CorpusProgram {
  std::string name;  // "golden/CASE provider N" or "generated SEED"
  ir::Program program;
  std::vector<Event> events;  // golden: the case's events.jsonl events of this provider
};

// The lowered golden-corpus programs (fails the test when none is found).
std::vector<CorpusProgram> golden_programs();
// `count` generated cases from seeds first_seed, first_seed + 1, …; cases whose lowering
// fails are left out (the oracle tests report those).
std::vector<CorpusProgram> generated_programs(uint64_t first_seed, uint32_t count);

}  // namespace pfc::testing
