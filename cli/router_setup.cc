// cli/router_setup.cc — --engine name + script → Router, errors printed (router_setup.h).
#include "cli/router_setup.h"

namespace pfc::cli {

std::optional<EngineRouter> make_engine_router(const CheckedScript& script,
                                               std::string_view engine_name, std::ostream& err) {
  auto engine = make_engine(engine_name);
  if (!engine) {
    err << "pfc: internal error: " << engine.error().message << '\n';
    return std::nullopt;
  }
  auto routed = build_router(script, engine->compiler);
  if (!routed) {
    err << "pfc: internal error: " << routed.error().message << '\n';
    return std::nullopt;
  }
  return EngineRouter{std::move(*engine), std::move(*routed)};
}

}  // namespace pfc::cli
