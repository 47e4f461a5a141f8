// cli/trace_args.h — adds `pfc trace` and its subcommands to the command line.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/trace_options.h"

namespace pfc::cli {

// Fills `o` (o.action = the subcommand given) when `app` parses.
void add_trace(CLI::App& app, TraceOptions& o);

}  // namespace pfc::cli
