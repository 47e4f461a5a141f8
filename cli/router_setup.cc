// cli/router_setup.cc — --engine name + script → Router, errors printed (router_setup.h).
#include "cli/router_setup.h"

#include "cli/exit_code.h"
#include "compiler/jit/jit.h"

namespace pfc::cli {

std::expected<EngineRouter, int> make_engine_router(const CheckedScript& script,
                                                    std::string_view engine_name,
                                                    std::ostream& err) {
  auto engine = make_engine(engine_name);
  if (!engine) {
    err << "pfc: internal error: " << engine.error().message << '\n';
    return std::unexpected(kExitInternal);
  }
  auto routed = build_router(script, engine->compiler);
  if (!routed && is_jit_limit_error(routed.error())) {
    const std::string flag = engine_name == "crosscheck" ? std::string("--debug-crosscheck")
                                                         : "--engine " + std::string(engine_name);
    err << "pfc: error: " << flag << ": " << routed.error().message
        << " (docs/limits.md; --engine auto or interp route it)\n";
    return std::unexpected(kExitInput);
  }
  if (!routed) {
    err << "pfc: internal error: " << routed.error().message << '\n';
    return std::unexpected(kExitInternal);
  }
  return EngineRouter{std::move(*engine), std::move(*routed)};
}

}  // namespace pfc::cli
