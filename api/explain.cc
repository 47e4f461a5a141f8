// api/explain.cc — --explain from the interpreter's check notes (explain.h). There is no
// second evaluator of the rules here: what is explained is the program the router runs.
#include "api/explain.h"

#include "compiler/lower.h"

namespace pfc {

Result<Explainer> Explainer::create(const Router& router,
                                    const std::vector<ProviderHandle>& providers,
                                    uint32_t num_sessions) {
  Explainer out;
  out.num_sessions_ = num_sessions;
  for (ProviderHandle handle : providers) {
    const ProgramSpec spec = router.program_spec(handle);
    if (spec.sessions.empty()) {
      out.programs_.push_back(nullptr);
      continue;
    }
    Result<ir::Program> program = lower(spec);
    if (!program) return std::unexpected(program.error());
    auto interp = Interpreter::create(std::move(*program));
    if (!interp) return std::unexpected(interp.error());
    out.programs_.push_back(std::move(*interp));
  }
  return out;
}

ExplainedRoute Explainer::explain(uint32_t provider, const EventView& event,
                                  uint64_t exclude) const {
  ExplainedRoute out;
  std::vector<std::string_view> reason(num_sessions_, kWhyNotEnabled);
  std::vector<bool> accepted(num_sessions_, false);
  Explanation x;
  if (const auto& program = programs_.at(provider)) x = program->explain(event);
  for (const SessionExplanation& s : x.sessions) {
    if (s.slot >= num_sessions_) continue;
    if (s.failed) {
      reason[s.slot] = ir::kCheckNames[static_cast<size_t>(*s.failed)];
    } else if ((exclude >> s.slot) & 1) {
      reason[s.slot] = kWhyExcluded;
    } else {
      accepted[s.slot] = true;
    }
  }
  for (uint32_t slot = 0; slot < num_sessions_; ++slot) {
    const uint64_t bit = uint64_t{1} << slot;
    if (!accepted[slot]) {
      out.why.push_back({slot, reason[slot]});
      continue;
    }
    out.result.deliver |= bit;
    out.result.stack |= x.result.stack & bit;
  }
  return out;
}

}  // namespace pfc
