// trace/ring.cc — see ring.h.
#include "trace/ring.h"

#include "trace/names.h"
#include "trace/ring_tsan.h"
#include "trace/testpoint.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstddef>
#include <cstring>

namespace pfc::trace {
namespace {

constexpr uint64_t kRingMagic = 0x31474E4952434650ull;  // "PFCRING1"
constexpr uint64_t kDeadCheckNs = 10'000'000;  // re-check a silent writer's liveness every 10 ms
constexpr uint64_t kPrefetchBytes = 2048;      // how far ahead of head writers prefetch
constexpr uint64_t kReadAheadBytes = 2048;     // how far past its record the reader prefetches

// A record's first word: size (low half) and stamp (high half), little-endian as in
// EventRecord. Records are 8-byte aligned inside a page-aligned data area.
std::atomic_ref<uint64_t> word_of(void* r) {
  return std::atomic_ref<uint64_t>(*static_cast<uint64_t*>(r));
}
uint64_t make_word(uint32_t size, uint32_t stamp) { return uint64_t{stamp} << 32 | size; }
// The stamp of a record at `pos` without its kind bits.
uint32_t stamp_base(uint64_t pos, uint32_t lap_shift, uint32_t salt) {
  return ring_stamp(pos, lap_shift, salt, 0);
}

uint32_t random_salt() {
  uint32_t salt = 0;
  if (::getrandom(&salt, sizeof salt, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof salt))
    salt = static_cast<uint32_t>(mono_ns() * 0x9E3779B97F4A7C15ull >> 32) ^ ::getpid();
  return salt;
}

constexpr std::string_view kFrontSuffix = "front";

// a = max(a, v).
void store_max(std::atomic<uint64_t>& a, uint64_t v) {
  uint64_t cur = a.load(std::memory_order_relaxed);
  while (cur < v &&
         !a.compare_exchange_weak(cur, v, std::memory_order_release, std::memory_order_relaxed)) {
  }
}

// The clock pair of every ring this process creates (docs/namespace.md §3 "Records"): one
// per process, so the FILETIMEs of its events in different sessions follow their
// monotonic order.
struct ClockPair {
  uint64_t mono;
  int64_t filetime;
};
const ClockPair& process_clock_pair() {
  static const ClockPair pair = [] {
    const uint64_t mono = mono_ns();
    return ClockPair{mono, filetime_of_mono(mono)};
  }();
  return pair;
}

}  // namespace

std::string ring_name(uint64_t instance, const ProcessKey& writer, bool front) {
  return object_name('r', instance, writer, front ? kFrontSuffix : std::string_view{});
}

bool ring_session_bell(const TraceDir& dir, uint64_t instance) {
  auto fd = dir.open_fifo(bell_name(instance), false);
  if (!fd) return false;
  const char b = 0;
  (void)!::write(fd->get(), &b, 1);  // EAGAIN: the FIFO is full, its reader wakes anyway
  return true;
}

std::optional<RingId> parse_ring_name(const std::string& name) {
  const std::optional<ObjectName> n = parse_object_name(name, 'r', true);
  if (!n || !(n->rest.empty() || n->rest == kFrontSuffix)) return std::nullopt;
  return RingId{*n->instance, n->process, !n->rest.empty()};
}

uint64_t ring_capacity(uint32_t buffer_kb, uint32_t min_buffers, uint32_t max_buffers) {
  const uint64_t buffers =
      std::max<uint64_t>({uint64_t{min_buffers}, uint64_t{max_buffers}, kMinRingBuffers});
  uint64_t bytes = uint64_t{std::max<uint32_t>(buffer_kb, 4)} * 1024 * buffers;
  bytes = std::clamp(bytes, kMinRingBytes, kMaxRingBytes);
  return std::bit_ceil(bytes);
}

uint64_t soft_wrap_bytes(uint64_t capacity) {
  return capacity >= kSoftWrapMinRing ? capacity / 4 : 0;
}

// ---- writer ---------------------------------------------------------------------------

Result<RingWriter> RingWriter::create(const TraceDir& dir, uint64_t instance,
                                      const ProcessKey& self, uint64_t capacity, bool front,
                                      uint32_t window_shift) {
  const std::string name = ring_name(instance, self, front);
  (void)::unlinkat(dir.fd(), name.c_str(), 0);  // a leftover of this very process key
  auto fd = dir.open_file(name, true);
  if (!fd) return std::unexpected(fd.error());
  const uint64_t total = kRingHeaderSize + capacity;
  // The header's and the first window's pages are taken now (the rest as the writes come
  // near, grow()): a full tmpfs is an error here, not a SIGBUS in a later EventWrite; the
  // file is removed again, so no reader finds a ring without pages.
  const auto fail = [&](const char* what, int err) {
    dir.remove(name);
    return make_error(errno_text(std::string(what) + " trace buffer " + name, err));
  };
  if (::ftruncate(fd->get(), static_cast<off_t>(total)) != 0) return fail("cannot size", errno);
  auto map = Mapping::map(fd->get(), total);
  if (!map) {
    dir.remove(name);
    return std::unexpected(map.error());
  }
  RingWriter w;
  uint64_t taken = std::min(capacity, kRingWindow);
  if (int err = map->populate(0, kRingHeaderSize + taken); err != 0) {
    // A kernel without MADV_POPULATE_WRITE: the whole ring's blocks now, its page tables
    // filled by the writes.
    if (err == EINVAL) err = reserve_file(fd->get(), total);
    if (err != 0) return fail("cannot allocate", err);
    taken = capacity;
  }
  w.taken_->bytes.store(taken, std::memory_order_relaxed);
  w.taken_->grow_at.store(taken == capacity ? UINT64_MAX : taken - kRingWindow / 2,
                          std::memory_order_relaxed);
  w.map_ = std::move(*map);
  w.capacity_ = capacity;
  w.soft_ = soft_wrap_bytes(capacity);
  w.lap_shift_ = static_cast<uint32_t>(std::countr_zero(capacity));
  w.salt_ = random_salt();
  if (window_shift != 0) {
    w.window_shift_ = window_shift;
    w.window_ = uint64_t{1} << window_shift;
    w.soft_ = 0;  // a window ring's lap ends only at a window's end (docs/namespace.md §3)
    // Without one (no host made it, or it is not a FIFO) the host does not sleep long.
    if (auto bell = dir.open_fifo(bell_name(instance), false)) w.bell_ = std::move(*bell);
  }
  RingHeader* h = w.header();
  h->window_shift = window_shift;
  h->flags = w.bell_ ? kRingBell : 0;
  h->salt = w.salt_;
  h->version = kRingVersion;
  h->header_size = kRingHeaderSize;
  h->capacity = capacity;
  h->instance = instance;
  h->pid = self.pid;
  h->start = self.start;
  const ClockPair& clock = process_clock_pair();
  h->mono_base = clock.mono;
  h->ft_base = clock.filetime;
  std::atomic_ref<uint64_t>(h->magic).store(kRingMagic, std::memory_order_release);
  ring_tsan::register_writer(instance, w.salt_, w.map_.data());
  return w;
}

RecordHead* RingWriter::reserve(uint32_t bytes) {
  RecordHead* rec = claim(bytes);
  if (rec == nullptr) {
    header()->lost.fetch_add(1, std::memory_order_relaxed);
    header()->lost_bytes.fetch_add(bytes, std::memory_order_relaxed);
  }
  return rec;
}

RecordHead* RingWriter::try_reserve(uint32_t bytes) {
  // A first look without the clock (padding at the end of the lap left out; claim() counts it).
  return may_fit(bytes) ? claim(bytes) : nullptr;
}

bool RingWriter::may_fit(uint32_t bytes) {
  const uint64_t head = header()->head.load(std::memory_order_relaxed);
  if (head + bytes - seen_tail_->load(std::memory_order_acquire) <= capacity_) return true;
  // A plain load and store, no read-modify-write: threads that race lose a count.
  const uint32_t misses = misses_->load(std::memory_order_relaxed);
  misses_->store(misses + 1, std::memory_order_relaxed);
  if (misses % kFrontRecheck != 0) return false;
  const uint64_t tail = header()->tail.load(std::memory_order_acquire);
  seen_tail_->store(tail, std::memory_order_release);
  return head + bytes - tail <= capacity_;
}

bool RingWriter::has_room(uint64_t head, uint64_t bytes) {
  if (head + bytes - seen_tail_->load(std::memory_order_acquire) <= capacity_) return true;
  const uint64_t tail = header()->tail.load(std::memory_order_acquire);
  seen_tail_->store(tail, std::memory_order_release);
  return head + bytes - tail <= capacity_;
}

RecordHead* RingWriter::claim(uint32_t bytes) {
  RingHeader* h = header();
  if (bytes > capacity_ / 2) return nullptr;
  uint64_t head = h->head.load(std::memory_order_relaxed);
  uint64_t ts, pad;
  for (;;) {
    // head is shared, hence untrusted (docs/namespace.md §5): records are 8-byte aligned, so
    // a misaligned head is damage — the padding word would go past the end of the ring.
    if ((head & 7) != 0) return nullptr;
    ts = mono_ns();  // after reading head: a later reservation has a later timestamp
    const uint64_t off = head & (capacity_ - 1);
    pad = off + bytes > capacity_ ? capacity_ - off : early_wrap(head, off, bytes);
    if ((pad != 0 ? 0 : off) + bytes > taken_->grow_at.load(std::memory_order_relaxed)) {
      const uint64_t end = grow((pad != 0 ? 0 : off) + bytes);
      if (pad == 0 && off + bytes > end) pad = capacity_ - off;  // end the lap before it
      if (pad != 0 && bytes > end) return nullptr;               // fits in no lap's taken pages
    }
    if (!has_room(head, pad + bytes)) return nullptr;
    if (h->head.compare_exchange_weak(head, head + pad + bytes, std::memory_order_acq_rel,
                                      std::memory_order_relaxed))
      break;
  }
  h->events.fetch_add(1, std::memory_order_relaxed);  // the line is ours after the CAS
  if (pad != 0) {
    const uint32_t stamp = stamp_base(head, lap_shift_, salt_) | kRecordPadding;
    word_of(data() + (head & (capacity_ - 1)))
        .store(make_word(static_cast<uint32_t>(pad), stamp), std::memory_order_release);
  }
  auto* rec = reinterpret_cast<RecordHead*>(data() + ((head + pad) & (capacity_ - 1)));
  prefetch_ahead(head + pad + bytes, bytes);
  word_of(rec).store(make_word(bytes, stamp_base(head + pad, lap_shift_, salt_) | kRecordReserved),
                     std::memory_order_relaxed);
  rec->ts = ts;
  testpoint("ring.reserved");
  return rec;
}

uint64_t RingWriter::early_wrap(uint64_t head, uint64_t off, uint32_t bytes) const {
  if (soft_ == 0 || off < soft_) return 0;
  // Asked when the record crosses a sixteenth of soft_: the reader's tail line is read
  // once per such step, not per record.
  const uint64_t step = std::max<uint64_t>(soft_ / 16, 64);
  if ((off + bytes) / step == off / step) return 0;
  const uint64_t tail = header()->tail.load(std::memory_order_acquire);
  seen_tail_->store(tail, std::memory_order_release);
  // head - tail wraps to a large number when another thread moved head meanwhile (its CAS
  // will fail): no early wrap then. Otherwise the record fits at the start of the next lap.
  const uint64_t unread = head - tail;
  return unread <= soft_ / 8 && unread + bytes <= off ? capacity_ - off : 0;
}

uint64_t RingWriter::grow(uint64_t end) {
  Taken& t = *taken_;
  uint64_t have = t.bytes.load(std::memory_order_acquire);
  if (have < capacity_ && end + kRingWindow / 2 > have &&
      !t.failed.load(std::memory_order_relaxed)) {
    const uint64_t want = std::min(capacity_, (end / kRingWindow + 2) * kRingWindow);
    if (map_.populate(kRingHeaderSize + have, want - have) == 0) {
      have = std::max(have, want);
      store_max(t.bytes, want);
      store_max(t.grow_at, want == capacity_ ? UINT64_MAX : want - kRingWindow / 2);
    } else {
      t.failed.store(true, std::memory_order_relaxed);
    }
  }
  return have == capacity_ || end + 8 <= have ? capacity_ : have - 8;
}

void RingWriter::prefetch_ahead(uint64_t end, uint32_t bytes) const {
  // The lines a record of this size would take kPrefetchBytes further on: writers fill the
  // ring in order, so the stream's lines are being fetched while this record is written.
  const uint64_t from = (end + kPrefetchBytes) & ~uint64_t{63};
  for (uint64_t at = from; at < end + kPrefetchBytes + bytes; at += 64)
    __builtin_prefetch(data() + (at & (capacity_ - 1)), 1, 3);
}

void RingWriter::commit(RecordHead* rec) {
  // Our own reserved word: the same stamp with the event kind.
  const uint64_t reserved = word_of(rec).load(std::memory_order_relaxed);
  word_of(rec).store(reserved ^ (uint64_t{kRecordReserved ^ kRecordEvent} << 32),
                     std::memory_order_release);
}

namespace {

uint64_t entry_hash(const TableEntry& e) {
  uint64_t w[5];
  std::memcpy(w, &e, sizeof w);
  return (w[0] ^ std::rotl(w[1], 17) ^ std::rotl(w[2], 31) ^ std::rotl(w[3], 47) ^ w[4]) *
             0x9E3779B97F4A7C15ull >>
         32;
}
bool same_entry(const TableEntry& a, const TableEntry& b) {
  uint64_t x[5], y[5];  // five word compares (memcmp would be a call)
  std::memcpy(x, &a, sizeof x);
  std::memcpy(y, &b, sizeof y);
  return ((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2]) | (x[3] ^ y[3]) | (x[4] ^ y[4])) == 0;
}

}  // namespace

uint8_t RingWriter::entry_of(const TableEntry& e) {
  const uint64_t hash = entry_hash(e);
  constexpr uint32_t mask = EntryCache::kSlots - 1;
  for (uint32_t i = 0; i < EntryCache::kSlots; ++i) {
    const EntryCache::Slot& s = cache_->slots[(hash + i) & mask];
    const uint32_t v = s.value.load(std::memory_order_acquire);
    if (v == 0) break;
    if (same_entry(s.key, e)) [[likely]]
      return static_cast<uint8_t>(v - 1);
  }
  return add_entry(e, hash);
}

uint8_t RingWriter::add_entry(const TableEntry& e, uint64_t hash) {
  std::lock_guard<std::mutex> lock(cache_->mu);
  constexpr uint32_t mask = EntryCache::kSlots - 1;
  uint32_t i = 0;
  for (; i < EntryCache::kSlots; ++i) {
    const EntryCache::Slot& s = cache_->slots[(hash + i) & mask];
    const uint32_t v = s.value.load(std::memory_order_relaxed);
    if (v == 0) break;
    if (same_entry(s.key, e)) return static_cast<uint8_t>(v - 1);  // another thread added it
  }
  RingHeader* h = header();
  const uint32_t n = h->table_count.load(std::memory_order_relaxed);
  uint8_t index = kEntryInline;
  if (n < kMaxTableEntries) {
    std::memcpy(map_.data() + kRingTableOffset + n * sizeof(TableEntry), &e, sizeof e);
    h->table_count.store(n + 1, std::memory_order_release);  // before any record naming it
    index = static_cast<uint8_t>(n);
  }
  // A full cache (kept three quarters empty for short probes) remembers nothing more:
  // such an entry takes this lock on every event.
  if (cache_->used < EntryCache::kSlots * 3 / 4) {
    EntryCache::Slot& s = cache_->slots[(hash + i) & mask];
    s.key = e;
    s.value.store(uint32_t{index} + 1, std::memory_order_release);
    cache_->used++;
  }
  return index;
}

void RingWriter::mark_closed() { header()->closed.store(1, std::memory_order_release); }

// ---- reader ---------------------------------------------------------------------------

Result<RingReader> RingReader::open(const TraceDir& dir, const std::string& name) {
  auto id = parse_ring_name(name);
  if (!id) return make_error("'" + name + "' is not a trace buffer name");
  auto fd = dir.open_file(name, false);
  if (!fd) return std::unexpected(fd.error());
  struct stat st;
  if (::fstat(fd->get(), &st) != 0) return make_error(errno_text("cannot stat " + name, errno));
  const auto size = static_cast<uint64_t>(st.st_size);
  if (size < kRingHeaderSize + kMinRingBytes || size > kRingHeaderSize + kMaxRingBytes)
    return make_error("trace buffer " + name + " has a bad size");
  // The writer takes its pages a window at a time ahead of its writes (docs/namespace.md
  // §3 "Taking the pages"), and a reader reads only the header and records below head,
  // which lie in them; their page tables are filled by its reads (a read fault maps up to
  // 16 pages of the file). The header page is taken here: a ring caught between its
  // writer's sizing and its first window has none yet, and on a full file system it is
  // refused here rather than raising SIGBUS.
  if (const int err = reserve_file(fd->get(), kRingHeaderSize); err != 0)
    return make_error(errno_text("cannot allocate trace buffer " + name, err));
  auto map = Mapping::map(fd->get(), size);
  if (!map) return std::unexpected(map.error());
  RingReader r;
  r.map_ = std::move(*map);
  r.name_ = name;
  r.id_ = *id;
  const RingHeader* h = r.header();
  if (std::atomic_ref<const uint64_t>(h->magic).load(std::memory_order_acquire) != kRingMagic)
    return make_error("trace buffer " + name + " is not initialised");
  if (h->version != kRingVersion)
    return make_error("trace buffer " + name + " has ring version " + std::to_string(h->version) +
                      "; this pfc reads version " + std::to_string(kRingVersion) +
                      " (a process of another pfc release writes into this trace namespace)");
  const uint64_t cap = h->capacity;
  if (h->header_size != kRingHeaderSize || !std::has_single_bit(cap) ||
      cap + kRingHeaderSize != size || h->instance != id->instance || h->pid != id->writer.pid ||
      h->start != id->writer.start)
    return make_error("trace buffer " + name + " has an inconsistent header");
  if (const uint32_t ws = h->window_shift; ws != 0) {
    if ((uint64_t{1} << std::min(ws, 63u)) < kMinWindowBytes || ws > 63 ||
        (uint64_t{1} << ws) > std::min(kMaxWindowBytes, cap / 4))
      return make_error("trace buffer " + name + " has a bad window size");
    r.window_shift_ = ws;
    r.window_ = uint64_t{1} << ws;
  }
  r.flags_ = h->flags;
  r.capacity_ = cap;
  r.lap_shift_ = static_cast<uint32_t>(std::countr_zero(cap));
  r.salt_ = h->salt;
  r.stream_.pid = h->pid;
  r.stream_.mono_base = h->mono_base;
  r.stream_.ft_base = h->ft_base;
  r.pos_ = h->tail.load(std::memory_order_acquire);
  r.head_seen_ = r.pos_;
  r.twin_ = static_cast<uint8_t*>(ring_tsan::writer_base(h->instance, h->salt));
  return r;
}

bool RingReader::writer_gone() {
  if (dead_) return true;
  const uint64_t now = mono_ns();
  if (now - dead_check_ns_ < kDeadCheckNs) return false;
  dead_check_ns_ = now;
  dead_ = !process_alive(id_.writer);
  return dead_;
}

RingReader::At RingReader::classify(uint64_t pos, uint32_t& size) {
  const uint64_t off = pos & (capacity_ - 1);
  // pos starts at the shared tail: misaligned, the record's words could lie past the end.
  if ((off & 7) != 0) return At::Bad;
  if (head_seen_ == pos) {  // only now is head needed
    head_seen_ = header()->head.load(std::memory_order_acquire);
    if (head_seen_ == pos) return At::Empty;
  }
  if (head_seen_ - pos > capacity_) return At::Bad;  // also a head below tail
  // Below head: the record is reserved, so its word is the reserved or the event stamp of
  // this position — or, just after the writer's CAS, bytes of an earlier lap.
  const uint64_t word = word_of(data() + off).load(std::memory_order_acquire);
  if (twin_ != nullptr) ring_tsan::acquire(twin_ + kRingHeaderSize + off);
  size = static_cast<uint32_t>(word);
  const auto stamp = static_cast<uint32_t>(word >> 32);
  const uint32_t base = stamp_base(pos, lap_shift_, salt_);
  const bool size_ok =
      size >= 8 && size % 8 == 0 && size <= capacity_ - off && size <= head_seen_ - pos;
  if (stamp == (base | kRecordPadding))  // padding always runs to the end
    return size_ok && size == capacity_ - off ? At::Skip : At::Bad;
  if (stamp != (base | kRecordEvent)) {
    if (!writer_gone()) return At::Wait;  // being written
    // The writer may have committed the record and exited after `word` was read: only a
    // word read now, with the writer gone, is final (the next call reads it).
    if (word_of(data() + off).load(std::memory_order_acquire) != word) return At::Wait;
    // Reserved by a writer that died: skipped by its size; if even that was not written,
    // the rest of the ring is lost.
    return stamp == (base | kRecordReserved) && size_ok ? At::Dead : At::Bad;
  }
  // An event holds at least a record's head: its timestamp is read within it (an 8-byte
  // one at the end of the lap would have it past the mapping).
  return size_ok && size >= kMinRecordBytes ? At::Event : At::Bad;
}

bool RingReader::check_event(uint64_t off, uint32_t size) {
  const uint8_t* rec = data() + off;
  std::memcpy(&head_, rec, sizeof head_);
  head_.size = size;  // the word's, as checked (the writer's bytes may change under a reader)
  if (!record_layout(head_, rec, size, layout_)) {
    set_damaged(off, "a damaged event record");
    return false;
  }
  if (head_.entry == kEntryInline || head_.entry < table_.size()) return true;
  if (!read_table()) return false;
  if (head_.entry < table_.size()) return true;
  set_damaged(off, "a record names table entry " + std::to_string(head_.entry) + " of " +
                       std::to_string(table_.size()) + " its writer published");
  return false;
}

bool RingReader::read_table() {
  const uint32_t n = header()->table_count.load(std::memory_order_acquire);
  if (n > kMaxTableEntries) {
    set_damaged(pos_ & (capacity_ - 1), "a damaged table (" + std::to_string(n) + " entries)");
    return false;
  }
  for (size_t i = table_.size(); i < n; ++i) {
    TableEntry e;
    std::memcpy(&e, map_.data() + kRingTableOffset + i * sizeof(TableEntry), sizeof e);
    if (e.reserved[0] != 0 || e.reserved[1] != 0 || e.reserved[2] != 0) {
      set_damaged(pos_ & (capacity_ - 1), "a damaged table (entry " + std::to_string(i) + ")");
      return false;
    }
    table_.push_back(e);
    templates_.push_back(event_template(e, stream_.pid));
  }
  return true;
}

void RingReader::set_damaged(uint64_t off, const std::string& what) {
  if (damage_.empty())
    damage_ = "trace buffer " + name_ + ": " + what + " at offset " + std::to_string(off);
}

const RingReader::View* RingReader::peek() {
  if (damaged_ || window_ != 0) return nullptr;  // a window ring is read by slice()
  if (current_ != 0) return &view_;
  for (;;) {
    uint32_t size = 0;
    At at = classify(pos_, size);
    if (at == At::Event && !check_event(pos_ & (capacity_ - 1), size)) at = At::Bad;
    switch (at) {
      case At::Empty:
      case At::Wait: return nullptr;
      case At::Dead: count_dead(size); [[fallthrough]];
      case At::Skip: skip(size); continue;
      case At::Bad:
        set_damaged(pos_ & (capacity_ - 1), "a damaged record");
        damaged_ = true;
        return nullptr;
      case At::Event: break;
    }
    const uint64_t off = pos_ & (capacity_ - 1);
    const uint8_t* rec = data() + off;
    // check_event saw the entry published (or in the record).
    // The view keeps the last record's entry fields: consecutive records of one event
    // copy none.
    if (head_.entry == kEntryInline) {
      TableEntry e;
      std::memcpy(&e, rec + kMinRecordBytes, sizeof e);
      view_.header = event_template(e, stream_.pid);
      view_entry_ = kEntryInline;
    } else if (head_.entry != view_entry_) {
      view_.header = templates_[head_.entry];
      view_entry_ = head_.entry;
    }
    fill_event(head_, rec, layout_, filetime_at(stream_, head_.ts), view_.header);
    view_.record = rec;
    view_.payload = rec + layout_.payload;
    view_.stack = rec + layout_.stack;
    current_ = size;
    // The records a little further on, committed long ago when the consumer lags (the
    // merge horizon): their lines arrive from the writer's core while this one is used.
    for (uint64_t at = off + size + kReadAheadBytes; at < off + 2 * size + kReadAheadBytes;
         at += 64)
      __builtin_prefetch(data() + (at & (capacity_ - 1)), 0, 3);
    return &view_;
  }
}

template <bool kLimit>
void RingReader::scan_committed(uint64_t limit, uint64_t max_bytes, Span& s, uint64_t& last) {
  const uint64_t pos = pos_ + s.bytes;
  const uint64_t from = pos & (capacity_ - 1);
  const uint64_t ahead = head_seen_ - pos;           // reserved, as head was last read
  if ((from & 7) != 0 || ahead > capacity_) return;  // classify names the damage
  // Every record taken lies within `left` bytes from `from`: in the lap, below head, within
  // max_bytes.
  uint64_t left = std::min({capacity_ - from, ahead, max_bytes - s.bytes});
  // The word of a committed event record here: this lap's event stamp, a size that is a
  // multiple of 8 (its low bits 0), compared at once.
  const uint64_t mask = 0xFFFFFFFF'00000007ull;
  const uint64_t event = uint64_t{stamp_base(pos, lap_shift_, salt_) | kRecordEvent} << 32;
  uint8_t* const d = data();
  uint64_t off = from, at = last;
  uint32_t n = 0;
  while (left != 0) {
    const uint64_t word = word_of(d + off).load(std::memory_order_acquire);
    if ((word & mask) != event) break;
    const uint64_t size = static_cast<uint32_t>(word);
    // Past the bounds, or shorter than a record's head (whose timestamp is read).
    if (size < kMinRecordBytes || size > left) break;
    if (kLimit && ts_at(off) > limit) break;
    at = off;
    off += size;
    left -= size;
    ++n;
  }
  if (n == 0) return;
  last = at;
  if (s.bytes == 0) s.data = d + from;
  s.bytes += off - from;
  s.events += n;
}

RingReader::Span RingReader::span(uint64_t limit, uint64_t max_bytes) {
  Span s;
  if (window_ != 0) return s;  // a window ring is read by slice()
  current_ = 0;                // a record peek() returned is the span's first: still unread
  uint64_t last = 0;           // the offset of its last record
  // The hot path: runs of committed records, one load and compare each (and a timestamp
  // compare under a limit); classify (below) takes the record it stops at (head to read
  // again, padding, a record in flight, one past the limit, damage). Not in TSan builds
  // whose writer is in this process: their acquires are mirrored record by record
  // (trace/ring_tsan.h).
  const bool runs = twin_ == nullptr;
  while (!damaged_) {
    if (runs) {
      if (limit == ~uint64_t{0}) scan_committed<false>(limit, max_bytes, s, last);
      else scan_committed<true>(limit, max_bytes, s, last);
      if (s.events != 0 && ((pos_ + s.bytes) & (capacity_ - 1)) == 0) break;  // the lap's end
    }
    const uint64_t pos = pos_ + s.bytes;
    uint32_t size = 0;
    const At a = classify(pos, size);
    if ((a == At::Skip || a == At::Dead) && s.bytes == 0) {
      if (a == At::Dead) count_dead(size);
      skip(size);
      continue;
    }
    if (a == At::Bad) {
      set_damaged(pos & (capacity_ - 1), "a damaged record");
      damaged_ = true;
    }
    if (a == At::Wait) s.stop = Span::Stop::InFlight;
    if (a != At::Event) break;  // Skip after events: the next span starts there
    const uint64_t off = pos & (capacity_ - 1);
    if (limit != ~uint64_t{0} && ts_at(off) > limit) {
      s.stop = Span::Stop::NotReady;
      break;
    }
    if (s.bytes + size > max_bytes) {
      s.stop = Span::Stop::Full;
      break;
    }
    if (s.bytes == 0) s.data = data() + off;
    s.bytes += size;
    s.events++;
    last = off;
    if (off + size == capacity_) break;  // the end of the lap: a span is contiguous
  }
  if (s.events == 0) return s;
  s.last_ts = ts_at(last);
  // Every entry the span's records name was published before they were committed, so
  // before the acquires of their words above: the table read now holds it.
  if (!read_table()) {
    damaged_ = true;
    return Span{};
  }
  return s;
}

uint64_t RingReader::ts_at(uint64_t off) const {
  uint64_t ts;
  std::memcpy(&ts, data() + off + offsetof(RecordHead, ts), sizeof ts);
  return ts;
}

void RingReader::release(uint64_t bytes) {
  if (bytes == 0) return;
  pos_ += bytes;
  if (twin_ != nullptr) ring_tsan::release(&reinterpret_cast<RingHeader*>(twin_)->tail);
  header()->tail.store(pos_, std::memory_order_release);
}

void RingReader::count_dead(uint32_t size) {
  // Counted where the session's counters are read (STOP, QUERY): the ring's drops.
  header()->lost.fetch_add(1, std::memory_order_relaxed);
  header()->lost_bytes.fetch_add(size, std::memory_order_relaxed);
  dead_skipped_++;
}

void RingReader::skip(uint32_t size) {
  current_ = size;
  pop();
}

void RingReader::pop() {
  const uint32_t size = current_;
  current_ = 0;
  release(size);
}

bool RingReader::finished() {
  if (damaged_ || dead_done_) return true;
  if (window_ != 0) {  // what is left is taken by slice(), which also salvages a dead writer's
    if (!closed() && !writer_gone()) return false;
    return drained();
  }
  if (peek() != nullptr) return false;
  // Closed or gone first, head after: the writer writes nothing after either, so that head
  // is its last (one read before could miss records written, and committed, since).
  if (!closed() && !writer_gone()) return false;
  return damaged_ || drained();
}

}  // namespace pfc::trace
