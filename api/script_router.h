// api/script_router.h — builds a Router from a checked script exactly as docs/cli.md
// ("pfc run") describes: sessions created in declaration order (slot = declaration index),
// every enable applied in source order, then every provider registered (one compile per
// provider). Used by the public API (pfc/filter.h) and the CLI.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "compiler/check.h"
#include "runtime/router.h"

namespace pfc {

struct ScriptRouter {
  std::unique_ptr<Router> router;
  std::vector<ProviderHandle> providers;   // by CheckedScript::schema.providers index
  std::vector<std::string> session_names;  // by slot
};

// Fails (internal error) when the router refuses a step the checker accepted, or when a
// session does not get the slot of its declaration index. The sessions' sinks discard
// (route()-only use).
Result<ScriptRouter> build_router(const CheckedScript& script,
                                  std::shared_ptr<ProgramCompiler> compiler);

// The steps of build_router, for callers with their own sinks (pfc/filter.h): the sessions
// and enables of `script` on `router`, which has no sessions yet (session i of the script
// gets slot i and the sink sink_for(i)); returns the session names by slot.
using SinkFactory = std::function<std::shared_ptr<Sink>(SessionId session)>;
Result<std::vector<std::string>> add_script_sessions(Router& router, const CheckedScript& script,
                                                     const SinkFactory& sink_for);
// Then every provider of the script, in schema order (one compile each).
Result<std::vector<ProviderHandle>> register_script_providers(Router& router,
                                                              const CheckedScript& script);

}  // namespace pfc
