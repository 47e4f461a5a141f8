// pfc/events.h — events files, captures and log files as streams of events, and events as
// events-file lines (docs/embedding.md "Reading and writing events"): the inputs `pfc run
// --events` reads and the lines `pfc run --output events` writes, for programs that embed
// libpfc. Formats: JSON Lines, one JSON array of events (docs/cli.md "The events file"),
// binary captures (docs/cli.md "The capture format") and trace log files (docs/logfile.md).
// Needs C++20; the only other headers it uses are the public data headers below.
//
// Thread-safety: an EventSource is used by one thread at a time; the free functions are
// thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pfc/event.h"
#include "pfc/schema.h"

namespace pfc {

// What a source resolves an event's names against: provider and event names and GUIDs,
// field names and types (the "fields" member), session names (the "exclude" member).
struct SourceSchema {
  const Schema& schema;               // must outlive every source opened with it
  std::vector<std::string> sessions;  // session names by slot (at most 64 are named)
};

struct SourceEvent {
  uint32_t provider = 0;          // index into SourceSchema::schema.providers
  const EventDef* def = nullptr;  // the schema's event for (id, version), null if undeclared
  EventView view;                 // valid until the next call of next()
  uint64_t exclude = 0;           // sessions removed after filtering (bit = slot)
  uint64_t timestamp = 0;         // captures and log files only (100-ns ticks)
  uint64_t where = 0;             // the line (JSON, from 1) or the record index (capture, log)
  // JSON Lines only: the event's line as it came, without its '\n' (a CRLF line keeps its
  // '\r'), a view into the source's buffer valid until the next call of next(); empty for
  // every other input form. `pfc run --output events` writes it instead of re-encoding the
  // event (docs/cli.md "Output").
  std::string_view text;
};

// A problem in the input. With a line (JSON input) it is shown as a diagnostic
// ("FILE:LINE:COL: error: MESSAGE", the line, a caret); without one as "FILE: MESSAGE",
// the message naming the record and byte offset where the input has them (captures, log
// files: "capture: record 3 at offset 152: …").
struct SourceProblem {
  std::string file;   // display name ("<stdin>" for "-")
  uint64_t line = 0;  // 0: no position
  uint64_t column = 1;
  std::string echo;          // the source line (or the part of it holding the problem)
  uint64_t echo_column = 1;  // where the caret goes in `echo`
  std::string message;
  bool fatal = false;  // the source cannot go on after it
};

// A stream of events read one at a time, with memory bounded independently of the input's
// size (docs/cli.md "Streaming", docs/limits.md).
class EventSource {
 public:
  enum class Step : uint8_t { Event, Problem, End };
  virtual ~EventSource() = default;
  // The next event (Event: `event` filled), a problem in the input (Problem: `problem`
  // filled; unless problem.fatal, later calls go on after it: a bad JSON event is skipped),
  // or the end. After End or a fatal problem every call returns End.
  virtual Step next(SourceEvent& event, SourceProblem& problem) = 0;
  // "line" or "record": what SourceEvent::where counts.
  virtual std::string_view unit() const = 0;
  // Bytes of the input consumed so far, and the input's size when known (progress).
  virtual uint64_t consumed() const = 0;
  virtual std::optional<uint64_t> size() const = 0;
  // `hook` runs before every read of the input that may block (a pipe, a terminal).
  virtual void set_before_read(std::function<void()> hook) = 0;
};

// Opens `path` ("-" = standard input) and tells the format apart: a binary capture or a
// trace log file by its magic, a JSON array by a first non-blank '[', else JSON Lines.
// Returns null and fills `*problem` (fatal) when the file cannot be read or a capture's
// header or tables are bad (or name providers the schema lacks).
std::unique_ptr<EventSource> open_events(const std::string& path, const SourceSchema& schema,
                                         SourceProblem* problem);

// Writes events to a file ("-" = standard output) as events-file lines (JSON Lines, each
// as events_file_line writes it) or as a binary capture, with memory bounded independently
// of the number of events: a capture's records go to a temporary file beside the output
// (else in $TMPDIR) until finish() writes the header and tables and copies them after.
class EventSink {
 public:
  enum class Format : uint8_t { EventsFile, Capture };
  virtual ~EventSink() = default;
  // Appends `event` (its provider an index into the sink's SourceSchema::schema.providers,
  // as a source gives it). False on a write error (error()); later calls fail too.
  virtual bool write(const SourceEvent& event) = 0;
  // Completes the file (a capture's header, tables and records) and closes it. False on a
  // write error (error()).
  virtual bool finish() = 0;
  // The first write error ("cannot write NAME: REASON", also for a pipe whose reader
  // closed it); empty while there is none.
  virtual std::string error() const = 0;
};

// Creates or truncates `path` for events in `format`. Null with `*error` set when the file
// cannot be created, or for a capture when the schema has more than 65,535 providers.
std::unique_ptr<EventSink> open_sink(const std::string& path, EventSink::Format format,
                                     const SourceSchema& schema, std::string* error);

// `event` as one events-file line ending in '\n' (docs/cli.md "The events file"): the
// provider's and event's names (id and version for an event the schema does not declare),
// every descriptor member, pid, tid, exe, package_id and app_id when present, the payload
// as "fields" when it decodes exactly (events_fields_json), else as "payload_hex", and the
// excluded sessions by name. Reading the line back gives the same event.
std::string events_file_line(const SourceSchema& schema, const SourceEvent& event);

// The payload of `event` as the JSON object of its named field values ({"name":value,...}
// in declaration order), or nullopt when it does not decode exactly: encoding the values
// again must give the payload byte for byte, and every value must be writable as JSON.
std::optional<std::string> events_fields_json(const EventDef& def, const EventView& event);

// The inverse: a JSON object of named field values (the "fields" member of an events-file
// line) encoded as the payload of `def` into `*payload`. Returns the empty string on success,
// else a one-line message (unknown or repeated field, wrong type, out of range...).
std::string events_encode_fields(const EventDef& def, std::string_view fields_json,
                                 std::vector<uint8_t>* payload);

}  // namespace pfc
