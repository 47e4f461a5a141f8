// cli/event_source.h — a stream of events to route, read from any input one event at a
// time with memory bounded independently of the input's size (docs/cli.md "Streaming").
// Implementations: JSON events files (JSON Lines or one JSON array; cli/json_source.cc),
// binary captures (cli/capture_source.cc) and trace log files (cli/log_source.cc). Commands only
// see this interface, so a new input format is a new EventSource.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "compiler/check.h"
#include "pfc/event.h"

namespace pfc::cli {

struct SourceEvent {
  uint32_t provider = 0;          // index into CheckedScript::schema.providers
  const EventDef* def = nullptr;  // the schema's event for (id, version), null if undeclared
  EventView view;                 // valid until the next call of next()
  uint64_t exclude = 0;           // sessions removed after filtering (bit = slot)
  uint64_t timestamp = 0;         // captures only (100-ns ticks)
  uint64_t where = 0;             // the line (JSON, from 1) or the record index (capture)
  // JSON Lines only: the event's line as it came, without its '\n' (a CRLF line keeps its
  // '\r'), a view into the source's buffer valid until the next call of next(); empty for
  // every other input form. `--output events` writes it instead of re-encoding the event
  // (docs/cli.md "Output").
  std::string_view text;
};

// A problem in the input. With a line it renders as a diagnostic
// ("FILE:LINE:COL: error: MESSAGE", the line, a caret); without one as
// "pfc: error: FILE: MESSAGE".
struct SourceProblem {
  std::string file;   // display name
  uint64_t line = 0;  // 0: no position
  uint64_t column = 1;
  std::string echo;          // the source line (or the part of it holding the problem)
  uint64_t echo_column = 1;  // where the caret goes in `echo`
  std::string message;
  bool fatal = false;  // the source cannot go on after it
};

// The problem as printed on stderr (ends with '\n'); `color` adds ANSI colours.
std::string render_problem(const SourceProblem& problem, bool color);

class EventSource {
 public:
  enum class Step : uint8_t { Event, Problem, End };
  virtual ~EventSource() = default;
  // The next event (Event: `event` filled), a problem in the input (Problem: `problem`
  // filled; unless problem.fatal, later calls go on after it), or the end. After End or a
  // fatal problem every call returns End.
  virtual Step next(SourceEvent& event, SourceProblem& problem) = 0;
  // "line" or "record": what SourceEvent::where counts.
  virtual std::string_view unit() const = 0;
  // Bytes of the input consumed so far, and the input's size when known (progress).
  virtual uint64_t consumed() const = 0;
  virtual std::optional<uint64_t> size() const = 0;
  // `hook` runs before every read of the input that may block (cli/byte_reader.h).
  virtual void set_before_read(std::function<void()> hook) = 0;
};

// Opens `path` ("-" = standard input) and tells the format apart: a binary capture or a
// trace log file (docs/logfile.md) by its magic, a JSON array by a first non-blank '[', else JSON
// Lines. Fails when the file cannot be read or a capture's header or tables are bad (or name
// providers the script lacks).
std::expected<std::unique_ptr<EventSource>, SourceProblem> open_event_source(
    const std::string& path, const CheckedScript& script);

}  // namespace pfc::cli
