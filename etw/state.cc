// etw/state.cc — the notification thread and the Runtime singleton with its registration /
// session tables and the translation of router notifications (and the router's enable
// state) into PENABLECALLBACK and WMIDPREQUEST calls.
#include "etw/state.h"

#include <algorithm>
#include <bit>
#include <cstdlib>

#include <pthread.h>

#include "etw/filters.h"
#include "etw/jit_loader.h"

// The exported view of the table (pfc/etw/evntprov.h).
extern "C" PFC_ETW_API const PFC_ETW_ENABLE_TABLE* const PfcEtwEnableTable =
    &pfc::etw::enable_table;

namespace pfc::etw {

alignas(64) constinit PFC_ETW_ENABLE_TABLE enable_table{};
// Slot 0 starts with its free handle (free_slot_handle); every other free slot holds 0.
alignas(64) constinit std::array<uint64_t, kMaxRegistrations> slot_handles{free_slot_handle(0)};

// ---- Dispatcher ---------------------------------------------------------------------

void Dispatcher::post(std::shared_ptr<RegRecord> owner, Job job) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!started_) {
    started_ = true;
    std::thread([this] { run(); }).detach();
  }
  queue_.push_back(Item{++posted_, std::move(owner), std::move(job)});
  work_cv_.notify_one();
}

uint64_t Dispatcher::posted() const {
  std::lock_guard<std::mutex> lock(mu_);
  return posted_;
}

bool Dispatcher::wait(uint64_t seq, uint32_t timeout_ms) {
  if (on_thread()) return true;
  std::unique_lock<std::mutex> lock(mu_);
  auto done = [&] { return completed_ >= seq; };
  if (timeout_ms == INFINITE) {
    done_cv_.wait(lock, done);
    return true;
  }
  return done_cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), done);
}

void Dispatcher::quiesce(const RegRecord* owner) {
  if (on_thread()) return;  // unregistering from inside its own callback
  std::unique_lock<std::mutex> lock(mu_);
  done_cv_.wait(lock, [&] { return running_ != owner; });
}

void Dispatcher::run() {
  thread_id_.store(std::this_thread::get_id());
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    work_cv_.wait(lock, [&] { return !queue_.empty(); });
    Item item = std::move(queue_.front());
    queue_.pop_front();
    if (!item.owner->dead.load()) {
      running_ = item.owner.get();
      lock.unlock();
      item.job();
      lock.lock();
      running_ = nullptr;
    }
    completed_ = item.seq;
    done_cv_.notify_all();
  }
}

// ---- Runtime ------------------------------------------------------------------------

constinit std::atomic<Runtime*> Runtime::instance_{nullptr};

Runtime& Runtime::create() {
  static Runtime* rt = [] {
    auto* made = new Runtime();
    instance_.store(made, std::memory_order_release);
    return made;
  }();
  return *rt;
}

namespace {

// The engine behind every session of this process: PFC_ETW_ENGINE=interp|jit|auto|crosscheck.
// Default auto: the interpreter at once, then the native code the namespace's compile
// service made once for every process (etw/shared_compiler.h); no compiler in this
// process. jit: the in-process JIT plugin, compiling before EnableTraceEx2 and EventRegister
// return (etw/jit_loader.h).
std::shared_ptr<ProgramCompiler> engine_from_environment() {
  const char* name = std::getenv("PFC_ETW_ENGINE");
  std::optional<Engine> engine = engine_from_name(name != nullptr ? name : "auto");
  return make_etw_compiler(engine.value_or(Engine::Auto));
}

}  // namespace

Runtime::Runtime() {
  auto router = Router::create(engine_from_environment());
  if (!router) {  // only fails without a compiler: a build defect
    std::abort();
  }
  router_ = std::move(*router);
  pthread_atfork(nullptr, nullptr, [] { Runtime::get().reset_after_fork(); });
}

bool Runtime::reserve(const std::shared_ptr<RegRecord>& rec) {
  // control_mu is held from reserve() to publish(): a free entry of regs_ is really free.
  for (uint32_t i = 0; i < kMaxRegistrations; ++i) {
    if (regs_[i].load() != nullptr) continue;
    rec->handle = (++reg_generation_ << kSlotBits) | i;
    owned_.push_back(rec);
    return true;
  }
  return false;
}

void Runtime::publish(const RegRecord* rec) {
  const uint32_t slot = slot_of(rec->handle);
  regs_[slot].store(const_cast<RegRecord*>(rec));
  if (!rec->legacy)
    std::atomic_ref<uint64_t>(slot_handles[slot]).store(rec->handle, std::memory_order_release);
}

std::shared_ptr<RegRecord> Runtime::take(uint64_t handle) {
  RegRecord* rec = find(handle);
  if (rec == nullptr) return nullptr;
  const uint32_t slot = slot_of(handle);
  std::atomic_ref<uint64_t>(slot_handles[slot])
      .store(free_slot_handle(slot), std::memory_order_release);
  regs_[slot].store(nullptr);
  rec->dead.store(true);
  std::shared_ptr<RegRecord> out;
  for (const auto& r : owned_)
    if (r.get() == rec) out = r;
  // Keep recently unregistered records for readers racing with EventUnregister.
  constexpr size_t kKeepDead = 4096;
  size_t dead = 0;
  for (const auto& r : owned_) dead += r->dead.load() ? 1 : 0;
  for (auto it = owned_.begin(); dead > kKeepDead && it != owned_.end();) {
    if ((*it)->dead.load() && it->get() != rec) {
      it = owned_.erase(it);
      --dead;
    } else {
      ++it;
    }
  }
  return out;
}

bool Runtime::is_legacy(const Guid& guid) const {
  return std::any_of(owned_.begin(), owned_.end(), [&](const auto& r) {
    return r->legacy && !r->dead.load() && r->guid == guid;
  });
}

std::shared_ptr<Session> Runtime::session_by_logger(uint16_t logger_id) const {
  if (logger_id == 0 || logger_id > kMaxSessions) return nullptr;
  std::shared_lock<std::shared_mutex> lock(sessions_mu_);
  return sessions_[logger_id - 1];
}

void Runtime::set_session(uint32_t slot, std::shared_ptr<Session> s) {
  std::unique_lock<std::shared_mutex> lock(sessions_mu_);
  sessions_[slot] = std::move(s);
}

// ---- router notifications → PENABLECALLBACK / WMIDPREQUEST -----------------------------

EnableCallback Runtime::make_callback(const std::shared_ptr<RegRecord>& rec) {
  return [this, rec](const EnableNotification& n) { on_notification(rec, n); };
}

namespace {

// The parameters that take effect for a registration: legacy providers ignore MatchAll,
// EnableProperty flags and every filter (docs/semantics.md §1.9), as the router does.
const EnableParams& effective(const RegRecord& rec, const EnableParams& p, EnableParams& storage) {
  return effective_params(p, rec.legacy, storage);
}

}  // namespace

void Runtime::on_notification(const std::shared_ptr<RegRecord>& rec, const EnableNotification& n) {
  const std::vector<SessionEnable> enables = router_->enables(rec->guid);
  uint64_t inprivate = 0;
  for (const SessionEnable& e : enables) {
    EnableParams storage;
    if ((effective(*rec, *e.params, storage).properties &
         EVENT_ENABLE_PROPERTY_EXCLUDE_INPRIVATE) != 0)
      inprivate |= uint64_t{1} << e.session;
  }
  rec->inprivate.store(inprivate & n.state.sessions);
  if (rec->legacy) {
    notify_legacy(rec, n, enables);
  } else {
    notify_modern(rec, n, enables);
  }
}

void Runtime::notify_modern(const std::shared_ptr<RegRecord>& rec, const EnableNotification& n,
                            const std::vector<SessionEnable>& enables) {
  if (rec->callback == nullptr) return;
  const auto code = static_cast<ULONG>(n.code);
  std::vector<uint8_t> filter;
  if (n.code != ControlCode::DisableProvider) {
    std::vector<FilterBlock> blocks;
    for (const SessionEnable& e : enables) {
      const uint64_t bit = uint64_t{1} << e.session;
      if ((n.state.sessions & bit) != 0 && !e.params->provider_filter.empty())
        blocks.push_back(FilterBlock{bit, &e.params->provider_filter});
    }
    filter = chain_filter_blocks(blocks);
  }
  const GUID source = to_win(n.source_id);
  const CompositeState s = n.state;
  dispatcher.post(rec, [rec, code, source, s, filter = std::move(filter)]() mutable {
    EVENT_FILTER_DESCRIPTOR d{reinterpret_cast<uintptr_t>(filter.data()),
                              static_cast<ULONG>(filter.size()), EVENT_FILTER_TYPE_SCHEMATIZED};
    rec->callback(&source, code, s.enabled ? s.level : 0, s.enabled ? s.any : 0,
                  s.enabled ? s.all : 0, filter.empty() ? nullptr : &d, rec->context);
  });
}

// The router keeps one session at most for a legacy GUID (the last enabler).
void Runtime::notify_legacy(const std::shared_ptr<RegRecord>& rec, const EnableNotification& n,
                            const std::vector<SessionEnable>& enables) {
  if (n.code == ControlCode::CaptureState) return;  // classic providers have no such request
  TRACE_ENABLE_CONTEXT ctx{};
  WMIDPREQUESTCODE code = WMI_DISABLE_EVENTS;
  if (n.state.sessions != 0) {
    const auto slot = static_cast<uint32_t>(std::countr_zero(n.state.sessions));
    auto e = std::find_if(enables.begin(), enables.end(),
                          [slot](const SessionEnable& x) { return x.session == slot; });
    EnableParams storage;
    const EnableParams& p = e != enables.end() ? effective(*rec, *e->params, storage) : storage;
    ctx.LoggerId = static_cast<USHORT>(slot + 1);
    ctx.Level = p.level;
    ctx.EnableFlags = static_cast<ULONG>(p.any);  // the low 32 bits of MatchAny
    code = WMI_ENABLE_EVENTS;
    rec->legacy_logger.store(ctx.LoggerId);
  } else {
    ctx.LoggerId = rec->legacy_logger.load();
  }
  if (rec->request == nullptr) return;
  dispatcher.post(rec, [rec, code, ctx] {
    WNODE_HEADER w{};
    w.BufferSize = sizeof w;
    std::memcpy(&w.HistoricalContext, &ctx, sizeof ctx);
    w.Guid = to_win(rec->guid);
    w.Flags = WNODE_FLAG_TRACED_GUID;
    ULONG size = sizeof w;
    rec->request(code, rec->request_context, &size, &w);
  });
}

}  // namespace pfc::etw
