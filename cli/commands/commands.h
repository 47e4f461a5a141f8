// cli/commands/commands.h — the `pfc` subcommands (docs/cli.md). Each returns the exit
// code (cli/exit_code.h), writes results to `out` (run and gen: to their -o file, "-" =
// standard output) and diagnostics/errors to `err`, and may throw only on internal
// failures (main turns those into exit 3).
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace pfc::cli {

struct RunOptions {
  std::string script;
  std::string events;
  std::string engine = "auto";
  bool explain = false;
  bool count = false;             // --count: per-session counts and events/s instead of JSON lines
  bool debug_crosscheck = false;  // route on the interpreter and the JIT; report disagreements
  std::string output = "decisions";   // --output: decisions, events, csv or capture
  std::string output_file = "-";      // -o FILE ("-" = standard output)
  std::vector<std::string> sessions;  // --session NAME...: what events/capture select
};

struct CheckOptions {
  std::string script;
  std::string events;  // --events FILE: also check every event of FILE ("" = none)
};

struct GenCommandOptions {
  std::string script;
  std::string output;
  uint64_t count = 0;
  uint64_t seed = 0;
  std::optional<double> match_rate;
};

struct McOptions {
  std::string manifest;
  std::string dir = ".";   // -h DIR
  std::string base;        // -z BASENAME (default: the manifest's name without extension)
  bool user_mode = false;  // -um (required: the only mode)
  bool help = false;
};

// `pfc mc`'s arguments (those after "mc"); the error is a usage error's message.
std::expected<McOptions, std::string> parse_mc_args(const std::vector<std::string>& args);

int command_check(const CheckOptions& options, std::ostream& err);
int command_run(const RunOptions& options, std::ostream& err);
int command_state(const std::string& script, std::ostream& err);
int command_gen(const GenCommandOptions& options, std::ostream& out, std::ostream& err);
int command_mc(const McOptions& options, std::ostream& err);
int command_compile(const std::string& script, const std::string& emit, std::ostream& out,
                    std::ostream& err);

}  // namespace pfc::cli
