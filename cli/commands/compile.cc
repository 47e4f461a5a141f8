// cli/commands/compile.cc — `pfc compile SCRIPT --emit ast|ir|llvm|asm`: the stage dumps.
// ast needs only a successful parse; ir, llvm and asm need a clean check and print one
// section per provider that at least one session enables, headed `; provider NAME`. The
// programs are the ones the router installs: the script is set up in a Router exactly as
// `pfc run` does (cli/router_setup.h), and each section lowers Router::program_spec, so
// router rules such as the legacy last-enabler rule apply here too.
#include <string>

#include "cli/commands/commands.h"
#include "cli/exit_code.h"
#include "cli/router_setup.h"
#include "cli/script_loader.h"
#include "compiler/interp.h"
#include "compiler/ir_dump.h"
#include "compiler/jit/jit.h"
#include "compiler/lower.h"
#include "grammar/dump.h"
#include "grammar/parse.h"

namespace pfc::cli {
namespace {

int emit_ast(const std::string& script, std::ostream& out, std::ostream& err) {
  auto source = read_source(script, err);
  if (!source) return source.error();
  const ParseOutput parsed = parse_script(**source);
  print_diagnostics(**source, parsed.diagnostics, err);
  if (!parsed.ok()) return kExitInput;
  out << dump_ast(parsed.script) << std::flush;
  return kExitOk;
}

// The text of one provider's section for `emit` ("ir", "llvm" or "asm").
Result<std::string> emit_program(const ProgramSpec& spec, const std::string& emit) {
  Result<ir::Program> program = lower(spec);
  if (!program) return std::unexpected(program.error());
  if (emit == "ir") return dump_ir(*program);
  if (emit == "llvm") return emit_llvm(*program, kDefaultOptLevel);
  if (emit == "asm") return emit_asm(*program, kDefaultOptLevel);
  return make_error("--emit " + emit + " is not supported");
}

}  // namespace

int command_compile(const std::string& script, const std::string& emit, std::ostream& out,
                    std::ostream& err) {
  if (emit == "ast") return emit_ast(script, out, err);
  auto loaded = load_script(script, err);
  if (!loaded) return loaded.error();
  auto routed = build_router(loaded->checked(), std::make_shared<InterpCompiler>());
  if (!routed) {
    err << "pfc: internal error: " << routed.error().message << '\n';
    return kExitInternal;
  }
  std::string text;
  for (ProviderHandle handle : routed->providers) {
    const ProgramSpec spec = routed->router->program_spec(handle);
    if (spec.sessions.empty()) continue;
    Result<std::string> section = emit_program(spec, emit);
    if (!section && is_jit_limit_error(section.error())) {  // the script's size, not a bug
      err << "pfc: error: --emit " << emit << ": provider '" << spec.provider.name
          << "': " << section.error().message << " (docs/limits.md)\n";
      return kExitInput;
    }
    if (!section) {
      err << "pfc: internal error: " << section.error().message << '\n';
      return kExitInternal;
    }
    text += "; provider " + spec.provider.name + "\n" + *section;
    if (!text.empty() && text.back() != '\n') text += '\n';
  }
  out << text << std::flush;
  return kExitOk;
}

}  // namespace pfc::cli
