// etw/session.h — a real-time ETW session inside the process: the pfc::Sink the router
// delivers to, the queue of events waiting for real-time consumers (OpenTraceW /
// ProcessTrace), and the per-write context EventWrite* hands to deliver() (header fields,
// lazily captured stack).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pfc/etw/evntcons.h"
#include "pfc/router.h"

namespace pfc::etw {

// One written event as every receiving session shares it. Immutable once queued.
struct EventBody {
  EVENT_HEADER header{};          // Flags without EXTENDED_INFO (set per record)
  uint16_t cpu = 0;
  std::vector<uint8_t> payload;
  std::vector<uint64_t> stack;    // MatchId then return addresses; empty = none
  bool has_related = false;
  GUID related{};
};

struct QueuedEvent {
  std::shared_ptr<const EventBody> body;
  uint16_t logger_id = 0;
  bool with_stack = false;
  uint64_t cost = 0;  // bytes charged to the session's buffer budget
};

class Session;

// A real-time consumer (OpenTraceW handle). Guarded by Hub::mu.
struct Consumer {
  uint64_t handle = 0;
  std::shared_ptr<Session> session;
  PEVENT_RECORD_CALLBACK callback = nullptr;
  void* context = nullptr;
  std::deque<QueuedEvent> queue;
  bool closed = false;      // CloseTrace called
  bool processing = false;  // inside ProcessTrace
};

// The lock and wake-up shared by every session queue and consumer, so one ProcessTrace
// can wait on several sessions.
struct Hub {
  std::mutex mu;
  std::condition_variable cv;
};
Hub& hub();

// Session identity and settings from EVENT_TRACE_PROPERTIES.
struct SessionConfig {
  std::u16string name;
  GUID guid{};
  uint32_t buffer_size_kb = 64;
  uint32_t minimum_buffers = 0;
  uint32_t maximum_buffers = 0;
  uint32_t log_file_mode = 0;
  uint32_t flush_timer = 0;
  uint32_t enable_flags = 0;
  int32_t age_limit = 0;
  int64_t start_time = 0;  // FILETIME
};

// Thread-safety: deliver()/enqueue() from any thread; queue state is guarded by hub().mu.
class Session final : public Sink {
 public:
  explicit Session(SessionConfig config) : config_(std::move(config)) {}

  void deliver(const EventView& event, bool with_stack) override;
  // Queues one event for the consumers (or, while none is attached, for the next one).
  // Drops it and counts a lost event when the buffer budget is exhausted.
  void enqueue(std::shared_ptr<const EventBody> body, bool with_stack);

  // Set once by StartTraceW before the session is published.
  void set_identity(uint32_t slot, uint64_t handle) {
    slot_ = slot;
    handle_ = handle;
  }
  uint32_t slot() const { return slot_; }
  uint64_t handle() const { return handle_; }
  uint16_t logger_id() const { return static_cast<uint16_t>(slot_ + 1); }

  // Controller-side settings; written under the controller lock (and hub().mu for the
  // fields budget() reads: buffer_size_kb, maximum_buffers).
  SessionConfig& config() { return config_; }
  const SessionConfig& config() const { return config_; }

  // Hub::mu held for all of these.
  void attach(Consumer* c);     // takes the pending events when no other consumer is attached
  void detach(Consumer* c);
  void mark_stopped() { stopped_ = true; }
  bool stopped() const { return stopped_; }
  uint32_t events_lost() const { return events_lost_; }
  uint64_t queued_bytes() const { return queued_bytes_; }
  void release(const QueuedEvent& e) { queued_bytes_ -= e.cost; }

 private:
  uint64_t budget() const;

  SessionConfig config_;
  uint32_t slot_ = 0;
  uint64_t handle_ = 0;
  // Guarded by hub().mu:
  std::deque<QueuedEvent> pending_;  // received while no consumer was attached
  std::vector<Consumer*> consumers_;
  bool stopped_ = false;
  uint32_t events_lost_ = 0;
  uint64_t queued_bytes_ = 0;
};

// What EventWrite* knows about the event being written, read by Session::deliver on the
// same thread. Bodies are built on first use (one with and one without the stack).
struct WriteContext {
  EVENT_HEADER header{};  // everything but the descriptor, pid and tid
  const GUID* related = nullptr;
  void* caller = nullptr;  // return address into the caller of EventWrite*
  std::shared_ptr<const EventBody> plain;
  std::shared_ptr<const EventBody> stacked;

  std::shared_ptr<const EventBody> body(const EventView& event, bool with_stack);
};
extern thread_local WriteContext* tls_write;

}  // namespace pfc::etw
