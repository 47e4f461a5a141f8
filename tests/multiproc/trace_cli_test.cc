// tests/multiproc/trace_cli_test.cc — `pfc trace` (docs/cli.md "pfc trace") as separate
// processes in a private namespace per test: the JSON objects of start/enable/query/list/
// stop, the exact errors and exit codes, and a provider process (trace_actor) writing while
// `pfc trace show` reads, its output routed by `pfc run --events`.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "child.h"
#include "process.h"
#include "trace_cli_fixture.h"

namespace pfc::multiproc {
namespace {

using test::ProcessResult;
using test::run_process;

constexpr int kWait = 20000;
constexpr const char* kGuid = "{00000009-0000-4000-8000-000000000001}";
constexpr const char* kScript = R"(provider Actor {00000009-0000-4000-8000-000000000001} {
    event One (id=1, level=4) { Seq: uint32; }
    event Two (id=2, level=4) { Seq: uint32; }
}
session All {
    enable Actor level=verbose;
}
session Two {
    enable Actor level=info { event_id in 2; }
}
session Pids {
    enable Actor { pid 1, 2; }
}
session Late {
    enable Actor level=verbose {
        payload One all { Seq ge 4 }
        payload Two all { Seq ge 4 }
    }
}
)";

// The provider's events: the ids the session lets through, with their Seq values.
struct Written {
  unsigned per_id[5] = {0, 0, 0, 0, 0};
};

Written write_events(Child& provider, int n) {
  Written w;
  provider.send("write " + std::to_string(n) + " 1");
  const std::string line = provider.expect("wrote", kWait);
  std::sscanf(line.c_str(), "wrote %u %u %u %u", &w.per_id[1], &w.per_id[2], &w.per_id[3],
              &w.per_id[4]);
  return w;
}

class TraceCli : public TraceCliFixture {
 protected:
  void SetUp() override {
    TraceCliFixture::SetUp();
    script_ = write_file("actor.pfs", kScript);
  }
  static std::string session_json(const std::string& name, const std::string& providers,
                                  int events) {
    return "{\"name\":\"" + name + "\",\"file\":null,\"realtime\":true,\"providers\":[" +
           providers + "],\"events\":" + std::to_string(events) +
           ",\"events_lost\":0,\"buffers_written\":0,\"log_buffers_lost\":0,"
           "\"realtime_buffers_lost\":0}\n";
  }

  // True once a consumer's marker (docs/namespace.md §1) exists in the namespace: a `show
  // --follow` started as a Child has attached (bounded: 20 s).
  bool consumer_attached() const {
    for (int i = 0; i < 2000; ++i) {
      for (const auto& f : std::filesystem::directory_iterator(dir_ + "/ns"))
        if (f.path().filename().string().starts_with("c-")) return true;
      ::usleep(10000);
    }
    return false;
  }

  std::string script_;
};

TEST_F(TraceCli, StartEnableQueryListStopPrintTheSessionObjects) {
  EXPECT_EQ(pfc({"start", "T1"}).out, session_json("T1", "", 0));
  EXPECT_EQ(pfc({"start", "T2", "--realtime", "--buffer-kb", "16", "--buffers", "8"}).out,
            session_json("T2", "", 0));
  const ProcessResult en =
      pfc({"enable", "T1", kGuid, "--level", "info", "--any", "0x10", "--all", "1", "--pid", "1,2",
           "--exe", "a.exe", "--event-id", "not:3", "--property", "stack_trace"});
  EXPECT_EQ(en.exit_code, 0) << en.err;
  const std::string quoted = std::string("\"") + kGuid + "\"";
  EXPECT_EQ(en.out, session_json("T1", quoted, 0));
  // A name is its EventSource GUID (Example-Provider's, as in the ETW samples).
  EXPECT_EQ(pfc({"enable", "T2", "Example-Provider"}).exit_code, 0);
  const ProcessResult q = pfc({"query", "t2"});
  EXPECT_EQ(q.exit_code, 0);
  EXPECT_NE(q.out.find("\"providers\":[\"{"), std::string::npos) << q.out;
  EXPECT_EQ(pfc({"list"}).out, session_json("T1", quoted, 0) + q.out);
  EXPECT_EQ(pfc({"disable", "T1", kGuid}).out, session_json("T1", "", 0));
  EXPECT_EQ(pfc({"stop", "T1"}).out, session_json("T1", "", 0));
  EXPECT_EQ(pfc({"list"}).out, q.out);
  EXPECT_EQ(pfc({"stop", "T2"}).exit_code, 0);
  const ProcessResult empty = pfc({"list"});
  EXPECT_EQ(empty.exit_code, 0);
  EXPECT_EQ(empty.out, "");
}

// Each `pfc trace enable` is a process of its own; the objects list each session's enables
// (EnumerateTraceGuidsEx's enables by logger id), in their order of enabling.
TEST_F(TraceCli, ProvidersAreEachSessionsOwnEnables) {
  const std::string a = kGuid, b = "{00000009-0000-4000-8000-000000000002}";
  const std::string qa = "\"" + a + "\"", qb = "\"" + b + "\"";
  ASSERT_EQ(pfc({"start", "T1"}).exit_code, 0);
  ASSERT_EQ(pfc({"start", "T2"}).exit_code, 0);
  EXPECT_EQ(pfc({"enable", "T1", a}).out, session_json("T1", qa, 0));
  EXPECT_EQ(pfc({"enable", "T1", b}).out, session_json("T1", qa + "," + qb, 0));
  EXPECT_EQ(pfc({"enable", "T2", b}).out, session_json("T2", qb, 0));
  EXPECT_EQ(pfc({"disable", "T1", a}).out, session_json("T1", qb, 0));
  EXPECT_EQ(pfc({"enable", "T1", a}).out, session_json("T1", qb + "," + qa, 0));
  EXPECT_EQ(pfc({"list"}).out, session_json("T1", qb + "," + qa, 0) + session_json("T2", qb, 0));
  EXPECT_EQ(pfc({"stop", "T1"}).out, session_json("T1", qb + "," + qa, 0));
  EXPECT_EQ(pfc({"query", "T2"}).out, session_json("T2", qb, 0));
  EXPECT_EQ(pfc({"stop", "T2"}).exit_code, 0);
}

TEST_F(TraceCli, MissingSessionIsExitOneWithTheContractsMessage) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"query", "Nope"},
                                             {"stop", "Nope"},
                                             {"enable", "Nope", kGuid},
                                             {"disable", "Nope", kGuid},
                                             {"show", "Nope"}}) {
    const ProcessResult r = pfc(args);
    EXPECT_EQ(r.exit_code, 1) << args[0];
    EXPECT_EQ(r.err, "pfc: error: no session named 'Nope'\n") << args[0];
    EXPECT_EQ(r.out, "") << args[0];
  }
}

TEST_F(TraceCli, UsageErrorsAndRefusals) {
  ASSERT_EQ(pfc({"start", "T"}).exit_code, 0);
  const ProcessResult dup = pfc({"start", "t"});
  EXPECT_EQ(dup.exit_code, 1);
  EXPECT_EQ(dup.err, "pfc: error: a session named 't' already exists\n");
  EXPECT_EQ(pfc({"start", "F", "--circular", "4"}).exit_code, 2);  // needs --file
  for (const std::vector<std::string>& bad :
       std::vector<std::vector<std::string>>{{"enable", "T", kGuid, "--level", "loud"},
                                             {"enable", "T", kGuid, "--any", "0x1g"},
                                             {"enable", "T", kGuid, "--pid", "1,2,3,4,5,6,7,8,9"},
                                             {"enable", "T", kGuid, "--event-id", "70000"},
                                             {"enable", "T", kGuid, "--property", "nonsense"},
                                             {"enable", "T", "{not-a-guid}"},
                                             {"start", "B", "--buffer-kb", "0"},
                                             {"show", "T", "--schema", "x.txt"},
                                             {"frobnicate"}}) {
    const ProcessResult r = pfc(bad);
    EXPECT_EQ(r.exit_code, 2) << bad.back() << ": " << r.err;
    EXPECT_EQ(r.err.rfind("pfc: error: ", 0), 0u) << r.err;
  }
}

TEST_F(TraceCli, EnableScriptAppliesTheScriptsSession) {
  ASSERT_EQ(pfc({"start", "Two"}).exit_code, 0);
  const ProcessResult r = pfc({"enable", "Two", "--script", script_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, session_json("Two", std::string("\"") + kGuid + "\"", 0));
  // Payload filters travel in the pfc enable extension.
  ASSERT_EQ(pfc({"start", "L"}).exit_code, 0);
  const ProcessResult late = pfc({"enable", "L", "--script", script_, "--session", "Late"});
  EXPECT_EQ(late.exit_code, 0) << late.err;
  EXPECT_EQ(late.out, session_json("L", std::string("\"") + kGuid + "\"", 0));
  const ProcessResult none = pfc({"enable", "L", "--script", script_, "--session", "Nope"});
  EXPECT_EQ(none.exit_code, 1);
}

// The sessions enabled from the script filter as their `event_id` and `pid` say: of ids
// 1..4 twice, session Two gets the two events of id 2; Pids (pid 1, 2) none.
TEST_F(TraceCli, ScriptEnableFiltersInTheProviderProcess) {
  ASSERT_EQ(pfc({"start", "Two"}).exit_code, 0);
  ASSERT_EQ(pfc({"enable", "Two", "--script", script_}).exit_code, 0);
  ASSERT_EQ(pfc({"start", "P"}).exit_code, 0);
  ASSERT_EQ(pfc({"enable", "P", "--script", script_, "--session", "Pids"}).exit_code, 0);
  Child provider({"provider", "9"});
  ASSERT_NE(provider.expect("callback 1", kWait), "");
  write_events(provider, 8);
  const std::string guid = std::string("\"") + kGuid + "\"";
  EXPECT_EQ(pfc({"query", "Two"}).out, session_json("Two", guid, 2));
  EXPECT_EQ(pfc({"query", "P"}).out, session_json("P", guid, 0));
  provider.send("quit");
  EXPECT_EQ(provider.wait(kWait), 0);
}

TEST_F(TraceCli, SixtyFifthSessionIsRefused) {
  for (int i = 0; i < 64; ++i) ASSERT_EQ(pfc({"start", "S" + std::to_string(i)}).exit_code, 0) << i;
  const ProcessResult r = pfc({"start", "S64"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("64 sessions"), std::string::npos) << r.err;
}

std::vector<nlohmann::json> read_events(Child& show) {
  std::vector<nlohmann::json> out;
  for (std::string line = show.read_line(kWait); !line.empty(); line = show.read_line(kWait))
    out.push_back(nlohmann::json::parse(line));
  return out;
}

TEST_F(TraceCli, ShowWithoutFollowPrintsWhatIsBufferedAndReturns) {
  ASSERT_EQ(pfc({"start", "S"}).exit_code, 0);
  ASSERT_EQ(pfc({"enable", "S", kGuid, "--event-id", "2"}).exit_code, 0);
  Child provider({"provider", "9"});
  ASSERT_NE(provider.expect("callback 1", kWait), "");
  const Written w = write_events(provider, 20);  // ids 1..4 in turn: 5 of id 2
  ASSERT_EQ(w.per_id[2], 5u);
  EXPECT_EQ(pfc({"query", "S"}).out, session_json("S", std::string("\"") + kGuid + "\"", 5));
  Child show(Child::Program{PFC_BINARY}, {"trace", "show", "S"});
  const std::vector<nlohmann::json> events = read_events(show);
  EXPECT_EQ(show.wait(kWait), 0);
  ASSERT_EQ(events.size(), 5u);
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i]["provider"], kGuid);
    EXPECT_EQ(events[i]["id"], 2);
    EXPECT_EQ(events[i]["pid"], provider.pid());
    EXPECT_EQ(events[i]["ts"].get<std::string>().size(), 28u);  // 2026-11-24T09:57:41.0301799Z
    EXPECT_TRUE(events[i]["cpu"].is_number());
    char hex[9];  // Seq = 1 + 4i, little-endian
    std::snprintf(hex, sizeof hex, "%02x000000", static_cast<unsigned>(1 + 4 * i));
    EXPECT_EQ(events[i]["payload_hex"], hex);
  }
  provider.send("quit");
  EXPECT_EQ(provider.wait(kWait), 0);
  EXPECT_EQ(pfc({"stop", "S"}).exit_code, 0);
}

// --follow ends on SIGINT (exit 0, output complete) and frees the session for the next
// consumer; the session itself goes on.
TEST_F(TraceCli, FollowEndsOnSigint) {
  ASSERT_EQ(pfc({"start", "S"}).exit_code, 0);
  Child show(Child::Program{PFC_BINARY}, {"trace", "show", "S", "--follow"});
  ASSERT_TRUE(consumer_attached());
  const ProcessResult second = pfc({"show", "S"});
  EXPECT_EQ(second.exit_code, 1);
  EXPECT_NE(second.err.find("already has a consumer"), std::string::npos) << second.err;
  ::kill(show.pid(), SIGINT);
  EXPECT_EQ(show.wait(kWait), 0);
  EXPECT_EQ(pfc({"show", "S"}).exit_code, 0);
  EXPECT_EQ(pfc({"stop", "S"}).exit_code, 0);
}

TEST_F(TraceCli, FollowedEventsRouteThroughPfcRun) {
  ASSERT_EQ(pfc({"start", "S"}).exit_code, 0);
  ASSERT_EQ(pfc({"enable", "S", kGuid, "--event-id", "1,2"}).exit_code, 0);
  Child show(Child::Program{PFC_BINARY}, {"trace", "show", "S", "--follow", "--schema", script_});
  // Before the stop: a consumer that attaches after it finds no session and shows nothing.
  ASSERT_TRUE(consumer_attached());
  Child provider({"provider", "9"});
  ASSERT_NE(provider.expect("callback 1", kWait), "");
  const Written w = write_events(provider, 40);  // Seq 0..39, ids 1..4 in turn
  const unsigned expected = w.per_id[1] + w.per_id[2];
  ASSERT_EQ(expected, 20u);
  provider.send("quit");
  EXPECT_EQ(provider.wait(kWait), 0);
  const ProcessResult stop = pfc({"stop", "S"});
  EXPECT_EQ(stop.out, session_json("S", std::string("\"") + kGuid + "\"", 20));
  std::string lines;
  std::vector<nlohmann::json> events;
  for (std::string line = show.read_line(kWait); !line.empty(); line = show.read_line(kWait)) {
    lines += line + "\n";
    events.push_back(nlohmann::json::parse(line));
  }
  EXPECT_EQ(show.wait(kWait), 0);
  ASSERT_EQ(events.size(), 20u);
  const std::string shown = dir_ + "/shown.jsonl";
  std::ofstream(shown) << lines;
  const ProcessResult run = run_process(PFC_BINARY, {"run", script_, "--events", shown});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::string expect_run;
  for (size_t i = 0; i < events.size(); ++i) {
    const unsigned seq = events[i]["fields"]["Seq"];
    EXPECT_EQ(events[i]["event"], seq % 4 == 0 ? "One" : "Two");
    expect_run += "{\"seq\":" + std::to_string(i) + ",\"sessions\":[\"All\"" +
                  (seq % 4 == 1 ? ",\"Two\"" : "") + (seq >= 4 ? ",\"Late\"" : "") +
                  "],\"stack\":[]}\n";
  }
  EXPECT_EQ(run.out, expect_run);
}

}  // namespace
}  // namespace pfc::multiproc
