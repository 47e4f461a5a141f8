// tests/cli/golden_test.cc — the engine-neutral golden corpus (tests/golden/, layout in
// tests/golden/README.md) run through the real `pfc` binary: every `run` case once per
// engine of PFC_GOLDEN_ENGINES with identical expectations, plus every `state` and `check`
// case. Run cases that expect success are also re-run with --explain toggled: the routing
// output must not change, and with --explain pfc cross-checks the engine against
// cli/explain on every event (exit 3 on disagreement).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "base/ascii.h"
#include "cli/run_output.h"
#include "process.h"

namespace pfc::test {
namespace {

namespace fs = std::filesystem;

// Comma-separated engine names from CMake (tests/cli/CMakeLists.txt: PFC_GOLDEN_ENGINES).
std::vector<std::string> engines() {
  std::vector<std::string> out;
  std::stringstream list(PFC_GOLDEN_ENGINES);
  for (std::string e; std::getline(list, e, ',');)
    if (!e.empty()) out.push_back(e);
  return out;
}

// Case directories holding `marker`, sorted by name.
std::vector<std::string> cases_with(const std::string& marker) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(PFC_GOLDEN_DIR))
    if (entry.is_directory() && fs::exists(entry.path() / marker))
      out.push_back(entry.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string case_dir(const std::string& name) { return std::string(PFC_GOLDEN_DIR) + "/" + name; }

// The environment that makes `--output events` re-encode JSON Lines events too
// (cli/run_output.h), as it does every other input.
const std::vector<std::string> kReencode = {std::string(cli::kReencodeEventsVar) + "=1"};

std::string test_name(std::string s) {
  for (char& c : s)
    if (!is_ascii_alnum(c)) c = '_';
  return s;
}

// An "exit N" first line followed by the expected stderr, exactly.
struct ExitAndStderr {
  int exit_code = 0;
  std::string err;
};

ExitAndStderr read_exit_and_stderr(const std::string& path, int default_exit) {
  ExitAndStderr x{default_exit, ""};
  if (!fs::exists(path)) return x;
  const std::string text = read_text(path);
  const size_t nl = text.find('\n');
  const std::string first = text.substr(0, nl);
  EXPECT_EQ(first.rfind("exit ", 0), 0u) << path << ": first line must be 'exit N'";
  x.exit_code = std::stoi(first.substr(5));
  x.err = nl == std::string::npos ? "" : text.substr(nl + 1);
  return x;
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// Removes the ,"why":{...} member --explain adds at the end of each line.
std::string strip_why(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const size_t at = line.find(",\"why\":{");
    if (at != std::string::npos) line = line.substr(0, at) + "}";
    out += line + "\n";
  }
  return out;
}

struct RunCase {
  std::string name;
  std::string engine;
};

void PrintTo(const RunCase& c, std::ostream* os) { *os << c.name << " on " << c.engine; }

class GoldenRun : public testing::TestWithParam<RunCase> {};

TEST_P(GoldenRun, MatchesExpected) {
  const RunCase& c = GetParam();
  const std::string dir = case_dir(c.name);
  std::vector<std::string> args = {"run",          "script.pfs", "--events",
                                   "events.jsonl", "--engine",   c.engine};
  const std::vector<std::string> extra = split_words(read_text(dir + "/args"));
  args.insert(args.end(), extra.begin(), extra.end());
  const ExitAndStderr want = read_exit_and_stderr(dir + "/run.stderr", 0);
  const std::string want_out = read_text(dir + "/expected.jsonl");
  const ProcessResult got = run_process(PFC_BINARY, args, dir);
  EXPECT_EQ(got.exit_code, want.exit_code) << got.err;
  EXPECT_EQ(got.err, want.err);
  EXPECT_EQ(got.out, want_out);
  if (want.exit_code != 0) return;
  // The same case with --explain toggled: routing output must not change.
  const auto explain = std::find(args.begin(), args.end(), "--explain");
  if (explain == args.end()) {
    args.emplace_back("--explain");
  } else {
    args.erase(explain);
  }
  const ProcessResult toggled = run_process(PFC_BINARY, args, dir);
  EXPECT_EQ(toggled.exit_code, 0) << toggled.err;
  EXPECT_EQ(strip_why(toggled.out), strip_why(want_out)) << "with --explain toggled";
}

std::vector<RunCase> run_cases() {
  std::vector<RunCase> out;
  for (const std::string& name : cases_with("events.jsonl"))
    for (const std::string& engine : engines()) out.push_back({name, engine});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenRun, testing::ValuesIn(run_cases()),
                         [](const testing::TestParamInfo<RunCase>& info) {
                           return test_name(info.param.name + "_" + info.param.engine);
                         });

// --output events (re-encoded) and --output csv against expected.events / expected.csv
// (engine auto).
class GoldenOutput : public testing::TestWithParam<std::string> {};

TEST_P(GoldenOutput, MatchesExpected) {
  const std::string dir = case_dir(GetParam());
  for (const std::string mode : {"events", "csv"}) {
    const std::string expected = std::string(dir).append("/expected.").append(mode);
    if (!fs::exists(expected)) continue;
    const ProcessResult got =
        run_process(PFC_BINARY, {"run", "script.pfs", "--events", "events.jsonl", "--output", mode},
                    dir, StdoutTo::Capture, kReencode);
    EXPECT_EQ(got.exit_code, 0) << mode << ": " << got.err;
    EXPECT_EQ(got.err, "") << mode;
    EXPECT_EQ(got.out, read_text(expected)) << mode;
  }
}

std::vector<std::string> output_cases() {
  std::vector<std::string> out = cases_with("expected.events");
  for (const std::string& c : cases_with("expected.csv"))
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenOutput, testing::ValuesIn(output_cases()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return test_name(info.param);
                         });

// The decision lines of `out` whose "sessions" intersect `names` (all non-empty ones when
// `names` is empty), without "seq".
std::string delivered_without_seq(const std::string& out, const std::vector<std::string>& names) {
  std::string kept;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    const size_t open = line.find("\"sessions\":[") + 12;
    const std::string sessions = line.substr(open, line.find(']', open) - open);
    bool keep = names.empty() ? !sessions.empty() : false;
    for (const std::string& n : names)
      keep = keep || sessions.find('"' + n + '"') != std::string::npos;
    if (!keep) continue;
    kept += line.substr(line.find(",\"sessions\"")) + "\n";
  }
  return kept;
}

// The names of the script's sessions (lines "session NAME {").
std::vector<std::string> session_names(const std::string& script) {
  std::vector<std::string> out;
  const std::regex session(R"(^\s*session\s+([A-Za-z_][A-Za-z0-9_.-]*)\s*\{)");
  std::istringstream in(script);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, session)) out.push_back(m[1]);
  }
  return out;
}

// Every successful run case: --output events (all sessions, then each session alone) piped
// back into `pfc run` gives the decisions the input gave to the events it selected.
class GoldenRoundTrip : public testing::TestWithParam<std::string> {};

TEST_P(GoldenRoundTrip, EventsOutputRoutesTheSame) {
  const std::string dir = case_dir(GetParam());
  const std::vector<std::string> extra = split_words(read_text(dir + "/args"));
  std::vector<std::string> base = {"run", "script.pfs", "--events", "events.jsonl"};
  base.insert(base.end(), extra.begin(), extra.end());
  std::erase(base, std::string("--explain"));
  const ProcessResult decisions = run_process(PFC_BINARY, base, dir);
  ASSERT_EQ(decisions.exit_code, 0) << decisions.err;
  std::vector<std::vector<std::string>> selections = {{}};
  // Each session alone too: the first three and the last (sessions_64 has 64).
  const std::vector<std::string> names = session_names(read_text(dir + "/script.pfs"));
  for (size_t i = 0; i < names.size(); ++i)
    if (i < 3 || i + 1 == names.size()) selections.push_back({names[i]});
  // The pid keeps concurrent test runs (other build trees) off each other's file.
  const std::string tmp = fs::temp_directory_path() / ("pfc_roundtrip_" + GetParam() + "_" +
                                                       std::to_string(::getpid()) + ".jsonl");
  for (const auto& selection : selections) {
    std::vector<std::string> args = base;
    args.insert(args.end(), {"--output", "events", "-o", tmp});
    for (const std::string& n : selection) args.insert(args.end(), {"--session", n});
    const ProcessResult events = run_process(PFC_BINARY, args, dir);
    ASSERT_EQ(events.exit_code, 0) << events.err;
    std::vector<std::string> again = base;
    again[3] = tmp;
    const ProcessResult routed = run_process(PFC_BINARY, again, dir);
    ASSERT_EQ(routed.exit_code, 0) << routed.err;
    EXPECT_EQ(delivered_without_seq(routed.out, selection),
              delivered_without_seq(decisions.out, selection))
        << "selection: " << (selection.empty() ? "all" : selection[0]);
  }
  fs::remove(tmp);
}

std::vector<std::string> round_trip_cases() {
  std::vector<std::string> out;
  for (const std::string& name : cases_with("events.jsonl"))
    if (!fs::exists(case_dir(name) + "/run.stderr")) out.push_back(name);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenRoundTrip, testing::ValuesIn(round_trip_cases()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return test_name(info.param);
                         });

// The events of a JSON Lines file in order: its lines (the last one without '\n' too),
// blank ones left out, each with its '\n' (docs/cli.md "Output").
std::vector<std::string> event_lines(const std::string& text) {
  std::vector<std::string> out;
  for (size_t at = 0; at < text.size();) {
    const size_t nl = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, nl - at);
    if (line.find_first_not_of(" \t\r") != std::string::npos) out.push_back(line + "\n");
    at = nl + 1;
  }
  return out;
}

// Every successful run case, all sessions: `--output events` against the same re-encoded.
// A JSON Lines input passes through: the output is the selected input lines byte for byte,
// it holds the events the re-encoding holds (re-encoding the output gives the re-encoded
// output byte for byte), and on the re-encoded output itself, where every line is in the
// encoder's form, both are the same bytes. A JSON array is re-encoded either way.
class GoldenPassThrough : public testing::TestWithParam<std::string> {};

TEST_P(GoldenPassThrough, EqualsTheReencodedOutput) {
  const std::string dir = case_dir(GetParam());
  std::vector<std::string> base = {"run", "script.pfs", "--events", "events.jsonl"};
  const std::vector<std::string> extra = split_words(read_text(dir + "/args"));
  base.insert(base.end(), extra.begin(), extra.end());
  std::erase(base, std::string("--explain"));
  std::vector<std::string> events = base;
  events.insert(events.end(), {"--output", "events"});
  const ProcessResult decisions = run_process(PFC_BINARY, base, dir);
  const ProcessResult passed = run_process(PFC_BINARY, events, dir);
  const ProcessResult reencoded =
      run_process(PFC_BINARY, events, dir, StdoutTo::Capture, kReencode);
  ASSERT_EQ(decisions.exit_code, 0) << decisions.err;
  ASSERT_EQ(passed.exit_code, 0) << passed.err;
  ASSERT_EQ(reencoded.exit_code, 0) << reencoded.err;
  const std::string input = read_text(dir + "/events.jsonl");
  if (input.find_first_not_of(" \t\r\n") != std::string::npos &&
      input[input.find_first_not_of(" \t\r\n")] == '[') {
    EXPECT_EQ(passed.out, reencoded.out) << "a JSON array is re-encoded";
    return;
  }
  // The selected input lines: those whose decision names a session.
  const std::vector<std::string> lines = event_lines(input);
  std::istringstream in(decisions.out);
  std::string selected;
  size_t n = 0;
  for (std::string d; std::getline(in, d); ++n) {
    ASSERT_LT(n, lines.size());
    if (d.find("\"sessions\":[]") == std::string::npos) selected += lines[n];
  }
  EXPECT_EQ(n, lines.size());
  EXPECT_EQ(passed.out, selected);
  // The same events, and the same bytes where the input is in the encoder's form.
  const std::string tmp = fs::temp_directory_path() / ("pfc_passthrough_" + GetParam() + "_" +
                                                       std::to_string(::getpid()) + ".jsonl");
  for (const std::string* text : {&passed.out, &reencoded.out}) {
    std::ofstream(tmp, std::ios::binary) << *text;
    std::vector<std::string> again = events;
    again[3] = tmp;
    const ProcessResult r = run_process(PFC_BINARY, again, dir, StdoutTo::Capture, kReencode);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, reencoded.out);
    const ProcessResult p = run_process(PFC_BINARY, again, dir);
    EXPECT_EQ(p.exit_code, 0) << p.err;
    EXPECT_EQ(p.out, *text) << "a pass-through of its own output";
  }
  fs::remove(tmp);
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenPassThrough, testing::ValuesIn(round_trip_cases()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return test_name(info.param);
                         });

class GoldenState : public testing::TestWithParam<std::string> {};

TEST_P(GoldenState, MatchesExpected) {
  const std::string dir = case_dir(GetParam());
  const ProcessResult got = run_process(PFC_BINARY, {"state", "script.pfs"}, dir);
  EXPECT_EQ(got.exit_code, 0) << got.err;
  EXPECT_EQ(got.err, "");
  EXPECT_EQ(got.out, read_text(dir + "/state.expected"));
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenState, testing::ValuesIn(cases_with("state.expected")),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return test_name(info.param);
                         });

class GoldenCheck : public testing::TestWithParam<std::string> {};

TEST_P(GoldenCheck, MatchesExpected) {
  const std::string dir = case_dir(GetParam());
  const ExitAndStderr want = read_exit_and_stderr(dir + "/check.expected", 0);
  const ProcessResult got = run_process(PFC_BINARY, {"check", "script.pfs"}, dir);
  EXPECT_EQ(got.exit_code, want.exit_code) << got.err;
  EXPECT_EQ(got.err, want.err);
  EXPECT_EQ(got.out, "");
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenCheck, testing::ValuesIn(cases_with("check.expected")),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return test_name(info.param);
                         });

TEST(GoldenCorpus, IsNotEmpty) {
  EXPECT_GE(cases_with("events.jsonl").size(), 10u);
  EXPECT_FALSE(engines().empty());
}

}  // namespace
}  // namespace pfc::test
