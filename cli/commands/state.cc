// cli/commands/state.cc — `pfc state SCRIPT`: the composite enable state (docs/runtime.md §2)
// of every provider, in declaration order, as the router computes it.
#include "cli/commands/commands.h"
#include "cli/exit_code.h"
#include "cli/output.h"
#include "cli/output_file.h"
#include "cli/router_setup.h"
#include "cli/script_loader.h"

namespace pfc::cli {

int command_state(const std::string& script, std::ostream& err) {
  auto loaded = load_script(script, err);
  if (!loaded) return loaded.error();
  const auto setup = make_engine_router(loaded->checked(), "interp", err);
  if (!setup) return setup.error();
  const ScriptRouter& routed = setup->routed;
  const auto& providers = loaded->checked().schema.providers;
  auto out = OutputFile::open("-");
  if (!out) return kExitInternal;
  for (size_t i = 0; i < providers.size(); ++i) {
    CompositeState state = routed.router->composite(routed.providers[i]);
    if (!state.enabled) state = CompositeState{};  // "nobody enables it" prints all zeros
    out->write(format_state_line(providers[i].name, state, routed.session_names));
  }
  return out->close() ? kExitOk : report_write_error(*out, err);
}

}  // namespace pfc::cli
