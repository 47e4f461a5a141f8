// io/capture_sink.h — writes a binary capture (docs/cli.md "The capture format") of any
// number of events with memory bounded by the string table (distinct executable paths),
// not by the event count: records go to an unnamed temporary file as they come (with a
// running checksum); finish() writes the header and tables to the output and copies the
// records after them. Used by `pfc gen`, `pfc run --output capture` and EventSink
// (pfc/events.h).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/error.h"
#include "io/output_file.h"
#include "pfc/event.h"
#include "pfc/guid.h"

namespace pfc::io {

class CaptureSink {
 public:
  // `providers` is the provider table (record provider index = position). The temporary
  // file goes beside a regular output file, else into $TMPDIR (default /tmp).
  static Result<CaptureSink> open(OutputFile& out, std::vector<Guid> providers);
  CaptureSink(CaptureSink&&) noexcept;
  CaptureSink& operator=(CaptureSink&&) = delete;
  ~CaptureSink();

  // Appends one record. Fails on a write error of the temporary file.
  Result<void> add(uint16_t provider, const EventView& event, uint64_t timestamp);
  uint64_t records() const { return records_; }
  // Writes the complete capture to the output (not flushed: the caller closes it).
  Result<void> finish();

 private:
  CaptureSink(OutputFile& out, std::vector<Guid> providers, int fd);
  uint32_t intern(std::string_view text);
  Result<void> flush_body();

  OutputFile* out_;
  std::vector<Guid> providers_;
  std::vector<std::string> strings_;
  std::unordered_map<std::string, uint32_t> string_index_;
  int body_fd_ = -1;              // the temporary file holding the records
  std::vector<uint8_t> pending_;  // records not yet written to it
  uint64_t body_size_ = 0;        // bytes of records written so far
  uint32_t body_crc_ = 0;         // CRC-32 of those bytes
  uint64_t records_ = 0;
};

}  // namespace pfc::io
