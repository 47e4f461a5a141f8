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
  FrontendOutput front;                // front.ast is emptied once the script checked
  const CheckedScript& checked() const { return front.checked.script; }
};

// Prints every diagnostic (errors, warnings, notes) in source order to `err`.
void print_diagnostics(const SourceFile& source, const std::vector<Diagnostic>& diagnostics,
                       std::ostream& err);

enum class ShowDiagnostics : uint8_t {
  All,         // `pfc check`: errors, warnings and notes
  ErrorsOnly,  // run / state / compile: warnings are `pfc check`'s business
};

// Reads SCRIPT and compiles it, printing its diagnostics to `err`. On success returns the
// script; otherwise returns the exit code to use (kExitInput: unreadable file or an error
// diagnostic).
std::expected<LoadedScript, int> load_script(const std::string& path, std::ostream& err,
                                             ShowDiagnostics show = ShowDiagnostics::ErrorsOnly);

// Reads SCRIPT into a SourceFile (printing "pfc: error: cannot read ..." on failure).
std::expected<std::unique_ptr<SourceFile>, int> read_source(const std::string& path,
                                                            std::ostream& err);

}  // namespace pfc::cli
