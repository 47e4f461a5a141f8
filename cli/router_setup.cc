// cli/router_setup.cc — script → Router (providers, sessions, enables).
#include "cli/router_setup.h"

#include "cli/exit_code.h"
#include "compiler/jit/jit.h"

namespace pfc::cli {
namespace {

// The CLI only routes (Router::route); delivered events need not be kept.
class DiscardSink : public Sink {
 public:
  void deliver(const EventView&, bool) override {}
};

}  // namespace

// Sessions and their enables first, providers last: the enables of a provider that is not
// registered yet are only remembered (Router::enable), and registering it compiles its
// program once, for every session's final state — instead of once per enable (64 sessions
// of 1,000 predicates took 67 s with the jit engine). The router's state is the same as
// with the providers registered first (legacy providers: last enabler by enable order).
Result<ScriptRouter> build_router(const CheckedScript& script,
                                  std::shared_ptr<ProgramCompiler> compiler) {
  ScriptRouter out;
  auto router = Router::create(std::move(compiler));
  if (!router) return std::unexpected(router.error());
  out.router = std::move(*router);
  const auto sink = std::make_shared<DiscardSink>();
  for (size_t i = 0; i < script.sessions.size(); ++i) {
    auto slot = out.router->create_session(script.sessions[i].name, sink);
    if (!slot) return std::unexpected(slot.error());
    if (*slot != i)
      return make_error("session '" + script.sessions[i].name + "' got slot " +
                        std::to_string(*slot) + ", expected " + std::to_string(i));
    out.session_names.push_back(script.sessions[i].name);
  }
  for (size_t i = 0; i < script.sessions.size(); ++i) {
    for (const SessionDecl::Enable& e : script.sessions[i].enables) {
      const Guid& guid = script.schema.providers.at(e.provider).guid;
      auto enabled = out.router->enable(static_cast<SessionId>(i), guid, e.params);
      if (!enabled) return std::unexpected(enabled.error());
    }
  }
  for (const ProviderDef& provider : script.schema.providers) {
    auto handle = out.router->register_provider(provider);
    if (!handle) return std::unexpected(handle.error());
    out.providers.push_back(*handle);
  }
  return out;
}

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
