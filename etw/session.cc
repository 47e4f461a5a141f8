// etw/session.cc — see session.h: event records written into the session's ring.
#include "etw/session.h"

#include <execinfo.h>
#include <sched.h>

#include <algorithm>
#include <cstring>

#include "base/le.h"
#include "etw/link.h"
#include "etw/util.h"
#include "runtime/tlg.h"
#include "trace/packed.h"

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

// The table entry of an event: what its ring's table holds once per provider, descriptor
// and header flags (trace/record.h).
trace::TableEntry entry_of(const WriteContext& c, const EventView& e) {
  return trace::make_entry(c.provider, e.desc.id, e.desc.version, e.desc.channel, e.desc.level,
                           e.desc.opcode, e.desc.task, e.desc.keyword, c.flags);
}

}  // namespace

const std::vector<uint64_t>& WriteContext::stack_trace() {
  if (!stack_taken) {
    stack = capture_stack(caller);
    stack_taken = true;
  }
  return stack;
}

void WriteContext::attach_traits(const EventView& e) {
  const uint8_t* blob = traits;
  traits = nullptr;
  const uint16_t size = load_le<uint16_t>(blob);  // EventSetInformation checked the blob
  // The limit of what EventWrite* routes, TraceLogging's blobs included (etw/provider.cc).
  if (e.payload_size + size + 4 > 0xFFFF - sizeof(EVENT_HEADER)) return;
  with_traits.assign(e.payload, e.payload + e.payload_size);
  with_traits.insert(with_traits.end(), blob, blob + size);
  tlg::append_trailer(with_traits, size, 0);
  flags |= tlg::kRecordFlag;
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
  // A file session's rings are window rings: its host copies whole windows of packed
  // records into the file (docs/namespace.md §3 "Window rings").
  const bool file = !entry_.log_file.empty();
  const auto shift = [&](uint64_t bytes) {
    return file ? trace::window_shift_for(entry_.buffer_kb, bytes) : 0;
  };
  if (const uint64_t front = trace::front_ring_capacity(cap); front != 0) {
    // Without it (a full tmpfs, say) every event goes to the main ring.
    auto f = trace::RingWriter::create(link_->dir(), entry_.instance, link_->self(), front, true,
                                       shift(front));
    if (f) front_ = std::make_unique<trace::RingWriter>(std::move(*f));
  }
  auto w = trace::RingWriter::create(link_->dir(), entry_.instance, link_->self(), cap, false,
                                     shift(cap));
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
  if (ctx.traits != nullptr) [[unlikely]]
    ctx.attach_traits(event);
  const trace::TableEntry entry = entry_of(ctx, event);
  trace::RecordParts parts;
  if (ctx.activity != Guid{}) parts.activity = &ctx.activity;
  Guid related;
  if (ctx.related != nullptr) {
    related = to_pfc(*ctx.related);
    parts.related = &related;
  }
  if (with_stack) {
    const std::vector<uint64_t>& stack = ctx.stack_trace();
    parts.stack = stack.data();
    parts.stack_count = static_cast<uint32_t>(std::min<size_t>(stack.size(), 0xFFFF));
  }
  parts.payload = event.payload;
  parts.payload_len = static_cast<uint32_t>(std::min<uint64_t>(event.payload_size, 0xFFFF));
  if (!ctx.with_traits.empty()) {
    parts.payload = ctx.with_traits.data();
    parts.payload_len = static_cast<uint32_t>(ctx.with_traits.size());
  }
  if (w->windowed()) return write_packed(*w, event.tid, entry, parts);
  // The front ring when there is one and the event fits, else the main ring; each ring has
  // its own table.
  trace::RecordHead* r = nullptr;
  uint8_t index = 0;
  if (front_) {
    index = front_->entry_of(entry);
    parts.inline_entry = index == trace::kEntryInline ? &entry : nullptr;
    r = front_->try_reserve(trace::record_bytes(parts));
  }
  if (r == nullptr) {
    index = w->entry_of(entry);
    parts.inline_entry = index == trace::kEntryInline ? &entry : nullptr;
    r = w->reserve(trace::record_bytes(parts));
  }
  if (r == nullptr) return;  // full: counted in the main ring
  const int cpu = sched_getcpu();
  trace::fill_record(r, event.tid, static_cast<uint16_t>(cpu < 0 ? 0 : cpu), index, parts);
  trace::RingWriter::commit(r);
}

void Session::write_packed(trace::RingWriter& w, uint32_t tid, const trace::TableEntry& entry,
                           trace::RecordParts& parts) {
  trace::RingWriter::Packed p;
  uint8_t index = 0;
  bool got = false;
  // Before the reservation: a record of its window's thread on its window's CPU is 6 bytes
  // smaller (trace/packed.h kPackedThread).
  const int cpu = sched_getcpu();
  const trace::PackedThread thread{tid, static_cast<uint16_t>(cpu < 0 ? 0 : cpu)};
  if (front_) {
    index = front_->entry_of(entry);
    parts.inline_entry = index == trace::kEntryInline ? &entry : nullptr;
    got = front_->try_reserve_packed(trace::packed_record_bytes(parts), thread, p);
  }
  if (!got) {
    index = w.entry_of(entry);
    parts.inline_entry = index == trace::kEntryInline ? &entry : nullptr;
    if (!w.reserve_packed(trace::packed_record_bytes(parts), thread, p)) return;  // counted lost
  }
  trace::write_packed(p.rec, thread, p.own_thread, index, parts, p.ts, p.base, p.own_ts);
  trace::RingWriter::commit_packed(p);
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
