// runtime/router.cc — Router construction, sessions, provider registration and the
// lock-free routing path (route / write). Enable logic lives in router_enable.cc.
#include <bit>
#include <tuple>
#include <utility>

#include "runtime/router_internal.h"

namespace pfc {

Result<std::unique_ptr<Router>> Router::create(std::shared_ptr<ProgramCompiler> compiler) {
  if (!compiler) return make_error("Router::create: no program compiler given");
  return std::unique_ptr<Router>(new internal::RouterImpl(std::move(compiler)));
}

namespace internal {

PFC_TLS_HOT constinit thread_local const void* tls_callback_router = nullptr;

bool GuidLess::operator()(const Guid& a, const Guid& b) const noexcept {
  return std::tie(a.data1, a.data2, a.data3, a.data4) <
         std::tie(b.data1, b.data2, b.data3, b.data4);
}

void Registration::publish(const CompositeState& s) noexcept {
  // The mirror is set before enabled() can say yes and cleared after it says no, so a
  // check that reads it first never misses what enabled() would report.
  if (!s.enabled) {
    level_word_.store(0, std::memory_order_release);
    any_.store(0, std::memory_order_relaxed);
    all_.store(0, std::memory_order_relaxed);
    set_mirror(0);
    return;
  }
  const uint64_t word = 0x100 | uint64_t{s.level};
  set_mirror(word);
  any_.store(s.any, std::memory_order_relaxed);
  all_.store(s.all, std::memory_order_relaxed);
  level_word_.store(word, std::memory_order_release);
}

void Registration::set_mirror(uint64_t word) noexcept {
  if (mirror_.word == nullptr) return;
  if (word != 0 && mirror_.count != nullptr && !counted_) {
    std::atomic_ref<uint64_t>(*mirror_.count).fetch_add(1, std::memory_order_release);
    counted_ = true;
  }
  std::atomic_ref<uint64_t>(*mirror_.word).store(word, std::memory_order_release);
  if (word == 0 && counted_) {
    std::atomic_ref<uint64_t>(*mirror_.count).fetch_sub(1, std::memory_order_release);
    counted_ = false;
  }
}

RouterImpl::~RouterImpl() {
  // No thread may route through this router any more. Registrations delete their current
  // snapshot; then every retired one is released, all while compiler_ is still alive
  // (programs may depend on it, e.g. JIT code owned by the compiler's LLJIT).
  providers_.clear();
  while (epoch_.pending() != 0) epoch_.synchronize();
}

Result<void> RouterImpl::check_not_in_callback() const {
  if (tls_callback_router == this)
    return make_error("router control operation called from an enable callback");
  return {};
}

Result<void> RouterImpl::check_session(SessionId session) const {
  if (session >= kMaxSessions || !sessions_[session])
    return make_error("no live session " + std::to_string(session));
  return {};
}

Result<SessionId> RouterImpl::create_session(std::string name, std::shared_ptr<Sink> sink,
                                             std::optional<SessionId> wanted) {
  if (auto ok = check_not_in_callback(); !ok) return std::unexpected(ok.error());
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& s : sessions_)
    if (s && s->name == name) return make_error("a session named '" + name + "' already exists");
  if (wanted && (*wanted >= kMaxSessions || sessions_[*wanted]))
    return make_error("session slot " + std::to_string(*wanted) + " is not free");
  for (SessionId slot = wanted.value_or(0); slot < kMaxSessions; ++slot) {
    if (sessions_[slot]) continue;
    sessions_[slot] = std::make_unique<SessionRec>(SessionRec{std::move(name), std::move(sink)});
    return slot;
  }
  return make_error("cannot create session '" + name + "': all " + std::to_string(kMaxSessions) +
                    " session slots are in use");
}

Result<ProviderHandle> RouterImpl::register_provider(const ProviderDef& provider,
                                                     EnableCallback callback, EnableMirror mirror) {
  if (auto ok = check_not_in_callback(); !ok) return std::unexpected(ok.error());
  std::lock_guard<std::mutex> lock(mu_);
  auto reg = std::make_unique<Registration>(provider, std::move(callback), mirror);
  auto [it, inserted] = providers_.try_emplace(provider.guid);
  ProviderEntry& entry = it->second;
  SessionMap sessions = entry.sessions;
  if (provider.legacy || entry.legacy()) keep_last_enabler(sessions);
  // A legacy takeover that drops pre-enabled sessions changes every registration;
  // otherwise only the new one needs a program.
  const bool reduced = sessions.size() != entry.sessions.size();
  std::vector<Registration*> targets{reg.get()};
  if (reduced)
    for (const auto& r : entry.regs) targets.push_back(r.get());
  auto plans = plan(targets, sessions);
  if (!plans) {
    if (entry.empty()) providers_.erase(it);
    return std::unexpected(plans.error());
  }
  Registration* handle = reg.get();
  entry.sessions = std::move(sessions);
  entry.regs.push_back(std::move(reg));
  commit(*plans);
  // Pre-enabled sessions reach the new registration with SourceId GUID_NULL.
  std::vector<PendingCallback> pending;
  for (const auto& r : entry.regs) {
    if (r.get() == handle ? !r->state.enabled : !reduced) continue;
    pending.push_back({r.get(), {ControlCode::EnableProvider, r->state, Guid{}}});
  }
  dispatch(pending);
  return handle;
}

void RouterImpl::unregister_provider(ProviderHandle provider) {
  if (provider == nullptr) return;
  auto* reg = const_cast<Registration*>(static_cast<const Registration*>(provider));
  if (tls_callback_router == this) {  // mu_ is held by this thread: defer
    reg->unregistering = true;
    deferred_unregister_.push_back(reg);
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  remove_registration(reg);
}

void RouterImpl::remove_registration(Registration* reg) {
  auto it = providers_.find(reg->def.guid);
  if (it == providers_.end()) return;
  auto& regs = it->second.regs;
  for (auto r = regs.begin(); r != regs.end(); ++r) {
    if (r->get() != reg) continue;
    reg->publish(CompositeState{});
    Registration* owned = r->release();
    regs.erase(r);
    // A racing route() through a stale handle must not touch freed memory.
    retire(owned);
    break;
  }
  if (it->second.empty()) providers_.erase(it);
}

CompositeState RouterImpl::composite(ProviderHandle provider) const {
  if (provider == nullptr) return {};
  const auto* reg = static_cast<const Registration*>(provider);
  return read_state([reg] { return reg->state; });
}

std::vector<SessionEnable> RouterImpl::enables(const Guid& provider) const {
  return read_state([&] {
    std::vector<SessionEnable> out;
    auto it = providers_.find(provider);
    if (it == providers_.end()) return out;
    for (const auto& [slot, e] : it->second.sessions) out.push_back(SessionEnable{slot, e.params});
    return out;
  });
}

uint64_t RouterImpl::enabling_sessions(const Guid& provider) const {
  return read_state([&] {
    uint64_t mask = 0;
    auto it = providers_.find(provider);
    if (it == providers_.end()) return mask;
    for (const auto& [slot, e] : it->second.sessions) mask |= uint64_t{1} << slot;
    return mask;
  });
}

ProgramSpec RouterImpl::program_spec(ProviderHandle provider) const {
  if (provider == nullptr) return {};
  const auto* reg = static_cast<const Registration*>(provider);
  return read_state([&] {
    auto it = providers_.find(reg->def.guid);
    if (it == providers_.end()) return program_spec_of(reg->def, SessionMap{});
    return program_spec_of(reg->def, it->second.sessions);
  });
}

RouteResult Installed::run_slow(const EventView& original) const noexcept {
  if (tlg == nullptr) return program->route(original);
  EventView storage;
  const EventView& event = tlg->view(original, storage);
  const std::atomic<NativeRouteFn>* slot = program->native_slot();
  const NativeRouteFn fn = slot != nullptr ? slot->load(std::memory_order_acquire) : nullptr;
  return fn != nullptr ? call_native(fn, event) : program->route(event);
}

RouteResult RouterImpl::route(ProviderHandle provider, const EventView& event,
                              uint64_t exclude) const noexcept {
  if (provider == nullptr) return {};
  const auto* reg = static_cast<const Registration*>(provider);
  EpochDomain::Guard guard = epoch_.enter();
  const Installed* in = reg->installed.load(std::memory_order_acquire);
  if (in == nullptr) return {};
  return in->decide(event, exclude);
}

RouteResult RouterImpl::write(ProviderHandle provider, const EventView& event, uint64_t exclude) {
  if (provider == nullptr) return {};
  const auto* reg = static_cast<const Registration*>(provider);
  // One snapshot decides and delivers: sinks come from the same Installed as the program,
  // so a slot reused by a new session never receives an event routed for the old one.
  EpochDomain::Guard guard = epoch_.enter();
  const Installed* in = reg->installed.load(std::memory_order_acquire);
  if (in == nullptr) return {};
  // in->decide, with the stack mask computed only for an event some session takes.
  const uint64_t allowed = in->sessions & ~exclude;
  RouteResult r = in->run(event);
  r.deliver &= allowed;
  if (r.deliver == 0) return {};
  r.stack &= r.deliver;
  deliver(*in, event, r);
  return r;
}

void RouterImpl::deliver(const Installed& in, const EventView& event, RouteResult r) {
  for (uint64_t m = r.deliver; m != 0; m &= m - 1) {
    const auto slot = static_cast<uint32_t>(std::countr_zero(m));
    if (Sink* sink = in.sink_for(slot)) sink->deliver(event, ((r.stack >> slot) & 1) != 0);
  }
}

}  // namespace internal
}  // namespace pfc
