// cli/script_loader.h — reads a filter script, runs the front end (parse + check) and
// prints its diagnostics; the first step of every `pfc` command.
#pragma once

#include <cstdint>
#include <expected>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "compiler/frontend.h"
#include "grammar/source.h"

namespace pfc::cli {

struct LoadedScript {
  std::unique_ptr<SourceFile> source;  // owns the text the diagnostics point into
  FrontendOutput front;
  const CheckedScript& checked() const { return front.checked.script; }
};

// Prints the diagnostics (errors, warnings, notes) in source order to `err`, at most
// kMaxInputProblems errors (cli/limits.h).
void print_diagnostics(const SourceFile& source, const std::vector<Diagnostic>& diagnostics,
                       std::ostream& err);

enum class ShowDiagnostics : uint8_t {
  All,         // `pfc check`: errors, warnings and notes
  ErrorsOnly,  // run / state / compile: warnings are `pfc check`'s business
};

// Errors and warnings printed (notes are not counted, as in clang).
struct DiagnosticCounts {
  uint64_t errors = 0;
  uint64_t warnings = 0;
};

// clang's summary line: "1 error generated.", "2 warnings generated.", "2 errors, 1 warning
// generated." (docs/cli.md "Diagnostics"); "" when both counts are 0.
std::string diagnostic_summary(const DiagnosticCounts& counts);

// Reads SCRIPT and compiles it, printing its diagnostics to `err` as print_diagnostics does
// (and counting those printed into `counts` when non-null). On success returns the script;
// otherwise returns the exit code to use (kExitInput: unreadable file or an error diagnostic).
std::expected<LoadedScript, int> load_script(const std::string& path, std::ostream& err,
                                             ShowDiagnostics show = ShowDiagnostics::ErrorsOnly,
                                             DiagnosticCounts* counts = nullptr);

// Reads SCRIPT into a SourceFile (printing "pfc: error: cannot read ..." on failure).
std::expected<std::unique_ptr<SourceFile>, int> read_source(const std::string& path,
                                                            std::ostream& err);

}  // namespace pfc::cli
