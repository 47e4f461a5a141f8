// trace/ring_window.cc — window rings (ring.h, docs/namespace.md §3 "Window rings"): the
// writer's reservation of packed records and the session host's slices of whole windows.
#include <unistd.h>

#include <algorithm>
#include <bit>

#include "trace/packed.h"
#include "trace/ring.h"
#include "trace/ring_tsan.h"
#include "trace/testpoint.h"

namespace pfc::trace {
namespace {

constexpr uint64_t kCommitBytes = 0xFFFFFFFFull;  // the commit word's low half
uint32_t commit_bytes(uint64_t c) { return static_cast<uint32_t>(c & kCommitBytes); }
uint32_t commit_events(uint64_t c) { return static_cast<uint32_t>(c >> 32); }

}  // namespace

uint32_t window_shift_for(uint32_t buffer_kb, uint64_t capacity) {
  const uint64_t buffer = std::bit_floor(uint64_t{std::max<uint32_t>(buffer_kb, 1)} * 1024);
  const uint64_t w = std::clamp(buffer / kWindowsPerBuffer, kMinWindowBytes,
                                std::min(kMaxWindowBytes, std::max(capacity / 4, kMinWindowBytes)));
  return static_cast<uint32_t>(std::countr_zero(w));
}

// ---- writer ---------------------------------------------------------------------------

bool RingWriter::reserve_packed(uint32_t bytes, const PackedThread& thread, Packed& out) {
  if (claim_packed(bytes, thread, out)) return true;
  header()->lost.fetch_add(1, std::memory_order_relaxed);
  header()->lost_bytes.fetch_add(bytes, std::memory_order_relaxed);
  return false;
}

bool RingWriter::try_reserve_packed(uint32_t bytes, const PackedThread& thread, Packed& out) {
  return may_fit(bytes) && claim_packed(bytes, thread, out);
}

bool RingWriter::claim_packed(uint32_t bytes, const PackedThread& thread, Packed& out) {
  RingHeader* h = header();
  const uint64_t w = window_;
  // A record opening a window takes its head too; a large one takes whole windows.
  const uint64_t opening = kWindowHeadBytes + uint64_t{bytes};
  const uint64_t windows = (opening + w - 1) / w;
  if (windows * w > capacity_ / 2) return false;
  // head with acquire (and again after a failed CAS): the CAS that wrote it follows the
  // opener's, whose acquire of tail saw the host clear this window's head, so the base read
  // below is this lap's (or 0), never a stale one from the window's last lap.
  uint64_t head = h->head.load(std::memory_order_acquire);
  const uint64_t mine = window_thread(thread);
  uint64_t ts = 0, pad = 0, start = 0, take = 0, base = 0;
  bool opens = false, wrap = false, own = false, own_thread = false;
  for (;;) {
    ts = mono_ns();  // after reading head: a later reservation has a later timestamp
    const uint64_t off = head & (w - 1);
    pad = 0;
    wrap = false;
    own = false;
    own_thread = false;
    opens = off == 0 || windows > 1;
    take = bytes;
    if (!opens) {
      // Behind the opener: its base, when written and close enough, else our own time; its
      // thread (stored before the base) when it is ours, else our own.
      const WindowHead* wh = window_at(head);
      base = wh->base.load(std::memory_order_acquire);
      own = base == 0 || ts - base >= kPackedSpan;
      own_thread = base == 0 || wh->thread.load(std::memory_order_relaxed) != mine;
      take = bytes + (own ? 8 : 0) + (own_thread ? kPackedThreadBytes : 0);
      if (off + take > w) opens = true;
    }
    if (opens) {
      own = false;
      own_thread = false;
      base = ts;
      pad = off == 0 ? 0 : w - off;
      take = windows > 1 ? windows * w : opening;
    }
    start = head + pad;
    const uint64_t at = start & (capacity_ - 1);
    // The lap ends at the capacity, or before pages the file system could not supply.
    uint64_t lap_end = capacity_;
    if (at + take > taken_->grow_at.load(std::memory_order_relaxed)) lap_end = grow(at + take);
    if (at + take > lap_end) {
      // Not before the end: the rest of the lap is padding, the record opens the next lap.
      wrap = true;
      pad = capacity_ - (head & (capacity_ - 1));
      start = head + pad;
      opens = true;
      own = false;
      own_thread = false;
      base = ts;
      take = windows > 1 ? windows * w : opening;
      if (take > taken_->grow_at.load(std::memory_order_relaxed) && take > grow(take)) return false;
    }
    if (!has_room(head, pad + take)) return false;
    // seq_cst: ordered before ring_bell's load of the bell, as the host's arming is before
    // its load of head (RingReader::arm_bell).
    if (h->head.compare_exchange_weak(head, head + pad + take, std::memory_order_seq_cst,
                                      std::memory_order_acquire))
      break;
  }
  h->events.fetch_add(1, std::memory_order_relaxed);  // the line is ours after the CAS
  if (pad != 0) close_window(head, head & (w - 1), wrap);
  if (opens && bell_) ring_bell(head + pad + take);
  WindowHead* wh = window_at(start);
  out.ts = ts;
  out.own_ts = own;
  out.own_thread = own_thread;
  out.window = wh;
  if (opens) {
    wh->thread.store(mine, std::memory_order_relaxed);
    wh->base.store(ts, std::memory_order_release);  // after the thread (claim_packed's load)
    if (windows > 1) {
      wh->end.store(static_cast<uint32_t>(opening), std::memory_order_relaxed);
      wh->span.store(static_cast<uint32_t>(windows), std::memory_order_relaxed);
    }
    out.rec = data() + (start & (capacity_ - 1)) + kWindowHeadBytes;
    out.base = ts;
    out.accounted = static_cast<uint32_t>(take);
  } else {
    out.rec = data() + (start & (capacity_ - 1));
    out.base = base;
    out.accounted = static_cast<uint32_t>(take);
  }
  prefetch_ahead(start + take, bytes);
  testpoint("ring.reserved");
  return true;
}

void RingWriter::close_window(uint64_t pos, uint64_t off, bool wrap) {
  WindowHead* wh = window_at(pos);
  // A window nobody opened yet (head at its start) is all padding: its records end at its head.
  wh->end.store(static_cast<uint32_t>(off == 0 ? kWindowHeadBytes : off),
                std::memory_order_relaxed);
  if (wrap) wh->span.store(kWindowWrap, std::memory_order_relaxed);
  wh->commit.fetch_add(off == 0 ? window_ : window_ - off, std::memory_order_release);
}

void RingWriter::ring_bell(uint64_t head) {
  RingHeader* h = header();
  const uint32_t want_kb = h->bell.load(std::memory_order_seq_cst);
  if (want_kb == 0 || head - h->tail.load(std::memory_order_relaxed) < uint64_t{want_kb} << 10)
    return;
  if (h->bell.exchange(0, std::memory_order_relaxed) == 0) return;  // another thread rang it
  const char b = 0;
  (void)!::write(bell_.get(), &b, 1);  // EAGAIN: the FIFO is full, the host wakes anyway
}

// ---- reader ---------------------------------------------------------------------------

bool RingReader::arm_bell(uint64_t want) {
  RingHeader* h = header();
  h->bell.store(static_cast<uint32_t>(want >> 10), std::memory_order_seq_cst);
  const uint64_t head = h->head.load(std::memory_order_seq_cst);
  return head - h->tail.load(std::memory_order_relaxed) < want;
}

RingReader::Slice RingReader::with_table(const Slice& s) {
  // Every entry the slice's records name was published before they were committed, so
  // before the acquire of the commit word: the table read now holds it.
  if (s.events != 0 && !read_table()) {
    damaged_ = true;
    return Slice{};
  }
  return s;
}

RingReader::Slice RingReader::window_damage(const std::string& what) {
  set_damaged(pos_ & (capacity_ - 1), what);
  damaged_ = true;
  return Slice{};
}

RingReader::Slice RingReader::slice(bool partial) {
  in_flight_ = false;
  if (damaged_ || dead_done_) return Slice{};
  const uint64_t off = pos_ & (capacity_ - 1);
  // pos_ starts at the shared tail: it must be a window's start.
  if ((off & (window_ - 1)) != 0) return window_damage("a tail inside a window");
  auto* wh = reinterpret_cast<WindowHead*>(data() + off);
  const uint64_t c = wh->commit.load(std::memory_order_acquire);
  if (twin_ != nullptr) ring_tsan::acquire(twin_ + kRingHeaderSize + off);
  const uint32_t span = wh->span.load(std::memory_order_relaxed);
  const uint64_t windows = std::max<uint32_t>(span & ~kWindowWrap, 1);
  if (windows * window_ > capacity_ / 2 || off + windows * window_ > capacity_ ||
      ((span & kWindowWrap) != 0 && windows != 1))
    return window_damage("a window with a span of " + std::to_string(span));
  const uint64_t full = windows * window_;
  const uint32_t from = std::max<uint32_t>(win_taken_, kWindowHeadBytes);
  Slice s;
  s.data = data() + off + from;
  s.base = wh->base.load(std::memory_order_relaxed);
  s.thread = window_thread(wh->thread.load(std::memory_order_relaxed));
  if (commit_bytes(c) > full)
    return window_damage("a window with more bytes committed than it has");
  if (commit_bytes(c) == full) {
    const uint32_t end = wh->end.load(std::memory_order_relaxed);
    const uint64_t e = end == 0 ? full : end;
    if (e < from || e > full || commit_events(c) < win_events_ ||
        commit_events(c) - win_events_ > (e - from) / kPackedHeadBytes)
      return window_damage("a complete window whose records end at " + std::to_string(e));
    s.bytes = static_cast<uint32_t>(e - from);
    s.events = commit_events(c) - win_events_;
    s.complete = true;
    // The next window's head, written by the writer's core: fetched while this one is copied.
    __builtin_prefetch(data() + ((off + full) & (capacity_ - 1)), 0, 3);
    return with_table(s);
  }
  // Incomplete: the part below head, when every byte reserved in the window is committed
  // (the commit word read before head: the bytes committed then are all of those reserved
  // by then only when they are as many as head says).
  const uint64_t head = header()->head.load(std::memory_order_acquire);
  const uint64_t reserved = head - pos_;
  if (reserved > capacity_) return window_damage("a head below tail");
  if (windows == 1 && reserved < window_ && commit_bytes(c) == reserved) {
    if (!partial) return Slice{};
    if (reserved == 0 || reserved == from) return Slice{};  // not opened yet, or nothing new
    if (reserved < from || commit_events(c) < win_events_ ||
        commit_events(c) - win_events_ > (reserved - from) / kPackedHeadBytes)
      return window_damage("a window whose commit word says " + std::to_string(commit_events(c)) +
                           " events in " + std::to_string(reserved) + " bytes");
    s.bytes = static_cast<uint32_t>(reserved - from);
    s.events = commit_events(c) - win_events_;
    return with_table(s);
  }
  if (reserved == 0) return Slice{};
  if (!writer_gone()) {
    in_flight_ = true;
    return Slice{};
  }
  // The writer may have committed and exited since: only what is read now, with the
  // writer gone, is final.
  if (wh->commit.load(std::memory_order_acquire) != c ||
      header()->head.load(std::memory_order_acquire) != head) {
    in_flight_ = true;
    return Slice{};
  }
  return salvage(c, head);
}

RingReader::Slice RingReader::salvage(uint64_t c, uint64_t head) {
  dead_done_ = true;
  Slice s;
  const uint64_t off = pos_ & (capacity_ - 1);
  auto* wh = reinterpret_cast<WindowHead*>(data() + off);
  const uint32_t from = std::max<uint32_t>(win_taken_, kWindowHeadBytes);
  const uint32_t end = wh->end.load(std::memory_order_relaxed);
  const uint64_t limit = std::min<uint64_t>(end != 0 ? end : window_, head - pos_);
  const uint32_t events = commit_events(c) >= win_events_ ? commit_events(c) - win_events_ : 0;
  // The committed record bytes: the commit word less the head and, when the window was
  // closed early and its padding accounted, that padding.
  const uint64_t committed = commit_bytes(c) >= from ? commit_bytes(c) - from : 0;
  const uint64_t padding = end != 0 && end < window_ ? window_ - end : 0;
  const uint64_t base = wh->base.load(std::memory_order_relaxed);
  uint64_t walked = 0;
  uint32_t n = 0;
  for (; n < events && from + walked < limit; ++n) {
    PackedLayout l;
    if (!packed_layout(data() + off + from + walked, static_cast<uint32_t>(limit - from - walked),
                       base, l))
      break;
    walked += l.size;
  }
  if (n == events && events != 0 && (walked == committed || walked + padding == committed)) {
    s.data = data() + off + from;
    s.bytes = static_cast<uint32_t>(walked);
    s.events = events;
    s.base = base;
    s.thread = window_thread(wh->thread.load(std::memory_order_relaxed));
    s = with_table(s);
  }
  // Everything else the writer reserved is lost: counted where the session's counters are
  // read (STOP, QUERY), as a record ring's dead reservations are.
  const uint64_t reserved = header()->events.load(std::memory_order_relaxed);
  const uint64_t kept = taken_events_ + s.events;
  if (reserved > kept) {
    const uint64_t lost = std::min<uint64_t>(reserved - kept, capacity_ / kPackedHeadBytes);
    header()->lost.fetch_add(lost, std::memory_order_relaxed);
    dead_skipped_ += lost;
  }
  return s;
}

void RingReader::take(const Slice& s) {
  if (s.data == nullptr && !s.complete) return;
  const uint64_t off = pos_ & (capacity_ - 1);
  const uint32_t from = std::max<uint32_t>(win_taken_, kWindowHeadBytes);
  win_taken_ = from + s.bytes;
  win_events_ += s.events;
  taken_events_ += s.events;
  if (!s.complete || dead_done_) return;
  auto* wh = reinterpret_cast<WindowHead*>(data() + off);
  const uint32_t span = wh->span.load(std::memory_order_relaxed);
  const uint64_t windows = std::max<uint32_t>(span & ~kWindowWrap, 1);
  // Cleared before the space goes back, so the writer that opens it next finds zeroes (the
  // heads of the windows a large record took are its bytes: cleared too).
  for (uint64_t i = 0; i < windows; ++i) {
    auto* h = reinterpret_cast<WindowHead*>(data() + off + i * window_);
    h->commit.store(0, std::memory_order_relaxed);
    h->base.store(0, std::memory_order_relaxed);
    h->end.store(0, std::memory_order_relaxed);
    h->span.store(0, std::memory_order_relaxed);
    h->thread.store(0, std::memory_order_relaxed);
  }
  const uint64_t next =
      (span & kWindowWrap) != 0 ? (pos_ | (capacity_ - 1)) + 1 : pos_ + windows * window_;
  win_taken_ = 0;
  win_events_ = 0;
  release(next - pos_);
}

uint64_t RingReader::untaken_floor() const {
  if (pos_ + win_taken_ == header()->head.load(std::memory_order_acquire)) return ~uint64_t{0};
  const auto* wh = reinterpret_cast<const WindowHead*>(data() + (pos_ & (capacity_ - 1)));
  const uint64_t base = wh->base.load(std::memory_order_relaxed);
  return base == 0 ? 0 : base - 1;
}

}  // namespace pfc::trace
