// etw/session.h — a namespace session as seen by this process: the pfc::Sink its router
// delivers to, which writes each event straight into the session's shared rings for this
// process (trace/ring.h: a main ring, and a front ring in front of a large one; created on
// the first event), and the per-write context
// EventWrite* hands to deliver() (header fields, lazily captured stack).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "base/tls.h"
#include "pfc/etw/evntcons.h"
#include "runtime/router.h"
#include "trace/ring.h"
#include "trace/state.h"

namespace pfc::etw {

class Link;
struct WriteContext;

class Session final : public Sink {
 public:
  Session(trace::SessionEntry entry, Link* link) : entry_(std::move(entry)), link_(link) {}

  // Writes one event into the front ring when there is one and the event fits, else into
  // the main ring; a full main ring drops it (counted there). Any thread.
  void deliver(const EventView& event, bool with_stack) override;

  const trace::SessionEntry& entry() const { return entry_; }
  uint32_t slot() const { return entry_.slot; }
  uint64_t instance() const { return entry_.instance; }
  uint16_t logger_id() const { return static_cast<uint16_t>(entry_.slot + 1); }
  // The session left the namespace: no more writes; readers may finish the ring.
  void close();
  // In a forked child: the ring mapping was not inherited.
  void forget_ring();

 private:
  // The main ring, created on first use (with the front ring, if any, before it).
  trace::RingWriter* ring() {
    if (auto* r = ring_ptr_.load(std::memory_order_acquire)) [[likely]]
      return r;
    return create_ring();
  }
  __attribute__((noinline)) trace::RingWriter* create_ring();
  void write(const EventView& event, WriteContext& ctx, bool with_stack);
  // write() into window rings (a file session's): packed records, written in place.
  void write_packed(trace::RingWriter& w, uint32_t tid, const trace::TableEntry& entry,
                    trace::RecordParts& parts);
  // deliver() without a WriteContext (routed by something other than EventWrite*).
  __attribute__((noinline)) void deliver_bare(const EventView& event);

  const trace::SessionEntry entry_;
  Link* link_;
  std::mutex mu_;
  std::unique_ptr<trace::RingWriter> ring_;  // set once under mu_
  // Set under mu_ before ring_ptr_ is published (release), so a writer that got the main
  // ring from ring() reads it without a lock; null when the main ring is small or the
  // front ring could not be created (then every event goes to the main ring).
  std::unique_ptr<trace::RingWriter> front_;
  std::atomic<trace::RingWriter*> ring_ptr_{nullptr};
  std::atomic<bool> closed_{false};
  bool failed_ = false;  // the ring could not be created: events are dropped
};

// What EventWrite* knows about the event being written, read by Session::deliver on the
// same thread. The stack is captured once, on first use. Only what a record needs (not a
// whole EVENT_HEADER): it is built for every event written.
struct WriteContext {
  uint16_t flags = EVENT_HEADER_FLAG_64_BIT_HEADER;  // EVENT_HEADER Flags
  Guid provider;
  Guid activity;
  const GUID* related = nullptr;
  void* caller = nullptr;  // return address into the caller of EventWrite*
  bool stack_taken = false;
  std::vector<uint64_t> stack;  // MatchId then return addresses
  // The registration's traits blob (EventSetInformation) to carry behind the payload, or
  // null; attach_traits clears it once it has built `with_traits`.
  const uint8_t* traits = nullptr;
  std::vector<uint8_t> with_traits;  // payload, traits, trailer (runtime/tlg.h kRecordFlag)

  const std::vector<uint64_t>& stack_trace();
  // Builds `with_traits` from `e`'s payload and `traits` and adds tlg::kRecordFlag to
  // `flags`, once per event (traits set: a reader splits them off as the
  // EVENT_HEADER_EXT_TYPE_PROV_TRAITS item). An event whose payload, traits and trailer
  // exceed EventWrite*'s 65,455-byte limit keeps its payload alone (docs/etw.md "Provider
  // traits").
  void attach_traits(const EventView& e);
};
// What tls_write points to while an event is routed: its WriteContext, built on first use
// (by the first session that takes the event), so an event that every session's filter
// rejects builds none. `build` fills a default WriteContext from `arg`; a source made from
// a WriteContext is built already.
class WriteSource {
 public:
  using Build = void (*)(WriteContext& ctx, const void* arg);
  WriteSource(Build build, const void* arg) noexcept : build_(build), arg_(arg) {}
  explicit WriteSource(WriteContext ctx) : ctx_(std::move(ctx)) {}

  WriteContext& context() {
    if (!ctx_) [[unlikely]] {
      ctx_.emplace();
      build_(*ctx_, arg_);
    }
    return *ctx_;
  }

 private:
  Build build_ = nullptr;
  const void* arg_ = nullptr;
  std::optional<WriteContext> ctx_;
};
extern PFC_TLS_HOT constinit thread_local WriteSource* tls_write;

// Makes `source` the thread's WriteSource (the one Session::deliver reads) for its scope and
// restores the previous one when the scope is left, by return or by exception alike: no
// std::uncaught_exceptions() query on the EventWrite path.
class WriteScope {
 public:
  explicit WriteScope(WriteSource* source) noexcept : saved_(tls_write) { tls_write = source; }
  ~WriteScope() { tls_write = saved_; }
  WriteScope(const WriteScope&) = delete;
  WriteScope& operator=(const WriteScope&) = delete;

 private:
  WriteSource* saved_;
};

// The session handle of a namespace session: instance and logger id (slot + 1).
inline uint64_t session_handle(uint64_t instance, uint32_t slot) {
  return (instance << 16) | (slot + 1);
}

}  // namespace pfc::etw
