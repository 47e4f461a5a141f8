// trace/record.h — the compact event record of rings and log files (docs/namespace.md §3
// "Records"). A record holds what changes per event: its first word (size and stamp), the
// monotonic timestamp, the thread, the CPU, an index into its stream's table of
// (provider, descriptor, header flags) entries, the payload, and only the optional parts
// the event has (activity ID, related activity ID, stack). What is constant per writer —
// process id, the clock pair that turns the monotonic time into a FILETIME, the table —
// is in the stream's header: the ring header (trace/ring.h) or a log file's stream
// definition chunk (docs/logfile.md). Readers rebuild the full event (EventRecord) from
// the two; decode_record never trusts a byte of the record.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "pfc/guid.h"

namespace pfc::trace {

// One table entry (40 bytes, little-endian as stored): what every event of one
// (provider, descriptor, header flags) shares.
struct TableEntry {
  Guid provider;
  uint16_t id = 0;
  uint8_t version = 0;
  uint8_t channel = 0;
  uint8_t level = 0;
  uint8_t opcode = 0;
  uint16_t task = 0;
  uint64_t keyword = 0;
  uint16_t flags = 0;  // EVENT_HEADER Flags the writer set
  uint16_t reserved[3] = {0, 0, 0};
  bool operator==(const TableEntry&) const = default;
};
static_assert(sizeof(TableEntry) == 40);

// The entry of these fields, built as the five words writers hash and compare (a struct
// filled field by field and then read by the word stalls on store forwarding).
inline TableEntry make_entry(const Guid& provider, uint16_t id, uint8_t version, uint8_t channel,
                             uint8_t level, uint8_t opcode, uint16_t task, uint64_t keyword,
                             uint16_t flags) {
  uint64_t w[5];
  std::memcpy(w, &provider, 16);
  w[2] = uint64_t{id} | uint64_t{version} << 16 | uint64_t{channel} << 24 | uint64_t{level} << 32 |
         uint64_t{opcode} << 40 | uint64_t{task} << 48;
  w[3] = keyword;
  w[4] = flags;
  TableEntry e;
  std::memcpy(&e, w, sizeof e);
  return e;
}

// The fixed head of every record (24 bytes), followed by its parts in this order: the
// inline table entry (entry == kEntryInline), the activity ID (kPartActivity), the
// related activity ID (kPartRelated), the stack (kPartStack: u32 count, u32 0, count u64
// — MatchId first), then the payload, padded to 8 (its last `parts & kPartPadMask` bytes
// are padding).
struct RecordHead {
  uint32_t size;   // whole record, multiple of 8
  uint32_t state;  // ring: the stamp (size and state are one atomic word); log file: kept
  uint64_t ts;     // CLOCK_MONOTONIC ns
  uint32_t tid;
  uint16_t cpu;
  uint8_t entry;  // index into the stream's table, or kEntryInline
  uint8_t parts;  // kPart* bits and the payload's padding
};
static_assert(sizeof(RecordHead) == 24);

inline constexpr uint8_t kEntryInline = 0xFF;  // the entry is the record's first part
inline constexpr uint8_t kPartPadMask = 7;
inline constexpr uint8_t kPartActivity = 8;
inline constexpr uint8_t kPartRelated = 16;
inline constexpr uint8_t kPartStack = 32;
inline constexpr uint8_t kPartsKnown = kPartPadMask | kPartActivity | kPartRelated | kPartStack;
// A stream's table holds at most this many entries (u8 indexes, kEntryInline apart); a
// ring's fits in its 4 KB header (trace/ring.h).
inline constexpr uint32_t kMaxTableEntries = 94;
inline constexpr uint32_t kMinRecordBytes = sizeof(RecordHead);

// A set of table entries (bit i: entry i), e.g. those a run of records names.
struct EntrySet {
  uint64_t bits[2] = {0, 0};
  // Entries [0, n) (n <= 128): a whole table of n entries.
  static EntrySet first(uint32_t n) {
    const auto low = [](uint32_t k) { return k >= 64 ? ~uint64_t{0} : (uint64_t{1} << k) - 1; };
    return EntrySet{{low(n), n > 64 ? low(n - 64) : 0}};
  }
  void add(uint8_t i) { bits[i >> 6] |= uint64_t{1} << (i & 63); }
  bool has(uint8_t i) const { return (bits[i >> 6] >> (i & 63) & 1) != 0; }
  EntrySet minus(const EntrySet& o) const {
    return EntrySet{{bits[0] & ~o.bits[0], bits[1] & ~o.bits[1]}};
  }
  void merge(const EntrySet& o) {
    bits[0] |= o.bits[0];
    bits[1] |= o.bits[1];
  }
  uint32_t size() const {
    return static_cast<uint32_t>(__builtin_popcountll(bits[0]) + __builtin_popcountll(bits[1]));
  }
};
static_assert(kMaxTableEntries <= 128);

// An event as readers hand it out: the record and its stream's header put together (not
// a stored layout).
struct EventRecord {
  uint32_t size;   // the stored record's bytes
  uint32_t state;  // its stamp
  uint64_t ts;     // CLOCK_MONOTONIC ns
  int64_t filetime;
  uint32_t pid;
  uint32_t tid;
  Guid provider;
  uint16_t id;
  uint8_t version;
  uint8_t channel;
  uint8_t level;
  uint8_t opcode;
  uint16_t task;
  uint64_t keyword;
  Guid activity;
  Guid related;
  uint16_t flags;  // EVENT_HEADER Flags the writer set
  uint16_t cpu;
  uint16_t stack_count;  // stack entries (MatchId first)
  uint16_t has_related;
  uint32_t payload_len;
};

// What a record's stream says about all its records.
struct StreamInfo {
  uint32_t pid = 0;
  // The clock pair: FILETIME = ft_base + (ts − mono_base) / 100 (docs/namespace.md §3).
  uint64_t mono_base = 0;
  int64_t ft_base = 0;
  const TableEntry* table = nullptr;  // `count` published entries
  uint32_t count = 0;
  bool operator==(const StreamInfo& o) const {
    return pid == o.pid && mono_base == o.mono_base && ft_base == o.ft_base;
  }
};

inline int64_t filetime_at(const StreamInfo& s, uint64_t ts) {
  return s.ft_base + static_cast<int64_t>(ts - s.mono_base) / 100;
}

// What a writer puts into one record besides its head.
struct RecordParts {
  const TableEntry* inline_entry = nullptr;  // non-null: entry is kEntryInline
  const Guid* activity = nullptr;            // null: the zero GUID
  const Guid* related = nullptr;             // null: none (no RELATED_ACTIVITYID item)
  const uint64_t* stack = nullptr;
  uint32_t stack_count = 0;  // at most 0xFFFF
  const void* payload = nullptr;
  uint32_t payload_len = 0;
};

inline uint32_t parts_bytes(const RecordParts& p) {
  return (p.inline_entry != nullptr ? uint32_t{sizeof(TableEntry)} : 0u) +
         (p.activity != nullptr ? 16u : 0u) + (p.related != nullptr ? 16u : 0u) +
         (p.stack_count != 0 ? 8u + 8u * p.stack_count : 0u);
}
// The bytes of a record with these parts (a multiple of 8).
inline uint32_t record_bytes(const RecordParts& p) {
  return kMinRecordBytes + parts_bytes(p) + ((p.payload_len + 7u) & ~7u);
}
// A record with `payload_len` payload bytes and nothing else, its entry in the table.
inline uint32_t record_bytes(uint32_t payload_len) {
  return record_bytes(RecordParts{.payload_len = payload_len});
}

// Fills a reserved record (its word and ts are the ring's) after the head's first 16
// bytes: tid, cpu, entry, parts, then every part and the payload. Inline: EventWrite's
// path, where a record without parts is the head and the payload.
inline void fill_record(RecordHead* r, uint32_t tid, uint16_t cpu, uint8_t entry,
                        const RecordParts& p) {
  r->tid = tid;
  r->cpu = cpu;
  r->entry = p.inline_entry != nullptr ? kEntryInline : entry;
  const uint32_t padded = (p.payload_len + 7u) & ~7u;
  auto* out = reinterpret_cast<uint8_t*>(r) + sizeof(RecordHead);
  if (p.inline_entry == nullptr && p.activity == nullptr && p.related == nullptr &&
      p.stack_count == 0) [[likely]] {
    r->parts = static_cast<uint8_t>(padded - p.payload_len);
    if (p.payload_len != 0) std::memcpy(out, p.payload, p.payload_len);
    return;
  }
  r->parts = static_cast<uint8_t>(
      (padded - p.payload_len) | (p.activity != nullptr ? kPartActivity : 0) |
      (p.related != nullptr ? kPartRelated : 0) | (p.stack_count != 0 ? kPartStack : 0));
  const auto put = [&out](const void* src, size_t n) {
    std::memcpy(out, src, n);
    out += n;
  };
  if (p.inline_entry != nullptr) put(p.inline_entry, sizeof(TableEntry));
  if (p.activity != nullptr) put(p.activity, 16);
  if (p.related != nullptr) put(p.related, 16);
  if (p.stack_count != 0) {
    const uint64_t count = p.stack_count;
    put(&count, 8);
    put(p.stack, 8u * p.stack_count);
  }
  if (p.payload_len != 0) std::memcpy(out, p.payload, p.payload_len);
}

// Where the parts of a record of `size` bytes lie, from a copy of its head: false when
// the sizes do not add up or an unknown bit is set.
struct RecordLayout {
  uint32_t activity = 0, related = 0, stack = 0, payload = 0;  // offsets; 0: absent
  uint32_t stack_count = 0;
  uint32_t payload_len = 0;
};
bool record_layout_parts(
    const RecordHead& h, const uint8_t* rec, uint32_t size,
    RecordLayout& out);  // record_layout of a record with parts, its size checked
inline bool record_layout(const RecordHead& h, const uint8_t* rec, uint32_t size,
                          RecordLayout& out) {
  if (size % 8 != 0 || size < kMinRecordBytes) return false;
  const uint32_t pad = h.parts & kPartPadMask;
  if (h.parts != pad || h.entry == kEntryInline) return record_layout_parts(h, rec, size, out);
  if (size - kMinRecordBytes < pad) return false;  // the common record: head and payload
  out = RecordLayout{.payload = kMinRecordBytes, .payload_len = size - kMinRecordBytes - pad};
  return true;
}

// The fields of an event that its table entry and stream give (the rest 0).
EventRecord event_template(const TableEntry& e, uint32_t pid);
// Sets the fields of `out` that the record gives (its head, layout and parts), on top of
// its entry's and stream's (event_template).
inline void fill_event(const RecordHead& h, const uint8_t* rec, const RecordLayout& l,
                       int64_t filetime, EventRecord& out) {
  out.size = h.size;
  out.state = h.state;
  out.ts = h.ts;
  out.filetime = filetime;
  out.tid = h.tid;
  out.cpu = h.cpu;
  out.activity = Guid{};
  if (l.activity != 0) std::memcpy(&out.activity, rec + l.activity, 16);
  out.related = Guid{};
  out.has_related = l.related != 0;
  if (l.related != 0) std::memcpy(&out.related, rec + l.related, 16);
  out.stack_count = static_cast<uint16_t>(l.stack_count);
  out.payload_len = l.payload_len;
}

// Rebuilds the event of the record at `rec` (`size` bytes, its head copied in `h`, its
// layout checked) in `out`, with pointers to its payload and stack in `rec`. False, with
// `why`, when it names a table entry its stream has not defined.
bool decode_record(const RecordHead& h, const uint8_t* rec, const RecordLayout& l,
                   const StreamInfo& s, EventRecord& out, std::string& why);

}  // namespace pfc::trace
