// fuzz/trace/trace_input.h — the trace fuzzer's input format, shared by the fuzzer
// (trace_fuzzer.cc) and its seed generator (make_seeds.cc). Little-endian; every read past
// the end gives zeroes and every length is clamped to what is left, so any byte string is
// an input:
//   u8  flags (kFlag*)
//   u8  level, u64 MatchAny, u64 MatchAll          (convert_enable's other arguments)
//   u16 n, n bytes: a state file body               (trace::decode_state)
//   u16 n, n bytes: enable parameters               (etw::decode_enable_parameters)
//   the rest: a ring program — ops (RingOp, the byte taken modulo kRingOps) with their
//   operands, applied in order to a freshly reset valid ring before RingReader::open.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace pfc::fuzz::trace_input {

inline constexpr uint8_t kFlagDeadWriter = 1;  // the ring's writer process is gone
inline constexpr uint8_t kFlagStateFile = 2;   // also read the state through StateStore
inline constexpr uint8_t kFlagFixBlobs = 4;    // re-checksum PAYLOAD descriptors' blobs
inline constexpr uint8_t kFlagSpans = 8;       // read the ring by span() (the session host's way)
inline constexpr uint8_t kFlagWindows = 0x80;  // a window ring (1 KB windows), read by slice()
// Bits 4..6: how the state file's header is damaged (StateDamage), with kFlagStateFile.
inline constexpr int kDamageShift = 4;
enum StateDamage : uint8_t {
  kIntact,
  kMagic,
  kVersion,
  kBodySize,
  kCrc,
  kReserved,
  kTruncated,
  kAppended
};

enum RingOp : uint8_t {
  kSetHead,      // u64: header head
  kSetTail,      // u64: header tail; the cursor moves there
  kSetClosed,    // u8: header closed
  kSetLost,      // u64 lost, u64 lost_bytes
  kPatchHeader,  // u8 offset, u8 value: one byte of the header's first 256
  kEvent,        // u16 payload length, u8 stack count: a committed event at the cursor;
                 // cursor and head move past it
  kRecord,       // u32 size, u32 state, u32 entry (low byte) and parts (next byte), u16
                 // stack count: a raw record head at the cursor (state bit 2 clear: the
                 // stamp of kind state & 3 at the cursor, else state as it is), the count
                 // as a u64 after it; the cursor moves by size, head does not
  kPadding,      // u32 size: a padding record at the cursor; cursor and head move past it
  kReserve,      // u32 size: a reserved (uncommitted) record; cursor and head move past it
  kRaw,          // u8 n, n bytes at the cursor (cursor unchanged)
  kSkip,         // u32 n: cursor += n
  kHeadHere,     // head = cursor
  kTable,        // u8 n: table entries 0..n-1 (entry i has id i; at most 94 written),
                 // table_count n
  kEntryEvent,   // u8 index, u16 payload length: a committed event naming table entry
                 // `index` at the cursor; cursor and head move past it
  kRingOps
};

// Reads the format: fixed-width values and clamped byte strings.
class Cursor {
 public:
  Cursor(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  template <typename T>
  T get() {
    T v{};
    const size_t n = std::min(sizeof v, left());
    std::memcpy(&v, p_, n);
    p_ += n;
    return v;
  }
  // Up to n bytes (fewer when the input ends).
  std::vector<uint8_t> take(size_t n) {
    n = std::min(n, left());
    std::vector<uint8_t> out(p_, p_ + n);
    p_ += n;
    return out;
  }
  size_t left() const { return static_cast<size_t>(end_ - p_); }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

// Writes the format (the seed generator).
class Writer {
 public:
  template <typename T>
  Writer& put(T v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    out_.insert(out_.end(), p, p + sizeof v);
    return *this;
  }
  Writer& part(const std::vector<uint8_t>& b) {  // u16 length + bytes
    put<uint16_t>(static_cast<uint16_t>(b.size()));
    out_.insert(out_.end(), b.begin(), b.end());
    return *this;
  }
  Writer& op(RingOp o) { return put<uint8_t>(o); }
  std::vector<uint8_t>& bytes() { return out_; }

 private:
  std::vector<uint8_t> out_;
};

}  // namespace pfc::fuzz::trace_input
