// cli/router_setup.h — builds a Router from a checked script exactly as docs/cli.md ("pfc run")
// describes: sessions created in declaration order (slot = declaration index), every enable
// applied in source order, then every provider registered (one compile per provider).
#pragma once

#include <expected>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/engine.h"
#include "compiler/check.h"
#include "pfc/error.h"
#include "pfc/router.h"

namespace pfc::cli {

struct ScriptRouter {
  std::unique_ptr<Router> router;
  std::vector<ProviderHandle> providers;   // by CheckedScript::schema.providers index
  std::vector<std::string> session_names;  // by slot
};

// Fails (internal error) when the router refuses a step the checker accepted, or when a
// session does not get the slot of its declaration index.
Result<ScriptRouter> build_router(const CheckedScript& script,
                                  std::shared_ptr<ProgramCompiler> compiler);

// The engine called `engine_name` (cli/engine.h) and a router built with it. On failure
// prints the error to `err` and returns the exit code: kExitInput when a program the
// engine must compile natively (crosscheck) is over the JIT's size limit (docs/limits.md),
// a property of the script; otherwise "pfc: internal error: …" and kExitInternal.
struct EngineRouter {
  EngineChoice engine;
  ScriptRouter routed;
};
std::expected<EngineRouter, int> make_engine_router(const CheckedScript& script,
                                                    std::string_view engine_name,
                                                    std::ostream& err);

}  // namespace pfc::cli
