// tests/multiproc/trace_export_test.cc — `pfc trace export FILE --format ctf -o DIR`
// (docs/cli.md "pfc trace", docs/logfile.md "Viewing with babeltrace2") on a real
// recording: a file session records the EnableTraceEx2 documentation's sample provider
// (trace_actor example 1 and 2: Example_Event_1/2, enabled with examples/etw-sample.pfs so
// the file records its schema) and a provider no schema declares (trace_actor provider);
// babeltrace2 reads the exported directory, and each of its events is compared with the
// `pfc trace show` line of the same event: name, time (and so order), pid, tid, cpu,
// descriptor and every decoded field value (tests/cli/babeltrace_text.h). Then every
// error's message and exit code. Each test has its own PFC_TRACE_DIR; every child is
// reaped.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "babeltrace_text.h"
#include "child.h"
#include "process.h"
#include "trace_cli_fixture.h"

namespace pfc::multiproc {
namespace {

using test::ProcessResult;
using test::run_process;

constexpr int kWait = 20000;
constexpr const char* kSample = PFC_SOURCE_DIR "/examples/etw-sample.pfs";
constexpr const char* kManifest = PFC_SOURCE_DIR "/examples/etw/Example.man";

struct Compared {
  size_t events = 0;
  size_t typed = 0;  // events show decodes into "fields"
  size_t raw = 0;    // events show prints as "payload_hex"
};

class TraceExport : public TraceCliFixture {
 protected:
  // Records the sample provider's events (the script's filters pass some) and 3 + 2 × `n`
  // events of a provider without a schema (3 of id 5 with a string, `n` of ids 1-4 on each
  // of 2 threads), with `options` for `pfc trace start`.
  std::string record(int n = 8, const std::vector<std::string>& options = {}) {
    const std::string file = dir_ + "/rec.etl";
    std::vector<std::string> start{"start", "R", "--file", file};
    start.insert(start.end(), options.begin(), options.end());
    const ProcessResult st = pfc(start);
    EXPECT_EQ(st.exit_code, 0) << st.err;
    const ProcessResult en = pfc({"enable", "R", "--script", kSample, "--session", "MyTrace"});
    EXPECT_EQ(en.exit_code, 0) << en.err;
    EXPECT_EQ(pfc({"enable", "R", "{00000015-0000-4000-8000-000000000001}"}).exit_code, 0);
    {
      Child one({"example", "1"});
      Child two({"example", "2"});
      EXPECT_EQ(one.expect("example", kWait), "example 7");
      EXPECT_EQ(two.expect("example", kWait), "example 6");
      Child p({"provider", "0x15"});
      EXPECT_EQ(p.expect("registered", kWait), "registered");
      p.send("named 3");
      EXPECT_EQ(p.expect("named", kWait), "named 3");
      p.send("write " + std::to_string(n) + " 2");
      EXPECT_NE(p.expect("wrote", kWait), "");
      for (Child* c : {&one, &two, &p}) {
        c->send("quit");
        EXPECT_EQ(c->wait(kWait), 0);
      }
    }
    const ProcessResult stop = pfc({"stop", "R"});
    EXPECT_EQ(stop.exit_code, 0) << stop.err;
    return file;
  }

  // Exports `file` to `out` with `extra` options (also given to show), expecting exit
  // `want_rc` from both, and compares babeltrace2's events with show's, one by one.
  Compared export_equals_show(const std::string& file, const std::string& out,
                              const std::vector<std::string>& extra, int want_rc = 0) {
    std::vector<std::string> show_args{"show", file};
    std::vector<std::string> export_args{"export", file, "--format", "ctf", "-o", out};
    show_args.insert(show_args.end(), extra.begin(), extra.end());
    export_args.insert(export_args.end(), extra.begin(), extra.end());
    const ProcessResult show = pfc(show_args);
    EXPECT_EQ(show.exit_code, want_rc) << show.err;
    const ProcessResult ex = pfc(export_args);
    EXPECT_EQ(ex.exit_code, want_rc) << ex.err;
    EXPECT_EQ(ex.out, "");
    EXPECT_EQ(ex.err, show.err);  // the same reader, the same warnings and errors
    const std::string bt_path = test::babeltrace2_path();
    EXPECT_NE(bt_path, "") << "babeltrace2 is not installed (scripts/bootstrap installs it)";
    const ProcessResult bt = run_process(bt_path, {"--clock-gmt", "--clock-date", out});
    EXPECT_EQ(bt.exit_code, 0) << bt.err;
    EXPECT_EQ(bt.err, "");  // babeltrace2 logs a packet it cannot decode and goes on
    const std::vector<test::BtEvent> events = test::parse_babeltrace(bt.out);
    std::vector<test::BtJson> lines;
    std::istringstream in(show.out);
    for (std::string line; std::getline(in, line);) lines.push_back(test::BtJson::parse(line));
    Compared c;
    EXPECT_EQ(events.size(), lines.size());
    for (size_t k = 0; k < events.size() && k < lines.size(); ++k) {
      test::compare_with_show(events[k], lines[k], "event " + std::to_string(k));
      if (k > 0) {
        EXPECT_LE(events[k - 1].time, events[k].time) << k;
      }
      ++c.events;
      (lines[k].contains("fields") ? c.typed : c.raw) += 1;
    }
    return c;
  }
};

TEST_F(TraceExport, BabeltraceShowsTheEventsShowPrints) {
  const std::string file = record();
  const Compared c = export_equals_show(file, dir_ + "/ctf", {});
  EXPECT_GE(c.typed, 4u);  // Example_Event_1 and _2 that the script's filters pass
  EXPECT_EQ(c.raw, 19u);   // the provider without a schema
  // A --schema file wins for its provider, as in show: the manifest's names and types.
  const Compared m = export_equals_show(file, dir_ + "/ctf-man", {"--schema", kManifest});
  EXPECT_EQ(m.events, c.events);
  EXPECT_EQ(m.typed, c.typed);
  const std::string meta = test::read_text(dir_ + "/ctf-man/metadata");
  EXPECT_NE(meta.find("/* CTF 1.8 */"), std::string::npos);
  EXPECT_NE(meta.find("name = \"Example-Provider:Example_Event_2\""), std::string::npos) << meta;
  EXPECT_NE(meta.find("string { encoding = UTF8; } _InstanceId;"), std::string::npos) << meta;
}

// A damaged file: the events before the damage are exported (babeltrace2 reads them, equal
// to what show prints of the same file), and the reader's error is exit 1.
TEST_F(TraceExport, DamagedFileExportsTheEventsBeforeTheDamage) {
  const std::string file = record(200, {"--buffer-kb", "4"});  // many buffers
  std::filesystem::resize_file(file, std::filesystem::file_size(file) - 1);
  const Compared c = export_equals_show(file, dir_ + "/ctf", {}, 1);
  EXPECT_GT(c.events, 0u);
  EXPECT_LT(c.events, 403u);
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/ctf/metadata"));
}

TEST_F(TraceExport, ErrorsAreOneLineWithTheirExitCodes) {
  const std::string out = dir_ + "/ctf";
  const auto expect_error = [&](const std::vector<std::string>& args, int rc,
                                const std::string& first_line) {
    const ProcessResult r = pfc(args);
    EXPECT_EQ(r.exit_code, rc) << r.err;
    EXPECT_EQ(r.err.substr(0, r.err.find('\n') + 1), first_line);
    EXPECT_EQ(r.out, "");
  };
  const std::string missing = dir_ + "/no.etl";
  expect_error({"export", missing, "--format", "ctf", "-o", out}, 1,
               "pfc: error: cannot read " + missing + ": no such file\n");
  EXPECT_FALSE(std::filesystem::exists(out));  // nothing created for a bad FILE
  const std::string text = write_file("text.etl", "not a log file\n");
  expect_error({"export", text, "--format", "ctf", "-o", out}, 1,
               "pfc: error: " + text + ": not a pfc trace log file (docs/logfile.md)\n");
  EXPECT_FALSE(std::filesystem::exists(out));
  expect_error({"export", text, "--format", "json", "-o", out}, 2,
               "pfc: error: --format json: the one format is ctf (a CTF 1.8 directory)\n");
  expect_error({"export", text, "-o", out}, 2, "pfc: error: --format is required\n");
  expect_error({"export", text, "--format", "ctf"}, 2, "pfc: error: --output is required\n");
  expect_error({"export", "--format", "ctf", "-o", out}, 2, "pfc: error: FILE is required\n");
  expect_error({"export", text, "--format", "ctf", "-o", out, "--schema", text}, 2,
               "pfc: error: --schema " + text +
                   ": expected a filter script (.pfs) or an instrumentation manifest (.man)\n");

  const std::string file = dir_ + "/rec.etl";
  ASSERT_EQ(pfc({"start", "R", "--file", file}).exit_code, 0);
  ASSERT_EQ(pfc({"stop", "R"}).exit_code, 0);
  std::filesystem::create_directory(out);
  write_file("ctf/keep", "mine\n");
  expect_error({"export", file, "--format", "ctf", "-o", out}, 1,
               "pfc: error: cannot write " + out + ": the directory is not empty\n");
  EXPECT_EQ(test::read_text(out + "/keep"), "mine\n");  // left as it was
  EXPECT_FALSE(std::filesystem::exists(out + "/metadata"));
  expect_error({"export", file, "--format", "ctf", "-o", text}, 1,
               "pfc: error: cannot write " + text + ": exists and is not a directory\n");
  expect_error({"export", file, "--format", "ctf", "-o", dir_ + "/a/b"}, 1,
               "pfc: error: cannot write " + dir_ + "/a/b: No such file or directory\n");
  // An empty recording is an empty trace.
  const Compared none = export_equals_show(file, dir_ + "/empty", {});
  EXPECT_EQ(none.events, 0u);
}

}  // namespace
}  // namespace pfc::multiproc
