// runtime/sink.cc — owned event copies and the in-memory queue sink (runtime/sink.h).
#include "runtime/sink.h"

#include <utility>

#include "base/scope_kinds.h"

namespace pfc {

Event copy_event(const EventView& view) {
  Event e;
  e.desc = view.desc;
  e.pid = view.pid;
  e.tid = view.tid;
  for (const internal::ScopeKindInfo& s : internal::kScopeKinds)
    if (s.event_string != nullptr) e.*s.event_owned = std::string((view.*s.event_string).view());
  e.name = std::string(view.name.view());
  if (view.payload != nullptr && view.payload_size != 0)
    e.payload.assign(view.payload, view.payload + view.payload_size);
  return e;
}

void QueueSink::deliver(const EventView& event, bool with_stack) {
  DeliveredEvent d{copy_event(event), with_stack};  // copy outside the lock
  std::lock_guard<std::mutex> lock(mu_);
  queue_.push_back(std::move(d));
}

std::optional<DeliveredEvent> QueueSink::pop() {
  std::lock_guard<std::mutex> lock(mu_);
  if (queue_.empty()) return std::nullopt;
  DeliveredEvent d = std::move(queue_.front());
  queue_.pop_front();
  return d;
}

std::vector<DeliveredEvent> QueueSink::drain() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<DeliveredEvent> out;
  out.reserve(queue_.size());
  for (DeliveredEvent& d : queue_) out.push_back(std::move(d));
  queue_.clear();
  return out;
}

size_t QueueSink::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size();
}

}  // namespace pfc
