// cli/engine.h — the one place the `pfc` command maps an --engine name to the
// ProgramCompiler that builds routing programs (style.md §10).
#pragma once

#include <memory>
#include <string_view>

#include "pfc/error.h"
#include "pfc/routing_program.h"

namespace pfc::cli {

// The --engine values, in the order `pfc run --help` lists them.
inline constexpr std::string_view kEngineNames[] = {"interp", "jit", "auto"};

// The compiler for engine `name` ("interp", "jit" or "auto"). Fails when the engine is not
// available in this build (an internal error for the CLI: exit 3).
Result<std::shared_ptr<ProgramCompiler>> make_engine(std::string_view name);

}  // namespace pfc::cli
