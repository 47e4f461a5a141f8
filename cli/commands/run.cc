// cli/commands/run.cc — `pfc run SCRIPT --events FILE`: routes every event of a JSON Lines
// file through a Router built from the script and prints one JSON object per event. With
// --explain, every session's verdict is also derived by cli/explain and must agree with the
// engine's (a disagreement is an internal error, exit 3).
#include <string>
#include <vector>

#include "cli/commands/commands.h"
#include "cli/engine.h"
#include "cli/events_json.h"
#include "cli/exit_code.h"
#include "cli/explain.h"
#include "cli/output.h"
#include "cli/router_setup.h"
#include "cli/script_loader.h"

namespace pfc::cli {
namespace {

// The enable parameters session `slot` gave provider `provider`, or null.
const EnableParams* session_params(const CheckedScript& script, uint32_t slot,
                                   uint32_t provider) {
  for (const SessionDecl::Enable& e : script.sessions.at(slot).enables)
    if (e.provider == provider) return &e.params;
  return nullptr;
}

// The explain module's route result and reasons for one event.
struct Explanation {
  RouteResult result;
  std::vector<Rejection> why;
};

Explanation explain_event(const CheckedScript& script, const ScriptRouter& routed,
                          const InputEvent& in) {
  Explanation x;
  const uint64_t enabled = routed.router->composite(routed.providers[in.provider]).sessions;
  const ProviderDef& provider = script.schema.providers[in.provider];
  const EventView view = in.event.view();
  for (uint32_t slot = 0; slot < routed.session_names.size(); ++slot) {
    const uint64_t bit = uint64_t{1} << slot;
    const EnableParams* params = session_params(script, slot, in.provider);
    if ((enabled & bit) == 0 || params == nullptr) {
      x.why.push_back({slot, kWhyNotEnabled});
      continue;
    }
    const SessionVerdict v = explain_session(provider, *params, view);
    if (!v.rejected_by.empty()) {
      x.why.push_back({slot, v.rejected_by});
    } else if ((in.exclude & bit) != 0) {
      x.why.push_back({slot, kWhyExcluded});
    } else {
      x.result.deliver |= bit;
      if (v.stack) x.result.stack |= bit;
    }
  }
  return x;
}

std::string mismatch_message(uint64_t seq, const InputEvent& in, const RouteResult& engine,
                             const RouteResult& explained) {
  return "engine and --explain disagree on event " + std::to_string(seq) + " (line " +
         std::to_string(in.line) + "): engine deliver=" + hex_u64(engine.deliver) +
         " stack=" + hex_u64(engine.stack) + ", explain deliver=" + hex_u64(explained.deliver) +
         " stack=" + hex_u64(explained.stack);
}

int route_all(const LoadedScript& loaded, const ScriptRouter& routed, const EventsInput& input,
              bool explain, std::ostream& out, std::ostream& err) {
  std::string buffer;
  for (uint64_t seq = 0; seq < input.events.size(); ++seq) {
    const InputEvent& in = input.events[seq];
    const RouteResult r =
        routed.router->route(routed.providers[in.provider], in.event.view(), in.exclude);
    if (!explain) {
      buffer += format_route_line(seq, routed.session_names, r, nullptr);
    } else {
      const Explanation x = explain_event(loaded.checked(), routed, in);
      if (x.result != r) {
        out << buffer << std::flush;
        err << "pfc: internal error: " << mismatch_message(seq, in, r, x.result) << '\n';
        return kExitInternal;
      }
      buffer += format_route_line(seq, routed.session_names, r, &x.why);
    }
    if (buffer.size() >= (1u << 16)) {
      out << buffer;
      buffer.clear();
    }
  }
  out << buffer << std::flush;
  return kExitOk;
}

}  // namespace

int command_run(const RunOptions& options, std::ostream& out, std::ostream& err) {
  auto loaded = load_script(options.script, err);
  if (!loaded) return loaded.error();
  auto events_file = read_source(options.events, err);
  if (!events_file) return events_file.error();
  const EventsInput input = read_events(**events_file, loaded->checked());
  print_diagnostics(**events_file, input.diagnostics, err);
  if (!input.ok()) return kExitInput;
  auto engine = make_engine(options.engine);
  if (!engine) {
    err << "pfc: internal error: " << engine.error().message << '\n';
    return kExitInternal;
  }
  auto routed = build_router(loaded->checked(), engine->compiler);
  if (!routed) {
    err << "pfc: internal error: " << routed.error().message << '\n';
    return kExitInternal;
  }
  // The jit engine compiles while enabling; a failure would silently route with the
  // interpreter, which must not pass for a JIT result.
  if (const auto failure = engine->errors->first(); failure && engine->strict) {
    err << "pfc: internal error: JIT compilation failed: " << failure->message << '\n';
    return kExitInternal;
  }
  return route_all(*loaded, *routed, input, options.explain, out, err);
}

}  // namespace pfc::cli
