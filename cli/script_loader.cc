// cli/script_loader.cc — script reading and diagnostic printing.
#include "cli/script_loader.h"

#include <string>

#include "cli/exit_code.h"
#include "cli/files.h"
#include "cli/limits.h"
#include "cli/term.h"
#include "io/byte_reader.h"

namespace pfc::cli {

namespace {

// Prints `diagnostics` in order (warnings and notes only for ShowDiagnostics::All), counting
// those printed into `counts` when non-null. After kMaxInputProblems errors (and their
// notes) one line says the rest are not shown, as clang's -ferror-limit does: a script with
// an error on every predicate does not print one diagnostic per predicate.
void print_limited(const SourceFile& source, const std::vector<Diagnostic>& diagnostics,
                   ShowDiagnostics show, std::ostream& err, DiagnosticCounts* counts) {
  uint64_t errors = 0;
  for (const Diagnostic& d : diagnostics) {
    if (show != ShowDiagnostics::All && d.severity != Severity::Error) continue;
    if (errors == kMaxInputProblems && d.severity != Severity::Note) {
      err << "pfc: error: " << source.name() << ": too many errors (" << kMaxInputProblems
          << "); stopping\n";
      break;
    }
    err << paint_diagnostic(source.render(d), stderr_color());
    errors += d.severity == Severity::Error;
    if (counts != nullptr) {
      counts->errors += d.severity == Severity::Error;
      counts->warnings += d.severity == Severity::Warning;
    }
  }
  err.flush();
}

}  // namespace

void print_diagnostics(const SourceFile& source, const std::vector<Diagnostic>& diagnostics,
                       std::ostream& err) {
  print_limited(source, diagnostics, ShowDiagnostics::All, err, nullptr);
}

std::expected<std::unique_ptr<SourceFile>, int> read_source(const std::string& path,
                                                            std::ostream& err) {
  Result<std::string> text = read_whole_file(path, kMaxScriptBytes, "a script");
  if (!text) {
    err << "pfc: error: " << text.error().message << '\n';
    return std::unexpected(kExitInput);
  }
  return std::make_unique<SourceFile>(io::input_display_name(path), std::move(*text));
}

std::string diagnostic_summary(const DiagnosticCounts& counts) {
  auto part = [](uint64_t n, std::string_view word) {
    return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
  };
  std::string out;
  if (counts.errors != 0) out = part(counts.errors, "error");
  if (counts.warnings != 0) out += (out.empty() ? "" : ", ") + part(counts.warnings, "warning");
  return out.empty() ? out : out + " generated.\n";
}

std::expected<LoadedScript, int> load_script(const std::string& path, std::ostream& err,
                                             ShowDiagnostics show, DiagnosticCounts* counts) {
  auto source = read_source(path, err);
  if (!source) return std::unexpected(source.error());
  LoadedScript loaded{std::move(*source), {}};
  loaded.front = compile_script(*loaded.source);
  print_limited(*loaded.source, loaded.front.diagnostics, show, err, counts);
  if (!loaded.front.ok()) return std::unexpected(kExitInput);
  return loaded;
}

}  // namespace pfc::cli
