// cli/router_setup.h — the engine named by --engine and the script's router, built by
// build_router (api/script_router.h), for the commands that route events.
#pragma once

#include <expected>
#include <ostream>
#include <string_view>

#include "api/engine_choice.h"
#include "api/script_router.h"
#include "compiler/check.h"

namespace pfc::cli {

// The engine called `engine_name` (api/engine_choice.h) and a router built with it. On
// failure prints the error to `err` and returns the exit code: kExitInput when a program
// the engine must compile natively (crosscheck) is over the JIT's size limit
// (docs/limits.md), a property of the script; otherwise "pfc: internal error: …" and
// kExitInternal.
struct EngineRouter {
  EngineChoice engine;
  ScriptRouter routed;
};
std::expected<EngineRouter, int> make_engine_router(const CheckedScript& script,
                                                    std::string_view engine_name,
                                                    std::ostream& err);

}  // namespace pfc::cli
