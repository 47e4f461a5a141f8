// runtime/router.h — the routing core: providers, sessions, per-(session, provider) enable
// state with EnableTraceEx2 semantics, the composite state providers see in their enable
// callbacks (docs/runtime.md §2), the "is anyone listening?" fast check, and routing of
// events to session sinks through one compiled RoutingProgram per provider.
//
// Thread-safety: every member may be called from any thread. Control operations
// (register, create_session, enable, ...) serialise on an internal mutex and may block;
// enabled() and route() take no lock and never allocate, and stay correct while other
// threads reconfigure (programs are swapped atomically and freed only when no thread can
// still be running them).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "pfc/enable.h"
#include "pfc/event.h"
#include "pfc/guid.h"
#include "pfc/schema.h"
#include "runtime/routing_program.h"

namespace pfc {

inline constexpr uint32_t kMaxSessions = 64;

// EVENT_CONTROL_CODE_* as delivered to enable callbacks.
enum class ControlCode : uint32_t { DisableProvider = 0, EnableProvider = 1, CaptureState = 2 };

// Composite state over the sessions enabling a provider, after per-session normalisation
// (level 0 → 255, MatchAny 0 → ~0): level = max, any = OR, all = AND (docs/runtime.md §2).
struct CompositeState {
  bool enabled = false;
  uint8_t level = 0;
  uint64_t any = 0;
  uint64_t all = 0;
  uint64_t sessions = 0;  // bit s = session slot s enables the provider
  friend bool operator==(const CompositeState&, const CompositeState&) = default;
};

struct EnableNotification {
  ControlCode code = ControlCode::EnableProvider;  // IsEnabled: 0, 1 or 2
  CompositeState state;
  Guid source_id;  // GUID_NULL when enabled before registration, on stop, or none given
};
// Called synchronously on the controlling thread after the change is committed, with the
// router's control mutex held (notifications never interleave). Inside a callback,
// route(), write(), enabled() and composite() work; unregister_provider() is deferred
// until the callback batch returns; every other control call fails with an error instead
// of deadlocking. Must not throw, and must not wait for another thread that is making a
// control call on the same router. docs/runtime.md §3.
using EnableCallback = std::function<void(const EnableNotification&)>;

// Receives the events routed to a session. deliver() runs on the writing thread, possibly
// on several threads at once; the view is valid only during the call. Concrete sinks:
// runtime/sink.h. A stopped session's sink may still see writes that began before the stop.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void deliver(const EventView& event, bool with_stack) = 0;
};

// The hot-path state of one provider registration, readable without a lock.
class ProviderState {
 public:
  // "Is anyone listening?" for a level/keyword (docs/runtime.md §2; conservative: deeper
  // filters may still drop the event). A few loads and compares: no call, no lock.
  bool enabled(uint8_t level, uint64_t keyword) const noexcept {
    const uint64_t lw = level_word_.load(std::memory_order_relaxed);
    if ((lw & 0x100) == 0) return false;  // bit 8 = enabled, bits 0..7 = composite level
    if (level > (lw & 0xFF)) return false;
    if (keyword == 0) return true;
    const uint64_t any = any_.load(std::memory_order_relaxed);
    const uint64_t all = all_.load(std::memory_order_relaxed);
    return (keyword & any) != 0 && (keyword & all) == all;
  }

 protected:
  std::atomic<uint64_t> level_word_{0};
  std::atomic<uint64_t> any_{0};
  std::atomic<uint64_t> all_{0};
};

using ProviderHandle = const ProviderState*;  // valid until unregister_provider

// Where Router::register_provider mirrors a registration's enabled state. Every publish
// stores (atomically, release, through std::atomic_ref) into `word` 0 when no session
// enables the registration, else a nonzero value, before enabled() can see it enabled and
// after enabled() sees it disabled; unregister_provider stores 0. `count`, when given
// with `word`, is shared by registrations: the router adds 1 before their word turns
// nonzero and subtracts 1 after it turns 0, so it is 0 iff every word is. Both must stay
// valid and 8-byte aligned until unregister_provider returns.
struct EnableMirror {
  uint64_t* word = nullptr;
  uint64_t* count = nullptr;
};
using SessionId = uint32_t;  // the session's slot, 0..63

// One session's enable of a provider GUID, as the router keeps it.
struct SessionEnable {
  SessionId session = 0;
  std::shared_ptr<const EnableParams> params;  // as given to enable(); shared, never null
};

class Router {
 public:
  // `compiler` builds each provider's routing program (interpreter, JIT, tiered, ...).
  static Result<std::unique_ptr<Router>> create(std::shared_ptr<ProgramCompiler> compiler);
  virtual ~Router() = default;

  // Registers a provider (EventRegister). The schema is what its programs are compiled
  // against. If sessions enabled its GUID before, the callback runs now with GUID_NULL.
  // `mirror`, when given, mirrors the registration's enabled state for a check made
  // outside the router (the ETW API's inline EventEnabled, docs/etw.md "Enable state").
  virtual Result<ProviderHandle> register_provider(const ProviderDef& provider,
                                                   EnableCallback callback = {},
                                                   EnableMirror mirror = {}) = 0;
  virtual void unregister_provider(ProviderHandle provider) = 0;

  // Sessions get the lowest free slot; at most kMaxSessions live sessions; names must be
  // unique among live sessions. `sink` may be null (route() only). Fails when full or
  // the name is taken. `slot`, when given, is the slot to use (fails when it is taken):
  // the ETW layer mirrors the namespace's session slots.
  virtual Result<SessionId> create_session(std::string name, std::shared_ptr<Sink> sink,
                                           std::optional<SessionId> slot = std::nullopt) = 0;
  // Disables every provider the session enabled (callbacks see the new composite, SourceId
  // GUID_NULL) and frees the slot. Fails for an unknown session or when a program cannot
  // be recompiled (nothing changes then).
  virtual Result<void> stop_session(SessionId session) = 0;

  // EnableTraceEx2: ENABLE replaces the session's whole enable state for the provider;
  // DISABLE removes it (a no-op if the session had not enabled it); CAPTURE_STATE only
  // notifies (fails if the session has not enabled the provider). Unknown GUIDs are
  // remembered (pre-enable). Legacy providers: the last enabler takes the provider over.
  // Fails for an unknown session or when a program cannot be compiled (state unchanged).
  Result<void> enable(SessionId session, const Guid& provider, const EnableParams& params) {
    return enable(session, provider, std::make_shared<const EnableParams>(params));
  }
  // The same, sharing `params` (not null, never changed afterwards) instead of copying them:
  // the router and the programs it compiles keep this one value.
  virtual Result<void> enable(SessionId session, const Guid& provider,
                              std::shared_ptr<const EnableParams> params) = 0;
  virtual Result<void> disable(SessionId session, const Guid& provider) = 0;
  virtual Result<void> capture_state(SessionId session, const Guid& provider) = 0;

  virtual CompositeState composite(ProviderHandle provider) const = 0;

  // The router is the one keeper of enable state; front ends (the ETW-compatible API, the
  // CLI) read it with these queries instead of keeping or recomputing a copy. Each works
  // inside enable callbacks (reading without the lock on that thread).
  //
  // The sessions enabling GUID `provider` (registered or not), in slot order, each with
  // the parameters it gave enable(), after the legacy last-enabler rule (docs/runtime.md §4).
  virtual std::vector<SessionEnable> enables(const Guid& provider) const = 0;
  // The same sessions as a mask: bit s = session slot s enables `provider`.
  virtual uint64_t enabling_sessions(const Guid& provider) const = 0;
  // What the current routing program of registration `provider` was compiled from: its
  // ProviderDef and every enabling session (none: empty `sessions`, and no program is
  // installed). Lowering it gives exactly the IR the router installed.
  virtual ProgramSpec program_spec(ProviderHandle provider) const = 0;

  // Routing decision for one event, after the EventWriteEx-style `exclude` mask
  // (bit s = drop session slot s; docs/semantics.md §1.8). Lock-free, allocation-free.
  virtual RouteResult route(ProviderHandle provider, const EventView& event,
                            uint64_t exclude = 0) const noexcept = 0;
  // route() plus delivery to the receiving sessions' sinks, in slot order.
  virtual RouteResult write(ProviderHandle provider, const EventView& event,
                            uint64_t exclude = 0) = 0;
};

}  // namespace pfc
