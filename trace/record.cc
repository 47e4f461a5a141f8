// trace/record.cc — see record.h.
#include "trace/record.h"

namespace pfc::trace {

bool record_layout_parts(const RecordHead& h, const uint8_t* rec, uint32_t size,
                         RecordLayout& out) {
  const uint32_t pad = h.parts & kPartPadMask;
  if ((h.parts & ~kPartsKnown) != 0) return false;
  uint32_t at = kMinRecordBytes;
  const auto take = [&](uint32_t n) {
    if (size - at < n) return false;
    at += n;
    return true;
  };
  out = RecordLayout{};
  if (h.entry == kEntryInline && !take(sizeof(TableEntry))) return false;
  if ((h.parts & kPartActivity) != 0) {
    out.activity = at;
    if (!take(16)) return false;
  }
  if ((h.parts & kPartRelated) != 0) {
    out.related = at;
    if (!take(16)) return false;
  }
  if ((h.parts & kPartStack) != 0) {
    if (!take(8)) return false;
    uint64_t count = 0;
    std::memcpy(&count, rec + at - 8, 8);
    if (count == 0 || count > 0xFFFF) return false;
    out.stack = at;
    out.stack_count = static_cast<uint32_t>(count);
    if (!take(8u * out.stack_count)) return false;
  }
  const uint32_t padded = size - at;
  if (padded < pad) return false;  // an empty payload has no padding
  out.payload = at;
  out.payload_len = padded - pad;
  return true;
}

EventRecord event_template(const TableEntry& e, uint32_t pid) {
  EventRecord out{};
  out.pid = pid;
  out.provider = e.provider;
  out.id = e.id;
  out.version = e.version;
  out.channel = e.channel;
  out.level = e.level;
  out.opcode = e.opcode;
  out.task = e.task;
  out.keyword = e.keyword;
  out.flags = e.flags;
  return out;
}

bool decode_record(const RecordHead& h, const uint8_t* rec, const RecordLayout& l,
                   const StreamInfo& s, EventRecord& out, std::string& why) {
  TableEntry e;
  if (h.entry == kEntryInline) {
    std::memcpy(&e, rec + kMinRecordBytes, sizeof e);
  } else if (h.entry < s.count) {
    e = s.table[h.entry];
  } else {
    why = "a record names table entry " + std::to_string(h.entry) + " of " +
          std::to_string(s.count) + " its writer published";
    return false;
  }
  out = event_template(e, s.pid);
  fill_event(h, rec, l, filetime_at(s, h.ts), out);
  return true;
}

}  // namespace pfc::trace
