// cli/commands/check.cc — `pfc check SCRIPT [--events FILE]`: every diagnostic of the
// script, exit 0 when none is an error; with --events, every event of FILE is also read
// and resolved against the script (streamed, nothing routed) and every bad one reported.
#include <ostream>

#include "cli/commands/commands.h"
#include "cli/event_source.h"
#include "cli/exit_code.h"
#include "cli/limits.h"
#include "cli/script_loader.h"
#include "cli/term.h"

namespace pfc::cli {
namespace {

// Reads every event; the number of problems reported (a fatal one ends the reading).
uint64_t check_events(EventSource& source, std::ostream& err) {
  SourceEvent event;
  SourceProblem problem;
  uint64_t problems = 0;
  for (;;) {
    const EventSource::Step step = source.next(event, problem);
    if (step == EventSource::Step::End) return problems;
    if (step == EventSource::Step::Event) continue;
    err << render_problem(problem, stderr_color()) << std::flush;
    if (++problems == kMaxInputProblems && !problem.fatal)
      err << "pfc: error: " << problem.file << ": too many bad events (" << kMaxInputProblems
          << "); stopping\n";
    if (problem.fatal || problems == kMaxInputProblems) return problems;
  }
}

// Prints the summary line after every diagnostic, and passes `code` through.
int summarize(const DiagnosticCounts& counts, int code, std::ostream& err) {
  err << diagnostic_summary(counts) << std::flush;
  return code;
}

int command_check_events(const CheckOptions& options, const LoadedScript& loaded,
                         DiagnosticCounts& counts, std::ostream& err) {
  auto source = open_event_source(options.events, loaded.checked());
  if (!source) {
    err << render_problem(source.error(), stderr_color()) << std::flush;
    ++counts.errors;
    return kExitInput;
  }
  const uint64_t problems = check_events(**source, err);
  counts.errors += problems;
  return problems == 0 ? kExitOk : kExitInput;
}

}  // namespace

int command_check(const CheckOptions& options, std::ostream& err) {
  DiagnosticCounts counts;
  auto loaded = load_script(options.script, err, ShowDiagnostics::All, &counts);
  if (!loaded) return summarize(counts, loaded.error(), err);
  if (options.events.empty()) return summarize(counts, kExitOk, err);
  return summarize(counts, command_check_events(options, *loaded, counts, err), err);
}

}  // namespace pfc::cli
