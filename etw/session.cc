// etw/session.cc — see session.h: event records written into the session's ring.
#include "etw/session.h"

#include <execinfo.h>
#include <sched.h>

#include <algorithm>
#include <cstring>

#include "etw/link.h"
#include "etw/util.h"

namespace pfc::etw {

PFC_TLS_HOT constinit thread_local WriteSource* tls_write = nullptr;

namespace {

constexpr int kMaxFrames = 192;   // ETW truncates deeper stacks
constexpr int kExtraFrames = 32;  // frames of pfc between deliver() and EventWrite*

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

void fill_record(trace::EventRecord* r, const WriteContext& c, const EventView& e) {
  r->filetime = c.timestamp;
  r->pid = e.pid;
  r->tid = e.tid;
  r->provider = c.provider;
  r->id = e.desc.id;
  r->version = e.desc.version;
  r->channel = e.desc.channel;
  r->level = e.desc.level;
  r->opcode = e.desc.opcode;
  r->task = e.desc.task;
  r->keyword = e.desc.keyword;
  r->activity = c.activity;
  r->has_related = c.related != nullptr;
  r->related = c.related != nullptr ? to_pfc(*c.related) : Guid{};
  r->flags = c.flags;
  const int cpu = sched_getcpu();
  r->cpu = static_cast<uint16_t>(cpu < 0 ? 0 : cpu);
}

}  // namespace

const std::vector<uint64_t>& WriteContext::stack_trace() {
  if (!stack_taken) {
    stack = capture_stack(caller);
    stack_taken = true;
  }
  return stack;
}

trace::RingWriter* Session::create_ring() {
  std::lock_guard<std::mutex> lock(mu_);
  if (ring_ || failed_) return ring_.get();
  if (!link_->ensure()) {  // not retried per event: the namespace stays unusable for it
    failed_ = true;
    return nullptr;
  }
  const uint64_t cap =
      trace::ring_capacity(entry_.buffer_kb, entry_.min_buffers, entry_.max_buffers);
  if (const uint64_t front = trace::front_ring_capacity(cap); front != 0) {
    // Without it (a full tmpfs, say) every event goes to the main ring.
    auto f = trace::RingWriter::create(link_->dir(), entry_.instance, link_->self(), front, true);
    if (f) front_ = std::make_unique<trace::RingWriter>(std::move(*f));
  }
  auto w = trace::RingWriter::create(link_->dir(), entry_.instance, link_->self(), cap);
  if (!w) {
    if (front_) front_->mark_closed();
    front_.reset();
    failed_ = true;
    return nullptr;
  }
  ring_ = std::make_unique<trace::RingWriter>(std::move(*w));
  ring_ptr_.store(ring_.get(), std::memory_order_release);
  return ring_.get();
}

void Session::deliver(const EventView& event, bool with_stack) {
  WriteSource* source = tls_write;
  if (source == nullptr) [[unlikely]]
    return deliver_bare(event);
  write(event, source->context(), with_stack);
}

void Session::deliver_bare(const EventView& event) {
  WriteContext ctx;  // no provider context: no stack either
  write(event, ctx, false);
}

void Session::write(const EventView& event, WriteContext& ctx, bool with_stack) {
  if (closed_.load(std::memory_order_relaxed)) return;
  trace::RingWriter* w = ring();
  if (w == nullptr) return;
  const std::vector<uint64_t>* stack = with_stack ? &ctx.stack_trace() : nullptr;
  const auto payload_len = static_cast<uint32_t>(std::min<uint64_t>(event.payload_size, 0xFFFF));
  const auto frames = static_cast<uint32_t>(stack != nullptr ? stack->size() : 0);
  const uint32_t bytes = trace::record_bytes(payload_len, frames);
  trace::EventRecord* r = front_ ? front_->try_reserve(bytes) : nullptr;
  if (r == nullptr) r = w->reserve(bytes);
  if (r == nullptr) return;  // full: counted in the main ring
  if (ctx.timestamp == 0) ctx.timestamp = trace::filetime_of_mono(r->ts);
  fill_record(r, ctx, event);
  r->payload_len = payload_len;
  r->stack_count = static_cast<uint16_t>(frames);
  auto* out = reinterpret_cast<uint8_t*>(r) + sizeof(trace::EventRecord);
  if (payload_len != 0) std::memcpy(out, event.payload, payload_len);
  if (frames != 0) std::memcpy(out + ((payload_len + 7u) & ~7u), stack->data(), frames * 8u);
  trace::RingWriter::commit(r);
}

void Session::close() {
  closed_.store(true);
  std::lock_guard<std::mutex> lock(mu_);
  if (front_) front_->mark_closed();
  if (ring_) ring_->mark_closed();
}

void Session::forget_ring() {
  new (&mu_) std::mutex();
  if (front_) front_->forget();
  front_.reset();
  if (ring_) ring_->forget();
  ring_.reset();
  ring_ptr_.store(nullptr);
  failed_ = false;
}

}  // namespace pfc::etw
