// cli/router_setup.h — the engine named by --engine and the script's router, built by
// build_router (api/script_router.h), for the commands that route events.
#pragma once

#include <optional>
#include <ostream>
#include <string_view>

#include "api/engine_choice.h"
#include "api/script_router.h"
#include "compiler/check.h"

namespace pfc::cli {

// The engine called `engine_name` (api/engine_choice.h) and a router built with it; on
// failure prints "pfc: internal error: …" to `err` and returns nullopt (exit code 3).
struct EngineRouter {
  EngineChoice engine;
  ScriptRouter routed;
};
std::optional<EngineRouter> make_engine_router(const CheckedScript& script,
                                               std::string_view engine_name, std::ostream& err);

}  // namespace pfc::cli
