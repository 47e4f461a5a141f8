// cli/event_source.h — the event sources of the commands: the events library's streams
// (pfc/events.h: JSON Lines, JSON arrays, captures, log files) opened against a checked
// script, and how their problems are printed.
#pragma once

#include <expected>
#include <memory>
#include <string>

#include "compiler/check.h"
#include "pfc/events.h"

namespace pfc::cli {

using pfc::EventSource;
using pfc::SourceEvent;
using pfc::SourceProblem;

// The problem as printed on stderr (ends with '\n'); `color` adds ANSI colours. With a
// line it renders as a diagnostic ("FILE:LINE:COL: error: MESSAGE", the line, a caret);
// without one as "pfc: error: FILE: MESSAGE".
std::string render_problem(const SourceProblem& problem, bool color);

// The script's schema and session names, as the sources resolve them.
SourceSchema source_schema(const CheckedScript& script);

// open_events over the script's schema and sessions: the source, or why there is none.
std::expected<std::unique_ptr<EventSource>, SourceProblem> open_event_source(
    const std::string& path, const CheckedScript& script);

}  // namespace pfc::cli
