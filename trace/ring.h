// trace/ring.h — one session's event buffer in one writing process (docs/namespace.md §3):
// a file `r-INSTANCE-PID-START` in the namespace, mapped by the writer and by the session's
// consumer; a large one has a front ring `r-INSTANCE-PID-START-front` beside it (below).
// Many writer threads, one reader; writers never wait: a record that does not fit is
// dropped and counted in `lost`.
//
// Commit protocol (ring version 4). A record begins with one 8-byte word: its size (low
// half) and a stamp (high half) = ((lap ^ salt) << 2) | kind, where lap = position /
// capacity, salt is the ring's random number (header) and kind is reserved, event or
// padding. A writer reads head, takes the timestamp, checks the space against tail and
// moves head forward with one CAS (so timestamps are non-decreasing in ring order), stores
// the word {size, reserved stamp} at once, then the record, then {size, event stamp}
// (release). The reader takes the record at tail when it lies below head (it reads head
// only when its last copy says the ring is empty) and its word holds the event stamp of
// that position; then it publishes the new tail (release), which hands the space back to
// the writers. Nothing is zeroed: bytes left from an earlier lap carry another lap's stamp.
// A record never straddles the end: a padding record fills the gap; a writer whose reader
// keeps up pads to the end early, past a quarter of the ring (soft_wrap_bytes), and one
// whose file system could not supply the rest of its pages pads before them. A writer
// that died between reservation and commit leaves a reserved record: the reader skips it
// once the process is gone (by its size; if even the reserved word was not written, the
// rest of that ring is lost).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "pfc/guid.h"
#include "trace/dir.h"
#include "trace/packed.h"
#include "trace/record.h"
#include "trace/sys.h"

namespace pfc::trace {

inline constexpr uint64_t kRingHeaderSize = 4096;
inline constexpr uint64_t kMinRingBytes = 64u << 10;
inline constexpr uint64_t kMaxRingBytes = 256u << 20;

// The shared header of a ring file (first kRingHeaderSize bytes), followed in the same page
// by the ring's table (kRingTableOffset): TableEntry values (trace/record.h) that records
// name by index. The writer process appends entries (RingWriter::entry_of) and publishes
// each by raising table_count (release) before any record naming it commits.
struct RingHeader {
  uint64_t magic;
  uint32_t version;
  uint32_t header_size;
  uint64_t capacity;  // data bytes, a power of two
  uint64_t instance;
  uint32_t pid;
  uint32_t salt;  // random: makes a stale or payload word unlikely to look like a stamp
  uint64_t start;
  // The clock pair (docs/namespace.md §3 "Records"): a record's FILETIME is ft_base plus
  // (its monotonic time − mono_base) / 100, measured when the ring was created.
  uint64_t mono_base;
  int64_t ft_base;
  alignas(64) std::atomic<uint64_t> head;  // bytes reserved, ever
  std::atomic<uint64_t> events;            // event records reserved, ever (same line as head)
  alignas(64) std::atomic<uint64_t> tail;  // bytes consumed, ever
  // The doorbell (kRingBell rings; docs/namespace.md §3 "The doorbell"): 0, or the unread
  // KB at which the writer that opens a window is to wake the sleeping session host.
  std::atomic<uint32_t> bell;
  alignas(64) std::atomic<uint64_t> lost;         // events dropped: no space
  std::atomic<uint64_t> lost_bytes;               // their record sizes
  std::atomic<uint64_t> closed;                   // the writer will write no more (session gone)
  alignas(64) std::atomic<uint32_t> table_count;  // entries published (kMaxTableEntries at most)
  // 0: a record ring (the commit protocol above); else log2 of the window size of a window
  // ring (below). Set at creation, before the magic.
  uint32_t window_shift;
  uint32_t flags;  // kRing*: set at creation, before the magic
};
// RingHeader::flags: the writer holds the session's doorbell and rings it (RingHeader::bell).
inline constexpr uint32_t kRingBell = 1;
inline constexpr uint64_t kRingTableOffset = sizeof(RingHeader);
static_assert(kRingTableOffset + kMaxTableEntries * sizeof(TableEntry) <= kRingHeaderSize);

// The ring layout's version (RingHeader::version); a reader refuses any other, by name.
// 7: a window's thread (WindowHead::thread, packed records without their own);
// 6: the doorbell (RingHeader::bell, kRingBell); 5: window rings beside record rings
// (RingHeader::window_shift); 4: compact records naming entries of the ring's table (version 3's
// records carried the whole event header, 112 bytes).
inline constexpr uint32_t kRingVersion = 7;

// Record kinds: the low two bits of the stamp in a record's `state` (see the commit
// protocol above); a log file keeps the ring's stamp (kind kRecordEvent).
inline constexpr uint32_t kRecordEvent = 1;
inline constexpr uint32_t kRecordPadding = 2;
inline constexpr uint32_t kRecordReserved = 3;

// The stamp of a ring record of `kind` at position `pos` (the commit protocol above).
inline uint32_t ring_stamp(uint64_t pos, uint32_t lap_shift, uint32_t salt, uint32_t kind) {
  return (static_cast<uint32_t>(pos >> lap_shift) ^ salt) << 2 | kind;
}

// `r-INSTANCE-PID-START` for a writer's main ring, with `-front` for its front ring.
std::string ring_name(uint64_t instance, const ProcessKey& writer, bool front = false);
// Parses a ring file name; nullopt for other names.
struct RingId {
  uint64_t instance = 0;
  ProcessKey writer;
  bool front = false;
};
std::optional<RingId> parse_ring_name(const std::string& name);
// Rings the doorbell of a file session's host (trace/names.h bell_name; docs/namespace.md §3
// "The doorbell") once: one byte into it; false when there is no such FIFO.
bool ring_session_bell(const TraceDir& dir, uint64_t instance);
// Ring capacity for a session's buffer settings: BufferSize KB × max(buffers,
// kMinRingBuffers), clamped to [kMinRingBytes, kMaxRingBytes], rounded up to a power of two.
// 128: at ETW's default 64 KB buffers an 8 MB ring, which holds about 50 ms of a writer at
// full pace — what a session host descheduled on a loaded 2-core machine needed to lose
// nothing (docs/namespace.md §3 "Ring size"); 2 MB lost a quarter of the events there.
inline constexpr uint64_t kMinRingBuffers = 128;
uint64_t ring_capacity(uint32_t buffer_kb, uint32_t min_buffers, uint32_t max_buffers);

// Where a writer may start the next lap early (docs/namespace.md §3 "The working set"):
// a quarter of a ring of kSoftWrapMinRing or more, 0 (never) for smaller ones. Past that
// offset, when at most an eighth of it is unread, the next record goes to the start of the
// ring (a padding record fills the rest of the lap), so a writer whose reader keeps up
// reuses lines it wrote a short lap ago, still in the cache, and the rest of the ring is
// there for bursts.
inline constexpr uint64_t kSoftWrapMinRing = 16u << 20;
uint64_t soft_wrap_bytes(uint64_t capacity);

// The front ring (docs/namespace.md §3 "The front ring"): a writer whose main ring has
// kFrontRingMinMain bytes or more also has a ring of a quarter of that, at most
// kFrontRingMaxBytes, which takes every record that fits (RingWriter::try_reserve); the
// main ring takes the rest. While the reader is less than the front ring behind, writer
// and reader cycle through its pages only; a burst still has the whole main ring.
inline constexpr uint64_t kFrontRingMinMain = 32u << 20;
inline constexpr uint64_t kFrontRingMaxBytes = 16u << 20;
// The front ring's capacity for a main ring of `capacity` bytes; 0: none.
inline uint64_t front_ring_capacity(uint64_t capacity) {
  return capacity >= kFrontRingMinMain ? std::min(capacity / 4, kFrontRingMaxBytes) : 0;
}
// A writer takes its ring's pages a window at a time, ahead of its writes
// (docs/namespace.md §3 "Taking the pages"): the header and the first window when it
// creates the ring, the next window when a record ends within half a window of the last
// one taken. Only the pages written so far (and up to a window and a half beyond) are
// resident, and no write takes a page fault.
inline constexpr uint64_t kRingWindow = 256u << 10;

// ---- window rings (docs/namespace.md §3 "Window rings") ------------------------------
// The rings of a file session. Their data area is cut into windows of 2^window_shift bytes;
// each begins with a WindowHead, and its records are packed records (trace/packed.h) one
// after the other, byte-aligned, their timestamps counted from the window's base, exactly
// as a log file's records chunk holds them, so the session host copies a window's records
// into the file as one chunk without looking at them. A writer reserves with the same CAS
// on head as in a record ring; a record that does not fit in the rest of its window closes
// it (its padding counted as committed) and opens the next one, writing the base; then it
// adds its bytes and one event to its window's commit word (release). A window is complete
// when its commit word counts every byte of it; the host takes it whole, or earlier the
// part below head when every byte reserved in it so far is committed. A record larger
// than a window takes whole windows of its own. The host clears a window's head before it
// hands the window back (tail), so a writer that opens it finds zeroes.
struct WindowHead {
  std::atomic<uint64_t> commit;  // low half: bytes accounted (head, records, padding); high: events
  std::atomic<uint64_t> base;    // the monotonic time of the record that opened it (0: not yet)
  std::atomic<uint32_t> end;     // where its records end when it was closed early (0: its end)
  std::atomic<uint32_t> span;    // windows a large record takes (0 or 1: this one) | kWindowWrap
  // The opener's tid | cpu << 32, stored before base (release): the thread of the records
  // that carry none (trace/packed.h kPackedThread).
  std::atomic<uint64_t> thread;
};
inline constexpr uint32_t kWindowHeadBytes = sizeof(WindowHead);
static_assert(kWindowHeadBytes == 32);
inline uint64_t window_thread(const PackedThread& t) { return t.tid | uint64_t{t.cpu} << 32; }
inline PackedThread window_thread(uint64_t w) {
  return {static_cast<uint32_t>(w), static_cast<uint16_t>(w >> 32)};
}
// In WindowHead::span: the lap ends after this window (its file system had no pages for
// the rest, or a large record did not fit before the end): the next window is the next
// lap's first.
inline constexpr uint32_t kWindowWrap = 0x80000000u;
inline constexpr uint64_t kMinWindowBytes = 1u << 10;
inline constexpr uint64_t kMaxWindowBytes = 256u << 10;  // kRingWindow: a window is taken whole
// The window size of a file session's rings: a 32nd of its buffer size (of the power of two
// at or below it), within [kMinWindowBytes, kMaxWindowBytes] and at most a quarter of the
// ring. A log buffer takes whole windows' records, so it wastes up to a window at its end:
// about 3 % at this size (docs/namespace.md §3 "Window rings").
inline constexpr uint64_t kWindowsPerBuffer = 32;
uint32_t window_shift_for(uint32_t buffer_kb, uint64_t capacity);

class RingWriter {
 public:
  // Creates (or reopens, after fork-less restarts of the same process key) the ring, with
  // the pages of its header and first window (kRingWindow) taken; an error when the file
  // system cannot supply them. A later window that cannot be had ends each lap before it
  // (a padding record, as at the end of the ring) instead.
  // `window_shift` != 0: a window ring of 2^window_shift-byte windows (window_shift_for),
  // whose writer holds the session's doorbell when its host made one (kRingBell).
  static Result<RingWriter> create(const TraceDir& dir, uint64_t instance, const ProcessKey& self,
                                   uint64_t capacity, bool front = false,
                                   uint32_t window_shift = 0);
  // Reserves a record of `bytes` (a multiple of 8) and fills size/state (reserved)/ts;
  // nullptr when it does not fit (counted in lost).
  RecordHead* reserve(uint32_t bytes);
  // The same for a ring that has a fallback (a front ring): a record that does not fit is
  // not counted, and it costs no clock read. After such a miss the shared tail is reloaded
  // only every kFrontRecheck-th attempt, so a writer that spills does not pull the
  // reader's line once per event.
  RecordHead* try_reserve(uint32_t bytes);
  static constexpr uint32_t kFrontRecheck = 16;
  // Publishes a reserved record (its reserved stamp becomes the event stamp).
  static void commit(RecordHead* rec);
  // The index of `e` in this ring's table: found in a process-local hash (lock-free, a
  // few compares), else appended and published under a lock (the first event of each
  // provider, descriptor and flags). kEntryInline when the table is full: the record then
  // carries the entry itself (docs/namespace.md §3 "Records"). Any thread.
  uint8_t entry_of(const TableEntry& e);
  void mark_closed();

  // Window rings. A reserved packed record: where it goes, and how its time is written.
  struct Packed {
    uint8_t* rec = nullptr;
    uint64_t ts = 0;
    uint64_t base = 0;    // the window's base: the record's delta is ts - base...
    bool own_ts = false;  // ... unless it carries its own timestamp (kPackedTime, 8 bytes more)
    // It carries its own thread (kPackedThread, kPackedThreadBytes more): its window's opener
    // is another thread or ran on another CPU, or its store is not visible yet.
    bool own_thread = false;
    WindowHead* window = nullptr;
    uint32_t accounted = 0;  // what its commit adds to the window's bytes
  };
  bool windowed() const { return window_shift_ != 0; }
  // Reserves a packed record of `bytes` (its size without an own thread or timestamp: the
  // record that opens a window has delta 0 and gives the window its `thread`; another one
  // carries its own timestamp when the window's base is not written yet or more than
  // kPackedSpan old, and its own thread when it is not the window's) for `thread`; false
  // when it does not fit (counted in lost).
  bool reserve_packed(uint32_t bytes, const PackedThread& thread, Packed& out);
  // The same for a ring with a fallback (a front ring), as try_reserve.
  bool try_reserve_packed(uint32_t bytes, const PackedThread& thread, Packed& out);
  // Publishes a packed record: its bytes and one event into its window's commit word.
  static void commit_packed(const Packed& p) {
    p.window->commit.fetch_add(uint64_t{1} << 32 | p.accounted, std::memory_order_release);
  }

  // Tests: the early-wrap offset (soft_wrap_bytes' choice by default); 0 never wraps early,
  // otherwise a power of two of 1 KB or more below the capacity.
  void set_soft_wrap(uint64_t bytes) { soft_ = bytes; }
  // In a forked child: the mapping was not inherited; drop it without unmapping.
  void forget() { map_.forget(); }
  uint64_t lost() const { return header()->lost.load(std::memory_order_relaxed); }

 private:
  RingHeader* header() const { return reinterpret_cast<RingHeader*>(map_.data()); }
  uint8_t* data() const { return map_.data() + kRingHeaderSize; }
  // reserve() without the loss count: nullptr when the record does not fit.
  RecordHead* claim(uint32_t bytes);
  // reserve_packed() without the loss count.
  bool claim_packed(uint32_t bytes, const PackedThread& thread, Packed& out);
  WindowHead* window_at(uint64_t pos) const {
    return reinterpret_cast<WindowHead*>(data() + (pos & (capacity_ - 1) & ~(window_ - 1)));
  }
  // Closes the window at `pos` (offset `off` in it) early: its records end there, `wrap`:
  // the lap ends after it; its padding is accounted (release).
  void close_window(uint64_t pos, uint64_t off, bool wrap);
  // After a reservation that opened a window and moved head to `head`: wakes the host when
  // it armed the bell and at least that much is unread (one writer thread rings it once).
  void ring_bell(uint64_t head);
  // try_reserve's and try_reserve_packed's first look, without the clock: false when the
  // record surely does not fit (a miss, counted for the recheck).
  bool may_fit(uint32_t bytes);
  // Whether `bytes` more from `head` fit below the tail: checked against the tail this
  // process last saw, and against the shared tail (reloaded) only when that says no.
  bool has_room(uint64_t head, uint64_t bytes);
  // entry_of's slow path: under the cache's lock.
  uint8_t add_entry(const TableEntry& e, uint64_t hash);
  // Prefetches, for writing, the lines a record of `bytes` would take a little past `end`.
  void prefetch_ahead(uint64_t end, uint32_t bytes) const;
  // The padding that ends the lap early at `head` (offset `off`) before a record of
  // `bytes`, or 0 (see soft_wrap_bytes).
  uint64_t early_wrap(uint64_t head, uint64_t off, uint32_t bytes) const;
  // For a record that would end at data offset `end`, past taken_->grow_at: takes the
  // windows up to one past `end` when it can. Returns where the lap must end before such a
  // record: the capacity, or, when the pages after `end` could not be had, the taken
  // bytes less one word (a padding word always lies in taken pages).
  uint64_t grow(uint64_t end);
  Mapping map_;
  uint64_t capacity_ = 0;
  uint64_t soft_ = 0;       // the early-wrap offset; 0: never
  uint32_t lap_shift_ = 0;  // log2(capacity_)
  uint32_t salt_ = 0;
  uint32_t window_shift_ = 0;  // window rings: log2(window_)
  uint64_t window_ = 0;
  UniqueFd bell_;  // the session's doorbell (window rings whose host made one)
  // The last tail a writer thread of this process saw: space checks use it and reload the
  // shared tail only when it says the record does not fit (tail only grows), so writers
  // rarely touch the consumer's cache line. The consumer publishes tail with release once
  // it has read the space before it; loading it with acquire and storing it here with
  // release passes that on to every thread that reuses the value, so no writer overwrites
  // space before the consumer's reads of it. Heap-held so the writer stays movable.
  std::unique_ptr<std::atomic<uint64_t>> seen_tail_ = std::make_unique<std::atomic<uint64_t>>(0);
  // try_reserve's misses since it last reloaded the shared tail (relaxed: a count that
  // threads race on only shifts when the next reload happens).
  std::unique_ptr<std::atomic<uint32_t>> misses_ = std::make_unique<std::atomic<uint32_t>>(0);
  // The data bytes [0, bytes) have their pages and page tables (kRingWindow); a record
  // ending past grow_at goes through grow() first. Both only grow; any writer thread may
  // take a window (two that race both ask the kernel, which gives the pages once).
  struct Taken {
    std::atomic<uint64_t> bytes{0};
    std::atomic<uint64_t> grow_at{0};
    std::atomic<bool> failed{false};  // the file system had no more pages: stop asking
  };
  std::unique_ptr<Taken> taken_ = std::make_unique<Taken>();
  // entry_of's hash of the entries this process published (or found no room for): a slot
  // is written once, under `mu`, its key before its value (index + 1, release).
  struct EntryCache {
    static constexpr uint32_t kSlots = 256;
    struct Slot {
      TableEntry key;
      std::atomic<uint32_t> value{0};
    };
    Slot slots[kSlots];
    std::mutex mu;
    uint32_t used = 0;
  };
  std::unique_ptr<EntryCache> cache_ = std::make_unique<EntryCache>();
};

class RingReader {
 public:
  // Maps and validates an existing ring (the file is untrusted).
  static Result<RingReader> open(const TraceDir& dir, const std::string& name);

  // The record at tail: its event rebuilt from a validated copy of its head, the ring's
  // header and table, and pointers to its payload and stack inside the mapping (the writer
  // may still scribble on them: the lengths are ours, so reads stay in bounds).
  struct View {
    EventRecord header;
    const uint8_t* record = nullptr;  // the stored record (header.size bytes)
    const uint8_t* payload = nullptr;
    const uint8_t* stack = nullptr;  // header.stack_count u64s, unaligned
  };
  // The record at tail when it is committed and valid; nullptr when none is ready. A
  // record reserved by a writer that died is skipped. Sets damaged() (and returns nullptr
  // from then on) when the shared data is inconsistent.
  const View* peek();
  // Hands the space of the record returned by peek() back to the writers.
  void pop();

  // A run of whole event records at tail, contiguous in the mapping, for a reader that moves
  // records in bulk (the log-file session host, docs/logfile.md "The session host"):
  // committed, `max_bytes` at most, not past the end of the lap, and, when `limit` is not
  // 2^64 - 1, each with a timestamp <= limit. Padding and records of dead writers before it
  // are skipped. Only each record's word is checked (its stamp, and a size that is a
  // multiple of 8 within the ring's bounds: damage there ends the span and sets damaged());
  // a record's parts and table index are not looked at — readers of the copies check each
  // record in full — and nothing is copied. The ring's table is read once per span: stream()
  // then holds every entry the span's records may name. It invalidates a record peek()
  // returned (that record is the span's first). Why it ended: `stop`.
  struct Span {
    const uint8_t* data = nullptr;
    uint64_t bytes = 0;
    uint32_t events = 0;
    uint64_t last_ts = 0;  // the timestamp of its last record
    // Empty: no record after it (or the end of the lap, or damage); InFlight: the next
    // record is reserved, not committed; NotReady: the next one is later than `limit`;
    // Full: the next one would pass `max_bytes`.
    enum class Stop : uint8_t { Empty, InFlight, NotReady, Full } stop = Stop::Empty;
  };
  Span span(uint64_t limit, uint64_t max_bytes);
  // Hands the first `bytes` of a span back to the writers (a prefix made of whole records).
  void release(uint64_t bytes);
  // Right after a peek() that returned nullptr: true when that was because the record at
  // tail is reserved and not yet committed (a writer is between its CAS and its commit),
  // false when the ring is empty (or damaged).
  bool pending() const { return !damaged_ && current_ == 0 && head_seen_ != pos_; }

  // Window rings (the session host of a file session). peek() and span() find nothing in
  // them. A part of the window at tail: its packed records as they lie in the ring, to be
  // copied as one chunk of `base` (they are not looked at).
  struct Slice {
    const uint8_t* data = nullptr;
    uint32_t bytes = 0;
    uint32_t events = 0;
    uint64_t base = 0;
    PackedThread thread;    // the window's (its records that carry none)
    bool complete = false;  // the window's last part: taking it hands the window back
  };
  bool windowed() const { return window_shift_ != 0; }
  // The records of the window at tail not taken yet: all of them once it is complete, else
  // those below head when every byte reserved in it is committed; empty when neither (a
  // record in flight: in_flight() says so). A writer that died leaves a window that never
  // completes: its committed records are taken when they can be told apart (below), and
  // the rest of the ring is counted lost. Damage (a commit word, end or span that cannot
  // be) sets damaged().
  // With `partial` false only complete windows are taken (a reader that keeps up with a
  // busy ring copies whole windows; parts are for the quiet moments).
  Slice slice(bool partial = true);
  // Takes what slice() returned (the caller copied it): a complete window's head is
  // cleared and its space handed back to the writers.
  void take(const Slice& s);
  // After an empty slice(): true when the window at tail has bytes reserved and not yet
  // committed (a writer between its CAS and its commit).
  bool in_flight() const { return in_flight_; }
  // The base of the window at tail when it holds records not taken yet (a lower bound of
  // every untaken record's timestamp); 2^64 - 1 when it holds none.
  uint64_t untaken_floor() const;
  // Events taken through take().
  uint64_t taken_events() const { return taken_events_; }
  // The doorbell (docs/namespace.md §3 "The doorbell"): whether the ring's writer rings it.
  bool has_bell() const { return (flags_ & kRingBell) != 0; }
  // Asks the writer to ring the bell once `want` bytes (a multiple of 1 KB, 1 KB or more)
  // are unread, and returns false when that many are unread already (the host should not
  // sleep on it). Sequentially consistent with the writer's reservation: either the writer
  // sees the request or this call sees its bytes.
  bool arm_bell(uint64_t want);
  // Withdraws the request (the host is awake).
  void disarm_bell() { header()->bell.store(0, std::memory_order_relaxed); }

  bool damaged() const { return damaged_; }
  // What damaged() found, naming the ring and the record's position.
  const std::string& damage() const { return damage_; }
  // The ring's process, clock pair and the table entries read so far (every entry a
  // record returned by peek() or span() names), for a reader that copies records as they
  // are (the log-file session host). Valid until the next peek() or span().
  StreamInfo stream() const {
    StreamInfo s = stream_;
    s.table = table_.data();
    s.count = static_cast<uint32_t>(table_.size());
    return s;
  }
  const std::string& name() const { return name_; }
  const RingId& id() const { return id_; }
  uint64_t lost() const { return header()->lost.load(std::memory_order_relaxed); }
  // Events the writer put into this ring (delivered, pending or being written).
  uint64_t events() const { return header()->events.load(std::memory_order_relaxed); }
  uint64_t consumed() const { return header()->tail.load(std::memory_order_relaxed); }
  uint64_t lost_bytes() const { return header()->lost_bytes.load(std::memory_order_relaxed); }
  // Records of a dead writer this reader skipped (each counted in lost(), and in events()).
  uint64_t dead_skipped() const { return dead_skipped_; }
  uint64_t capacity() const { return capacity_; }
  bool closed() const { return header()->closed.load(std::memory_order_acquire) != 0; }
  // True when nothing is left to read and nothing more can come (writer closed or dead).
  bool finished();
  // True when every reserved byte has been consumed.
  bool drained() const {
    return header()->head.load(std::memory_order_acquire) == pos_ + win_taken_;
  }

 private:
  RingHeader* header() const { return reinterpret_cast<RingHeader*>(map_.data()); }
  uint8_t* data() const { return map_.data() + kRingHeaderSize; }
  bool writer_gone();
  // The record at `pos` (from tail on): an event (its word and size checked), padding to
  // skip or a record reserved by a writer that died (Dead: skipped and counted lost) of
  // `size` bytes, none (head reached), one being written, or damage.
  enum class At : uint8_t { Event, Skip, Dead, Empty, Wait, Bad };
  At classify(uint64_t pos, uint32_t& size);
  // span()'s hot path: extends `s` over the committed event records from pos_ + s.bytes on
  // that lie below head as last read, within the lap and `max_bytes` (one load and compare
  // of each record's word; `last`: the offset of the last one), and with kLimit whose
  // timestamps are at most `limit`. It stops before anything else — another stamp, a size
  // out of those bounds or below a record's head, a later timestamp — and leaves that
  // record to classify.
  template <bool kLimit>
  void scan_committed(uint64_t limit, uint64_t max_bytes, Span& s, uint64_t& last);
  // The timestamp of the committed record at `off`.
  uint64_t ts_at(uint64_t off) const;
  // peek()'s check of an event record at `off`: its head copied into head_, its layout checked
  // into layout_, its entry published (the table re-read when it is new).
  bool check_event(uint64_t off, uint32_t size);
  // Copies the entries published since the last call; false (damage) when the count or an
  // entry is impossible.
  bool read_table();
  void set_damaged(uint64_t pos, const std::string& what);
  // Skips the record at pos_ (padding, or reserved by a dead writer) of `size` bytes.
  void skip(uint32_t size);
  // slice() for a window whose writer died: the committed records after win_taken_ when
  // they can be told apart (a walk of exactly the committed count of records, each whole,
  // covering exactly the committed bytes), else none; then the ring is done and every
  // event not taken is counted lost.
  Slice salvage(uint64_t commit, uint64_t head);
  // A slice whose records may name new entries: the table read again (damage: empty).
  Slice with_table(const Slice& s);
  // A window ring's checks failed at the window at pos_.
  Slice window_damage(const std::string& what);
  // A dead writer's reserved record of `size` bytes: counted in the ring's `lost` and
  // `lost_bytes` (a reader is the only one who can tell it will never be committed).
  void count_dead(uint32_t size);

  Mapping map_;
  std::string name_;
  RingId id_;
  uint64_t capacity_ = 0;
  uint32_t lap_shift_ = 0;
  uint32_t salt_ = 0;
  uint64_t pos_ = 0;        // our copy of tail
  uint64_t head_seen_ = 0;  // head as last read, >= pos_: records below it are reserved
  uint32_t current_ = 0;    // size of the record peek() returned (0: none)
  View view_;
  RecordHead head_{};    // check_event's copy
  RecordLayout layout_;  // and its layout
  StreamInfo stream_;    // pid and clock pair (table: table_)
  std::vector<TableEntry> table_;
  std::vector<EventRecord> templates_;  // per entry of table_: event_template
  uint8_t view_entry_ = kEntryInline;   // the entry whose fields view_ holds (inline: none)
  bool damaged_ = false;
  std::string damage_;
  // TSan builds only: the mapping of this ring's writer when it is in this process
  // (trace/ring_tsan.h); the reader mirrors its acquires and releases there.
  uint8_t* twin_ = nullptr;
  uint64_t dead_check_ns_ = 0;
  uint64_t dead_skipped_ = 0;  // count_dead's records
  bool dead_ = false;
  // Window rings: log2 of the window size, and in the window at pos_ (tail), the offset up
  // to which records were taken (0: none, not even its head) and how many.
  uint32_t window_shift_ = 0;
  uint64_t window_ = 0;
  uint32_t flags_ = 0;  // RingHeader::flags as read at open
  uint32_t win_taken_ = 0;
  uint32_t win_events_ = 0;
  uint64_t taken_events_ = 0;
  bool in_flight_ = false;
  bool dead_done_ = false;  // a dead writer's ring: salvaged, the rest counted lost
};

}  // namespace pfc::trace
