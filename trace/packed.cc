// trace/packed.cc — see packed.h.
#include "trace/packed.h"

#include <cstring>

#include "base/le.h"
#include "trace/ring.h"

namespace pfc::trace {
namespace {

bool fits_delta(uint64_t ts, uint64_t base) { return ts >= base && ts - base < kPackedSpan; }

bool own_thread(const RecordHead& h, const PackedThread& chunk) {
  return h.tid != chunk.tid || h.cpu != chunk.cpu;
}

uint8_t packed_parts(const RecordLayout& l, bool own_time, bool own_thr) {
  return static_cast<uint8_t>((l.activity != 0 ? kPackedActivity : 0) |
                              (l.related != 0 ? kPackedRelated : 0) |
                              (l.stack != 0 ? kPackedStack : 0) | (own_time ? kPackedTime : 0) |
                              (own_thr ? kPackedThread : 0));
}

// Writes the head of a packed record at `out` and, when `parts` has kPackedThread, `thread`;
// returns where its other parts go.
uint8_t* put_head(uint8_t* out, uint32_t payload_len, uint8_t entry, uint8_t parts, uint32_t delta,
                  const PackedThread& thread) {
  // The head's 8 bytes in one store: payload length, entry, parts, delta.
  const uint64_t first = uint64_t{payload_len & 0xFFFFu} | uint64_t{entry} << 16 |
                         uint64_t{parts} << 24 | uint64_t{delta} << 32;
  std::memcpy(out, &first, 8);
  if ((parts & kPackedThread) == 0) return out + kPackedHeadBytes;
  store_le<uint32_t>(out + kPackedHeadBytes, thread.tid);
  store_le<uint16_t>(out + kPackedHeadBytes + 4, thread.cpu);
  return out + kPackedHeadBytes + kPackedThreadBytes;
}

}  // namespace

uint32_t packed_bytes(const RecordHead& h, const RecordLayout& l, uint64_t base,
                      const PackedThread& chunk) {
  return kPackedHeadBytes + (own_thread(h, chunk) ? kPackedThreadBytes : 0) +
         (fits_delta(h.ts, base) ? 0 : 8) +
         (h.entry == kEntryInline ? uint32_t{sizeof(TableEntry)} : 0) + (l.activity != 0 ? 16 : 0) +
         (l.related != 0 ? 16 : 0) + (l.stack != 0 ? 2 + 8 * l.stack_count : 0) + l.payload_len;
}

uint32_t pack_record(const RecordHead& h, const uint8_t* rec, const RecordLayout& l, uint64_t base,
                     const PackedThread& chunk, uint8_t* out) {
  const bool own_time = !fits_delta(h.ts, base);
  uint8_t* at =
      put_head(out, l.payload_len, h.entry, packed_parts(l, own_time, own_thread(h, chunk)),
               own_time ? 0 : static_cast<uint32_t>(h.ts - base), {h.tid, h.cpu});
  const auto put = [&at](const void* src, size_t n) {
    std::memcpy(at, src, n);
    at += n;
  };
  if (own_time) put(&h.ts, 8);
  if (h.entry == kEntryInline) put(rec + kMinRecordBytes, sizeof(TableEntry));
  if (l.activity != 0) put(rec + l.activity, 16);
  if (l.related != 0) put(rec + l.related, 16);
  if (l.stack != 0) {
    store_le<uint16_t>(at, static_cast<uint16_t>(l.stack_count));
    at += 2;
    put(rec + l.stack, 8u * l.stack_count);
  }
  put(rec + l.payload, l.payload_len);
  return static_cast<uint32_t>(at - out);
}

void write_packed(uint8_t* out, const PackedThread& thread, bool own_thr, uint8_t entry,
                  const RecordParts& p, uint64_t ts, uint64_t base, bool own_ts) {
  const uint8_t parts = static_cast<uint8_t>(
      (p.activity != nullptr ? kPackedActivity : 0) | (p.related != nullptr ? kPackedRelated : 0) |
      (p.stack_count != 0 ? kPackedStack : 0) | (own_ts ? kPackedTime : 0) |
      (own_thr ? kPackedThread : 0));
  uint8_t* at = put_head(out, p.payload_len, entry, parts,
                         own_ts ? 0 : static_cast<uint32_t>(ts - base), thread);
  const auto put = [&at](const void* src, size_t n) {
    std::memcpy(at, src, n);
    at += n;
  };
  if (own_ts) put(&ts, 8);
  if (p.inline_entry != nullptr) put(p.inline_entry, sizeof(TableEntry));
  if (p.activity != nullptr) put(p.activity, 16);
  if (p.related != nullptr) put(p.related, 16);
  if (p.stack_count != 0) {
    store_le<uint16_t>(at, static_cast<uint16_t>(p.stack_count));
    at += 2;
    put(p.stack, 8u * p.stack_count);
  }
  if (p.payload_len != 0) put(p.payload, p.payload_len);
}

bool packed_layout(const uint8_t* p, uint32_t room, uint64_t base, PackedLayout& out) {
  if (room < kPackedHeadBytes) return false;
  const uint8_t parts = p[3];
  if ((parts & ~kPackedKnown) != 0) return false;
  out = PackedLayout{};
  out.entry = p[2];
  out.payload_len = load_le<uint16_t>(p);
  uint32_t at = kPackedHeadBytes;
  const auto take = [&](uint32_t n) {
    if (room - at < n) return false;
    at += n;
    return true;
  };
  if ((parts & kPackedThread) != 0) {
    out.thread = at;
    if (!take(kPackedThreadBytes)) return false;
  }
  if ((parts & kPackedTime) != 0) {
    if (!take(8)) return false;
    out.ts = load_le<uint64_t>(p + at - 8);
  } else {
    out.ts = base + load_le<uint32_t>(p + 4);
  }
  const auto part = [&](uint8_t bit, uint32_t n, uint32_t& where) {
    if ((parts & bit) == 0) return true;
    where = at;
    return take(n);
  };
  if (out.entry == kEntryInline) {
    out.inline_entry = at;
    if (!take(sizeof(TableEntry))) return false;
  }
  if (!part(kPackedActivity, 16, out.activity) || !part(kPackedRelated, 16, out.related))
    return false;
  if ((parts & kPackedStack) != 0) {
    if (!take(2)) return false;
    out.stack_count = load_le<uint16_t>(p + at - 2);
    out.stack = at;
    if (out.stack_count == 0 || !take(8 * out.stack_count)) return false;
  }
  out.payload = at;
  if (!take(out.payload_len)) return false;
  out.size = at;
  return true;
}

uint64_t packed_ts(const uint8_t* p, uint64_t base) {
  if ((p[3] & kPackedTime) == 0) return base + load_le<uint32_t>(p + 4);
  return load_le<uint64_t>(p + kPackedHeadBytes +
                           ((p[3] & kPackedThread) != 0 ? kPackedThreadBytes : 0));
}

void decode_packed(const uint8_t* p, const PackedLayout& l, const TableEntry& entry,
                   const StreamInfo& s, const PackedThread& chunk, EventRecord& out) {
  out = event_template(entry, s.pid);
  out.size = l.size;
  out.state = kRecordEvent;
  out.ts = l.ts;
  out.filetime = filetime_at(s, l.ts);
  out.tid = l.thread != 0 ? load_le<uint32_t>(p + l.thread) : chunk.tid;
  out.cpu = l.thread != 0 ? load_le<uint16_t>(p + l.thread + 4) : chunk.cpu;
  if (l.activity != 0) std::memcpy(&out.activity, p + l.activity, 16);
  out.has_related = l.related != 0;
  if (l.related != 0) std::memcpy(&out.related, p + l.related, 16);
  out.stack_count = static_cast<uint16_t>(l.stack_count);
  out.payload_len = l.payload_len;
}

}  // namespace pfc::trace
