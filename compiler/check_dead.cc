// compiler/check_dead.cc — the checker's dead-filter warnings (docs/language.md §4
// "Warnings"), decided on the lowered IR (compiler/lower.h) by abstract evaluation
// (check_absint.h) with the header of each declared event known: a payload filter on an
// event the enable's level, keywords or event-ID filter already exclude; a payload filter
// that can never pass or always passes; an enable that no declared event can pass (of a
// TraceLogging provider: that no event can pass, declared or not); a session without
// enables.
#include <string>
#include <vector>

#include "base/hex.h"
#include "base/quote.h"
#include "compiler/check_absint.h"
#include "compiler/check_context.h"
#include "compiler/lower.h"

namespace pfc::internal {
namespace {

// Abstract evaluation is linear in the program; this bounds events × instructions per
// script, so huge scripts skip the (advisory) analysis instead of slowing `pfc check`.
constexpr uint64_t kWorkBudget = uint64_t{1} << 22;

struct Analysis {
  std::vector<AbstractValue> regs;
  const ir::Program* program = nullptr;

  std::optional<bool> note(ir::Check check) const {
    for (const ir::CheckNote& n : program->checks) {
      if (n.slot != 0 || n.check != check) continue;
      if (n.reg == ir::kNoReg) return n.constant;
      return n.reg < regs.size() ? truth(regs[n.reg]) : std::nullopt;
    }
    return true;  // the session has no such check: it passes
  }
  // False iff no Deliver of slot 0 (nor DeliverMask: a one-session program's masks hold
  // only the session's bit) can deliver.
  bool may_deliver() const {
    for (const ir::Inst& in : program->code) {
      const bool delivers = (in.op == ir::Op::Deliver && in.b == 0) || in.op == ir::Op::DeliverMask;
      if (delivers && truth(regs.at(in.a)) != false) return true;
    }
    return false;
  }
};

class DeadFilterWarnings {
 public:
  explicit DeadFilterWarnings(CheckContext& cx) : cx_(cx) {}

  void run() {
    for (SessionDecl& s : cx_.out.script.sessions) {
      if (s.enables.empty())
        cx_.warning(s.pos, "session " + quote_text(s.name) + " enables nothing");
      for (SessionDecl::Enable& e : s.enables) enable(e);
    }
  }

 private:
  bool spend(uint64_t work) {
    used_ += work;
    return used_ <= kWorkBudget;
  }

  // Lowering makes at least one instruction per predicate: a spec whose filters have more
  // predicates than the budget has left is not even lowered (a 50 MB one-filter script
  // would spend seconds and hundreds of MB on IR that the budget then refuses).
  bool affordable(const ProgramSpec& spec) const {
    uint64_t preds = 0;
    for (const PayloadFilter& f : spec.sessions[0].params->payload) preds += f.expr.preds.size();
    return used_ + preds <= kWorkBudget;
  }

  // The enable's payload filters move into the analysed spec and back, never copied (a
  // 50 MB script's filter has millions of predicates); `e` is whole again on return.
  void enable(SessionDecl::Enable& e) {
    const ProviderDef& provider = cx_.schema().providers[e.provider];
    std::vector<PayloadFilter> payload = std::move(e.params->payload);
    e.params->payload.clear();
    const auto params = std::make_shared<EnableParams>(*e.params);  // without its filters
    ProgramSpec spec{provider, {SessionEntry::sharing(0, params)}};
    std::vector<PayloadFilter>& slot = params->payload;
    const size_t before = cx_.out.diagnostics.size();
    for (size_t i = 0; i < payload.size() && i < e.payload_pos.size(); ++i) {
      slot.push_back(std::move(payload[i]));
      if (provider.tracelogging) tracelogging_filter(spec, slot.back(), e.payload_pos[i]);
      else payload_filter(spec, e.payload_pos[i]);
      payload[i] = std::move(slot.back());
      slot.clear();
    }
    // A payload filter's own warning is the more precise explanation; without one, say that
    // the enable as a whole lets nothing through. (A provider without declared events has
    // none to test, unless it is a TraceLogging provider: all its events have id 0.)
    if (cx_.out.diagnostics.size() == before &&
        (provider.tracelogging || !provider.events.empty())) {
      slot = std::move(payload);
      if (provider.tracelogging && no_tracelogging_event_passes(spec)) {
        cx_.warning(e.pos, "enable of provider " + quote_text(provider.name) +
                               " has no effect: no TraceLogging event (id 0, version 0) can "
                               "pass its filters");
      } else if (!provider.tracelogging && no_event_passes(spec)) {
        cx_.warning(e.pos, "enable of provider " + quote_text(provider.name) +
                               " has no effect: none of the events it declares can pass its "
                               "filters");
      }
      payload = std::move(slot);
    }
    e.params->payload = std::move(payload);
  }

  bool no_event_passes(const ProgramSpec& spec) {
    if (!affordable(spec)) return false;
    Result<ir::Program> program = lower(spec);
    if (!program) return false;
    for (const EventDef& ev : spec.provider.events) {
      if (!spend(program->code.size() + 1)) return false;
      Analysis a{evaluate_abstract(*program, KnownHeader::of_event(ev.desc)), &*program};
      if (a.may_deliver()) return false;
    }
    return true;
  }

  // A TraceLogging provider writes events the script does not declare, with any name,
  // level and keyword: the enable has no effect only when its checks reject every event
  // with id 0 and version 0, whatever the rest of its header.
  bool no_tracelogging_event_passes(const ProgramSpec& spec) {
    if (!affordable(spec)) return false;
    Result<ir::Program> program = lower(spec);
    if (!program || !spend(program->code.size() + 1)) return false;
    const Analysis a{evaluate_abstract(*program, KnownHeader::of_tracelogging()), &*program};
    return !a.may_deliver();
  }

  // The filter `f` of `spec` on a TraceLogging event, analysed as the same filter on a
  // manifest event whose fixed layout is the declared fields: the analysis assumes, as for
  // manifest events, that the event fits its declaration (docs/language.md §3
  // "TraceLogging providers": else every filter on it fails, which the warnings ignore
  // as they ignore fields that do not decode) and carries the declared descriptor.
  void tracelogging_filter(const ProgramSpec& spec, PayloadFilter& f, SourcePos pos) {
    const EventDef* ev = spec.provider.find_event(f.event_name);
    if (ev == nullptr) return;
    ProgramSpec fixed{ProviderDef{spec.provider.name, spec.provider.guid, false, false, {*ev}},
                      spec.sessions};
    const std::string name = std::move(f.event_name);
    f.event_name.clear();
    payload_filter(fixed, pos);
    f.event_name = name;
  }

  void payload_filter(const ProgramSpec& spec, SourcePos pos) {
    const PayloadFilter& f = spec.sessions[0].params->payload[0];
    const EventDef* ev = f.event_name.empty()
                             ? spec.provider.find_event(f.event_id, f.event_version)
                             : spec.provider.find_event(f.event_name);
    if (ev == nullptr || !affordable(spec)) return;
    Result<ir::Program> program = lower(spec);
    if (!program || !spend(program->code.size() + 1)) return;
    const Analysis a{evaluate_abstract(*program, KnownHeader::of_event(ev->desc)), &*program};
    const std::string what = "payload filter on event " + quote_text(ev->name);
    if (std::string why = excluded_by(a, *spec.sessions[0].params, ev->desc); !why.empty()) {
      cx_.warning(pos, what + " has no effect: " + why);
      return;
    }
    const std::optional<bool> passes = a.note(ir::Check::Payload);
    if (passes == false)
      cx_.warning(pos, what + " can never pass: no values of its fields satisfy it");
    if (passes == true)
      cx_.warning(pos, what + " always passes: every value of its fields satisfies it");
  }

  // Why the enable's own checks reject the event, or "" when they may accept it.
  static std::string excluded_by(const Analysis& a, const EnableParams& p,
                                 const EventDescriptor& d) {
    if (a.note(ir::Check::Level) == false)
      return "the enable's level=" + std::to_string(p.level) + " excludes the event (level " +
             std::to_string(d.level) + ")";
    if (a.note(ir::Check::Keyword) == false)
      return "the enable's keywords (any=" + to_hex(p.any) + ", all=" + to_hex(p.all) +
             ") exclude the event (keyword " + to_hex(d.keyword) + ")";
    if (a.note(ir::Check::EventId) == false)
      return "the enable's event_id filter excludes the event (id " + std::to_string(d.id) + ")";
    if (a.note(ir::Check::EventName) == false)
      return "the enable's event name filter excludes the event";
    return "";
  }

  CheckContext& cx_;
  uint64_t used_ = 0;
};

}  // namespace

void warn_dead_filters(CheckContext& cx) { DeadFilterWarnings(cx).run(); }

}  // namespace pfc::internal
