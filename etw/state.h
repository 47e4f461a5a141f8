// etw/state.h — the process-wide state of the ETW-compatible API, layered over one
// pfc::Router: provider registrations (REGHANDLE table), sessions (TRACEHANDLE table) and
// the notification thread that runs enable callbacks so EnableTraceEx2's Timeout can be
// honoured. Enable state (which session enables which GUID with what, the legacy
// last-enabler rule) lives only in the router: etw/ reads it there (Router::enables,
// enabling_sessions) and translates it into ETW's callbacks, never keeping a copy.
//
// Locking: `control_mu` serialises every control operation (register, unregister, start,
// control, enable) and is never held while waiting for callbacks. The router calls
// Runtime::on_notification with its own lock held; that path reads the router's state (as
// its callback contract allows) and takes only the dispatcher's internal mutex. Lock
// order: control_mu → router → dispatcher.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "etw/filters.h"
#include "etw/link.h"
#include "etw/session.h"
#include "etw/util.h"
#include "pfc/etw/evntprov.h"
#include "pfc/etw/evntrace.h"
#include "runtime/router.h"

namespace pfc::etw {

inline constexpr uint32_t kMaxModernSessions = 8;    // per provider, ETW-compatible cap
inline constexpr uint32_t kMaxRegistrations = 2048;  // per process (Windows 8+)
static_assert(kMaxRegistrations == PFC_ETW_REGISTRATION_SLOTS);

// The enable table (pfc/etw/evntprov.h; docs/etw.md "Enable state"), indexed by
// slot_of(handle); PfcEtwEnableTable points here. Enabled[slot] is the router's enable word
// of the slot's registration and EnabledSlots its count of nonzero words
// (Router::register_provider). Every access is atomic (std::atomic_ref). Zero-initialized:
// untouched pages of it cost nothing.
extern PFC_ETW_ENABLE_TABLE enable_table;
// Per slot, the REGHANDLE of its live modern registration, else free_slot_handle(slot)
// (EventWrite*'s quiet return); set by Runtime::publish, reset by Runtime::take, under
// control_mu.
extern std::array<uint64_t, kMaxRegistrations> slot_handles;

// Handles are generation << kSlotBits | slot: the slot is the table's USHORT index, and a
// live handle's bits above the slot and below kSlotBits are 0.
inline constexpr int kSlotBits = 16;
static_assert(PFC_ETW_ENABLED_WORDS == 1u << kSlotBits);
inline constexpr uint32_t slot_of(uint64_t handle) noexcept {
  return static_cast<uint32_t>(handle & (kMaxRegistrations - 1));
}
// What a free slot's handle word holds: a value no handle of that slot has (slot 0's handles
// have low bits 0, so 0 itself would match the invalid handle 0).
inline constexpr uint64_t free_slot_handle(uint32_t slot) noexcept { return slot == 0 ? 1 : 0; }

// One EventRegister or RegisterTraceGuidsW registration.
struct RegRecord {
  uint64_t handle = 0;
  Guid guid;
  bool legacy = false;
  PENABLECALLBACK callback = nullptr;  // modern
  void* context = nullptr;
  WMIDPREQUEST request = nullptr;  // legacy
  void* request_context = nullptr;
  ProviderHandle provider = nullptr;       // the router's registration
  std::atomic<uint64_t> inprivate{0};      // slots with EXCLUDE_INPRIVATE enabling it
  std::atomic<uint16_t> legacy_logger{0};  // legacy: logger id last enabled
  std::atomic<bool> dead{false};           // unregistered: callbacks are dropped
  // EventSetInformation (etw/provider_info.cc). The traits blob (EventProviderSetTraits):
  // set once, under control_mu, by a release store after `traits_storage` holds it;
  // freed with the record. Read by build_context for every event a session takes.
  std::unique_ptr<uint8_t[]> traits_storage;
  std::atomic<const uint8_t*> traits{nullptr};
  // Whether a data descriptor's Type counts (EventProviderUseDescriptorType, or traits);
  // otherwise it is read as 0, as Windows does.
  std::atomic<bool> descriptor_types{false};
};

// Runs enable callbacks, in order, on one thread. post() never blocks on a callback.
class Dispatcher {
 public:
  using Job = std::function<void()>;
  // Lives as long as the Runtime: the whole process (its thread is detached).

  void post(std::shared_ptr<RegRecord> owner, Job job);
  uint64_t posted() const;
  // Waits until every job posted up to `seq` ran (or was dropped). False on timeout.
  // Returns true at once on the dispatcher thread (its own jobs cannot run meanwhile).
  bool wait(uint64_t seq, uint32_t timeout_ms);
  // Waits until no job of `owner` (already marked dead) is running.
  void quiesce(const RegRecord* owner);
  bool on_thread() const { return std::this_thread::get_id() == thread_id_.load(); }

 private:
  struct Item {
    uint64_t seq;
    std::shared_ptr<RegRecord> owner;
    Job job;
  };
  void run();

  mutable std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::deque<Item> queue_;
  uint64_t posted_ = 0;
  uint64_t completed_ = 0;
  const RegRecord* running_ = nullptr;
  bool started_ = false;
  std::atomic<std::thread::id> thread_id_{};
};

struct AppliedLess {
  bool operator()(const std::pair<Guid, uint32_t>& a,
                  const std::pair<Guid, uint32_t>& b) const noexcept {
    if (a.second != b.second) return a.second < b.second;
    return GuidBytesLess{}(a.first, b.first);
  }
};

class Runtime {
 public:
  // The process-wide instance, created on first use and never destroyed (enable callbacks
  // and consumers may still run while static objects are destroyed at exit). Inline, one
  // load once it exists: every enabled EventWrite* runs it.
  static Runtime& get() {
    Runtime* rt = instance_.load(std::memory_order_acquire);
    return rt != nullptr ? *rt : create();
  }

  Router& router() { return *router_; }
  std::mutex control_mu;
  Dispatcher dispatcher;

  // Registrations, all under control_mu (held from reserve() to publish()). reserve()
  // fills rec->handle = generation << kSlotBits | slot (false: table full; never below
  // 65536); publish() makes the handle valid for find() and, for a modern one, its slot's
  // slot_handles word;
  // take() removes it (the record stays allocated for a while, for racing readers).
  bool reserve(const std::shared_ptr<RegRecord>& rec);
  void publish(const RegRecord* rec);
  std::shared_ptr<RegRecord> take(uint64_t handle);
  // Lock-free; inline: every enabled EventWrite* runs it.
  RegRecord* find(uint64_t handle) const noexcept {
    RegRecord* rec = regs_[slot_of(handle)].load(std::memory_order_acquire);
    return rec != nullptr && rec->handle == handle ? rec : nullptr;
  }
  bool is_legacy(const Guid& guid) const;  // control_mu held

  // The namespace and this process's mirror of it (etw/mirror.cc). Every control
  // operation changes the namespace state first, then calls sync_locked so its own effect
  // is visible at once; other processes apply it from their listener thread.
  Link link;
  // Reads the published state and applies it (control_mu taken inside).
  void sync();
  // Applies `state` to the router: sessions created/stopped by slot and instance, then
  // enables added/changed/removed in seq order. control_mu held.
  void sync_locked(const trace::NamespaceState& state);
  // Starts the listener (first registration or session use).
  void listen();
  // Hands one session's request to the router (which applies the legacy rules). control_mu held.
  bool apply_enable(uint32_t slot, const Guid& guid, EnableRequest& req);
  void reset_after_fork();
  // The local Session object of a slot (the mirror), or null.
  std::shared_ptr<Session> session_by_logger(uint16_t logger_id) const;

  // The router callback of a registration.
  EnableCallback make_callback(const std::shared_ptr<RegRecord>& rec);

 private:
  Runtime();
  void on_notification(const std::shared_ptr<RegRecord>& rec, const EnableNotification& n);
  void notify_modern(const std::shared_ptr<RegRecord>& rec, const EnableNotification& n,
                     const std::vector<SessionEnable>& enables);
  void notify_legacy(const std::shared_ptr<RegRecord>& rec, const EnableNotification& n,
                     const std::vector<SessionEnable>& enables);

  std::unique_ptr<Router> router_;
  std::array<std::atomic<RegRecord*>, kMaxRegistrations> regs_{};
  // get()'s instance, set by create() (once, from a function-local static).
  static constinit std::atomic<Runtime*> instance_;
  [[gnu::noinline]] static Runtime& create();
  std::vector<std::shared_ptr<RegRecord>> owned_;  // live and unregistered (control_mu)
  uint64_t reg_generation_ = 0;                    // control_mu
  mutable std::shared_mutex sessions_mu_;
  std::array<std::shared_ptr<Session>, kMaxSessions> sessions_;  // the mirror, by slot
  struct Applied {
    uint64_t seq = 0;
    uint64_t capture_seq = 0;
  };
  std::map<std::pair<Guid, uint32_t>, Applied, AppliedLess> applied_;  // control_mu
  void apply_sessions(const trace::NamespaceState& state);
  void apply_enables(const trace::NamespaceState& state);
  void set_session(uint32_t slot, std::shared_ptr<Session> s);
};

// Registers `rec` (guid, legacy, callback fields set) with the router, publishes its handle
// into *out and runs the pre-enable callbacks before returning. ERROR_NOT_ENOUGH_MEMORY
// when kMaxRegistrations are in use.
ULONG register_record(const std::shared_ptr<RegRecord>& rec, uint64_t* out);
// Unregisters a handle of the given kind; afterwards its callback never runs again.
// ERROR_INVALID_HANDLE for an unknown handle or one of the other kind.
ULONG unregister_record(uint64_t handle, bool legacy);
// The published namespace state into *out: ERROR_ACCESS_DENIED when the namespace is
// unusable, ERROR_DISK_FULL when its file system is too full to open it.
ULONG read_namespace(Runtime& rt, trace::NamespaceState* out);

}  // namespace pfc::etw
