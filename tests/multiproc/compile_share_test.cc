// tests/multiproc/compile_share_test.cc — routing programs compiled once per namespace
// (docs/namespace.md "Compiled programs", docs/etw.md "Engine"): provider processes
// (trace_actor, default engine) started before and after an enable share one compile of
// the compile service and all switch to its native code, mapping no LLVM; each delivers
// exactly what a provider routing with the interpreter (PFC_ETW_ENGINE=interp) delivers for
// the same events; however many ask at once, one service is started. Damaged, truncated,
// swapped and foreign-owned code files (refused, checked by the service and replaced),
// code one process cannot load (refused by it alone, shown failed, kept for the others), a
// service killed at each step, a provider killed while its program compiles and a noexec
// namespace never cost a decision. Each test has its own namespace; every wait is bounded,
// every child reaped, and the test's service killed at the end.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <thread>

#include "child.h"
#include "process.h"
#include "trace_cli_fixture.h"

namespace pfc::multiproc {
namespace {

using test::ProcessResult;
using Json = nlohmann::json;

constexpr int kWait = 20000;    // ms: one step of a child
constexpr int kNative = 60000;  // ms: until every provider routes natively

constexpr const char* kProvider = R"(provider Actor {00000009-0000-4000-8000-000000000001} {
    event One (id=1, level=4) { Seq: uint32; }
    event Two (id=2, level=4) { Seq: uint32; }
    event Named (id=5, level=4) { Name: wstring; Seq: uint32; Mod: uint32; }
}
)";
constexpr const char* kSessions = R"(session W {
    enable Actor level=verbose {
        payload One where (Seq lt 8 or Seq gt 30) and not Seq eq 4;
        payload Two where Seq between 5,25 or Seq modulo 9;
        payload Named where (Name startswith "item" and Name endswith.cs "-2") or Seq gt Mod;
    }
}
session V { enable Actor { payload Named where Name contains "item-1" or Seq lt 3; } }
)";

// How many lines of /proc/PID/maps name `what`.
int mapped(int pid, const std::string& what) {
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  int n = 0;
  for (std::string line; std::getline(maps, line);) n += line.find(what) != std::string::npos;
  return n;
}

using Delivered = std::set<std::pair<int, unsigned>>;  // (event id, Seq)

// An event's Seq: its field, or (events 3 and 4, which the schema does not declare) the
// 4-byte payload.
unsigned seq_of(const Json& event) {
  if (event.contains("fields")) return event["fields"]["Seq"];
  const std::string hex = event["payload_hex"];
  unsigned seq = 0;
  for (int i = 3; i >= 0; --i) seq = seq * 256 + std::stoul(hex.substr(2 * i, 2), nullptr, 16);
  return seq;
}

class CompileShare : public TraceCliFixture {
 protected:
  void SetUp() override {
    TraceCliFixture::SetUp();
    ns_ = dir_ + "/ns";
    ::setenv("PFC_COMPILER_IDLE_MS", "1000", 1);  // the service ends soon after the test
    script_ = write_file("s.pfs", std::string(kProvider) + kSessions);
  }
  void TearDown() override {
    kill_service();
    ::unsetenv("PFC_COMPILER_IDLE_MS");
    ::unsetenv("PFC_COMPILER_KEEP_MS");
    ::unsetenv("PFC_COMPILER_CACHE_MB");
    TraceCliFixture::TearDown();
  }

  // The running service (its PID from compiler.lock), killed; nothing is left running.
  void kill_service() const { kill_compile_service(ns_); }

  std::vector<Json> programs() const {
    const ProcessResult r = pfc({"programs"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<Json> out;
    size_t start = 0;
    for (size_t nl; (nl = r.out.find('\n', start)) != std::string::npos; start = nl + 1)
      out.push_back(Json::parse(r.out.substr(start, nl - start)));
    return out;
  }

  // True when the cache holds exactly one program, in `state`, used by `processes`.
  bool one_program(const std::string& state, int processes) const {
    const auto all = programs();
    return all.size() == 1 && all[0]["state"] == state && all[0]["processes"] == processes;
  }

  // Lines of compiler.log that record a compile.
  int compiles() const {
    std::ifstream log(ns_ + "/compiler.log");
    int n = 0;
    for (std::string line; std::getline(log, line);)
      n += line.find(" compiled ") != std::string::npos;
    return n;
  }

  void start_and_enable(const std::string& session) const {
    ASSERT_EQ(pfc({"start", session}).exit_code, 0);
    const ProcessResult en = pfc({"enable", session, "--script", script_});
    ASSERT_EQ(en.exit_code, 0) << en.err;
  }

  // A provider of Actor; `env` as for Child. Registered after an enable, its callback
  // line comes first (EventRegister calls it).
  static std::unique_ptr<Child> provider(const std::vector<std::string>& env = {},
                                         bool enabled = false) {
    auto c = std::make_unique<Child>(std::vector<std::string>{"provider", "9"}, env);
    if (enabled) {
      EXPECT_EQ(c->read_line(kWait).rfind("callback 1 ", 0), 0u);
    }
    EXPECT_EQ(c->read_line(kWait), "registered");
    return c;
  }
  static std::unique_ptr<Child> interpreting() { return provider({"PFC_ETW_ENGINE=interp"}); }

  static void write_events(Child& c) {
    c.send("write 40 1");
    ASSERT_NE(c.expect("wrote 10 10 10 10", kWait), "");
    c.send("named 30");
    ASSERT_NE(c.expect("named 30", kWait), "");
  }

  // `pfc trace show NAME`: what each process delivered to the session.
  std::map<int, Delivered> delivered(const std::string& session) const {
    const ProcessResult r = pfc({"show", session});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::map<int, Delivered> out;
    size_t start = 0;
    for (size_t nl; (nl = r.out.find('\n', start)) != std::string::npos; start = nl + 1) {
      const Json e = Json::parse(r.out.substr(start, nl - start));
      EXPECT_TRUE(out[e["pid"].get<int>()].insert({e["id"].get<int>(), seq_of(e)}).second)
          << e.dump();
    }
    return out;
  }

  // Every provider in `natives` delivered to `session` exactly what `reference` (the
  // interpreter) did, and that is neither nothing nor everything.
  void expect_interpreter_decisions(const std::string& session,
                                    const std::vector<std::unique_ptr<Child>>& natives,
                                    Child& reference) const {
    const auto got = delivered(session);
    ASSERT_EQ(got.count(reference.pid()), 1u) << session;
    const Delivered& want = got.at(reference.pid());
    EXPECT_GT(want.size(), 3u);
    EXPECT_LT(want.size(), 60u);
    for (const auto& c : natives) {
      const auto it = got.find(c->pid());
      ASSERT_NE(it, got.end()) << session << ": nothing from " << c->pid();
      EXPECT_EQ(it->second, want) << session << ": provider " << c->pid();
    }
  }

  std::string ns_;
  std::string script_;
};

TEST_F(CompileShare, ProvidersBeforeAndAfterTheEnableShareOneCompileAndRouteAsTheInterpreter) {
  std::vector<std::unique_ptr<Child>> natives;
  natives.reserve(16);
  for (int i = 0; i < 8; ++i) natives.push_back(provider());
  auto reference = interpreting();
  start_and_enable("W");
  for (auto& c : natives) ASSERT_NE(c->expect("callback 1", kWait), "");
  ASSERT_NE(reference->expect("callback 1", kWait), "");
  for (int i = 0; i < 8; ++i) natives.push_back(provider({}, true));
  ASSERT_TRUE(wait_for([&] { return one_program("ready", 16); }, kNative))
      << programs().size() << " programs; compiler.log: " << test::read_text(ns_ + "/compiler.log");
  const Json p = programs()[0];
  EXPECT_EQ(p["provider"], "{00000009-0000-4000-8000-000000000001}");
  EXPECT_GT(p["bytes"].get<uint64_t>(), 0u);
  EXPECT_GT(p["compile_us"].get<uint64_t>(), 0u);
  EXPECT_EQ(compiles(), 1) << test::read_text(ns_ + "/compiler.log");
  for (auto& c : natives) EXPECT_EQ(mapped(c->pid(), "libLLVM"), 0) << "LLVM in a provider";
  for (auto& c : natives) write_events(*c);
  write_events(*reference);
  expect_interpreter_decisions("W", natives, *reference);
  for (auto& c : natives) c->send("quit");
  reference->send("quit");
  for (auto& c : natives) EXPECT_EQ(c->wait(kWait), 0);
  EXPECT_EQ(reference->wait(kWait), 0);
  EXPECT_TRUE(wait_for([&] { return one_program("ready", 0); }, kWait));
}

// ---- code files that fail a check ------------------------------------------------------

enum class Damage { Truncated, Corrupted, Swapped, ForeignOwned };

std::string damage_name(const ::testing::TestParamInfo<Damage>& info) {
  switch (info.param) {
    case Damage::Truncated: return "Truncated";
    case Damage::Corrupted: return "Corrupted";
    case Damage::Swapped: return "Swapped";
    case Damage::ForeignOwned: return "ForeignOwned";
  }
  return "";
}

class DamagedCode : public CompileShare, public ::testing::WithParamInterface<Damage> {
 protected:
  // The program of W and V ready, unused; the program of W alone ready too (reclaimed
  // only after 30 s). Returns the key of the W+V program.
  std::string two_programs() {
    auto first = provider();
    start_and_enable("W");
    EXPECT_NE(first->expect("callback 1", kWait), "");
    EXPECT_TRUE(wait_for([&] { return one_program("ready", 1); }, kNative));
    const std::string only_w = programs().at(0)["key"];
    start_and_enable("V");
    std::string both;
    EXPECT_TRUE(wait_for(
        [&] {
          for (const Json& p : programs())
            if (p["key"] != only_w && p["state"] == "ready" && p["processes"] == 1) both = p["key"];
          return !both.empty();
        },
        kNative));
    first->send("quit");
    EXPECT_EQ(first->wait(kWait), 0);
    EXPECT_EQ(compiles(), 2) << test::read_text(ns_ + "/compiler.log");
    return both;
  }

  void damage(const std::string& key) {
    const std::string code = ns_ + "/prog-" + key + ".so";
    std::string bytes = test::read_text(code);
    ASSERT_GT(bytes.size(), 64u);
    switch (GetParam()) {
      case Damage::Truncated: std::filesystem::resize_file(code, bytes.size() / 2); break;
      case Damage::Corrupted:
        bytes[bytes.size() / 2] ^= 0x40;
        std::ofstream(code, std::ios::binary | std::ios::trunc) << bytes;
        break;
      case Damage::Swapped:
        for (const Json& p : programs())
          if (p["key"] != key)
            std::filesystem::rename(ns_ + "/prog-" + p["key"].get<std::string>() + ".so", code);
        break;
      case Damage::ForeignOwned:
        ASSERT_EQ(::chown(code.c_str(), 65534, 65534), 0) << std::strerror(errno);
        break;
    }
  }
};

// The provider refuses the damaged file (prog-KEY.refused); the service checks it too,
// compiles the program again and renames the new file over it, and the provider, waiting
// for that, routes with the new code and the interpreter's decisions.
TEST_P(DamagedCode, IsRefusedCheckedByTheServiceAndReplaced) {
  if (GetParam() == Damage::ForeignOwned && ::geteuid() != 0)
    GTEST_SKIP() << "needs root to give a file to another user";
  const std::string key = two_programs();
  ASSERT_FALSE(key.empty());
  damage(key);
  std::vector<std::unique_ptr<Child>> natives;
  natives.push_back(provider({}, true));
  auto reference = provider({"PFC_ETW_ENGINE=interp"}, true);
  const auto compiled = [&] {
    const std::string log = test::read_text(ns_ + "/compiler.log");
    int n = 0;
    for (size_t at = 0; (at = log.find(key + " compiled ", at)) != std::string::npos; ++at) ++n;
    return n;
  };
  ASSERT_TRUE(wait_for(
      [&] {
        for (const Json& p : programs())
          if (p["key"] == key && p["state"] == "ready" && p["processes"] == 1) return true;
        return false;
      },
      kNative))
      << test::read_text(ns_ + "/compiler.log");
  EXPECT_EQ(compiled(), 2) << test::read_text(ns_ + "/compiler.log");
  const std::string log = test::read_text(ns_ + "/compiler.log");
  const size_t refused = log.find(key + " refused: process " + std::to_string(natives[0]->pid()) +
                                  " refused the code: ");
  ASSERT_NE(refused, std::string::npos) << log;
  const std::string reason = log.substr(refused, log.find('\n', refused) - refused);
  if (GetParam() == Damage::ForeignOwned) {
    EXPECT_NE(reason.find("owned by another user"), std::string::npos) << reason;
  }
  if (GetParam() == Damage::Swapped) {
    EXPECT_NE(reason.find("holds the code of program"), std::string::npos) << reason;
  }
  // Older than the new file now: the service removes it.
  EXPECT_TRUE(
      wait_for([&] { return !std::filesystem::exists(ns_ + "/prog-" + key + ".refused"); }, kWait));
  write_events(*natives[0]);
  write_events(*reference);
  expect_interpreter_decisions("W", natives, *reference);
  expect_interpreter_decisions("V", natives, *reference);
  natives[0]->send("quit");
  reference->send("quit");
  EXPECT_EQ(natives[0]->wait(kWait), 0);
  EXPECT_EQ(reference->wait(kWait), 0);
}

INSTANTIATE_TEST_SUITE_P(Files, DamagedCode,
                         ::testing::Values(Damage::Truncated, Damage::Corrupted, Damage::Swapped,
                                           Damage::ForeignOwned),
                         damage_name);

// ---- refusals do not poison the cache ---------------------------------------------------

// A provider that refuses a code file while no service can answer leaves the program
// `failed` with its reason in `pfc trace programs`, stays on the interpreter, and stops
// no other process: the provider that loaded the file before keeps routing with it. The
// next provider that starts a service gets the file checked and replaced; the waiting
// provider then switches to the new code, and nothing is failed any more.
TEST_F(CompileShare, RefusedCodeIsShownFailedWithoutStoppingOthers) {
  std::vector<std::unique_ptr<Child>> natives;
  natives.push_back(provider());
  auto reference = interpreting();
  start_and_enable("W");
  ASSERT_NE(natives[0]->expect("callback 1", kWait), "");
  ASSERT_TRUE(wait_for([&] { return one_program("ready", 1); }, kNative));
  const std::string key = programs().at(0)["key"];
  kill_service();
  const std::string code = ns_ + "/prog-" + key + ".so";
  std::string bytes = test::read_text(code);
  ASSERT_GT(bytes.size(), 64u);
  bytes[bytes.size() / 2] ^= 0x40;
  std::ofstream(code, std::ios::binary | std::ios::trunc) << bytes;  // the same file: in use
  // No service to answer: this provider's own starts run /bin/false.
  natives.push_back(provider({"PFC_TRACE_COMPILER=/bin/false"}, true));
  Json failed;
  ASSERT_TRUE(wait_for(
      [&] {
        const auto all = programs();
        if (all.size() == 1 && all[0]["state"] == "failed") failed = all[0];
        return !failed.is_null();
      },
      kNative));
  const std::string reason = failed["reason"];
  EXPECT_EQ(reason.rfind("process " + std::to_string(natives[1]->pid()) + " refused the code: ", 0),
            0u)
      << reason;
  EXPECT_NE(reason.find("XXH3-128"), std::string::npos) << reason;
  EXPECT_EQ(failed["processes"], 1) << "the first provider still routes with the file";
  EXPECT_FALSE(std::filesystem::exists(ns_ + "/prog-" + key + ".fail"));
  natives.push_back(provider({}, true));  // starts a service: the file is replaced
  ASSERT_TRUE(wait_for([&] { return one_program("ready", 2); }, kNative))
      << test::read_text(ns_ + "/compiler.log");
  for (auto& c : natives) write_events(*c);
  write_events(*reference);
  expect_interpreter_decisions("W", natives, *reference);
  for (auto& c : natives) c->send("quit");
  reference->send("quit");
  for (auto& c : natives) EXPECT_EQ(c->wait(kWait), 0);
  EXPECT_EQ(reference->wait(kWait), 0);
}

// The service killed while it compiles a refused program again (before its rename): the
// refusal stays, newer than the bad file, so the next service — started by the waiting
// provider's next try of the lock — answers it, and the provider switches to the new code.
TEST_F(CompileShare, ServiceKilledWhileReplacingRefusedCodeLeavesTheRefusalToTheNext) {
  auto first = provider();
  start_and_enable("W");
  ASSERT_NE(first->expect("callback 1", kWait), "");
  ASSERT_TRUE(wait_for([&] { return one_program("ready", 1); }, kNative));
  const std::string key = programs().at(0)["key"];
  first->send("quit");
  ASSERT_EQ(first->wait(kWait), 0);
  kill_service();
  const std::string code = ns_ + "/prog-" + key + ".so";
  std::string bytes = test::read_text(code);
  ASSERT_GT(bytes.size(), 64u);
  bytes[bytes.size() / 2] ^= 0x40;
  std::ofstream(code, std::ios::binary | std::ios::trunc) << bytes;
  const std::string wrapper =
      write_file("compiler.sh",
                 "#!/bin/sh\nif mkdir '" + dir_ +
                     "/crashed' 2>/dev/null; then\n  export PFC_TEST_CRASH_AT=compiler.compiled\n"
                     "fi\nexec '" +
                     TRACE_COMPILER_TESTPOINTS + "' \"$@\"\n");
  ASSERT_EQ(::chmod(wrapper.c_str(), 0700), 0);
  auto p = provider({"PFC_TRACE_COMPILER=" + wrapper}, true);
  ASSERT_TRUE(wait_for([&] { return one_program("ready", 1); }, kNative))
      << test::read_text(ns_ + "/compiler.log");
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/crashed"));
  const std::string log = test::read_text(ns_ + "/compiler.log");
  const auto count = [&](const std::string& what) {
    int n = 0;
    for (size_t at = 0; (at = log.find(what, at)) != std::string::npos; ++at) ++n;
    return n;
  };
  EXPECT_EQ(count(key + " refused: "), 2) << log;  // the killed service's and the next's
  EXPECT_EQ(count(key + " compiled "), 2) << log;  // the first compile and the replacement
  EXPECT_TRUE(
      wait_for([&] { return !std::filesystem::exists(ns_ + "/prog-" + key + ".refused"); }, kWait));
  p->send("quit");
  EXPECT_EQ(p->wait(kWait), 0);
}

// A provider that cannot load code every check passed (memfd_create denied to it alone)
// refuses it for good: the program is `failed` with that process's reason, the service's
// own check passes so nothing is compiled again, and every other provider, before and
// after, still routes with the file; the refusing one keeps the interpreter's decisions.
TEST_F(CompileShare, CodeOneProcessCannotLoadIsShownFailedAndKeptForOthers) {
  std::vector<std::unique_ptr<Child>> natives;
  natives.push_back(provider());
  auto refusing = std::make_unique<Child>(Child::Program{NO_MEMFD},
                                          std::vector<std::string>{TRACE_ACTOR, "provider", "9"});
  ASSERT_EQ(refusing->read_line(kWait), "registered");
  auto reference = interpreting();
  start_and_enable("W");
  ASSERT_NE(natives[0]->expect("callback 1", kWait), "");
  ASSERT_NE(refusing->expect("callback 1", kWait), "");
  natives.push_back(provider({}, true));
  Json failed;
  ASSERT_TRUE(wait_for(
      [&] {
        const auto all = programs();
        if (all.size() == 1 && all[0]["state"] == "failed" && all[0]["processes"] == 2)
          failed = all[0];
        return !failed.is_null();
      },
      kNative))
      << test::read_text(ns_ + "/compiler.log");
  const std::string reason = failed["reason"];
  EXPECT_EQ(reason.rfind("process " + std::to_string(refusing->pid()) + " refused the code: ", 0),
            0u)
      << reason;
  EXPECT_NE(reason.find("memfd"), std::string::npos) << reason;
  EXPECT_EQ(compiles(), 1) << test::read_text(ns_ + "/compiler.log");
  natives.push_back(provider({}, true));
  ASSERT_TRUE(wait_for([&] { return one_program("failed", 3); }, kNative));
  std::vector<std::unique_ptr<Child>> all;
  all.reserve(natives.size());
  for (auto& c : natives) all.push_back(std::move(c));
  all.push_back(std::move(refusing));
  for (auto& c : all) write_events(*c);
  write_events(*reference);
  expect_interpreter_decisions("W", all, *reference);
  for (auto& c : all) c->send("quit");
  reference->send("quit");
  for (auto& c : all) EXPECT_EQ(c->wait(kWait), 0);
  EXPECT_EQ(reference->wait(kWait), 0);
}

// ---- one service for many providers ----------------------------------------------------

// Providers asking at once (eight before the enable, four after it) start one service:
// the process that takes compiler.lock hands it to the service it starts (`--locked`),
// and every other sees it held. All of them switch to the service's code, woken by its
// rename; each wait below is bounded by kNative, never a sleep.
TEST_F(CompileShare, ProvidersBeforeAndAfterTheEnableStartOneService) {
  // A service idle for a second before the first request would exit and be started again
  // (as it should) on a slow machine: not what this test is about.
  ::setenv("PFC_COMPILER_IDLE_MS", "60000", 1);
  const std::string starts = dir_ + "/starts";
  const std::string wrapper =
      write_file("compiler.sh", "#!/bin/sh\necho \"$*\" >> '" + starts + "'\nexec '" +
                                    TRACE_COMPILER_TESTPOINTS + "' \"$@\"\n");
  ASSERT_EQ(::chmod(wrapper.c_str(), 0700), 0);
  const std::vector<std::string> env{"PFC_TRACE_COMPILER=" + wrapper};
  std::vector<std::unique_ptr<Child>> natives;
  natives.reserve(8);
  for (int i = 0; i < 8; ++i) natives.push_back(provider(env));
  start_and_enable("W");
  for (auto& c : natives) ASSERT_NE(c->expect("callback 1", kWait), "");
  for (int i = 0; i < 4; ++i) natives.push_back(provider(env, true));
  ASSERT_TRUE(wait_for([&] { return one_program("ready", 12); }, kNative))
      << test::read_text(ns_ + "/compiler.log");
  EXPECT_EQ(test::read_text(starts), "--locked\n");
  EXPECT_EQ(compiles(), 1) << test::read_text(ns_ + "/compiler.log");
  for (auto& c : natives) c->send("quit");
  for (auto& c : natives) EXPECT_EQ(c->wait(kWait), 0);
}

// ---- the service killed at each step (docs/namespace.md §5) ----------------------------

class ServiceCrash : public CompileShare, public ::testing::WithParamInterface<std::string> {};

// The first service started is killed at the crash point; the provider's next probe
// starts another, which serves the request: one compile, nothing left over.
TEST_P(ServiceCrash, NextServiceServesTheRequest) {
  const std::string wrapper =
      write_file("compiler.sh", "#!/bin/sh\nif mkdir '" + dir_ + "/crashed' 2>/dev/null; then\n" +
                                    "  export PFC_TEST_CRASH_AT=" + GetParam() + "\nfi\nexec '" +
                                    TRACE_COMPILER_TESTPOINTS + "' \"$@\"\n");
  ASSERT_EQ(::chmod(wrapper.c_str(), 0700), 0);
  std::vector<std::unique_ptr<Child>> natives;
  natives.push_back(provider({"PFC_TRACE_COMPILER=" + wrapper}));
  auto reference = interpreting();
  start_and_enable("W");
  ASSERT_NE(natives[0]->expect("callback 1", kWait), "");
  ASSERT_TRUE(wait_for([&] { return one_program("ready", 1); }, kNative))
      << test::read_text(ns_ + "/compiler.log");
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/crashed"));
  EXPECT_EQ(compiles(), 1) << test::read_text(ns_ + "/compiler.log");
  for (const auto& e : std::filesystem::directory_iterator(ns_))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
  write_events(*natives[0]);
  write_events(*reference);
  expect_interpreter_decisions("W", natives, *reference);
  natives[0]->send("quit");
  reference->send("quit");
  EXPECT_EQ(natives[0]->wait(kWait), 0);
  EXPECT_EQ(reference->wait(kWait), 0);
}

INSTANTIATE_TEST_SUITE_P(Points, ServiceCrash,
                         ::testing::Values("compiler.locked", "compiler.compiled",
                                           "compiler.tmp-written"),
                         [](const auto& info) {
                           std::string n = info.param.substr(9);
                           n.erase(std::remove(n.begin(), n.end(), '-'), n.end());
                           return n;
                         });

// The service killed at random instants of five enables, each a new program: every time
// the provider's next probe starts another service, and the provider ends up routing each
// program natively with the interpreter's decisions.
TEST_F(CompileShare, ServiceKilledAtRandomInstants) {
  std::vector<std::unique_ptr<Child>> natives;
  natives.push_back(provider());
  auto reference = interpreting();
  std::mt19937 random(std::random_device{}());
  std::set<std::string> seen;
  for (int round = 0; round < 5; ++round) {
    const std::string name = "R" + std::to_string(round);
    script_ = write_file(name + ".pfs",
                         std::string(kProvider) + "session " + name +
                             " { enable Actor { event_id in 5; payload Named where Seq lt " +
                             std::to_string(round * 5 + 5) + "; } }\n");
    start_and_enable(name);
    std::this_thread::sleep_for(std::chrono::milliseconds(random() % 300));
    kill_service();
    std::string key;
    ASSERT_TRUE(wait_for(
        [&] {
          for (const Json& p : programs())
            if (p["state"] == "ready" && p["processes"] == 1 && !seen.count(p["key"]))
              key = p["key"];
          return !key.empty();
        },
        kNative))
        << "round " << round << ": " << test::read_text(ns_ + "/compiler.log");
    seen.insert(key);
  }
  write_events(*natives[0]);
  write_events(*reference);
  for (int round = 0; round < 5; ++round)
    expect_interpreter_decisions("R" + std::to_string(round), natives, *reference);
  natives[0]->send("quit");
  reference->send("quit");
  EXPECT_EQ(natives[0]->wait(kWait), 0);
  EXPECT_EQ(reference->wait(kWait), 0);
}

// Requests are untrusted input: a damaged header, bytes of another key and IR that does
// not decode each give a failure with the reason, never a crash or code.
TEST_F(CompileShare, HostileRequestsFailWithTheirReason) {
  std::filesystem::create_directories(ns_);
  std::filesystem::permissions(ns_, std::filesystem::perms::owner_all);
  const std::string a(32, 'a'), b(32, 'b');
  std::ofstream(ns_ + "/prog-" + a + ".req") << "PFCREQ 9 whatever\n";
  std::ofstream(ns_ + "/prog-" + b + ".req")
      << "PFCREQ 1 {00000009-0000-4000-8000-000000000001}\nnot IR";
  for (const std::string& k : {a, b}) ::chmod((ns_ + "/prog-" + k + ".req").c_str(), 0600);
  // KEEP 0 and IDLE 0: the service answers, removes the failures and exits.
  const ProcessResult r =
      test::run_process(TRACE_COMPILER_TESTPOINTS, {"--foreground"}, "", test::StdoutTo::Capture,
                        {"PFC_COMPILER_KEEP_MS=0", "PFC_COMPILER_IDLE_MS=0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string log = test::read_text(ns_ + "/compiler.log");
  EXPECT_NE(log.find(a + " failed  cpu_us="), std::string::npos) << log;
  EXPECT_NE(log.find("does not start with"), std::string::npos) << log;
  EXPECT_NE(log.find(b + " failed {00000009-0000-4000-8000-000000000001}"), std::string::npos)
      << log;
  EXPECT_NE(log.find("its bytes have key"), std::string::npos) << log;
  EXPECT_EQ(compiles(), 0);
  EXPECT_TRUE(programs().empty());
}

// ---- processes that go away -------------------------------------------------------------

// A provider killed while its program is being compiled: the code is written, used by
// nobody, reclaimed after PFC_COMPILER_KEEP_MS, and the service then exits.
TEST_F(CompileShare, ProviderKilledDuringTheCompileLeavesNothingBehind) {
  ::setenv("PFC_COMPILER_KEEP_MS", "300", 1);
  auto p = provider();
  start_and_enable("W");
  ASSERT_NE(p->expect("callback 1", kWait), "");
  ASSERT_TRUE(wait_for([&] { return !programs().empty(); }, kNative));
  p->kill9();
  ASSERT_TRUE(wait_for([&] { return programs().empty(); }, kNative))
      << test::read_text(ns_ + "/compiler.log");
  EXPECT_EQ(compiles(), 1) << test::read_text(ns_ + "/compiler.log");
  // The service exits once the cache is empty and nothing was asked for a while.
  std::ifstream lock(ns_ + "/compiler.lock");
  int pid = 0;
  ASSERT_TRUE(lock >> pid);
  EXPECT_TRUE(wait_for([&] { return ::kill(pid, 0) != 0; }, kWait)) << "service " << pid;
}

// Over the byte budget (PFC_COMPILER_CACHE_MB=0), a program no process uses any more is
// removed at once, however long the keep time; the one in use stays.
TEST_F(CompileShare, UnusedProgramsBeyondTheBudgetGoFirst) {
  ::setenv("PFC_COMPILER_CACHE_MB", "0", 1);
  ::setenv("PFC_COMPILER_KEEP_MS", "600000", 1);
  auto p = provider();
  start_and_enable("W");
  ASSERT_NE(p->expect("callback 1", kWait), "");
  ASSERT_TRUE(wait_for([&] { return one_program("ready", 1); }, kNative));
  const std::string only_w = programs().at(0)["key"];
  start_and_enable("V");
  ASSERT_TRUE(wait_for([&] { return one_program("ready", 1) && programs().at(0)["key"] != only_w; },
                       kNative))
      << test::read_text(ns_ + "/compiler.log");
  EXPECT_EQ(compiles(), 2);
  p->send("quit");
  EXPECT_EQ(p->wait(kWait), 0);
}

// ---- a namespace on a noexec mount -----------------------------------------------------

class NoexecNamespace : public CompileShare {
 protected:
  void SetUp() override {
    CompileShare::SetUp();
    if (::geteuid() != 0) GTEST_SKIP() << "not root: cannot mount a small tmpfs with noexec";
    mnt_ = dir_ + "/mnt";
    std::filesystem::create_directory(mnt_);
    // Room for two writers' default 8 MB rings and the program files.
    ASSERT_EQ(::mount("tmpfs", mnt_.c_str(), "tmpfs", MS_NOEXEC | MS_NOSUID | MS_NODEV,
                      "size=64m,mode=0700"),
              0)
        << std::strerror(errno);
    mounted_ = true;
    ns_ = mnt_ + "/ns";
    ::setenv("PFC_TRACE_DIR", ns_.c_str(), 1);
  }
  void TearDown() override {
    kill_service();
    if (mounted_) ::umount2(mnt_.c_str(), MNT_DETACH);
    CompileShare::TearDown();
  }
  std::string mnt_;
  bool mounted_ = false;
};

TEST_F(NoexecNamespace, StillGetsNativeCode) {
  std::vector<std::unique_ptr<Child>> natives;
  natives.push_back(provider());
  auto reference = interpreting();
  start_and_enable("W");
  ASSERT_NE(natives[0]->expect("callback 1", kWait), "");
  ASSERT_TRUE(wait_for([&] { return one_program("ready", 1); }, kNative))
      << test::read_text(ns_ + "/compiler.log");
  write_events(*natives[0]);
  write_events(*reference);
  expect_interpreter_decisions("W", natives, *reference);
  natives[0]->send("quit");
  reference->send("quit");
  EXPECT_EQ(natives[0]->wait(kWait), 0);
  EXPECT_EQ(reference->wait(kWait), 0);
}

}  // namespace
}  // namespace pfc::multiproc
