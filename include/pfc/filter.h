// pfc/filter.h — the embedding API (docs/embedding.md): compile a filter script into a
// Filter (diagnostics as data), add providers and sessions by hand, route events, explain
// a decision, choose the engine. Modelled on Gandiva's Filter::Make/Evaluate: a compiled
// object behind a small interface, with a Status for failures that are not the script's.
// Needs C++20; the only other headers it uses are the public data headers below.
//
// Thread-safety: route(), write(), enabled() and explain() may be called from any thread
// at once, also while another thread changes providers or sessions; the changing calls
// (add_provider, add_session, enable, disable, stop_session) serialise internally.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pfc/diagnostic.h"
#include "pfc/enable.h"
#include "pfc/event.h"
#include "pfc/guid.h"
#include "pfc/schema.h"

namespace pfc {

// How routing programs run (docs/jit.md "Tiering and engines").
enum class Engine : uint8_t {
  Interp,      // the reference interpreter; never compiles
  Jit,         // waits for native code; the interpreter serves if the JIT fails
  Auto,        // tiered: the interpreter at once, native code from a background thread
  Crosscheck,  // debug: interpreter and JIT on every event, the interpreter's result kept
};
std::string_view engine_name(Engine engine);  // "interp", "jit", "auto", "crosscheck"
std::optional<Engine> engine_from_name(std::string_view name);
// False in a build without the JIT (PFC_ENABLE_JIT=OFF): jit and auto then run the
// interpreter, and jit reports that through FilterOptions::on_jit_error.
bool jit_available();

// The outcome of a call that can fail for a reason other than the script: an unknown
// session, a full session table, a program the engine cannot build. Default: OK.
class Status {
 public:
  Status() = default;
  static Status error(std::string message) { return Status(std::move(message)); }
  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const std::string& message() const { return message_; }  // one sentence; empty when OK

 private:
  explicit Status(std::string message) : failed_(true), message_(std::move(message)) {}
  bool failed_ = false;
  std::string message_;
};

using SessionId = uint32_t;  // a session's slot, 0..63: bit `id` of RouteResult masks

struct FilterOptions {
  Engine engine = Engine::Auto;
  // Receives every event write() delivers, with the receiving session. Runs on the
  // writing thread, possibly on several at once; the view is valid only during the call.
  std::function<void(SessionId session, const EventView& event, bool with_stack)> on_event;
  // Called (on a compiling thread) when native compilation fails and the interpreter keeps
  // serving. Must be thread-safe.
  std::function<void(const std::string& message)> on_jit_error;
};

class Filter;
namespace detail {
struct FilterState;  // api/filter.cc
}  // namespace detail

// What compile() produced: a filter, or the reasons there is none.
struct CompileResult {
  std::unique_ptr<Filter> filter;       // null when the script has an error or on failure
  std::vector<Diagnostic> diagnostics;  // every error, warning and note, in source order
  std::string report;  // the diagnostics rendered as `pfc check` prints them (with source lines)
  Status status;       // a failure that is not the script's (unreadable file, engine)
  bool ok() const { return filter != nullptr; }
};

// Why one session does not receive an event.
struct SessionRejection {
  SessionId session = 0;
  // "not enabled", "excluded", or the first check that failed: "level", "keyword", "pid",
  // "exe", "package_id", "app_id", "event_id", "event_name", "payload".
  std::string reason;
};

// explain(): the decision with a reason for every session slot in use that does not
// receive the event. Derived from the program the router runs (docs/cli.md "--explain").
struct Decision {
  RouteResult result;
  std::vector<SessionRejection> rejected;
};

class Filter {
 public:
  // Parses and checks `text`, then registers its providers and creates its sessions with
  // their enables (session i of the script is SessionId i). `name` appears in the
  // diagnostics; `import "…";` paths are relative to its directory.
  static CompileResult compile(std::string_view text, const FilterOptions& options = {},
                               std::string name = "<script>");
  // compile() over the contents of the file at `path`.
  static CompileResult compile_file(const std::string& path, const FilterOptions& options = {});
  // A filter without providers or sessions, to be set up by hand.
  static Status make(const FilterOptions& options, std::unique_ptr<Filter>* out);

  ~Filter();
  Filter(const Filter&) = delete;
  Filter& operator=(const Filter&) = delete;

  Engine engine() const;

  // Providers, script ones first (declaration order, then imported manifests), then those
  // add_provider() registered: the index is the `provider` argument of route() and write().
  size_t provider_count() const;
  const ProviderDef& provider(size_t index) const;
  // By name (as declared) or by GUID in registry format "{…}".
  std::optional<size_t> find_provider(std::string_view name_or_guid) const;
  Status add_provider(const ProviderDef& provider, size_t* index);

  // Live sessions by name (script sessions keep their declared names).
  std::optional<SessionId> find_session(std::string_view name) const;
  // Live sessions' names by slot, up to the highest slot in use ("" for a free slot): the
  // `sessions` of a pfc::SourceSchema (pfc/events.h), so "exclude" names resolve to slots.
  std::vector<std::string> session_names() const;
  Status add_session(std::string name, SessionId* id);
  Status stop_session(SessionId session);
  // EnableTraceEx2 semantics (docs/semantics.md): enable replaces the session's state for
  // the provider GUID (registered or not yet); disable removes it.
  Status enable(SessionId session, const Guid& provider, const EnableParams& params);
  Status disable(SessionId session, const Guid& provider);

  // "Is anyone listening?" for a level and keyword of provider `provider`.
  bool enabled(size_t provider, uint8_t level, uint64_t keyword) const noexcept;
  // The routing decision; `exclude` drops session slots (bit s = slot s). Never allocates.
  RouteResult route(size_t provider, const EventView& event, uint64_t exclude = 0) const noexcept;
  // route() plus FilterOptions::on_event for every receiving session, in slot order.
  RouteResult write(size_t provider, const EventView& event, uint64_t exclude = 0);
  // The decision with reasons. Slower than route() (runs the reference interpreter on the
  // installed program): for debugging. Fails for an unknown provider index or when the
  // program cannot be lowered (an internal error).
  Status explain(size_t provider, const EventView& event, uint64_t exclude, Decision* out) const;

  // The first native-compilation failure so far (empty: none). The engine kept serving
  // with the interpreter.
  std::string jit_error() const;

 private:
  explicit Filter(std::unique_ptr<detail::FilterState> state);
  std::unique_ptr<detail::FilterState> impl_;
};

}  // namespace pfc
