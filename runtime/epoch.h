// runtime/epoch.h — epoch-based safe memory reclamation for read-mostly data that is
// replaced while other threads read it (routing programs, JIT code, session sinks).
// Used by the router (runtime/) and by the tiered JIT (compiler/jit/) for its
// interpreter → native swap; docs/runtime.md §6 explains the scheme.
//
// Scheme. One process-wide epoch counter G and one reader record per thread (a registry
// shared by every EpochDomain). A reader enters a critical section by storing the current
// G in its record and issuing a seq_cst fence; it leaves by storing 0. A writer unpublishes
// an object (atomic exchange of the pointer readers load), then retire()s it: retire tags
// it with a fresh epoch T = ++G. Any reader that could still hold the old pointer announced
// an epoch < T (it read G before the writer's fence); readers that announced ≥ T — or
// entered after a scan found them quiescent — can only have loaded the new pointer. So a
// retired object is released once every record is quiescent or announces ≥ T.
//
// Nesting: a thread may enter while already inside (in any domain); only the outermost
// guard announces and clears, so an inner guard is protected by the outer announcement.
// Because the registry is shared, a long reader in one domain delays (never breaks)
// reclamation in every other domain.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "base/tls.h"

namespace pfc {

namespace internal {
// One thread's reader record; owned by the process-wide registry (never freed, reused
// after the thread exits). Only the owning thread writes `epoch` and `depth`.
struct EpochRecord {
  std::atomic<uint64_t> epoch{0};  // 0 = quiescent, else the epoch announced on entry
  uint32_t depth = 0;              // guard nesting depth (owning thread only)
  std::atomic<bool> in_use{false};
  EpochRecord* next = nullptr;  // registry list; immutable once published
};
// The process-wide epoch counter (starts at 1; 0 means "quiescent" in records).
inline constinit std::atomic<uint64_t> global_epoch{1};
// The calling thread's record, or null before its first enter(). Constant-initialised,
// so the hot path reads it without a TLS wrapper call.
PFC_TLS_HOT inline constinit thread_local EpochRecord* tls_epoch_record = nullptr;
// Slow path: claims (or allocates) a record for the calling thread and arranges its
// release at thread exit. Terminates if allocation fails; claim_epoch_thread() throws
// std::bad_alloc instead.
EpochRecord* register_epoch_thread() noexcept;
EpochRecord* claim_epoch_thread();
}  // namespace internal

// A reclamation domain: a list of deleters waiting for readers to leave.
//
// Reader rules: hold a Guard while dereferencing a protected pointer; load the pointer
// after enter() with at least memory_order_acquire; do not keep the pointer past the
// guard. enter() and ~Guard() never lock, never allocate (except the thread's very first
// enter(), which registers it; failure to allocate there terminates), and cost one
// seq_cst fence on the outermost entry.
//
// Writer rules: replace the published pointer first (exchange / store with release or
// stronger), then retire() the old object. retire() never blocks on readers.
//
// Thread-safety: every member may be called from any thread. Deleters run on whichever
// thread calls retire(), collect(), synchronize() or the destructor, outside any lock of
// the domain; a deleter may call retire() again.
class EpochDomain {
 public:
  // RAII critical section. Move-only; destroying it leaves the section.
  class Guard {
   public:
    Guard(Guard&& other) noexcept : record_(other.record_) { other.record_ = nullptr; }
    Guard& operator=(Guard&&) = delete;
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;
    ~Guard() {
      if (record_ != nullptr && --record_->depth == 0)
        record_->epoch.store(0, std::memory_order_release);
    }

   private:
    friend class EpochDomain;
    explicit Guard(internal::EpochRecord* record) noexcept : record_(record) {}
    internal::EpochRecord* record_;
  };

  EpochDomain() = default;
  // Waits for readers (synchronize()) and runs every pending deleter. No thread may be
  // inside a guard that reads this domain's objects.
  ~EpochDomain();
  EpochDomain(const EpochDomain&) = delete;
  EpochDomain& operator=(const EpochDomain&) = delete;

  // Registers the calling thread now (nothing when it is): its enter() then never
  // allocates. Throws std::bad_alloc where enter() would terminate — for callers that
  // report failures instead (the C boundary of libpfc_etw, etw/guard.h).
  static void prepare_thread() {
    if (internal::tls_epoch_record == nullptr) [[unlikely]]
      internal::claim_epoch_thread();
  }

  [[nodiscard]] Guard enter() const noexcept {
    internal::EpochRecord* r = internal::tls_epoch_record;
    if (r == nullptr) [[unlikely]]
      r = internal::register_epoch_thread();
    if (r->depth != 0) {  // nested: the outer guard's epoch stands
      ++r->depth;
    } else {  // a store of 1, not an increment: the outermost entry reads depth once
      r->depth = 1;
      r->epoch.store(internal::global_epoch.load(std::memory_order_seq_cst),
                     std::memory_order_release);
      std::atomic_thread_fence(std::memory_order_seq_cst);
    }
    return Guard(r);
  }

  // Defers `deleter` until no reader that might have seen the retired object remains,
  // then runs it exactly once. May run it before returning (when that is already safe).
  // Allocates (list node, std::function); bad_alloc propagates with nothing retired.
  void retire(std::function<void()> deleter);

  // Runs the deleters that are safe now, without waiting, and allocates nothing unless
  // the list grew past its capacity while they ran. Returns how many ran.
  size_t collect();

  // Blocks until every reader that entered before the call has left, then runs every
  // deleter retired before the call. Precondition: the calling thread is not inside a
  // guard (it would wait for itself); violating it aborts.
  void synchronize();

  // Deleters retired but not yet run (a snapshot; for tests and diagnostics).
  size_t pending() const;

  // True when the calling thread is inside a guard (any domain).
  static bool in_critical_section() noexcept {
    const internal::EpochRecord* r = internal::tls_epoch_record;
    return r != nullptr && r->depth > 0;
  }

 private:
  struct Retired {
    uint64_t tag;
    std::function<void()> deleter;
  };
  // Moves out every entry (under mu_) so deleters run outside the lock.
  std::vector<Retired> take_all();
  void put_back(std::vector<Retired>& entries);

  mutable std::mutex mu_;
  std::vector<Retired> retired_;
};

}  // namespace pfc
