// cli/script_loader.h — reads a filter script, runs the front end (parse + check) and
// prints its diagnostics; the first step of every `pfc` command.
#pragma once

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

// Prints every diagnostic (errors, warnings, notes) in source order to `err`.
void print_diagnostics(const SourceFile& source, const std::vector<Diagnostic>& diagnostics,
                       std::ostream& err);

// Reads SCRIPT and compiles it, printing all its diagnostics to `err`. On success returns
// the script; otherwise returns the exit code to use (kExitInput: unreadable file or an
// error diagnostic).
std::expected<LoadedScript, int> load_script(const std::string& path, std::ostream& err);

// Reads SCRIPT into a SourceFile (printing "pfc: error: cannot read ..." on failure).
std::expected<std::unique_ptr<SourceFile>, int> read_source(const std::string& path,
                                                            std::ostream& err);

}  // namespace pfc::cli
