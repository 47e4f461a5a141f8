// pfc/capture.h — the binary event capture format (version 1): a header, a provider table,
// a string table (executable paths) and one record per event (descriptor, pid, tid,
// timestamp, exe index, payload). Written by `pfc gen`, read by `pfc run --events` and the
// benchmarks. Byte layout: docs/cli.md, "The capture format".
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pfc/error.h"
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
