// cli/commands/check.cc — `pfc check SCRIPT`: every diagnostic, exit 0 when none is an error.
#include "cli/commands/commands.h"
#include "cli/exit_code.h"
#include "cli/script_loader.h"

namespace pfc::cli {

int command_check(const std::string& script, std::ostream&, std::ostream& err) {
  auto loaded = load_script(script, err, ShowDiagnostics::All);
  return loaded ? kExitOk : loaded.error();
}

}  // namespace pfc::cli
