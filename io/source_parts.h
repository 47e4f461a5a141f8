// io/source_parts.h — internal to the event sources (pfc/events.h): their factories, used
// by open_events (io/event_source.cc).
#pragma once

#include <expected>
#include <memory>

#include "io/byte_reader.h"
#include "pfc/events.h"

namespace pfc::io {

// JSON Lines, or (array = true) one JSON array of event objects.
std::unique_ptr<EventSource> make_json_source(ByteReader reader, const SourceSchema& script,
                                              bool array);

// A binary capture whose magic has been seen; reads and checks the header and tables.
std::expected<std::unique_ptr<EventSource>, SourceProblem> make_capture_source(
    ByteReader reader, const SourceSchema& script);

// A trace log file (docs/logfile.md) whose magic has been seen; `path` is reopened for
// random access unless it is "-" (then sequential files only).
std::expected<std::unique_ptr<EventSource>, SourceProblem> make_log_source(
    ByteReader reader, const std::string& path, const SourceSchema& script);

}  // namespace pfc::io
