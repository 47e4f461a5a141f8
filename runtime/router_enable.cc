// runtime/router_enable.cc — EnableTraceEx2 semantics of the router: enable / disable /
// capture-state / stop_session, composite state (docs/runtime.md §2), legacy takeover,
// program (re)compilation with all-or-nothing commit, and enable-callback dispatch.
#include <algorithm>
#include <bit>
#include <utility>

#include "runtime/router_internal.h"

namespace pfc::internal {

bool ProviderEntry::legacy() const {
  return std::any_of(regs.begin(), regs.end(), [](const auto& r) { return r->def.legacy; });
}

CompositeState compose(const SessionMap& sessions, bool legacy) {
  CompositeState c;
  bool first = true;
  for (const auto& [slot, e] : sessions) {
    EnableParams storage;
    const EnableParams& p = effective_params(*e.params, legacy, storage);
    const uint8_t level = p.level == 0 ? 255 : p.level;
    const uint64_t any = p.any == 0 ? ~uint64_t{0} : p.any;
    const uint64_t all = p.any == 0 ? 0 : p.all;  // MatchAll ignored when any == 0
    c.level = std::max(c.level, level);
    c.any |= any;
    c.all = first ? all : (c.all & all);
    c.sessions |= uint64_t{1} << slot;
    first = false;
  }
  c.enabled = c.sessions != 0;
  return c;
}

void keep_last_enabler(SessionMap& sessions) {
  if (sessions.size() <= 1) return;
  auto last = std::max_element(sessions.begin(), sessions.end(), [](const auto& a, const auto& b) {
    return a.second.seq < b.second.seq;
  });
  SessionMap kept;
  kept.insert(*last);
  sessions = std::move(kept);
}

ProgramSpec program_spec_of(const ProviderDef& def, const SessionMap& sessions) {
  ProgramSpec spec;
  spec.provider = def;
  for (const auto& [slot, e] : sessions)
    spec.sessions.push_back(SessionEntry::sharing(slot, e.params));
  return spec;
}

Result<std::unique_ptr<Installed>> RouterImpl::build(const Registration& reg,
                                                     const SessionMap& sessions) {
  if (sessions.empty()) return std::unique_ptr<Installed>();
  auto in = std::make_unique<Installed>();
  for (const auto& [slot, e] : sessions) {
    in->sessions |= uint64_t{1} << slot;
    in->sinks.push_back(sessions_[slot]->sink);
  }
  const ProgramSpec spec = program_spec_of(reg.def, sessions);
  auto program = compiler_->compile(spec);
  if (!program)
    return make_error("cannot compile the routing program of provider '" + reg.def.name +
                      "': " + program.error().message);
  if (!*program)
    return make_error("the program compiler returned no program for provider '" + reg.def.name +
                      "'");
  in->program = std::move(*program);
  if (auto views = std::make_unique<const tlg::FilterViews>(spec); !views->empty())
    in->tlg = std::move(views);
  if (const auto* slot = in->program->native_slot(); slot != nullptr && in->tlg == nullptr)
    in->native = slot;
  return in;
}

Result<std::vector<Plan>> RouterImpl::plan(const std::vector<Registration*>& regs,
                                           const SessionMap& sessions) {
  std::vector<Plan> plans;
  for (Registration* reg : regs) {
    auto installed = build(*reg, sessions);
    if (!installed) return std::unexpected(installed.error());
    plans.push_back(Plan{reg, std::move(*installed), compose(sessions, reg->def.legacy)});
  }
  return plans;
}

Result<std::vector<Plan>> RouterImpl::plan(const ProviderEntry& entry, const SessionMap& sessions) {
  std::vector<Registration*> regs;
  regs.reserve(entry.regs.size());
  for (const auto& r : entry.regs) regs.push_back(r.get());
  return plan(regs, sessions);
}

void RouterImpl::commit(std::vector<Plan>& plans) {
  for (Plan& p : plans) {
    // Program before the enabled() words: once a provider sees "enabled", writes route
    // through the new program.
    const Installed* old =
        p.reg->installed.exchange(p.installed.release(), std::memory_order_acq_rel);
    if (old != nullptr) retire(old);
    p.reg->state = p.state;
    p.reg->publish(p.state);
  }
}

void RouterImpl::notify_change(const ProviderEntry& entry, const Guid& source_id,
                               std::vector<PendingCallback>& out) {
  for (const auto& r : entry.regs) {
    const ControlCode code =
        r->state.enabled ? ControlCode::EnableProvider : ControlCode::DisableProvider;
    out.push_back({r.get(), {code, r->state, source_id}});
  }
}

void RouterImpl::dispatch(std::vector<PendingCallback>& pending) {
  struct Flag {  // restores the reentrancy marker even if a callback throws
    const void* saved = tls_callback_router;
    explicit Flag(const void* self) { tls_callback_router = self; }
    ~Flag() { tls_callback_router = saved; }
  };
  {
    Flag flag(this);
    for (PendingCallback& p : pending)
      if (p.reg->callback && !p.reg->unregistering) p.reg->callback(p.note);
  }
  std::vector<Registration*> deferred = std::exchange(deferred_unregister_, {});
  for (Registration* reg : deferred) remove_registration(reg);
}

Result<void> RouterImpl::enable(SessionId session, const Guid& provider,
                                std::shared_ptr<const EnableParams> params) {
  if (params == nullptr) return make_error("enable: null parameters");
  if (auto ok = check_not_in_callback(); !ok) return ok;
  std::lock_guard<std::mutex> lock(mu_);
  if (auto ok = check_session(session); !ok) return ok;
  auto [it, inserted] = providers_.try_emplace(provider);
  ProviderEntry& entry = it->second;
  SessionMap sessions = entry.sessions;
  const Guid source_id = params->source_id;
  sessions[session] = EnableEntry{std::move(params), enable_seq_ + 1};
  if (entry.legacy()) keep_last_enabler(sessions);  // last enabler wins, silently
  auto plans = plan(entry, sessions);
  if (!plans) {
    if (entry.empty()) providers_.erase(it);
    return std::unexpected(plans.error());
  }
  ++enable_seq_;
  entry.sessions = std::move(sessions);
  commit(*plans);
  std::vector<PendingCallback> pending;
  notify_change(entry, source_id, pending);
  dispatch(pending);
  return {};
}

Result<void> RouterImpl::disable(SessionId session, const Guid& provider) {
  if (auto ok = check_not_in_callback(); !ok) return ok;
  std::lock_guard<std::mutex> lock(mu_);
  if (auto ok = check_session(session); !ok) return ok;
  auto it = providers_.find(provider);
  if (it == providers_.end() || !it->second.sessions.contains(session)) return {};  // no-op
  ProviderEntry& entry = it->second;
  SessionMap sessions = entry.sessions;
  sessions.erase(session);
  auto plans = plan(entry, sessions);
  if (!plans) return std::unexpected(plans.error());
  entry.sessions = std::move(sessions);
  commit(*plans);
  std::vector<PendingCallback> pending;
  notify_change(entry, Guid{}, pending);
  if (entry.empty()) providers_.erase(it);
  dispatch(pending);
  return {};
}

Result<void> RouterImpl::capture_state(SessionId session, const Guid& provider) {
  if (auto ok = check_not_in_callback(); !ok) return ok;
  std::lock_guard<std::mutex> lock(mu_);
  if (auto ok = check_session(session); !ok) return ok;
  auto it = providers_.find(provider);
  if (it == providers_.end() || !it->second.sessions.contains(session))
    return make_error("session " + std::to_string(session) + " has not enabled provider " +
                      provider.to_string());
  const Guid source = it->second.sessions.at(session).params->source_id;
  std::vector<PendingCallback> pending;
  for (const auto& r : it->second.regs)
    pending.push_back({r.get(), {ControlCode::CaptureState, r->state, source}});
  dispatch(pending);
  return {};
}

Result<void> RouterImpl::stop_session(SessionId session) {
  if (auto ok = check_not_in_callback(); !ok) return ok;
  std::lock_guard<std::mutex> lock(mu_);
  if (auto ok = check_session(session); !ok) return ok;
  // Compile every affected provider first, so a failure changes nothing.
  struct Change {
    std::map<Guid, ProviderEntry, GuidLess>::iterator it;
    SessionMap sessions;
    std::vector<Plan> plans;
  };
  std::vector<Change> changes;
  for (auto it = providers_.begin(); it != providers_.end(); ++it) {
    if (!it->second.sessions.contains(session)) continue;
    SessionMap sessions = it->second.sessions;
    sessions.erase(session);
    auto plans = plan(it->second, sessions);
    if (!plans) return std::unexpected(plans.error());
    changes.push_back(Change{it, std::move(sessions), std::move(*plans)});
  }
  std::vector<PendingCallback> pending;
  for (Change& c : changes) {
    c.it->second.sessions = std::move(c.sessions);
    commit(c.plans);
    notify_change(c.it->second, Guid{}, pending);  // stop: SourceId GUID_NULL
  }
  for (Change& c : changes)
    if (c.it->second.empty()) providers_.erase(c.it);
  sessions_[session].reset();  // published snapshots keep the sink alive until retired
  dispatch(pending);
  return {};
}

}  // namespace pfc::internal
