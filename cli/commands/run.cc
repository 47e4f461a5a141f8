// cli/commands/run.cc — `pfc run SCRIPT --events FILE`: streams the events of FILE (JSON
// Lines, a JSON array, a binary capture or a log file; pfc/events.h) through a Router built from
// the script, one event at a time, and writes what --output asks for (cli/run_output.h):
// one decision line per event (the default), the selected events, CSV, a capture, or with
// --count the per-session totals. A bad event is reported on stderr when it is reached,
// after the output of the events before it, and the run goes on with the next one (exit 1
// at the end); a fatal problem (a capture error, an over-long line) ends the run. With
// --explain, every session's verdict is also derived by cli/explain (the interpreter's
// check notes on the installed program) and must agree with the engine's (a disagreement
// is an internal error, exit 3).
#include <optional>
#include <string>
#include <vector>

#include "api/explain.h"
#include "base/hex.h"
#include "cli/commands/commands.h"
#include "cli/event_source.h"
#include "cli/exit_code.h"
#include "cli/limits.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "cli/router_setup.h"
#include "cli/run_output.h"
#include "cli/script_loader.h"
#include "cli/term.h"
#include "compiler/jit/jit.h"

namespace pfc::cli {
namespace {

// `where`: "line N" (JSON) or "record N" (capture).
std::string mismatch_message(uint64_t seq, const std::string& where, const RouteResult& engine,
                             const RouteResult& explained) {
  return "engine and --explain disagree on event " + std::to_string(seq) + " (" + where +
         "): engine deliver=" + to_hex(engine.deliver) + " stack=" + to_hex(engine.stack) +
         ", explain deliver=" + to_hex(explained.deliver) + " stack=" + to_hex(explained.stack);
}

// The routing loop's state and its exit status.
struct Stream {
  EventSource& source;
  RunOutput& output;
  OutputFile& file;
  std::ostream& err;
  uint64_t problems = 0;
  int internal = kExitOk;  // kExitInternal after an --explain disagreement
};

// Prints a problem of the input after the output so far; false when reading must stop.
bool report(Stream& s, const SourceProblem& problem) {
  s.file.flush();
  s.err << render_problem(problem, stderr_color()) << std::flush;
  if (problem.fatal) return false;
  if (++s.problems < kMaxInputProblems) return true;
  s.err << "pfc: error: " << problem.file << ": too many bad events (" << kMaxInputProblems
        << "); stopping\n"
        << std::flush;
  return false;
}

// The engine's result for `in`, checked against --explain's when `explainer` is set
// (kExplain); false after a disagreement (reported).
template <bool kExplain>
bool route_one(Stream& s, const ScriptRouter& routed, Explainer* explainer, uint64_t seq,
               const SourceEvent& in) {
  const RouteResult r = routed.router->route(routed.providers[in.provider], in.view, in.exclude);
  const std::vector<Rejection>* why = nullptr;
  std::optional<ExplainedRoute> x;
  if constexpr (kExplain) {
    x = explainer->explain(in.provider, in.view, in.exclude);
    if (x->result != r) {
      s.file.flush();
      const std::string where = std::string(s.source.unit()) + " " + std::to_string(in.where);
      s.err << "pfc: internal error: " << mismatch_message(seq, where, r, x->result) << '\n';
      s.internal = kExitInternal;
      return false;
    }
    why = &x->why;
  }
  if (auto w = s.output.event(seq, in, r, why); !w) {
    s.err << "pfc: error: " << w.error().message << '\n';
    s.internal = kExitInput;
    return false;
  }
  return !s.file.failed();
}

// Routes every event of the source into the output, reporting problems as they come. One
// instantiation per kExplain, so the common loop carries nothing of --explain.
template <bool kExplain>
void route_loop(Stream& s, const ScriptRouter& routed, Explainer* explainer, Progress& progress) {
  SourceEvent in;
  SourceProblem problem;
  for (uint64_t seq = 0;;) {
    const EventSource::Step step = s.source.next(in, problem);
    if (step == EventSource::Step::End) return;
    if (step == EventSource::Step::Problem) {
      const bool go_on = report(s, problem);
      s.problems += problem.fatal ? 1 : 0;
      if (!go_on) return;
      continue;
    }
    if (!route_one<kExplain>(s, routed, explainer, seq, in)) return;
    if (progress.due(++seq)) progress.tick(seq, s.source.consumed(), s.source.size());
  }
}

void route_all(Stream& s, const ScriptRouter& routed, bool explain, Progress& progress) {
  if (!explain) return route_loop<false>(s, routed, nullptr, progress);
  auto made = Explainer::create(*routed.router, routed.providers,
                                static_cast<uint32_t>(routed.session_names.size()));
  if (!made) {
    s.err << "pfc: internal error: --explain: " << made.error().message << '\n';
    s.internal = kExitInternal;
    return;
  }
  route_loop<true>(s, routed, &*made, progress);
}

OutputMode output_mode(const RunOptions& o) {
  if (o.count) return OutputMode::Count;
  if (o.output == "events") return OutputMode::Events;
  if (o.output == "csv") return OutputMode::Csv;
  if (o.output == "capture") return OutputMode::Capture;
  return OutputMode::Decisions;
}

// The slots of the --session names; prints a usage error for an unknown name.
std::optional<uint64_t> selected_sessions(const RunOptions& o, const ScriptRouter& routed,
                                          std::ostream& err) {
  if (o.sessions.empty()) return ~uint64_t{0};
  uint64_t mask = 0;
  for (const std::string& name : o.sessions) {
    size_t slot = 0;
    while (slot < routed.session_names.size() && routed.session_names[slot] != name) ++slot;
    if (slot == routed.session_names.size()) {
      err << "pfc: error: --session " << name << ": the script has no session '" << name
          << "'\nRun 'pfc run --help' for usage.\n";
      return std::nullopt;
    }
    mask |= uint64_t{1} << slot;
  }
  return mask;
}

// Opens the events and the output, routes, finishes the output; the exit code.
int run_stream(const RunOptions& options, const LoadedScript& loaded, const EngineRouter& setup,
               uint64_t selected, std::ostream& err) {
  auto source = open_event_source(options.events, loaded.checked());
  if (!source) {
    err << render_problem(source.error(), stderr_color()) << std::flush;
    return kExitInput;
  }
  auto file = OutputFile::open(options.output_file);
  if (!file) {
    err << "pfc: error: " << file.error().message << '\n';
    return kExitInput;
  }
  const std::string engine = options.debug_crosscheck ? "crosscheck" : options.engine;
  auto output = make_run_output({output_mode(options), selected, engine}, loaded.checked(),
                                setup.routed.session_names, *file);
  if (!output) {
    err << "pfc: error: " << output.error().message << '\n';
    return kExitInput;
  }
  (*source)->set_before_read([&f = *file] { f.flush(); });
  // Progress on a terminal stderr, unless the per-event output goes to that terminal too.
  Progress progress(is_terminal(2) && (options.count || !file->is_terminal()), err);
  Stream s{**source, **output, *file, err};
  route_all(s, setup.routed, options.explain && !options.count, progress);
  progress.clear();
  if (s.internal == kExitOk && !file->failed()) {
    if (auto f = (*output)->finish(); !f) {
      err << "pfc: error: " << f.error().message << '\n';
      return kExitInput;
    }
  }
  if (!file->close()) return report_write_error(*file, err);
  if (s.internal != kExitOk) return s.internal;
  return s.problems == 0 ? kExitOk : kExitInput;
}

}  // namespace

int command_run(const RunOptions& options, std::ostream& err) {
  auto loaded = load_script(options.script, err);
  if (!loaded) return loaded.error();
  auto setup = make_engine_router(loaded->checked(),
                                  options.debug_crosscheck ? "crosscheck" : options.engine, err);
  if (!setup) return setup.error();
  const EngineChoice& engine = setup->engine;
  // The jit engine compiles while enabling; a failure would silently route with the
  // interpreter, which must not pass for a JIT result.
  if (const auto failure = engine.errors->first(); failure && engine.strict) {
    if (is_jit_limit_error(*failure)) {  // a property of the script, not a failure of pfc
      err << "pfc: error: --engine jit: " << failure->message
          << " (docs/limits.md; --engine auto or interp route it)\n";
      return kExitInput;
    }
    err << "pfc: internal error: JIT compilation failed: " << failure->message << '\n';
    return kExitInternal;
  }
  const auto selected = selected_sessions(options, setup->routed, err);
  if (!selected) return kExitUsage;
  const int status = run_stream(options, *loaded, *setup, *selected, err);
  if (const uint64_t n = engine.errors->mismatches(); n != 0) {
    err << "pfc: error: --debug-crosscheck: the interpreter and the JIT disagree on " << n
        << " event(s); first: " << *engine.errors->first_mismatch() << '\n';
    return kExitInternal;
  }
  return status;
}

}  // namespace pfc::cli
