// tests/oracle/crosscheck.cc — see crosscheck.h.
#include "tests/oracle/crosscheck.h"

#include <cstdio>
#include <memory>

#include "compiler/interp.h"
#include "compiler/jit/jit.h"
#include "compiler/lower.h"
#include "tests/oracle/minimize.h"
#include "tests/oracle/oracle.h"
#include "tests/oracle/oracle_internal.h"
#include "tests/oracle/repro.h"

namespace pfc::gen {
namespace {

std::string masks(RouteResult r) {
  char b[96];
  std::snprintf(b, sizeof b, "deliver 0x%llx stack 0x%llx",
                static_cast<unsigned long long>(r.deliver),
                static_cast<unsigned long long>(r.stack));
  return b;
}

struct Engine {
  std::string name;
  std::shared_ptr<const RoutingProgram> program;
};

// Builds the requested engines; on failure sets v.agree = false.
std::vector<Engine> build(const Case& c, const EngineSet& want, Verdict& v) {
  std::vector<Engine> out;
  Result<ir::Program> prog = lower(c.spec);
  if (!prog) {
    v = {false, "lowering failed: " + prog.error().message, {}};
    return out;
  }
  if (want.interp) {
    auto interp = Interpreter::create(*prog);
    if (!interp) {
      v = {false, "verifier rejected the lowered program: " + interp.error().message, {}};
      return out;
    }
    out.push_back({"interpreter", std::shared_ptr<const RoutingProgram>(std::move(*interp))});
  }
  for (OptLevel level : {OptLevel::O0, kDefaultOptLevel}) {
    if (level == OptLevel::O0 ? !want.jit_o0 : !want.jit_default) continue;
    auto jit = JitProgram::create(*prog, level);
    if (!jit) {
      v = {false,
           "JIT " + std::string(opt_level_name(level)) + " failed: " + jit.error().message,
           {}};
      return out;
    }
    out.push_back({"JIT " + std::string(opt_level_name(level)), *jit});
  }
  return out;
}

}  // namespace

std::string known_finding(const Case& /*c*/, size_t /*event*/) {
  // No open findings: F1 (legacy providers applied MatchAll and properties) and F2 (a
  // field length of all ones read as "no length") are fixed; their reproducers live in
  // tests/former_bugs/ and must pass on every engine. List new findings here while open.
  return "";
}

Verdict crosscheck(const Case& c, const EngineSet& engines) {
  Verdict v;
  for (const Event& e : c.events)
    v.oracle.push_back(oracle_route(c.spec.provider, c.spec.sessions, e.view()));
  std::vector<RouteResult> oracle = v.oracle;
  const std::vector<Engine> built = build(c, engines, v);
  if (!v.agree) {
    v.oracle = oracle;
    return v;
  }
  for (size_t i = 0; i < c.events.size(); ++i) {
    const EventView view = c.events[i].view();
    for (const Engine& e : built) {
      const RouteResult got = e.program->route(view);
      if (got == v.oracle[i]) continue;
      v.known = known_finding(c, i);
      v.agree = !v.known.empty();
      v.what = e.name + " on event " + std::to_string(i) + ": " + masks(got) + ", oracle " +
               masks(v.oracle[i]);
      return v;
    }
  }
  return v;
}

Verdict crosscheck_and_explain(const Case& c, const EngineSet& engines) {
  Verdict v = crosscheck(c, engines);
  if (v.agree) return v;
  const Case small = minimize(c, [&](const Case& t) { return !crosscheck(t, engines).agree; });
  Verdict m = crosscheck(small, engines);
  m.minimized = small;
  std::string expected;
  for (size_t i = 0; i < m.oracle.size(); ++i)
    expected += repro::result_line(i, m.oracle[i]) + "\n";
  m.what += "\n(minimized; the original case: " + v.what + ")\n";
  if (!repro::expressible(small.spec, small.events)) {
    m.what += "(parts of this case have no script spelling; see the # lines)\n";
  }
  m.what += "--- script.pfs\n" + repro::script(small.spec) + "--- events.jsonl\n" +
            repro::events_jsonl(small.spec, small.events) + "--- expected.jsonl (oracle)\n" +
            expected;
  return m;
}

}  // namespace pfc::gen
