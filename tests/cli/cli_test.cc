// tests/cli/cli_test.cc — the `pfc` command's usage surface as a table: help output, usage
// errors (exit 2), unreadable files (exit 1), and the happy path of each command (exit 0).
// Runs the real binary in tests/cli/data.
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "process.h"

namespace pfc::test {
namespace {

struct CliCase {
  std::string label;
  std::vector<std::string> args;
  int exit_code;
  std::string out_has;  // substring of stdout ("" = stdout must be empty)
  std::string err_has;  // substring of stderr ("" = stderr must be empty)
};

const std::vector<CliCase>& cases() {
  static const std::vector<CliCase> kCases = {
      {"help", {"--help"}, 0, "Usage", ""},
      {"help_lists_commands", {"--help"}, 0, "compile", ""},
      {"run_help", {"run", "--help"}, 0, "--explain", ""},
      {"run_help_engine", {"run", "--help"}, 0, "--engine", ""},
      {"check_help", {"check", "--help"}, 0, "SCRIPT", ""},
      {"state_help", {"state", "--help"}, 0, "SCRIPT", ""},
      {"compile_help", {"compile", "--help"}, 0, "--emit", ""},
      {"no_command", {}, 2, "", "pfc: error: "},
      {"unknown_command",
       {"frobnicate", "ok.pfs"},
       2,
       "",
       "pfc: error: unknown command 'frobnicate'"},
      {"unknown_option", {"check", "ok.pfs", "--bogus"}, 2, "", "pfc: error: "},
      {"unknown_global_option", {"--bogus"}, 2, "", "pfc: error: "},
      {"check_missing_script_arg", {"check"}, 2, "", "SCRIPT"},
      {"state_missing_script_arg", {"state"}, 2, "", "SCRIPT"},
      {"run_missing_events", {"run", "ok.pfs"}, 2, "", "--events"},
      {"run_bad_engine",
       {"run", "ok.pfs", "--events", "ok.jsonl", "--engine", "fast"},
       2,
       "",
       "fast"},
      {"compile_missing_emit", {"compile", "ok.pfs"}, 2, "", "--emit"},
      {"compile_bad_emit", {"compile", "ok.pfs", "--emit", "bytecode"}, 2, "", "bytecode"},
      {"check_missing_file",
       {"check", "missing.pfs"},
       1,
       "",
       "pfc: error: cannot read missing.pfs: No such file or directory\n"},
      {"check_directory", {"check", "."}, 1, "", "pfc: error: cannot read .: Is a directory"},
      {"state_missing_file", {"state", "missing.pfs"}, 1, "", "cannot read missing.pfs"},
      {"run_missing_events_file",
       {"run", "ok.pfs", "--events", "missing.jsonl"},
       1,
       "",
       "pfc: error: cannot read missing.jsonl: No such file or directory"},
      {"compile_missing_file", {"compile", "missing.pfs", "--emit", "ast"}, 1, "", "cannot read"},
      {"check_bad_script", {"check", "bad.pfs"}, 1, "", "bad.pfs:4:20: error: "},
      {"run_bad_script",
       {"run", "bad.pfs", "--events", "ok.jsonl"},
       1,
       "",
       "bad.pfs:4:20: error: "},
      {"state_bad_script", {"state", "bad.pfs"}, 1, "", "bad.pfs:4:20: error: "},
      {"compile_ir_bad_script", {"compile", "bad.pfs", "--emit", "ir"}, 1, "", "bad.pfs:4:20: "},
      {"compile_ast_needs_parse_only", {"compile", "bad.pfs", "--emit", "ast"}, 0, "(session", ""},
      {"check_ok", {"check", "ok.pfs"}, 0, "", ""},
      {"run_ok",
       {"run", "ok.pfs", "--events", "ok.jsonl"},
       0,
       "{\"seq\":0,\"sessions\":[\"S\"],\"stack\":[]}\n",
       ""},
      {"run_ok_interp",
       {"run", "ok.pfs", "--events", "ok.jsonl", "--engine", "interp"},
       0,
       "{\"seq\":0,\"sessions\":[\"S\"],\"stack\":[]}\n",
       ""},
      {"run_option_before_script",
       {"run", "--events", "ok.jsonl", "ok.pfs", "--explain"},
       0,
       "{\"seq\":0,\"sessions\":[\"S\"],\"stack\":[],\"why\":{}}\n",
       ""},
      {"state_ok",
       {"state", "ok.pfs"},
       0,
       "{\"provider\":\"P\",\"enabled\":true,\"level\":4,\"any\":\"0xffffffffffffffff\","
       "\"all\":\"0x0\",\"sessions\":[\"S\"]}\n",
       ""},
      {"compile_ir", {"compile", "ok.pfs", "--emit", "ir"}, 0, "; provider P\n", ""},
      {"compile_llvm", {"compile", "ok.pfs", "--emit", "llvm"}, 0, "define", ""},
      {"compile_asm", {"compile", "ok.pfs", "--emit", "asm"}, 0, "pfc_route", ""},
      {"run_ok_jit",
       {"run", "ok.pfs", "--events", "ok.jsonl", "--engine", "jit"},
       0,
       "{\"seq\":0,\"sessions\":[\"S\"],\"stack\":[]}\n",
       ""},
      {"run_debug_crosscheck",
       {"run", "ok.pfs", "--events", "ok.jsonl", "--debug-crosscheck"},
       0,
       "{\"seq\":0,\"sessions\":[\"S\"],\"stack\":[]}\n",
       ""},
      {"run_help_crosscheck", {"run", "--help"}, 0, "--debug-crosscheck", ""},
      {"version", {"--version"}, 0, "pfc 0.", ""},
      {"help_has_examples", {"--help"}, 0, "Examples:", ""},
      {"check_help_examples", {"check", "--help"}, 0, "Examples:", ""},
      {"run_help_examples", {"run", "--help"}, 0, "--output events --session", ""},
      {"gen_help_examples", {"gen", "--help"}, 0, "Examples:", ""},
      {"state_help_examples", {"state", "--help"}, 0, "Examples:", ""},
      {"compile_help_examples", {"compile", "--help"}, 0, "Examples:", ""},
      {"gen_negative_count",
       {"gen", "ok.pfs", "--count", "-1", "--seed", "1", "-o", "x.cap"},
       2,
       "",
       "pfc: error: --count -1: expected a whole number"},
      {"gen_count_overflow",
       {"gen", "ok.pfs", "--count", "18446744073709551616", "--seed", "1", "-o", "x.cap"},
       2,
       "",
       "pfc: error: --count 18446744073709551616: expected a whole number"},
      {"gen_rate_nan",
       {"gen", "ok.pfs", "--count", "1", "--seed", "1", "--match-rate", "nan", "-o", "x.cap"},
       2,
       "",
       "pfc: error: --match-rate nan: expected a number from 0 to 1"},
      {"gen_rate_inf",
       {"gen", "ok.pfs", "--count", "1", "--seed", "1", "--match-rate", "inf", "-o", "x.cap"},
       2,
       "",
       "--match-rate inf"},
      {"run_bad_output",
       {"run", "ok.pfs", "--events", "ok.jsonl", "--output", "xml"},
       2,
       "",
       "xml"},
      {"run_capture_needs_o",
       {"run", "ok.pfs", "--events", "ok.jsonl", "--output", "capture"},
       2,
       "",
       "--output capture needs -o FILE"},
      {"run_unknown_session",
       {"run", "ok.pfs", "--events", "ok.jsonl", "--output", "events", "--session", "Z"},
       2,
       "",
       "pfc: error: --session Z: the script has no session 'Z'"},
      {"run_two_stdins", {"run", "-", "--events", "-"}, 2, "", "cannot both be standard input"},
      {"run_output_events",
       {"run", "ok.pfs", "--events", "ok.jsonl", "--output", "events"},
       0,
       "{\"provider\":\"P\",\"event\":\"E\",\"fields\":{\"N\":1}}\n",  // the line as it came
       ""},
      {"run_output_csv",
       {"run", "ok.pfs", "--events", "ok.jsonl", "--output", "csv"},
       0,
       "seq,provider,event,sessions,N,payload_hex\n0,P,E,S,1,\n",
       ""},
      {"check_events_ok", {"check", "ok.pfs", "--events", "ok.jsonl"}, 0, "", ""},
      {"check_events_bad",
       {"check", "ok.pfs", "--events", "ok.pfs"},
       1,
       "",
       "ok.pfs:1:1: error: malformed JSON"},
      {"color_always", {"--color=always", "check", "bad.pfs"}, 1, "", "\x1b[1;31merror:\x1b[0m"},
      {"color_after_command", {"check", "bad.pfs", "--color", "always"}, 1, "", "\x1b[1;31merror:"},
      {"color_never", {"--color=never", "check", "bad.pfs"}, 1, "", "bad.pfs:4:20: error: "},
      {"color_bad_word", {"--color=sometimes", "check", "ok.pfs"}, 2, "", "sometimes"},
  };
  return kCases;
}

void PrintTo(const CliCase& c, std::ostream* os) {
  *os << "pfc";
  for (const std::string& a : c.args) *os << ' ' << a;
}

class CliTest : public testing::TestWithParam<CliCase> {};

TEST_P(CliTest, ExitCodeAndOutput) {
  const CliCase& c = GetParam();
  const ProcessResult got = run_process(PFC_BINARY, c.args, PFC_DATA_DIR);
  EXPECT_EQ(got.exit_code, c.exit_code) << "stderr: " << got.err;
  if (c.out_has.empty()) {
    EXPECT_EQ(got.out, "");
  } else {
    EXPECT_NE(got.out.find(c.out_has), std::string::npos) << "stdout: " << got.out;
  }
  if (c.err_has.empty()) {
    EXPECT_EQ(got.err, "");
  } else {
    EXPECT_NE(got.err.find(c.err_has), std::string::npos) << "stderr: " << got.err;
  }
}

INSTANTIATE_TEST_SUITE_P(Cli, CliTest, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<CliCase>& info) {
                           return info.param.label;
                         });

}  // namespace
}  // namespace pfc::test

namespace pfc::test {
namespace {

// Every option `pfc COMMAND --help` lists (and --color, --version) is in the man page and
// in both completion scripts.
TEST(CliDocs, ManPageAndCompletionsCoverEveryOption) {
  const std::string man = read_text(PFC_SOURCE_DIR "/docs/pfc.1");
  const std::string bash = read_text(PFC_SOURCE_DIR "/cli/completion/pfc.bash");
  const std::string zsh = read_text(PFC_SOURCE_DIR "/cli/completion/_pfc");
  ASSERT_FALSE(man.empty());
  ASSERT_FALSE(bash.empty());
  ASSERT_FALSE(zsh.empty());
  size_t options_seen = 0;
  const std::vector<std::vector<std::string>> helps = {{"check"},
                                                       {"run"},
                                                       {"gen"},
                                                       {"state"},
                                                       {"compile"},
                                                       {"mc"},
                                                       {"trace"},
                                                       {"trace", "start"},
                                                       {"trace", "enable"},
                                                       {"trace", "disable"},
                                                       {"trace", "list"},
                                                       {"trace", "query"},
                                                       {"trace", "stop"},
                                                       {"trace", "show"},
                                                       {"trace", "export"}};
  for (const std::vector<std::string>& words : helps) {
    const std::string& command = words.back();
    std::vector<std::string> args = words;
    args.emplace_back("--help");
    const ProcessResult help = run_process(PFC_BINARY, args);
    ASSERT_EQ(help.exit_code, 0) << command;
    std::string synopsis = "pfc";
    for (const std::string& w : words) synopsis += " " + w;
    EXPECT_NE(man.find(words.size() == 1 ? ".B " + command : synopsis), std::string::npos)
        << synopsis;
    EXPECT_NE(bash.find(command), std::string::npos) << command;
    EXPECT_NE(zsh.find(command), std::string::npos) << command;
    for (size_t at = help.out.find("--"); at != std::string::npos;
         at = help.out.find("--", at + 2)) {
      size_t end = at + 2;
      while (end < help.out.size() &&
             (std::isalnum(static_cast<unsigned char>(help.out[end])) || help.out[end] == '-'))
        ++end;
      const std::string option = help.out.substr(at, end - at);
      if (option.size() < 4) continue;
      ++options_seen;
      std::string roff;  // the man page writes '-' as "\-"
      for (char c : option) roff += c == '-' ? std::string("\\-") : std::string(1, c);
      EXPECT_NE(man.find(roff), std::string::npos)
          << command << " " << option << " not in docs/pfc.1";
      EXPECT_NE(bash.find(option), std::string::npos)
          << command << " " << option << " not in pfc.bash";
      EXPECT_NE(zsh.find(option), std::string::npos) << command << " " << option << " not in _pfc";
    }
  }
  EXPECT_GE(options_seen, 20u);  // the scan found the options at all
}

}  // namespace
}  // namespace pfc::test
