// runtime/sink.h — concrete session sinks for the router (runtime/router.h): a callback sink that
// forwards each delivered event, and an in-memory queue of owned copies (tests, the CLI).
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "pfc/event.h"
#include "runtime/router.h"

namespace pfc {

// An owning copy of `view` (descriptor, process info, strings, payload bytes).
Event copy_event(const EventView& view);

// Forwards every delivered event to a function. Thread-safety: deliver() runs on the
// writing threads, possibly concurrently; the function must tolerate that. The view is
// valid only during the call.
class CallbackSink : public Sink {
 public:
  using Function = std::function<void(const EventView& event, bool with_stack)>;
  explicit CallbackSink(Function fn) : fn_(std::move(fn)) {}
  void deliver(const EventView& event, bool with_stack) override {
    if (fn_) fn_(event, with_stack);
  }

 private:
  Function fn_;
};

// One event as a QueueSink stored it.
struct DeliveredEvent {
  Event event;
  bool with_stack = false;
};

// A thread-safe FIFO of owned copies of every delivered event. Unbounded: the owner is
// expected to drain it. deliver() allocates (it copies the event); a bad_alloc there
// propagates to the writer. Every member may be called from any thread.
class QueueSink : public Sink {
 public:
  void deliver(const EventView& event, bool with_stack) override;

  // The oldest event, or nullopt when empty.
  std::optional<DeliveredEvent> pop();
  // Every queued event, oldest first; leaves the queue empty.
  std::vector<DeliveredEvent> drain();
  size_t size() const;

 private:
  mutable std::mutex mu_;
  std::deque<DeliveredEvent> queue_;
};

}  // namespace pfc
