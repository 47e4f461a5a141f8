// cli/source_parts.h — internal to the event sources (cli/event_source.h): the two
// implementations' factories, used by open_event_source.
#pragma once

#include <memory>

#include "cli/byte_reader.h"
#include "cli/event_source.h"

namespace pfc::cli {

// JSON Lines, or (array = true) one JSON array of event objects.
std::unique_ptr<EventSource> make_json_source(ByteReader reader, const CheckedScript& script,
                                              bool array);

// A binary capture whose magic has been seen; reads and checks the header and tables.
std::expected<std::unique_ptr<EventSource>, SourceProblem> make_capture_source(
    ByteReader reader, const CheckedScript& script);

// A trace log file (docs/logfile.md) whose magic has been seen; `path` is reopened for
// random access unless it is "-" (then sequential files only).
std::expected<std::unique_ptr<EventSource>, SourceProblem> make_log_source(
    ByteReader reader, const std::string& path, const CheckedScript& script);

}  // namespace pfc::cli
