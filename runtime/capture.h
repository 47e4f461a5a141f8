// runtime/capture.h — the binary event capture format (version 1): a header, a provider
// table, a string table (executable paths) and one record per event (descriptor, pid, tid,
// timestamp, exe index, payload). Written by `pfc gen`, read by `pfc run --events` and the
// benchmarks. Byte layout: docs/cli.md, "The capture format". pfc::internal holds the parts
// only the reader and writers use: little-endian byte access and the field offsets of a
// record's fixed part.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/error.h"
#include "base/le.h"
#include "pfc/event.h"
#include "pfc/guid.h"

namespace pfc {

inline constexpr std::array<uint8_t, 8> kCaptureMagic = {0x89, 'P', 'F', 'C', 'C', 'A', 'P', '\n'};
inline constexpr uint16_t kCaptureVersion = 1;
inline constexpr uint32_t kCaptureHeaderSize = 40;
inline constexpr uint32_t kCaptureRecordHeaderSize = 48;
inline constexpr uint32_t kCaptureNoExe = 0xFFFFFFFF;

// True when `bytes` starts with the capture magic (the format's only detection rule).
bool is_capture(std::span<const uint8_t> bytes);

// One event of a capture. `event` points into the capture's bytes (payload) and string
// table (exe); package_id, app_id and name are empty (the format does not carry them).
struct CaptureRecord {
  uint16_t provider = 0;   // index into CaptureReader::providers()
  uint64_t timestamp = 0;  // 100-ns ticks, as the writer gave them
  EventView event;
};

// Builds a capture in memory. Not thread-safe; cheap to move.
class CaptureWriter {
 public:
  // Index of `guid` in the provider table (added on first use). Fails past 65,535 providers.
  Result<uint16_t> add_provider(const Guid& guid);
  // Appends one record; `event.exe` is interned in the string table (empty = no exe).
  // Fails for an unknown provider index or a payload of 4 GiB or more.
  Result<void> add(uint16_t provider, const Event& event, uint64_t timestamp);
  uint64_t record_count() const { return records_; }
  // The complete file: header (with record count and body checksum), tables, records.
  std::vector<uint8_t> finish() const;

 private:
  uint32_t intern(std::string_view text);

  std::vector<Guid> providers_;
  std::vector<std::string> strings_;
  std::unordered_map<std::string, uint32_t> string_index_;
  std::vector<uint8_t> body_;  // the records, encoded
  uint64_t records_ = 0;
};

// Reads a capture held in memory. open() validates everything (header, tables, every
// record, trailing bytes, checksum) so that next() cannot fail; `bytes` must outlive the
// reader and every record it returns. Errors name the offending record and byte offset.
// Not thread-safe (next() advances a cursor); copies read independently.
class CaptureReader {
 public:
  static Result<CaptureReader> open(std::span<const uint8_t> bytes);

  uint64_t record_count() const { return record_count_; }
  const std::vector<Guid>& providers() const { return providers_; }
  const std::vector<std::string_view>& strings() const { return strings_; }

  // The next record in file order; false after the last one.
  bool next(CaptureRecord& out);
  void rewind();

 private:
  CaptureReader() = default;

  std::span<const uint8_t> bytes_;
  std::vector<Guid> providers_;
  std::vector<std::string_view> strings_;
  uint64_t record_count_ = 0;
  uint64_t records_begin_ = 0;
  uint64_t cursor_ = 0;
  uint64_t read_ = 0;
};

}  // namespace pfc

namespace pfc::internal {

// Offsets inside the 48-byte fixed part of a record (docs/cli.md, "The capture format").
namespace capture_record {
inline constexpr uint32_t kPayloadSize = 0;  // u32
inline constexpr uint32_t kProvider = 4;     // u16
inline constexpr uint32_t kFlags = 6;        // u16, must be 0
inline constexpr uint32_t kDescriptor = 8;   // id u16, version, channel, level, opcode u8,
                                             // task u16, keyword u64 (16 bytes)
inline constexpr uint32_t kPid = 24;         // u32
inline constexpr uint32_t kTid = 28;         // u32
inline constexpr uint32_t kTimestamp = 32;   // u64
inline constexpr uint32_t kExe = 40;         // u32 string index or kCaptureNoExe
inline constexpr uint32_t kReserved = 44;    // u32, must be 0
}  // namespace capture_record

// Offsets inside the 40-byte header.
namespace capture_header {
inline constexpr uint32_t kMagic = 0;           // 8 bytes
inline constexpr uint32_t kVersion = 8;         // u16
inline constexpr uint32_t kHeaderSize = 10;     // u16
inline constexpr uint32_t kProviderCount = 12;  // u32
inline constexpr uint32_t kStringCount = 16;    // u32
inline constexpr uint32_t kBodyCrc = 20;        // u32, CRC-32 of every byte after the header
inline constexpr uint32_t kRecordCount = 24;    // u64
inline constexpr uint32_t kBodySize = 32;       // u64, bytes after the header
}  // namespace capture_header

// The limits every capture reader applies (docs/cli.md "Limits"): a record's payload (the
// encoder's bound on a payload, runtime/encode.h) and the string table (executable paths),
// all strings with their 4-byte lengths together.
inline constexpr uint64_t kMaxCapturePayload = uint64_t{16} << 20;
inline constexpr uint64_t kMaxCaptureStrings = uint64_t{64} << 20;
// Their messages: "payload of N bytes exceeds the limit of …" (after the record prefix of
// capture_record_error) and "capture: the string table exceeds the limit of … (string I at
// offset O)".
std::string capture_payload_limit_message(uint64_t payload);
std::string capture_strings_limit_message(uint32_t index, uint64_t offset);

// The header fields a reader needs after validation.
struct CaptureHeaderFields {
  uint32_t providers = 0;
  uint32_t strings = 0;
  uint32_t crc = 0;
  uint64_t records = 0;
  uint64_t body_size = 0;
};

// Checks the header at the start of `bytes` (the magic, at least kCaptureHeaderSize bytes,
// version, header size, provider count ≤ 65,535) and returns its fields. Errors start with
// "capture: ".
Result<CaptureHeaderFields> read_capture_header(std::span<const uint8_t> bytes);

// "capture: record INDEX at offset OFFSET: WHAT".
std::unexpected<Error> capture_record_error(uint64_t index, uint64_t offset,
                                            const std::string& what);

// The checks of record `index` (at file `offset`) that need only its 48 fixed bytes:
// provider and exe index in range, flags and reserved fields zero.
Result<void> check_capture_record_fields(const uint8_t* fixed, uint64_t index, uint64_t offset,
                                         const CaptureHeaderFields& header);

// The record whose fixed part is at `fixed`, its payload right after it; `strings` is the
// string table (exe indexes were checked). `out.event` points into both.
void decode_capture_record(const uint8_t* fixed, std::span<const std::string_view> strings,
                           CaptureRecord& out);
// The same for the event alone (what a streaming reader routes), written into `out`.
void decode_capture_event(const uint8_t* fixed, std::span<const std::string_view> strings,
                          EventView& out);

// Appends one record (fixed part and payload) to `out`; `exe` is a string index or
// kCaptureNoExe. The payload must be below 4 GiB.
void append_capture_record(std::vector<uint8_t>& out, uint16_t provider, const EventView& e,
                           uint32_t exe, uint64_t timestamp);

// The provider table followed by the string table.
std::vector<uint8_t> capture_tables(std::span<const Guid> providers,
                                    std::span<const std::string> strings);

// The 40-byte header.
std::vector<uint8_t> capture_header_bytes(uint32_t providers, uint32_t strings, uint32_t crc,
                                          uint64_t records, uint64_t body_size);

}  // namespace pfc::internal
