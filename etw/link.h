// etw/link.h — this process's connection to the trace namespace (docs/namespace.md): the
// directory, the control state store, the process slot and the listener thread that
// applies every published change to the process's router (Runtime::sync). Opened on first
// use; if the namespace directory is unusable every namespace operation fails with the
// error, and providers simply stay disabled.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "base/error.h"
#include "trace/dir.h"
#include "trace/procs.h"
#include "trace/state.h"

namespace pfc::etw {

class Link {
 public:
  // Opens the namespace (once per process, again after fork). Thread-safe. A directory
  // that cannot be used fails every later call the same way; a generation page that cannot
  // be allocated (a full file system) is tried again by the next call.
  Result<void> ensure();
  // The errno behind the last failure of ensure() when the system gave one, else 0.
  int failure_errno() const { return failure_errno_.load(); }
  trace::StateStore& store() { return *store_; }
  const trace::TraceDir& dir() { return *dir_; }
  const trace::ProcessKey& self() const { return self_; }

  // Starts the listener thread and the process slot (idempotent). `apply` runs on the
  // listener thread whenever the namespace generation differs from the applied one.
  void start_listener(std::function<void()> apply);
  void set_applied(uint64_t generation);
  uint64_t applied() const { return applied_.load(std::memory_order_acquire); }

  // In a forked child: forgets the parent's mappings and thread (the child re-opens).
  void reset_after_fork();

 private:
  void listen();

  std::mutex mu_;
  std::unique_ptr<trace::TraceDir> dir_;
  std::optional<trace::StateStore> store_;
  std::optional<trace::ProcSlot> slot_;
  std::optional<Error> failure_;
  trace::ProcessKey self_;
  std::function<void()> apply_;
  std::atomic<int> failure_errno_{0};
  bool listening_ = false;
  std::atomic<uint64_t> applied_{0};
};

}  // namespace pfc::etw
