// etw/session.cc — event bodies (header, payload copy, stack capture) and the session
// queues feeding real-time consumers.
#include "etw/session.h"

#include <execinfo.h>
#include <sched.h>

#include <algorithm>
#include <cstring>

#include "etw/util.h"

namespace pfc::etw {

thread_local WriteContext* tls_write = nullptr;

Hub& hub() {
  static Hub* h = new Hub();  // never destroyed: consumers may run during exit
  return *h;
}

namespace {

constexpr int kMaxFrames = 192;    // ETW truncates deeper stacks
constexpr int kExtraFrames = 32;   // frames of pfc between deliver() and EventWrite*

// Return addresses from the caller of EventWrite* outwards (Address[0] = `caller`).
std::vector<uint64_t> capture_stack(void* caller) {
  void* frames[kMaxFrames + kExtraFrames];
  const int n = backtrace(frames, kMaxFrames + kExtraFrames);
  int first = 0;
  for (int i = 0; i < n; ++i) {
    if (frames[i] == caller) {
      first = i;
      break;
    }
  }
  const int count = std::min(n - first, kMaxFrames);
  std::vector<uint64_t> out;
  out.reserve(static_cast<size_t>(count) + 1);
  out.push_back(0);  // MatchId: stacks are not compressed
  for (int i = 0; i < count; ++i) out.push_back(reinterpret_cast<uintptr_t>(frames[first + i]));
  return out;
}

std::shared_ptr<EventBody> make_body(const EVENT_HEADER& base, const EventView& event,
                                     const GUID* related) {
  auto b = std::make_shared<EventBody>();
  b->header = base;
  b->header.EventDescriptor = to_win(event.desc);
  b->header.ProcessId = event.pid;
  b->header.ThreadId = event.tid;
  const int cpu = sched_getcpu();
  b->cpu = static_cast<uint16_t>(cpu < 0 ? 0 : cpu);
  if (event.payload != nullptr && event.payload_size != 0)
    b->payload.assign(event.payload, event.payload + event.payload_size);
  b->header.Size = static_cast<USHORT>(std::min<uint64_t>(
      sizeof(EVENT_HEADER) + b->payload.size(), 0xFFFF));
  if (related != nullptr) {
    b->has_related = true;
    b->related = *related;
  }
  return b;
}

}  // namespace

std::shared_ptr<const EventBody> WriteContext::body(const EventView& event, bool with_stack) {
  std::shared_ptr<const EventBody>& slot = with_stack ? stacked : plain;
  if (!slot) {
    auto b = make_body(header, event, related);
    if (with_stack) b->stack = capture_stack(caller);
    slot = std::move(b);
  }
  return slot;
}

void Session::deliver(const EventView& event, bool with_stack) {
  std::shared_ptr<const EventBody> body;
  if (tls_write != nullptr) {
    body = tls_write->body(event, with_stack);
  } else {  // routed by something other than EventWrite*: no provider-side context
    WriteContext ctx;
    ctx.header.TimeStamp.QuadPart = filetime_now();
    ctx.header.Flags = EVENT_HEADER_FLAG_64_BIT_HEADER;
    body = ctx.body(event, false);
  }
  enqueue(std::move(body), with_stack);
}

uint64_t Session::budget() const {
  const uint64_t kb = std::max<uint32_t>(config_.buffer_size_kb, 4);
  const uint64_t buffers = std::max<uint32_t>(config_.maximum_buffers, 64);
  return kb * 1024 * buffers;
}

void Session::enqueue(std::shared_ptr<const EventBody> body, bool with_stack) {
  QueuedEvent e;
  e.cost = sizeof(EVENT_RECORD) + body->payload.size() +
           (with_stack ? body->stack.size() * 8 : 0);
  e.body = std::move(body);
  e.logger_id = logger_id();
  e.with_stack = with_stack;
  Hub& h = hub();
  {
    std::lock_guard<std::mutex> lock(h.mu);
    const size_t copies = consumers_.empty() ? 1 : consumers_.size();
    if (queued_bytes_ + e.cost * copies > budget()) {
      ++events_lost_;
      return;
    }
    queued_bytes_ += e.cost * copies;
    if (consumers_.empty()) {
      pending_.push_back(std::move(e));
    } else {
      for (Consumer* c : consumers_) c->queue.push_back(e);
    }
  }
  h.cv.notify_all();
}

void Session::attach(Consumer* c) {
  if (consumers_.empty()) {  // events nobody could read yet go to this consumer
    c->queue = std::move(pending_);
    pending_.clear();
  }
  consumers_.push_back(c);
}

void Session::detach(Consumer* c) {
  consumers_.erase(std::remove(consumers_.begin(), consumers_.end(), c), consumers_.end());
  for (const QueuedEvent& e : c->queue) release(e);
  c->queue.clear();
}

}  // namespace pfc::etw
