// cli/main.cc — the `pfc` command: CLI11 command-line structure, dispatch to the
// subcommands of cli/commands/, process-wide manners (SIGPIPE ignored so a closed pipe is a
// write error, --color, --version, std::cout over an OutputFile so a failed write to
// standard output is exit 1 with its reason, no wait
// at exit for a background compilation) and the one place where exceptions become exit
// codes (usage errors → 2, anything unexpected → 3).
// Reference: docs/cli.md; the same options are in docs/pfc.1 and cli/completion/.
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/integer_text.h"
#include "cli/commands/commands.h"
#include "cli/exit_code.h"
#include "cli/help_text.h"
#include "cli/output_file.h"
#include "cli/term.h"
#include "cli/trace_args.h"
#include "compiler/jit/tiered.h"

#ifndef PFC_VERSION
#define PFC_VERSION "unknown"
#endif

namespace pfc::cli {
namespace {

constexpr std::string_view kCommands[] = {"check", "run", "state", "compile", "gen", "trace", "mc"};

struct Parsed {
  std::string script;
  std::string emit;
  std::string color = "auto";
  bool version = false;  // handled before parsing (wants_version); listed for --help
  CheckOptions check;
  RunOptions run;
  GenCommandOptions gen;
  TraceOptions trace;
  std::string gen_count;
  std::string gen_seed;
  std::string match_rate;
  CLI::Option* match_rate_option = nullptr;
  CLI::Option* run_output_file = nullptr;
};

void add_check(CLI::App& app, Parsed& p) {
  CLI::App* check = app.add_subcommand("check",
                                       "Check a filter script: print every diagnostic, "
                                       "exit 0 when there is no error");
  check->add_option("SCRIPT", p.check.script, "filter script (.pfs; - = standard input)")
      ->required();
  check->add_option("--events", p.check.events,
                    "also read every event of FILE (JSON Lines, JSON array or capture; - = "
                    "standard input) and report the bad ones; nothing is routed");
  check->footer(kCheckExamples);
}

void add_run(CLI::App& app, Parsed& p) {
  CLI::App* run = app.add_subcommand("run",
                                     "Route the events of an events file or capture "
                                     "through the script's sessions, streaming");
  run->add_option("SCRIPT", p.run.script, "filter script (.pfs; - = standard input)")->required();
  run->add_option("--events", p.run.events,
                  "events file: JSON Lines, a JSON array or a binary capture (- = standard input)")
      ->required();
  run->add_option("--engine", p.run.engine, "routing engine: interp, jit or auto")
      ->check(CLI::IsMember({"interp", "jit", "auto"}))
      ->default_str("auto");
  run->add_option("--output", p.run.output,
                  "what to write: decisions (one line per event, the default), events (the "
                  "events some selected session received, as events-file lines), csv, or "
                  "capture (those events as a binary capture; needs -o)")
      ->check(CLI::IsMember({"decisions", "events", "csv", "capture"}))
      ->default_str("decisions");
  p.run_output_file = run->add_option("-o,--output-file", p.run.output_file,
                                      "write to FILE instead of standard output")
                          ->default_str("-");
  run->add_option("--session", p.run.sessions,
                  "with --output events or capture: keep events this session received "
                  "(repeatable; default: any session)");
  run->add_flag("--debug-crosscheck", p.run.debug_crosscheck,
                "route every event on the interpreter and on the JIT and report any "
                "disagreement (exit 3); output is the interpreter's");
  run->add_flag("--explain", p.run.explain,
                "add \"why\": the first check that rejected the event, per session");
  run->add_flag("--count", p.run.count,
                "print per-session counts and events/s (one JSON object) instead of one line "
                "per event");
  run->footer(kRunExamples);
}

void add_gen(CLI::App& app, Parsed& p) {
  CLI::App* gen = app.add_subcommand("gen",
                                     "Write a binary capture of random events drawn "
                                     "from the script's schema");
  gen->add_option("SCRIPT", p.gen.script, "filter script (.pfs; - = standard input)")->required();
  gen->add_option("--count", p.gen_count, "number of events (0 to 18446744073709551615)")
      ->required();
  gen->add_option("--seed", p.gen_seed,
                  "random seed, 0 to 18446744073709551615 (same seed, same file)")
      ->required();
  gen->add_option("-o,--output", p.gen.output, "capture file to write (- = standard output)")
      ->required();
  p.match_rate_option =
      gen->add_option("--match-rate", p.match_rate,
                      "fraction of events some session receives (0..1; default: as drawn)");
  gen->footer(kGenExamples);
}

void add_subcommands(CLI::App& app, Parsed& p) {
  add_check(app, p);
  add_run(app, p);
  add_gen(app, p);
  CLI::App* state = app.add_subcommand("state",
                                       "Print the composite enable state of every "
                                       "provider");
  state->add_option("SCRIPT", p.script, "filter script (.pfs; - = standard input)")->required();
  state->footer(kStateExamples);
  CLI::App* compile = app.add_subcommand("compile", "Print a stage of the compilation");
  compile->add_option("SCRIPT", p.script, "filter script (.pfs; - = standard input)")->required();
  compile->add_option("--emit", p.emit, "what to print: ast, ir, llvm or asm")
      ->required()
      ->check(CLI::IsMember({"ast", "ir", "llvm", "asm"}));
  compile->footer(kCompileExamples);
  add_trace(app, p.trace);
  // Listed for --help; its arguments are parsed by run_mc (mc's spellings: -um, -h DIR).
  app.add_subcommand("mc", "Write the header mc.exe -um generates for a manifest (pfc mc --help)")
      ->allow_extras();
}

int usage_error(const std::string& message) {
  std::cerr << "pfc: error: " << message << "\nRun 'pfc --help' for usage.\n";
  return kExitUsage;
}

// A decimal count or seed: digits only (no sign: "-1" is not 2^64 - 1), at most 2^64 - 1.
bool parse_u64(const std::string& text, uint64_t& out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  const auto n = parse_unsigned_text(text);
  if (!n || n->overflow) return false;
  out = n->value;
  return true;
}

// Checks what CLI11 cannot: gen's numbers, --match-rate (NaN passes a range check),
// --output capture needing -o, at most one standard input. An empty string when fine.
std::string check_values(const CLI::App& app, Parsed& p) {
  if (app.got_subcommand("gen")) {
    if (!parse_u64(p.gen_count, p.gen.count))
      return "--count " + p.gen_count + ": expected a whole number from 0 to 18446744073709551615";
    if (!parse_u64(p.gen_seed, p.gen.seed))
      return "--seed " + p.gen_seed + ": expected a whole number from 0 to 18446744073709551615";
    if (p.match_rate_option->count() > 0) {
      char* end = nullptr;
      errno = 0;
      const double rate = std::strtod(p.match_rate.c_str(), &end);
      if (p.match_rate.empty() || *end != '\0' || errno != 0 || !std::isfinite(rate) || rate < 0 ||
          rate > 1)
        return "--match-rate " + p.match_rate + ": expected a number from 0 to 1";
      p.gen.match_rate = rate;
    }
    if (p.gen.output == "-" && is_terminal(1))
      return "-o -: standard output is a terminal; a capture is binary (redirect it to a file or a "
             "pipe)";
  }
  if (app.got_subcommand("run")) {
    if (p.run.output == "capture" && p.run_output_file->count() == 0 && !p.run.count)
      return "--output capture needs -o FILE (a capture is binary; use -o - to write it to "
             "standard output)";
    if (p.run.output == "capture" && p.run.output_file == "-" && !p.run.count && is_terminal(1))
      return "-o -: standard output is a terminal; a capture is binary (redirect it to a file or a "
             "pipe)";
    if (p.run.script == "-" && p.run.events == "-")
      return "SCRIPT and --events cannot both be standard input (-)";
  }
  if (app.got_subcommand("check") && p.check.script == "-" && p.check.events == "-")
    return "SCRIPT and --events cannot both be standard input (-)";
  return "";
}

int dispatch(const CLI::App& app, const Parsed& p) {
  if (app.got_subcommand("check")) return command_check(p.check, std::cerr);
  if (app.got_subcommand("run")) return command_run(p.run, std::cerr);
  if (app.got_subcommand("gen")) return command_gen(p.gen, std::cout, std::cerr);
  if (app.got_subcommand("state")) return command_state(p.script, std::cerr);
  if (app.got_subcommand("compile")) return command_compile(p.script, p.emit, std::cout, std::cerr);
  if (app.got_subcommand("trace")) return command_trace(p.trace, std::cout, std::cerr);
  return usage_error("no command given");
}

// std::cout writes standard output through an OutputFile while the command runs (restored
// on return), so a failed write keeps its errno for every command alike.
class StdoutStream {
 public:
  StdoutStream() : file_(std::move(*OutputFile::open("-"))), saved_(std::cout.rdbuf(&buf_)) {}
  ~StdoutStream() {  // also when an exception leaves run_main: what was printed is kept
    buf_.pubsync();
    std::cout.rdbuf(saved_);
  }
  StdoutStream(const StdoutStream&) = delete;
  StdoutStream& operator=(const StdoutStream&) = delete;

  // Standard output written through std::cout must have reached its file: a full disk or
  // /dev/full is exit 1 with "cannot write <stdout>: REASON", a closed pipe exit 1 without
  // a message (docs/cli.md "Output").
  int check(int status) {
    std::cout.flush();
    if (!file_.failed() && std::cout.good()) return status;
    if (file_.failed()) report_write_error(file_, std::cerr);
    else std::cerr << "pfc: error: cannot write <stdout>\n";
    return status == kExitOk ? kExitInput : status;
  }

 private:
  OutputFile file_;
  OutputStreamBuf buf_{file_};
  std::streambuf* saved_;
};

// The index of the command word "mc" when it is the command (after any --color option),
// else 0.
int mc_command_at(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--color") {
      ++i;
    } else if (!a.starts_with("--color=")) {
      return a == "mc" ? i : 0;
    }
  }
  return 0;
}

// `pfc mc ARGS` (argv[at] is "mc"): mc's option spellings, parsed by parse_mc_args.
int run_mc(int at, int argc, char** argv, StdoutStream& out) {
  for (int i = 1; i < at; ++i) {  // --color: checked as for every command (no colours here)
    std::string_view v = argv[i];
    v = v == "--color" ? (i + 1 < at ? std::string_view(argv[++i]) : "") : v.substr(8);
    if (v != "auto" && v != "always" && v != "never")
      return usage_error("--color: '" + std::string(v) + "' is not one of auto, always, never");
  }
  const auto options = parse_mc_args(std::vector<std::string>(argv + at + 1, argv + argc));
  if (!options) return usage_error(options.error());
  if (options->help) {
    std::cout << kMcHelp << '\n';
    return out.check(kExitOk);
  }
  return out.check(command_mc(*options, std::cerr));
}

bool wants_version(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--version") return true;
    if (!a.starts_with("-")) return false;  // a command: --version is not a command option
  }
  return false;
}

int run_main(int argc, char** argv) {
  StdoutStream out;
  if (const int at = mc_command_at(argc, argv); at > 0) return run_mc(at, argc, argv, out);
  if (wants_version(argc, argv)) {
    std::cout << "pfc " << PFC_VERSION << '\n';
    return out.check(kExitOk);
  }
  CLI::App app{"pfc: payload filter expression compiler and ETW-style routing core", "pfc"};
  app.require_subcommand(1);
  app.fallthrough();  // --color may also follow the command
  app.footer(kMainFooter);
  Parsed parsed;
  app.add_option("--color", parsed.color,
                 "colour diagnostics: auto (on a terminal, unless "
                 "NO_COLOR is set), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->default_str("auto");
  app.add_flag("--version", parsed.version, "print the version and exit");
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
    return out.check(app.exit(e));
  } catch (const CLI::CallForAllHelp& e) {
    return out.check(app.exit(e));
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }
  set_stderr_color(want_color(parse_color_mode(parsed.color)));
  if (const std::string bad = check_values(app, parsed); !bad.empty()) return usage_error(bad);
  return out.check(dispatch(app, parsed));
}

}  // namespace
}  // namespace pfc::cli

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is a write error (EPIPE), handled per output
  int code = pfc::cli::kExitInternal;
  try {
    code = pfc::cli::run_main(argc, argv);
  } catch (const std::bad_alloc&) {
    // An input larger than the memory this process may use is a property of the input and
    // of its limits (ulimit, cgroup), not a failure of pfc (docs/cli.md "Exit codes").
    std::cerr << "pfc: error: out of memory: the input needs more memory than this process may "
                 "use (docs/limits.md)\n";
    code = pfc::cli::kExitInput;
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
