// cli/commands/run.cc — `pfc run SCRIPT --events FILE`: routes every event of a JSON Lines
// file or a binary capture through a Router built from the script and prints one JSON
// object per event, or with --count the per-session totals and the routing rate. With
// --explain, every session's verdict is also derived by cli/explain and must agree with the
// engine's (a disagreement is an internal error, exit 3).
#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/hex.h"
#include "cli/commands/commands.h"
#include "cli/counts.h"
#include "cli/engine.h"
#include "cli/events_json.h"
#include "cli/exit_code.h"
#include "cli/files.h"
#include "cli/explain.h"
#include "cli/output.h"
#include "cli/router_setup.h"
#include "cli/script_loader.h"
#include "pfc/capture.h"

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

// One event to route, from either input format.
struct Routable {
  uint32_t provider = 0;  // index into CheckedScript::schema.providers
  EventView view;
  uint64_t exclude = 0;
};

Explanation explain_event(const CheckedScript& script, const ScriptRouter& routed,
                          const Routable& in) {
  Explanation x;
  const uint64_t enabled = routed.router->composite(routed.providers[in.provider]).sessions;
  const ProviderDef& provider = script.schema.providers[in.provider];
  const EventView& view = in.view;
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

// `where`: "line N" (JSON Lines) or "record N" (capture).
std::string mismatch_message(uint64_t seq, const std::string& where, const RouteResult& engine,
                             const RouteResult& explained) {
  return "engine and --explain disagree on event " + std::to_string(seq) + " (" + where +
         "): engine deliver=" + to_hex(engine.deliver) +
         " stack=" + to_hex(engine.stack) + ", explain deliver=" + to_hex(explained.deliver) +
         " stack=" + to_hex(explained.stack);
}

// Routes events one by one and prints one JSON line each (with --explain: checked against
// the explain module). `next(r, where)` yields the events in order.
template <typename Next>
int print_routes(const LoadedScript& loaded, const ScriptRouter& routed, bool explain, Next next,
                 std::ostream& out, std::ostream& err) {
  std::string buffer;
  Routable in;
  std::string where;
  for (uint64_t seq = 0; next(in, where); ++seq) {
    const RouteResult r = routed.router->route(routed.providers[in.provider], in.view, in.exclude);
    if (!explain) {
      buffer += format_route_line(seq, routed.session_names, r, nullptr);
    } else {
      const Explanation x = explain_event(loaded.checked(), routed, in);
      if (x.result != r) {
        out << buffer << std::flush;
        err << "pfc: internal error: " << mismatch_message(seq, where, r, x.result) << '\n';
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

// --count: routes every event, then prints one JSON object with the totals (docs/cli.md).
template <typename Next>
int count_routes(const ScriptRouter& routed, std::string_view engine, Next next,
                 std::ostream& out) {
  RouteCounts counts(routed.session_names.size());
  Routable in;
  std::string where;
  const auto start = std::chrono::steady_clock::now();
  while (next(in, where))
    counts.add(routed.router->route(routed.providers[in.provider], in.view, in.exclude));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out << format_counts(counts, routed.session_names, engine, seconds) << std::flush;
  return kExitOk;
}

template <typename Next>
int route_events(const LoadedScript& loaded, const ScriptRouter& routed,
                 const RunOptions& options, Next next, std::ostream& out, std::ostream& err) {
  if (options.count) {
    return count_routes(routed, options.debug_crosscheck ? "crosscheck" : options.engine, next, out);
  }
  return print_routes(loaded, routed, options.explain, next, out, err);
}

// The events file: JSON Lines, or a binary capture (detected by its magic).
struct EventsFile {
  std::unique_ptr<SourceFile> text;      // JSON Lines: the file (diagnostics point into it)
  EventsInput json;                      // JSON Lines: the events
  std::string bytes;                     // capture: the file
  std::optional<CaptureReader> capture;  // capture: the validated reader
  std::vector<uint32_t> providers;       // capture provider index → script provider index
};

// Reads and validates FILE; prints diagnostics or the error; returns the exit code on failure.
std::expected<EventsFile, int> read_events_file(const std::string& path,
                                                const CheckedScript& script, std::ostream& err) {
  Result<std::string> bytes = read_whole_file(path);
  if (!bytes) {
    err << "pfc: error: " << bytes.error().message << '\n';
    return std::unexpected(kExitInput);
  }
  EventsFile f;
  const auto span = std::span(reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size());
  if (!is_capture(span)) {
    f.text = std::make_unique<SourceFile>(path, std::move(*bytes));
    f.json = read_events(*f.text, script);
    print_diagnostics(*f.text, f.json.diagnostics, err);
    if (!f.json.ok()) return std::unexpected(kExitInput);
    return f;
  }
  f.bytes = std::move(*bytes);
  auto reader = CaptureReader::open(std::span(reinterpret_cast<const uint8_t*>(f.bytes.data()), f.bytes.size()));
  if (!reader) {
    err << "pfc: error: " << path << ": " << reader.error().message << '\n';
    return std::unexpected(kExitInput);
  }
  for (size_t i = 0; i < reader->providers().size(); ++i) {
    const Guid& guid = reader->providers()[i];
    const ProviderDef* p = script.schema.find_provider(guid);
    if (p == nullptr) {
      err << "pfc: error: " << path << ": capture provider " << i << " " << guid.to_string()
          << " is not declared in the script\n";
      return std::unexpected(kExitInput);
    }
    f.providers.push_back(uint32_t(p - script.schema.providers.data()));
  }
  f.capture = std::move(*reader);
  return f;
}

int route_file(const LoadedScript& loaded, const ScriptRouter& routed, const RunOptions& options,
               EventsFile& file, std::ostream& out, std::ostream& err) {
  if (file.capture) {
    CaptureReader& reader = *file.capture;
    uint64_t index = 0;
    auto next = [&](Routable& r, std::string& where) {
      CaptureRecord rec;
      if (!reader.next(rec)) return false;
      r = Routable{file.providers[rec.provider], rec.event, 0};
      if (options.explain) where = "record " + std::to_string(index);
      ++index;
      return true;
    };
    return route_events(loaded, routed, options, next, out, err);
  }
  size_t i = 0;
  auto next = [&](Routable& r, std::string& where) {
    if (i == file.json.events.size()) return false;
    const InputEvent& in = file.json.events[i++];
    r = Routable{in.provider, in.event.view(), in.exclude};
    if (options.explain) where = "line " + std::to_string(in.line);
    return true;
  };
  return route_events(loaded, routed, options, next, out, err);
}

}  // namespace

int command_run(const RunOptions& options, std::ostream& out, std::ostream& err) {
  auto loaded = load_script(options.script, err);
  if (!loaded) return loaded.error();
  auto events = read_events_file(options.events, loaded->checked(), err);
  if (!events) return events.error();
  auto setup = make_engine_router(loaded->checked(),
                                  options.debug_crosscheck ? "crosscheck" : options.engine, err);
  if (!setup) return kExitInternal;
  const EngineChoice& engine = setup->engine;
  // The jit engine compiles while enabling; a failure would silently route with the
  // interpreter, which must not pass for a JIT result.
  if (const auto failure = engine.errors->first(); failure && engine.strict) {
    err << "pfc: internal error: JIT compilation failed: " << failure->message << '\n';
    return kExitInternal;
  }
  const int status = route_file(*loaded, setup->routed, options, *events, out, err);
  if (const uint64_t n = engine.errors->mismatches(); n != 0) {
    err << "pfc: error: --debug-crosscheck: the interpreter and the JIT disagree on " << n
        << " event(s); first: " << *engine.errors->first_mismatch() << '\n';
    return kExitInternal;
  }
  return status;
}

}  // namespace pfc::cli
