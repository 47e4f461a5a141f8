// etw/link.cc — see link.h.
#include "etw/link.h"

#include <thread>

namespace pfc::etw {
namespace {
constexpr int kListenTimeoutMs = 200;  // re-checks the generation at least this often
constexpr unsigned kRereadEvery = 5;   // ... and the state file every second
}  // namespace

Result<void> Link::ensure() {
  std::lock_guard<std::mutex> lock(mu_);
  if (store_) return {};
  if (failure_) return std::unexpected(*failure_);
  failure_errno_.store(0);
  auto dir = trace::TraceDir::open();
  if (!dir) {
    failure_ = dir.error();
    return std::unexpected(dir.error());
  }
  dir_ = std::make_unique<trace::TraceDir>(std::move(*dir));
  int err = 0;
  auto store = trace::StateStore::open(*dir_, &err);
  if (!store) {  // not cached: a full file system may have room at the next call
    failure_errno_.store(err);
    return std::unexpected(store.error());
  }
  store_.emplace(std::move(*store));
  self_ = trace::self_process();
  return {};
}

void Link::start_listener(std::function<void()> apply) {
  if (!ensure()) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (listening_) return;
  // Without a slot (a full file system) the process still applies changes; Timeout waits
  // just do not count it.
  if (auto slot = trace::ProcSlot::create(*dir_, self_)) {
    slot_.emplace(std::move(*slot));
    slot_->set_applied(applied_.load());
  }
  apply_ = std::move(apply);
  listening_ = true;
  std::thread([this] { listen(); }).detach();
}

void Link::listen() {
  for (unsigned quiet = 0;; ++quiet) {
    const uint64_t seen = applied_.load(std::memory_order_acquire);
    store_->wait_change(seen, kListenTimeoutMs);
    // Every kRereadEvery quiet periods the state file itself is read: a controller killed
    // between publishing it and announcing it must not leave a change unapplied.
    if (store_->generation() != seen || quiet % kRereadEvery == 0) {
      apply_();
      quiet = 0;
    }
  }
}

void Link::set_applied(uint64_t generation) {
  applied_.store(generation, std::memory_order_release);
  std::lock_guard<std::mutex> lock(mu_);
  if (slot_) slot_->set_applied(generation);
}

void Link::reset_after_fork() {
  // The mappings were not inherited (MADV_DONTFORK) and the listener thread does not
  // exist in the child: drop both without touching them, and re-open on next use.
  new (&mu_) std::mutex();
  if (slot_) slot_.reset();
  store_.reset();
  dir_.reset();
  failure_.reset();
  listening_ = false;
  applied_.store(0);
}

}  // namespace pfc::etw
