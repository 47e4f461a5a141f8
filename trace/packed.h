// trace/packed.h — the packed event record of log files (docs/logfile.md "Records"): a
// ring's record (trace/record.h) without what a file does not need. A ring's record is
// 8-byte aligned and begins with the commit protocol's word (size and stamp), a full
// monotonic timestamp, the thread and the CPU; a packed record is byte-aligned, its size
// follows from its payload length and parts, its timestamp is a 32-bit delta from its
// chunk's base, and its thread and CPU are its chunk's unless it carries its own. The
// sample event (14 payload bytes) takes 22 bytes packed, 40 in a ring.
//
// Layout (little-endian, no alignment): u16 payload bytes, u8 table index (kEntryInline:
// the entry follows), u8 parts (kPacked*), u32 nanoseconds after the chunk's base (0 with
// kPackedTime); then, as flagged and in this order, the u32 tid and u16 cpu (kPackedThread),
// the u64 monotonic timestamp, the inline entry (40 bytes), the activity ID (16), the
// related activity ID (16), the stack (u16 count, 1..65535, then count u64, MatchId
// first), the payload.
#pragma once

#include <cstdint>
#include <cstring>

#include "trace/record.h"

namespace pfc::trace {

inline constexpr uint32_t kPackedHeadBytes = 8;
inline constexpr uint32_t kPackedThreadBytes = 6;  // u32 tid, u16 cpu
inline constexpr uint8_t kPackedActivity = 1;
inline constexpr uint8_t kPackedRelated = 2;
inline constexpr uint8_t kPackedStack = 4;
inline constexpr uint8_t kPackedTime = 8;     // the record's own u64 timestamp, not a delta
inline constexpr uint8_t kPackedThread = 16;  // the record's own tid and cpu, not its chunk's
inline constexpr uint8_t kPackedKnown =
    kPackedActivity | kPackedRelated | kPackedStack | kPackedTime | kPackedThread;

// The thread and CPU of a chunk (docs/logfile.md "Records"): those of its records that
// carry none.
struct PackedThread {
  uint32_t tid = 0;
  uint16_t cpu = 0;
  bool operator==(const PackedThread&) const = default;
};
// A record's timestamp is base + delta when it lies in [base, base + kPackedSpan).
inline constexpr uint64_t kPackedSpan = uint64_t{1} << 32;

// The packed bytes of a ring record with this head and layout (checked by record_layout) in
// a chunk of this base and thread.
uint32_t packed_bytes(const RecordHead& h, const RecordLayout& l, uint64_t base,
                      const PackedThread& chunk);
// Writes that packed record at `out` (packed_bytes of room); returns its size.
uint32_t pack_record(const RecordHead& h, const uint8_t* rec, const RecordLayout& l, uint64_t base,
                     const PackedThread& chunk, uint8_t* out);

// Whether the ring record with head `h` (its size checked) is a common one: no parts, its
// entry one of those `usable` marks (indexed by entry), a payload under 64 KB and its
// timestamp within kPackedSpan after `base` — what pack_plain packs.
inline bool plain_record(const RecordHead& h, uint64_t base, const uint8_t* usable) {
  const uint32_t pad = h.parts, padded = h.size - kMinRecordBytes;
  return pad <= kPartPadMask && padded >= pad && padded <= 0xFFF8 && usable[h.entry] != 0 &&
         h.ts - base < kPackedSpan;
}
// pack_record for a plain_record at `rec`: the payload is copied in 8-byte words, so up to
// 7 bytes past the packed record are written (the caller's room has kPackedCopySlack more).
// Returns its size.
inline constexpr uint32_t kPackedCopySlack = 8;
inline uint32_t pack_plain(const RecordHead& h, const uint8_t* rec, uint64_t base,
                           const PackedThread& chunk, uint8_t* out) {
  const uint32_t padded = h.size - kMinRecordBytes, payload = padded - h.parts;
  const bool own = h.tid != chunk.tid || h.cpu != chunk.cpu;
  const uint64_t first = uint64_t{payload} | uint64_t{h.entry} << 16 |
                         uint64_t{own ? kPackedThread : 0u} << 24 | (h.ts - base) << 32;
  std::memcpy(out, &first, 8);
  uint8_t* to = out + kPackedHeadBytes;
  if (own) {
    const uint64_t second = uint64_t{h.tid} | uint64_t{h.cpu} << 32;  // 2 bytes of it overwritten
    std::memcpy(to, &second, 8);
    to += kPackedThreadBytes;
  }
  const uint8_t* from = rec + kMinRecordBytes;
  uint32_t i = 0;
  for (; i + 16 <= padded; i += 16) std::memcpy(to + i, from + i, 16);
  if (i != padded) std::memcpy(to + i, from + i, 8);
  return static_cast<uint32_t>(to - out) + payload;
}

// Writers of window rings (trace/ring.h) put their records in this form themselves: the
// packed bytes of a record with these parts, without an own thread or timestamp...
inline uint32_t packed_record_bytes(const RecordParts& p) {
  return kPackedHeadBytes + (p.inline_entry != nullptr ? uint32_t{sizeof(TableEntry)} : 0u) +
         (p.activity != nullptr ? 16u : 0u) + (p.related != nullptr ? 16u : 0u) +
         (p.stack_count != 0 ? 2u + 8u * p.stack_count : 0u) + p.payload_len;
}
// ... and the record itself at `out`: with `own_thread` its `thread` (kPackedThreadBytes
// more; else the window's), its time as its delta from `base`, or with `own_ts` as its own
// u64 `ts` (8 bytes more). `entry`: its table index (kEntryInline: the parts' inline entry
// follows).
void write_packed(uint8_t* out, const PackedThread& thread, bool own_thread, uint8_t entry,
                  const RecordParts& p, uint64_t ts, uint64_t base, bool own_ts);

// Where the parts of a packed record lie (offsets from its start; 0: absent).
struct PackedLayout {
  uint32_t size = 0;  // the whole record
  uint64_t ts = 0;
  uint32_t thread = 0;  // its own tid and cpu (0: its chunk's)
  uint8_t entry = kEntryInline;
  uint32_t inline_entry = 0, activity = 0, related = 0, stack = 0, payload = 0;
  uint32_t stack_count = 0;
  uint32_t payload_len = 0;
};
// Checks the packed record at `p` (`room` bytes left in its chunk, whose base is `base`):
// false when its parts do not fit in `room` or an unknown bit is set.
bool packed_layout(const uint8_t* p, uint32_t room, uint64_t base, PackedLayout& out);
// The timestamp of the packed record at `p`, whose layout was checked.
uint64_t packed_ts(const uint8_t* p, uint64_t base);

// Rebuilds the event of a checked packed record at `p` on top of its stream's fields:
// `entry` is the stream's entry it names (or its inline one), `s` the stream, `chunk` its
// chunk's thread.
void decode_packed(const uint8_t* p, const PackedLayout& l, const TableEntry& entry,
                   const StreamInfo& s, const PackedThread& chunk, EventRecord& out);

}  // namespace pfc::trace
