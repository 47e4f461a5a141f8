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

}  // namespace

int command_check(const CheckOptions& options, std::ostream& err) {
  auto loaded = load_script(options.script, err, ShowDiagnostics::All);
  if (!loaded) return loaded.error();
  if (options.events.empty()) return kExitOk;
  auto source = open_event_source(options.events, loaded->checked());
  if (!source) {
    err << render_problem(source.error(), stderr_color()) << std::flush;
    return kExitInput;
  }
  return check_events(**source, err) == 0 ? kExitOk : kExitInput;
}

}  // namespace pfc::cli
