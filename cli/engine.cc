// cli/engine.cc — --engine name → ProgramCompiler. Until the JIT's engine factory lands,
// "auto" is the reference interpreter and "jit" is reported as unavailable.
#include "cli/engine.h"

#include <string>

#include "compiler/interp.h"

namespace pfc::cli {

Result<std::shared_ptr<ProgramCompiler>> make_engine(std::string_view name) {
  if (name == "interp" || name == "auto") return std::make_shared<InterpCompiler>();
  if (name == "jit") return make_error("engine 'jit' is not available in this build");
  return make_error("unknown engine '" + std::string(name) + "'");
}

}  // namespace pfc::cli
