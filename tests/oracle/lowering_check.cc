// tests/oracle/lowering_check.cc — see lowering_check.h.
#include "tests/oracle/lowering_check.h"

#include <gtest/gtest.h>

#include "compiler/jit/jit.h"
#include "tests/oracle/oracle.h"

namespace pfc {

std::unique_ptr<Interpreter> lowered_interp(const ProgramSpec& spec, const LowerOptions& options) {
  auto prog = lower(spec, options);
  EXPECT_TRUE(prog.has_value()) << (prog ? "" : prog.error().message);
  if (!prog) return nullptr;
  auto r = Interpreter::create(std::move(*prog));
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message);
  return r ? std::move(*r) : nullptr;
}

int check_lowerings(const ProgramSpec& spec, const std::vector<EventView>& events,
                    const LowerOptions& on, const LowerOptions& off, bool jit,
                    const std::string& what) {
  auto with = lowered_interp(spec, on);
  auto without = lowered_interp(spec, off);
  if (!with || !without) return 1;
  std::vector<std::shared_ptr<const JitProgram>> native;
  for (OptLevel l : {OptLevel::O0, OptLevel::O1, OptLevel::O2}) {
    if (!jit) break;
    auto p = JitProgram::create(with->program(), l);
    EXPECT_TRUE(p.has_value()) << (p ? "" : p.error().message);
    if (p) native.push_back(*p);
  }
  int bad = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const EventView& v = events[i];
    const RouteResult want = oracle_route(spec.provider, spec.sessions, v);
    const std::string at = what + " event " + std::to_string(i);
    bool wrong = want != with->route(v) || want != without->route(v);
    EXPECT_EQ(want, with->route(v)) << at << " (interpreter, option on)";
    EXPECT_EQ(want, without->route(v)) << at << " (interpreter, option off)";
    for (size_t l = 0; l < native.size(); ++l) {
      wrong = wrong || want != native[l]->route(v);
      EXPECT_EQ(want, native[l]->route(v)) << at << " (JIT O" << l << ")";
    }
    const Explanation x = with->explain(v), y = without->explain(v);
    wrong = wrong || x.sessions.size() != y.sessions.size();
    EXPECT_EQ(x.sessions.size(), y.sessions.size()) << at;
    for (size_t s = 0; s < x.sessions.size() && s < y.sessions.size(); ++s) {
      wrong = wrong || x.sessions[s].failed != y.sessions[s].failed;
      EXPECT_EQ(x.sessions[s].failed, y.sessions[s].failed)
          << at << " explain, slot " << x.sessions[s].slot;
    }
    bad += wrong;
  }
  return bad;
}

}  // namespace pfc
