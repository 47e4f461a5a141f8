// runtime/router_internal.h — the Router implementation's private types: registrations,
// the per-GUID enable table, published program snapshots and the RouterImpl class.
// router.cc holds sessions, registrations and routing; router_enable.cc the enable /
// disable / capture-state logic, composite computation and callback dispatch.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "base/tls.h"
#include "runtime/epoch.h"
#include "runtime/router.h"
#include "runtime/tlg_filter.h"

namespace pfc::internal {

struct GuidLess {
  bool operator()(const Guid& a, const Guid& b) const noexcept;
};

// Installed::native of a program without a native slot: never set.
inline constinit const std::atomic<NativeRouteFn> kNoNativeSlot{nullptr};

// What route() and write() read for one registration. Immutable once published; replaced
// wholesale and retired through the router's EpochDomain.
struct Installed {
  std::shared_ptr<const RoutingProgram> program;  // never null
  // program->native_slot(), or kNoNativeSlot when it has none or has TraceLogging filters
  // (run_slow): never null, so decide() tests only the function.
  const std::atomic<NativeRouteFn>* native = &kNoNativeSlot;
  uint64_t sessions = 0;                     // slots the program was compiled for
  std::vector<std::shared_ptr<Sink>> sinks;  // one per set bit of `sessions`, ascending
                                             // slot order; an entry may be null
  // The TraceLogging events the program's payload filters name (runtime/tlg_filter.h);
  // null when there are none.
  std::unique_ptr<const tlg::FilterViews> tlg;
  // The routing decision (docs/semantics.md §1.8: `exclude` removes sessions after filtering):
  // the program's native function called directly once there is one, else route().
  RouteResult decide(const EventView& event, uint64_t exclude) const noexcept {
    RouteResult r = run(event);
    r.deliver &= sessions & ~exclude;
    r.stack &= r.deliver;
    return r;
  }
  // The program's own result, before the exclusion and the installed sessions apply.
  PFC_CALLS_JIT_CODE RouteResult run(const EventView& event) const noexcept {
    const NativeRouteFn fn = native->load(std::memory_order_acquire);
    return fn != nullptr ? call_native(fn, event) : run_slow(event);
  }
  // run() without a native function in `native`: the interpreter, or, for a program with
  // TraceLogging filters (whose `native` is kNoNativeSlot, so the common path tests
  // nothing more), the program on the view `tlg` lays out, natively once it can.
  PFC_CALLS_JIT_CODE RouteResult run_slow(const EventView& event) const noexcept;
  Sink* sink_for(uint32_t slot) const noexcept {
    const uint64_t below = slot == 0 ? 0 : (sessions & (~uint64_t{0} >> (64 - slot)));
    return sinks[static_cast<size_t>(std::popcount(below))].get();
  }
};

// One provider registration (the object a ProviderHandle points to).
class Registration final : public ProviderState {
 public:
  Registration(ProviderDef def, EnableCallback callback, EnableMirror mirror)
      : def(std::move(def)), callback(std::move(callback)), mirror_(mirror) {}
  ~Registration() { delete installed.load(std::memory_order_relaxed); }
  Registration(const Registration&) = delete;
  Registration& operator=(const Registration&) = delete;

  // Stores `s` into the lock-free words enabled() reads, and the enabled bit into the
  // caller's mirror (Router::register_provider). Readers may briefly see a mix of old and
  // new words; route() is the exact decision. Router mutex held.
  void publish(const CompositeState& s) noexcept;

  const ProviderDef def;
  const EnableCallback callback;
  std::atomic<const Installed*> installed{nullptr};  // null: no session enables it
  // Guarded by the router mutex:
  CompositeState state;
  bool unregistering = false;  // unregister_provider() was called from a callback

 private:
  void set_mirror(uint64_t word) noexcept;
  const EnableMirror mirror_;  // null words: none (Router::register_provider)
  bool counted_ = false;       // mirror_.count holds this registration's 1 (router mutex)
};

// One session's enable of one GUID; `seq` orders enables (legacy: last enabler wins).
// The parameters are shared with the programs' specs and with copies of the map, so
// planning a change copies pointers, not payload filters.
struct EnableEntry {
  std::shared_ptr<const EnableParams> params;  // never null
  uint64_t seq = 0;
};
using SessionMap = std::map<uint32_t, EnableEntry>;  // slot → entry

// Everything known about one provider GUID: enables (kept without any registration:
// pre-enable) and the live registrations.
struct ProviderEntry {
  SessionMap sessions;
  std::vector<std::unique_ptr<Registration>> regs;
  bool legacy() const;  // some registration is a legacy provider
  bool empty() const { return sessions.empty() && regs.empty(); }
};

struct SessionRec {
  std::string name;
  std::shared_ptr<Sink> sink;
};

// A compiled, not yet published, change of one registration.
struct Plan {
  Registration* reg = nullptr;
  std::unique_ptr<Installed> installed;  // null: no session
  CompositeState state;
};

// A callback to run once the change is committed.
struct PendingCallback {
  Registration* reg = nullptr;
  EnableNotification note;
};

// The composite state over `sessions` (docs/runtime.md §2): per session level 0 → 255,
// MatchAny 0 → ~0 (MatchAll then ignored, i.e. 0); max / OR / AND. Legacy: any & 2^32-1,
// all = 0.
CompositeState compose(const SessionMap& sessions, bool legacy);
// Legacy providers: keep only the most recent enabler.
void keep_last_enabler(SessionMap& sessions);
// The spec a registration's program is compiled from (sessions in ascending slot order).
ProgramSpec program_spec_of(const ProviderDef& def, const SessionMap& sessions);

// The router whose enable callback is running on this thread, if any.
extern PFC_TLS_HOT constinit thread_local const void* tls_callback_router;

class RouterImpl final : public Router {
 public:
  explicit RouterImpl(std::shared_ptr<ProgramCompiler> compiler) : compiler_(std::move(compiler)) {}
  ~RouterImpl() override;

  using Router::enable;
  Result<ProviderHandle> register_provider(const ProviderDef& provider, EnableCallback callback,
                                           EnableMirror mirror) override;
  void unregister_provider(ProviderHandle provider) override;
  Result<SessionId> create_session(std::string name, std::shared_ptr<Sink> sink,
                                   std::optional<SessionId> slot) override;
  Result<void> stop_session(SessionId session) override;
  Result<void> enable(SessionId session, const Guid& provider,
                      std::shared_ptr<const EnableParams> params) override;
  Result<void> disable(SessionId session, const Guid& provider) override;
  Result<void> capture_state(SessionId session, const Guid& provider) override;
  CompositeState composite(ProviderHandle provider) const override;
  std::vector<SessionEnable> enables(const Guid& provider) const override;
  uint64_t enabling_sessions(const Guid& provider) const override;
  ProgramSpec program_spec(ProviderHandle provider) const override;
  RouteResult route(ProviderHandle provider, const EventView& event,
                    uint64_t exclude) const noexcept override;
  RouteResult write(ProviderHandle provider, const EventView& event, uint64_t exclude) override;

 private:
  // write()'s delivery of an accepted event to the sinks of `r.deliver` (out of line: a
  // rejected event's write() then needs no registers for it).
  [[gnu::noinline]] static void deliver(const Installed& in, const EventView& event, RouteResult r);
  // Fails when called from one of this router's enable callbacks (reentrancy).
  Result<void> check_not_in_callback() const;
  // Runs `read` under mu_, or directly when this thread is in one of this router's
  // callbacks (mu_ is then held by this thread already).
  template <typename Read>
  auto read_state(Read read) const {
    if (tls_callback_router == this) return read();
    std::lock_guard<std::mutex> lock(mu_);
    return read();
  }
  Result<void> check_session(SessionId session) const;  // mu_ held
  // Compiles the program of `reg` for `sessions` (null when `sessions` is empty).
  Result<std::unique_ptr<Installed>> build(const Registration& reg, const SessionMap& sessions);
  // Compiles new snapshots of `regs` for `sessions`; publishes nothing.
  Result<std::vector<Plan>> plan(const std::vector<Registration*>& regs,
                                 const SessionMap& sessions);
  Result<std::vector<Plan>> plan(const ProviderEntry& entry, const SessionMap& sessions);
  // Publishes plans (program first, then the enabled() words); retires old programs.
  void commit(std::vector<Plan>& plans);
  // ENABLE or DISABLE notifications for every registration of `entry` after a change.
  static void notify_change(const ProviderEntry& entry, const Guid& source_id,
                            std::vector<PendingCallback>& out);
  // Runs callbacks with mu_ held and the reentrancy flag set, then deferred unregisters.
  void dispatch(std::vector<PendingCallback>& pending);
  void remove_registration(Registration* reg);  // mu_ held
  // Deletes `object` once no reader can hold it. retire() allocates; without memory this
  // waits for the readers instead (synchronize) and deletes it here, so a change is never
  // left half-published and nothing leaks. mu_ held; never inside a read guard.
  template <class T>
  void retire(T* object) {
    try {
      epoch_.retire([object] { delete object; });
    } catch (const std::bad_alloc&) {
      epoch_.synchronize();
      delete object;
    }
  }

  EpochDomain epoch_;  // declared first: destroyed last, after every registration
  std::shared_ptr<ProgramCompiler> compiler_;
  mutable std::mutex mu_;
  std::array<std::unique_ptr<SessionRec>, kMaxSessions> sessions_;
  std::map<Guid, ProviderEntry, GuidLess> providers_;
  uint64_t enable_seq_ = 0;
  std::vector<Registration*> deferred_unregister_;
};

}  // namespace pfc::internal
