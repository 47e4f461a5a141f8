// cli/main.cc — the `pfc` command: CLI11 command-line structure, dispatch to the
// subcommands of cli/commands/, and the one place where exceptions become exit codes
// (usage errors → 2, anything unexpected → 3). Reference: docs/cli.md.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands/commands.h"
#include "cli/exit_code.h"
#include "compiler/jit/tiered.h"

namespace pfc::cli {
namespace {

constexpr std::string_view kCommands[] = {"check", "run", "state", "compile", "gen"};

struct Parsed {
  std::string script;
  std::string emit;
  RunOptions run;
  GenCommandOptions gen;
  double match_rate = 0;
  CLI::Option* match_rate_option = nullptr;
};

void add_subcommands(CLI::App& app, Parsed& p) {
  CLI::App* check = app.add_subcommand("check", "Check a filter script: print every diagnostic, "
                                                "exit 0 when there is no error");
  check->add_option("SCRIPT", p.script, "filter script (.pfs)")->required();

  CLI::App* run = app.add_subcommand("run", "Route the events of a JSON Lines file; print one "
                                            "JSON object per event");
  run->add_option("SCRIPT", p.run.script, "filter script (.pfs)")->required();
  run->add_option("--events", p.run.events, "events file (JSON Lines or a binary capture)")
      ->required();
  run->add_option("--engine", p.run.engine, "routing engine: interp, jit or auto")
      ->check(CLI::IsMember({"interp", "jit", "auto"}))
      ->default_str("auto");
  run->add_flag("--debug-crosscheck", p.run.debug_crosscheck,
                "route every event on the interpreter and on the JIT and report any "
                "disagreement (exit 3); output is the interpreter's");
  run->add_flag("--explain", p.run.explain,
                "add \"why\": the first check that rejected the event, per session");

  run->add_flag("--count", p.run.count,
                "print per-session counts and events/s (one JSON object) instead of one line "
                "per event");

  CLI::App* gen = app.add_subcommand("gen", "Write a binary capture of random events drawn "
                                            "from the script's schema");
  gen->add_option("SCRIPT", p.gen.script, "filter script (.pfs)")->required();
  gen->add_option("--count", p.gen.count, "number of events")->required();
  gen->add_option("--seed", p.gen.seed, "random seed (same seed, same file)")->required();
  gen->add_option("-o,--output", p.gen.output, "capture file to write")->required();
  p.match_rate_option =
      gen->add_option("--match-rate", p.match_rate,
                      "fraction of events some session receives (0..1; default: as drawn)")
          ->check(CLI::Range(0.0, 1.0));

  CLI::App* state = app.add_subcommand("state", "Print the composite enable state of every "
                                                "provider");
  state->add_option("SCRIPT", p.script, "filter script (.pfs)")->required();

  CLI::App* compile = app.add_subcommand("compile", "Print a stage of the compilation");
  compile->add_option("SCRIPT", p.script, "filter script (.pfs)")->required();
  compile->add_option("--emit", p.emit, "what to print: ast, ir, llvm or asm")
      ->required()
      ->check(CLI::IsMember({"ast", "ir", "llvm", "asm"}));
}

int usage_error(const std::string& message) {
  std::cerr << "pfc: error: " << message << "\nRun 'pfc --help' for usage.\n";
  return kExitUsage;
}

int dispatch(const CLI::App& app, const Parsed& p) {
  if (app.got_subcommand("check")) return command_check(p.script, std::cout, std::cerr);
  if (app.got_subcommand("run")) return command_run(p.run, std::cout, std::cerr);
  if (app.got_subcommand("gen")) {
    GenCommandOptions gen = p.gen;
    if (p.match_rate_option->count() > 0) gen.match_rate = p.match_rate;
    return command_gen(gen, std::cout, std::cerr);
  }
  if (app.got_subcommand("state")) return command_state(p.script, std::cout, std::cerr);
  if (app.got_subcommand("compile"))
    return command_compile(p.script, p.emit, std::cout, std::cerr);
  return usage_error("no command given");
}

int run_main(int argc, char** argv) {
  CLI::App app{"pfc: payload filter expression compiler and ETW-style routing core", "pfc"};
  app.require_subcommand(1);
  app.footer("Run 'pfc COMMAND --help' for a command's options. Exit codes: 0 success, 1 errors "
             "in the script or input files, 2 usage errors, 3 internal errors.");
  Parsed parsed;
  add_subcommands(app, parsed);
  if (argc > 1 && argv[1][0] != '-') {
    const std::string_view word = argv[1];
    bool known = false;
    for (std::string_view c : kCommands) known = known || c == word;
    if (!known) return usage_error("unknown command '" + std::string(word) + "'");
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }
  return dispatch(app, parsed);
}

}  // namespace
}  // namespace pfc::cli

int main(int argc, char** argv) {
  int code = pfc::cli::kExitInternal;
  try {
    code = pfc::cli::run_main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "pfc: internal error: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "pfc: internal error: unknown exception\n";
  }
  // A background compilation nobody needs any more (--engine auto: the events are routed)
  // must not hold up the exit: exit() would wait for it before tearing LLVM down, while
  // quick_exit ends the process at once and tears nothing down under it (docs/jit.md).
  if (pfc::background_compiles_running()) {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::quick_exit(code);
  }
  return code;
}
