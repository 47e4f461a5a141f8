// tests/oracle/differential_test.cc — random routing cases (gen.h, fixed seeds) run through
// the reference interpreter, the JIT at O0 and at the default level, and the oracle; all
// must agree on the deliver and stack masks of every event. A disagreement prints the case
// as a .pfs script + events .jsonl + the oracle's expected output (repro.h).
#include <gtest/gtest.h>

#include <cstdio>

#include "compiler/jit/jit.h"
#include "compiler/lower.h"
#include "tests/oracle/crosscheck.h"

namespace pfc {
namespace {

// Runs one seed: false (after reporting a minimized reproducer) on a disagreement.
// Known findings (explained disagreements) are counted in `known`.
bool run_seed(uint64_t seed, bool with_jit, int* known) {
  gen::RngEntropy in(seed);
  gen::Limits limits;
  limits.legacy_quirks = true;
  const gen::Case c = gen::generate(in, limits);
  const gen::Verdict v = gen::crosscheck_and_explain(c, {true, with_jit, with_jit});
  if (!v.agree) ADD_FAILURE() << "seed " << seed << ": " << v.what;
  *known += !v.known.empty();
  return v.agree;
}

// Interpreter vs oracle: many cases (the interpreter is cheap).
TEST(Differential, InterpreterAgreesWithOracle) {
  int failures = 0, known = 0;
  for (uint64_t seed = 1; seed <= 4000 && failures < 3; ++seed)
    failures += !run_seed(seed, false, &known);
  std::printf("cases explained by known findings: %d\n", known);
}

// Interpreter, JIT O0, JIT default level and oracle: fewer cases (compilation is slow).
TEST(Differential, JitAgreesWithOracle) {
  if (!Jit::shared()) GTEST_SKIP() << "no JIT on this host: " << Jit::shared().error().message;
  int failures = 0, known = 0;
  for (uint64_t seed = 100001; seed <= 101000 && failures < 3; ++seed)
    failures += !run_seed(seed, true, &known);
  std::printf("cases explained by known findings: %d\n", known);
}

// Sanity check of the generator: the cases exercise what they claim to.
TEST(Differential, GeneratorCoversEveryFilterKind) {
  int payload = 0, names = 0, stacks = 0, truncated_events = 0, legacy = 0, sweeps = 0;
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    gen::RngEntropy in(seed);
    const gen::Case c = gen::generate(in);
    legacy += c.spec.provider.legacy;
    // Pattern sweeps: one mask.strs of 32 patterns or more (docs/ir.md §4 "String indexing").
    if (auto prog = lower(c.spec)) {
      for (const ir::StrMap& m : prog->str_maps) sweeps += m.preds.size() >= 32;
    }
    for (const SessionEntry& s : c.spec.sessions) {
      payload += !s.params->payload.empty();
      names += s.params->event_names.has_value();
      stacks += s.params->stack_level_kw.has_value();
    }
    truncated_events += static_cast<int>(c.events.size());
  }
  EXPECT_GT(payload, 100);
  EXPECT_GT(names, 20);
  EXPECT_GT(stacks, 20);
  EXPECT_GT(legacy, 10);
  EXPECT_GT(truncated_events, 1000);
  EXPECT_GT(sweeps, 10);
}

}  // namespace
}  // namespace pfc
