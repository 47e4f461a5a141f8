// runtime/epoch.cc — the reader registry (one record per thread, process-wide) and the
// retire / collect / synchronize side of EpochDomain. The memory-ordering argument is in
// epoch.h and docs/runtime.md §6.
#include "runtime/epoch.h"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <new>
#include <thread>
#include <utility>

namespace pfc {
namespace internal {
namespace {

// Head of the registry list. Records are pushed at the front under registry_mutex() and
// never removed or freed: a thread that exits marks its record free for reuse.
constinit std::atomic<EpochRecord*> registry_head{nullptr};

std::mutex& registry_mutex() {
  static std::mutex* mu = new std::mutex;  // leaked: usable during thread/static teardown
  return *mu;
}

// Releases the thread's record when the thread exits. Constructed only on the slow path.
struct ThreadExitHook {
  ~ThreadExitHook() {
    EpochRecord* r = tls_epoch_record;
    if (r == nullptr) return;
    // A thread cannot exit inside a guard through normal control flow; clear defensively.
    r->depth = 0;
    r->epoch.store(0, std::memory_order_release);
    tls_epoch_record = nullptr;
    r->in_use.store(false, std::memory_order_release);
  }
};

EpochRecord* claim_record() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  for (EpochRecord* r = registry_head.load(std::memory_order_acquire); r != nullptr; r = r->next) {
    bool expected = false;
    if (r->in_use.compare_exchange_strong(expected, true, std::memory_order_acquire)) return r;
  }
  auto* r = new EpochRecord;
  r->in_use.store(true, std::memory_order_relaxed);
  r->next = registry_head.load(std::memory_order_relaxed);
  registry_head.store(r, std::memory_order_release);
  return r;
}

// Smallest epoch announced by a reader still inside a section, or UINT64_MAX if none.
// The leading fence orders the caller's earlier unpublish before the scan.
uint64_t min_active_epoch() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  uint64_t min = std::numeric_limits<uint64_t>::max();
  for (EpochRecord* r = registry_head.load(std::memory_order_acquire); r != nullptr; r = r->next) {
    const uint64_t e = r->epoch.load(std::memory_order_acquire);
    if (e != 0 && e < min) min = e;
  }
  return min;
}

}  // namespace

EpochRecord* claim_epoch_thread() {
  EpochRecord* r = claim_record();
  static thread_local ThreadExitHook hook;
  (void)hook;
  tls_epoch_record = r;
  return r;
}

EpochRecord* register_epoch_thread() noexcept {
  try {
    return claim_epoch_thread();
  } catch (...) {
    std::fputs("pfc: cannot register a thread for epoch reclamation\n", stderr);
    std::abort();
  }
}

}  // namespace internal

EpochDomain::~EpochDomain() {
  while (pending() != 0) synchronize();
}

std::vector<EpochDomain::Retired> EpochDomain::take_all() {
  std::lock_guard<std::mutex> lock(mu_);
  return std::exchange(retired_, {});
}

void EpochDomain::put_back(std::vector<Retired>& entries) {
  if (entries.empty()) return;
  std::lock_guard<std::mutex> lock(mu_);
  // Without allocating where the capacity is there already: into an empty list, or the
  // list's newer entries into `entries` (which held the whole list when it was taken).
  if (retired_.empty() || entries.capacity() >= entries.size() + retired_.size()) {
    for (Retired& e : retired_) entries.push_back(std::move(e));
    retired_.swap(entries);
    return;
  }
  retired_.reserve(retired_.size() + entries.size());  // may throw: nothing moved yet
  for (Retired& e : entries) retired_.push_back(std::move(e));
}

void EpochDomain::retire(std::function<void()> deleter) {
  // Orders the caller's unpublish before the new epoch: a reader announcing an epoch
  // >= tag entered after the unpublish and cannot see the retired object.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  const uint64_t tag = internal::global_epoch.fetch_add(1, std::memory_order_seq_cst) + 1;
  {
    std::lock_guard<std::mutex> lock(mu_);
    retired_.push_back(Retired{tag, std::move(deleter)});
  }
  // `deleter` is queued: from here retire() succeeds. collect() allocates only when the
  // list grew meanwhile beyond what it can hold; then the entries it held are dropped
  // (their objects leak, none is freed early).
  try {
    collect();
  } catch (const std::bad_alloc&) {  // NOLINT(bugprone-empty-catch): see above
  }
}

size_t EpochDomain::collect() {
  std::vector<Retired> entries = take_all();
  if (entries.empty()) return 0;
  const uint64_t min = internal::min_active_epoch();
  // Runs the ready deleters and moves the others to the front, in place: no allocation.
  size_t kept = 0;
  size_t ran = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].tag <= min) {
      entries[i].deleter();
      ++ran;
    } else {
      if (kept != i) entries[kept] = std::move(entries[i]);
      ++kept;
    }
  }
  entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(kept), entries.end());
  put_back(entries);
  return ran;
}

void EpochDomain::synchronize() {
  if (in_critical_section()) {
    std::fputs("pfc: EpochDomain::synchronize() called inside a guard\n", stderr);
    std::abort();
  }
  std::vector<Retired> entries = take_all();
  std::atomic_thread_fence(std::memory_order_seq_cst);
  const uint64_t target = internal::global_epoch.fetch_add(1, std::memory_order_seq_cst) + 1;
  for (internal::EpochRecord* r = internal::registry_head.load(std::memory_order_acquire);
       r != nullptr; r = r->next) {
    for (;;) {
      const uint64_t e = r->epoch.load(std::memory_order_acquire);
      if (e == 0 || e >= target) break;
      std::this_thread::yield();
    }
  }
  for (Retired& e : entries) e.deleter();
}

size_t EpochDomain::pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  return retired_.size();
}

}  // namespace pfc
