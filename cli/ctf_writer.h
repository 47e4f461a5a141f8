// cli/ctf_writer.h — a CTF 1.8 trace directory (a TSDL `metadata` text file and one binary
// stream file, `stream`) built from ETW events, for `pfc trace export FILE --format ctf`
// and viewers such as babeltrace2. The layout, the clock and the mapping of TDH in-types to
// CTF types are docs/logfile.md "Viewing with babeltrace2".
//
// Events go into one stream in the order given (a log file's order: by time). A declared
// event whose payload decodes exactly (io/event_decode.h) gets a typed event class per
// (provider, id, version); any other event one with the payload as a u8 sequence. The
// metadata, which lists every class used, is written by finish().
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/error.h"
#include "pfc/guid.h"
#include "pfc/schema.h"

namespace pfc::cli {

// One event to write. `provider_name` is empty when no schema names the provider; `def`
// is null when no schema declares the event.
struct CtfEvent {
  Guid provider;
  EventDescriptor desc;
  uint32_t pid = 0;
  uint32_t tid = 0;
  uint16_t cpu = 0;
  int64_t filetime = 0;  // 100 ns since 1601-01-01 UTC
  const uint8_t* payload = nullptr;
  uint32_t payload_size = 0;
  std::string_view provider_name;
  const EventDef* def = nullptr;
  // A TraceLogging event's name (empty: none): its untyped class is one per name, not per
  // (id, version), which all TraceLogging events share.
  std::string_view event_name;
};

class CtfWriter {
 public:
  // Creates the directory `dir` (which must not exist, or be empty) and its stream file.
  // `source` (the log file's path) goes into the trace's environment. Errors read "cannot
  // write DIR: REASON".
  static Result<std::unique_ptr<CtfWriter>> create(const std::string& dir,
                                                   const std::string& source);
  ~CtfWriter();
  CtfWriter(const CtfWriter&) = delete;
  CtfWriter& operator=(const CtfWriter&) = delete;

  // Appends the event (written in packets of about 1 MB). An event whose time is before
  // the previous event's, or outside what the clock holds (1970 to 2262), is written with
  // the previous event's time and counted in times_adjusted(): a CTF stream's clock never
  // goes back.
  Result<void> add(const CtfEvent& e);
  // Writes the last packet and the metadata; the directory is complete after it.
  Result<void> finish();

  uint64_t events() const;
  uint64_t times_adjusted() const;

 private:
  struct State;
  explicit CtfWriter(std::unique_ptr<State> s);
  std::unique_ptr<State> s_;
};

// The TSDL identifier of a schema field name: '_' (which CTF readers strip when they show
// it), then the name with every character other than A–Z, a–z, 0–9 and '_' as '_'.
std::string ctf_identifier(std::string_view name);

}  // namespace pfc::cli
