// cli/router_setup.h — builds a Router from a checked script exactly as language.md §3
// describes: every provider registered, sessions created in declaration order (slot =
// declaration index), every enable applied in source order.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/check.h"
#include "pfc/error.h"
#include "pfc/router.h"

namespace pfc::cli {

struct ScriptRouter {
  std::unique_ptr<Router> router;
  std::vector<ProviderHandle> providers;  // by CheckedScript::schema.providers index
  std::vector<std::string> session_names;  // by slot
};

// Fails (internal error) when the router refuses a step the checker accepted, or when a
// session does not get the slot of its declaration index.
Result<ScriptRouter> build_router(const CheckedScript& script,
                                  std::shared_ptr<ProgramCompiler> compiler);

}  // namespace pfc::cli
