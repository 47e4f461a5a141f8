// tests/multiproc/file_session_test.cc — log-file sessions (docs/logfile.md) as separate
// processes, each test in a private namespace (PFC_TRACE_DIR) and directory: a controller
// (trace_actor startfile/stopfile) starts a file session whose host (pfc-trace-host)
// writes the file while provider processes write events; a reader process
// (OpenTraceW(LogFileName)) checks the exact event set, the size limit, circular mode, a
// follower of a file + real-time session, a killed host, and `pfc trace` / `pfc run` on
// the file. Every wait is bounded; every child is killed and reaped on failure.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "child.h"
#include "process.h"

namespace pfc::multiproc {
namespace {

using test::ProcessResult;
using test::run_process;

constexpr int kWait = 20000;
constexpr const char* kTag = "0x15";  // provider {00000015-0000-4000-8000-000000000001}

struct FileEvent {
  unsigned pid = 0, id = 0, seq = 0;
  bool operator<(const FileEvent& o) const {
    return std::tie(pid, id, seq) < std::tie(o.pid, o.id, o.seq);
  }
  bool operator==(const FileEvent&) const = default;
};

struct FileRead {
  std::string header;
  std::vector<FileEvent> events;
  std::string done;
};

// `trace_actor readfile PATH`: the header line, the events in file order, the done line.
FileRead read_file(const std::string& path) {
  int rc = 0;
  const std::string out = run_actor({"readfile", path}, &rc);
  FileRead r;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    FileEvent e;
    if (std::sscanf(line.c_str(), "event %u %u %u", &e.pid, &e.id, &e.seq) == 3) {
      r.events.push_back(e);
    } else if (line.starts_with("header")) {
      r.header = line;
    } else if (line.starts_with("done") || line.starts_with("open-failed")) {
      r.done = line;
    }
  }
  return r;
}

struct Stop {
  unsigned rc = 99, lost = 0, written = 0, loglost = 0, rtlost = 0;
};
Stop stop_file(const std::string& name) {
  int rc = 0;
  const std::string out = run_actor({"stopfile", name}, &rc);
  Stop s;
  std::sscanf(out.c_str(), "stop %u lost %u written %u loglost %u rtlost %u", &s.rc, &s.lost,
              &s.written, &s.loglost, &s.rtlost);
  return s;
}

// The session hosts' doorbells (`b-INSTANCE`) in the namespace `ns`.
size_t bells(const std::string& ns) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(ns))
    n += e.path().filename().string().starts_with("b-") ? 1 : 0;
  return n;
}

// A provider process registered for kTag (already enabled: its callback runs inside
// EventRegister, before "registered").
std::unique_ptr<Child> enabled_provider() {
  auto p = std::make_unique<Child>(std::vector<std::string>{"provider", kTag});
  EXPECT_NE(p->expect("callback 1", kWait), "");
  EXPECT_EQ(p->expect("registered", kWait), "registered");
  return p;
}

// Writes `n` events on one thread (ids 1 + i % 4, Seq i); the count per id.
std::vector<unsigned> write_events(Child& provider, int n) {
  provider.send("write " + std::to_string(n) + " 1");
  const std::string line = provider.expect("wrote", kWait);
  std::vector<unsigned> per(5, 0);
  std::sscanf(line.c_str(), "wrote %u %u %u %u", &per[1], &per[2], &per[3], &per[4]);
  return per;
}

// Session Low of kScript with a `where` expression: One passes when Seq < 100 or > 900.
constexpr const char* kWhereScript = R"(provider Actor {00000015-0000-4000-8000-000000000001} {
    event One (id=1, level=4) { Seq: uint32; }
    event Two (id=2, level=4) { Seq: uint32; }
    event Three (id=3, level=4) { Seq: uint32; }
    event Four (id=4, level=4) { Seq: uint32; }
}
session Low {
    enable Actor level=verbose { payload One where Seq lt 100 or Seq gt 900; }
}
)";

class FileSession : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/pfc-fs-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    ::setenv("PFC_TRACE_DIR", (dir_ + "/ns").c_str(), 1);
    file_ = dir_ + "/rec.etl";
  }
  void TearDown() override { remove_namespace(dir_, dir_ + "/ns"); }

  void expect_consumer_follows(const char* mode, int max_mb);

  void start(const std::string& mode, int max_mb, int buffer_kb, const char* ids = nullptr) {
    int rc = 0;
    EXPECT_EQ(run_actor({"startfile", "S", file_, mode, std::to_string(max_mb),
                         std::to_string(buffer_kb)},
                        &rc),
              "start 0\n");
    std::vector<std::string> args{"enable", "S", kTag, "5", "0"};
    if (ids != nullptr) args.emplace_back(ids);
    EXPECT_EQ(run_actor(args, &rc), "enable 0\n");
  }

  // Session "R" recording into file_, enabled with kWhereScript (written to `script`) by
  // `pfc trace enable --script`, which records the script's schema in the file.
  void start_script_session(const std::string& script) {
    std::ofstream(script) << kWhereScript;
    ASSERT_EQ(run_process(PFC_BINARY, {"trace", "start", "R", "--file", file_}).exit_code, 0);
    const ProcessResult en =
        run_process(PFC_BINARY, {"trace", "enable", "R", "--script", script, "--session", "Low"});
    ASSERT_EQ(en.exit_code, 0) << en.err;
  }

  // The pid of the session's host, from its marker in the namespace.
  int host_pid() const {
    for (const auto& e : std::filesystem::directory_iterator(dir_ + "/ns")) {
      unsigned long long inst = 0, start = 0;
      unsigned pid = 0;
      const std::string name = e.path().filename().string();
      if (name.ends_with("-host") &&
          std::sscanf(name.c_str(), "c-%llu-%u-%llu", &inst, &pid, &start) == 3)
        return static_cast<int>(pid);
    }
    return -1;
  }

  std::string dir_;
  std::string file_;
};

TEST_F(FileSession, TwoProvidersLeaveExactlyTheEventsTheFiltersPass) {
  start("seq", 0, 64, "1,2");
  auto a = enabled_provider();
  auto b = enabled_provider();
  write_events(*a, 3000);
  write_events(*b, 2000);
  const Stop s = stop_file("S");
  EXPECT_EQ(s.rc, 0u);
  EXPECT_EQ(s.lost, 0u);
  EXPECT_GT(s.written, 0u);
  const FileRead r = read_file(file_);
  EXPECT_EQ(r.done, "done 0");
  unsigned hw = 0, hl = 0;
  long long start = 0, end = 0;
  char name[64] = {};
  ASSERT_EQ(
      std::sscanf(r.header.c_str(), "header %63s %u %u %lld %lld", name, &hw, &hl, &start, &end), 5)
      << r.header;
  EXPECT_STREQ(name, "S");
  EXPECT_EQ(hw, s.written);
  EXPECT_EQ(hl, 0u);
  EXPECT_GT(end, start);
  std::set<FileEvent> want;
  for (const auto& [child, n] : {std::pair{a.get(), 3000u}, std::pair{b.get(), 2000u}})
    for (unsigned i = 0; i < n; ++i)
      if (1 + i % 4 <= 2) want.insert({static_cast<unsigned>(child->pid()), 1 + i % 4, i});
  const std::set<FileEvent> got(r.events.begin(), r.events.end());
  EXPECT_EQ(r.events.size(), want.size());
  EXPECT_EQ(got, want);
  a->send("quit");
  b->send("quit");
  EXPECT_EQ(a->wait(kWait), 0);
  EXPECT_EQ(b->wait(kWait), 0);
}

// A writer killed inside EventWrite (its 300th record reserved, never committed) while the
// host moves the rings (docs/namespace.md §5): the host gives that record up once the process
// is gone and moves the rest of its ring; the file holds the 299 events before it and every
// event of the other writer, each writer's in the order it wrote them, and the stop returns.
TEST_F(FileSession, WriterKilledMidRecordLeavesItsEarlierEventsInTheFile) {
  start("seq", 0, 64);
  auto steady = enabled_provider();
  Child victim({"provider", kTag}, {"PFC_TEST_CRASH_AT=ring.reserved:300"});
  EXPECT_NE(victim.expect("callback 1", kWait), "");
  EXPECT_EQ(victim.expect("registered", kWait), "registered");
  write_events(*steady, 500);
  victim.send("write 1000 1");
  EXPECT_EQ(victim.wait(kWait), 128 + SIGKILL);
  write_events(*steady, 500);
  const Stop s = stop_file("S");
  EXPECT_EQ(s.rc, 0u);
  EXPECT_EQ(s.lost, 1u);  // the record reserved, never committed: counted, not silently gone
  const FileRead r = read_file(file_);
  EXPECT_EQ(r.done, "done 0");
  EXPECT_EQ(r.events.size() + s.lost, 300u + 1000u);  // every event EventWrite took
  std::map<unsigned, std::vector<unsigned>> seqs;     // per writer, in file order
  for (const FileEvent& e : r.events) seqs[e.pid].push_back(e.seq);
  std::vector<unsigned> first(299);
  std::iota(first.begin(), first.end(), 0u);
  EXPECT_EQ(seqs[static_cast<unsigned>(victim.pid())], first);
  std::vector<unsigned> twice(1000);  // two writes of Seq 0-499
  for (unsigned i = 0; i < twice.size(); ++i) twice[i] = i % 500;
  EXPECT_EQ(seqs[static_cast<unsigned>(steady->pid())], twice);
  steady->send("quit");
  EXPECT_EQ(steady->wait(kWait), 0);
}

// Stops a process (SIGSTOP) for its lifetime: SIGCONT however the test ends.
class Stopped {
 public:
  explicit Stopped(int pid) : pid_(pid) { EXPECT_EQ(::kill(pid_, SIGSTOP), 0); }
  ~Stopped() { ::kill(pid_, SIGCONT); }

 private:
  int pid_;
};

// The host falls behind (stopped while two writers each put 60,000 events, 720 KB, into
// rings of 512 KB): the rings drop what does not fit, and every event EventWrite took is
// in the file or counted lost, exactly — in STOP's EventsLost and in the file's header.
// A file session delivers nothing in real time: RealTimeBuffersLost stays 0.
TEST_F(FileSession, HostThatFallsBehindCountsEveryEventItDidNotRecord) {
  start("seq", 0, 4);  // 4 KB buffers: rings of 128 × 4 KB
  auto a = enabled_provider();
  auto b = enabled_provider();
  constexpr unsigned kEach = 60000;
  {
    const int host = host_pid();
    ASSERT_GT(host, 0);
    Stopped stopped(host);
    a->send("write " + std::to_string(kEach) + " 1");
    b->send("write " + std::to_string(kEach) + " 1");
    EXPECT_NE(a->expect("wrote", kWait), "");
    EXPECT_NE(b->expect("wrote", kWait), "");
  }
  const Stop s = stop_file("S");
  EXPECT_EQ(s.rc, 0u);
  EXPECT_GT(s.lost, 0u);
  EXPECT_EQ(s.loglost, 0u);
  EXPECT_EQ(s.rtlost, 0u);
  const FileRead r = read_file(file_);
  EXPECT_EQ(r.done, "done 0");
  EXPECT_EQ(r.events.size() + s.lost, 2 * kEach);
  unsigned hw = 0, hl = 0;
  ASSERT_EQ(std::sscanf(r.header.c_str(), "header %*s %u %u", &hw, &hl), 2) << r.header;
  EXPECT_EQ(hw, s.written);
  EXPECT_EQ(hl, s.lost);
  std::map<unsigned, std::vector<unsigned>> seqs;  // per writer, in file order: no duplicate
  for (const FileEvent& e : r.events) seqs[e.pid].push_back(e.seq);
  for (const auto& [pid, v] : seqs)
    for (size_t k = 1; k < v.size(); ++k) ASSERT_LT(v[k - 1], v[k]) << pid << " " << k;
  a->send("quit");
  b->send("quit");
  EXPECT_EQ(a->wait(kWait), 0);
  EXPECT_EQ(b->wait(kWait), 0);
}

// Batches of 1000 events (12 bytes each packed in the file) with pauses, so the rings never
// overflow and every loss is the file's; kBatches of them are more than a 1 MB file holds
// (about 80,000).
constexpr unsigned kBatches = 120;
void write_batches(Child& p, int batches) {
  for (int i = 0; i < batches; ++i) {
    write_events(p, 1000);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

TEST_F(FileSession, MaximumFileSizeKeepsTheFirstEventsAndCountsTheLosses) {
  start("seq", 1, 64);
  auto p = enabled_provider();
  write_batches(*p, kBatches);
  const Stop s = stop_file("S");
  EXPECT_EQ(s.rc, 0u);
  EXPECT_EQ(s.written, 15u);  // (1 MB - the header and schema room, 60 KB) / 64 KB
  EXPECT_GT(s.loglost, 0u);
  EXPECT_LE(std::filesystem::file_size(file_), 1u << 20);
  const FileRead r = read_file(file_);
  ASSERT_FALSE(r.events.empty());
  EXPECT_LT(r.events.size(), kBatches * 1000u);
  for (size_t k = 0; k < r.events.size(); ++k) {
    ASSERT_EQ(r.events[k].seq, k % 1000) << k;  // the first events, in order, none missing
  }
  EXPECT_EQ(s.lost, kBatches * 1000u - r.events.size());
  p->send("quit");
  EXPECT_EQ(p->wait(kWait), 0);
}

TEST_F(FileSession, CircularKeepsTheNewestEvents) {
  start("circ", 1, 64);
  auto p = enabled_provider();
  write_batches(*p, kBatches);
  const Stop s = stop_file("S");
  EXPECT_EQ(s.rc, 0u);
  EXPECT_GT(s.written, 15u);
  const FileRead r = read_file(file_);
  ASSERT_FALSE(r.events.empty());
  EXPECT_LT(r.events.size(), kBatches * 1000u);
  const size_t n = r.events.size();
  for (size_t k = 0; k < n; ++k) {
    ASSERT_EQ(r.events[k].seq, (kBatches * 1000 - n + k) % 1000) << k;  // the newest, in order
  }
  p->send("quit");
  EXPECT_EQ(p->wait(kWait), 0);
}

// A real-time consumer of a file session in `mode` ("seqrt", "circrt": max_mb large enough
// that nothing is overwritten) follows its file: all 2000 events, then ProcessTrace returns 0.
void FileSession::expect_consumer_follows(const char* mode, int max_mb) {
  start(mode, max_mb, 64);
  Child consumer({"consume", "S"});
  ASSERT_EQ(consumer.expect("open", kWait), "open");
  auto p = enabled_provider();
  write_events(*p, 2000);
  EXPECT_EQ(stop_file("S").rc, 0u);
  unsigned events = 0;
  for (;;) {
    const std::string line = consumer.read_line(kWait);
    if (line.starts_with("event")) {
      ++events;
      continue;
    }
    EXPECT_EQ(line, "done 0");
    break;
  }
  EXPECT_EQ(events, 2000u);
  EXPECT_EQ(consumer.wait(kWait), 0);
  p->send("quit");
  EXPECT_EQ(p->wait(kWait), 0);
}

TEST_F(FileSession, RealTimeConsumerOfAFileSessionFollowsTheFile) {
  expect_consumer_follows("seqrt", 0);
}

TEST_F(FileSession, RealTimeConsumerOfACircularFileSessionFollowsTheFile) {
  expect_consumer_follows("circrt", 1);
}

// A consumer following the file of a session that two processes write at once: the host
// moves each writer's runs unmerged and the follower merges them as the buffers arrive
// (docs/logfile.md "Merging"): every event, each writer's in the order it wrote them.
TEST_F(FileSession, FollowerOfTwoWritersGetsEveryEventInEachWritersOrder) {
  start("seqrt", 0, 64);
  Child consumer({"consume", "S"});
  ASSERT_EQ(consumer.expect("open", kWait), "open");
  auto a = enabled_provider();
  auto b = enabled_provider();
  a->send("write 3000 1");
  b->send("write 3000 1");
  EXPECT_NE(a->expect("wrote", kWait), "");
  EXPECT_NE(b->expect("wrote", kWait), "");
  EXPECT_EQ(stop_file("S").rc, 0u);
  std::map<unsigned, std::vector<unsigned>> seqs;
  for (;;) {
    const std::string line = consumer.read_line(kWait);
    unsigned pid = 0, id = 0, seq = 0;
    if (std::sscanf(line.c_str(), "event %u %u %u", &pid, &id, &seq) == 3) {
      seqs[pid].push_back(seq);
      continue;
    }
    EXPECT_EQ(line, "done 0");
    break;
  }
  std::vector<unsigned> all(3000);
  std::iota(all.begin(), all.end(), 0u);
  EXPECT_EQ(seqs.size(), 2u);
  EXPECT_EQ(seqs[static_cast<unsigned>(a->pid())], all);
  EXPECT_EQ(seqs[static_cast<unsigned>(b->pid())], all);
  EXPECT_EQ(consumer.wait(kWait), 0);
  for (auto* p : {a.get(), b.get()}) {
    p->send("quit");
    EXPECT_EQ(p->wait(kWait), 0);
  }
}

// The host sleeps on its doorbell (docs/namespace.md §3 "The doorbell"), which FLUSH rings.
TEST_F(FileSession, FlushWritesThePartlyFilledBufferWhileTheSessionRuns) {
  start("seq", 0, 64);
  EXPECT_EQ(bells(dir_ + "/ns"), 1u);
  auto p = enabled_provider();
  write_events(*p, 100);  // far less than a buffer
  int rc = 0;
  EXPECT_EQ(run_actor({"flush", "S"}, &rc), "flush 0\n");
  const FileRead r = read_file(file_);  // the file is not closed: read to what is written
  EXPECT_EQ(r.events.size(), 100u);
  EXPECT_EQ(r.done, "done 0");
  EXPECT_EQ(stop_file("S").rc, 0u);
  EXPECT_EQ(bells(dir_ + "/ns"), 0u);  // the host removed it
  p->send("quit");
  EXPECT_EQ(p->wait(kWait), 0);
}

TEST_F(FileSession, KilledHostLeavesAFileReadableUpToItsLastCompleteBuffer) {
  start("seq", 0, 64);
  auto p = enabled_provider();
  write_events(*p, 5000);  // about 9 buffers
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::filesystem::file_size(file_) < 65536 + 4 * 65536 &&  // ≥ 4 buffers
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const int host = host_pid();
  ASSERT_GT(host, 0);
  ASSERT_EQ(::kill(host, SIGKILL), 0);
  const ProcessResult show = run_process(PFC_BINARY, {"trace", "show", file_});
  EXPECT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.err.find("file not closed: writer died or still writing"), std::string::npos)
      << show.err;
  const FileRead r = read_file(file_);
  EXPECT_GE(r.events.size(), 4u * 500);
  for (size_t k = 0; k < r.events.size(); ++k) ASSERT_EQ(r.events[k].seq, k) << k;
  EXPECT_EQ(std::count(show.out.begin(), show.out.end(), '\n'), static_cast<long>(r.events.size()));
  // The namespace is not wedged: STOP succeeds (and removes the dead host's doorbell), and
  // a new file session works.
  EXPECT_EQ(bells(dir_ + "/ns"), 1u);
  EXPECT_EQ(stop_file("S").rc, 0u);
  EXPECT_EQ(bells(dir_ + "/ns"), 0u);
  int rc = 0;
  EXPECT_EQ(run_actor({"startfile", "S2", dir_ + "/2.etl", "seq", "0", "64"}, &rc), "start 0\n");
  EXPECT_EQ(stop_file("S2").rc, 0u);
  p->send("quit");
  EXPECT_EQ(p->wait(kWait), 0);
}

constexpr const char* kScript = R"(provider Actor {00000015-0000-4000-8000-000000000001} {
    event One (id=1, level=4) { Seq: uint32; }
    event Two (id=2, level=4) { Seq: uint32; }
    event Three (id=3, level=4) { Seq: uint32; }
    event Four (id=4, level=4) { Seq: uint32; }
}
session Low {
    enable Actor level=verbose { payload One all { Seq lt 100 } }
}
session Twos {
    enable Actor { event_id in 2; }
}
)";

TEST_F(FileSession, PfcTraceRecordsAndShowPipedToRunEqualsRunOnTheFile) {
  const std::string script = dir_ + "/s.pfs";
  std::ofstream(script) << kScript;
  const ProcessResult st = run_process(PFC_BINARY, {"trace", "start", "R", "--file", file_});
  ASSERT_EQ(st.exit_code, 0) << st.err;
  EXPECT_NE(st.out.find("\"file\":\"" + file_ + "\""), std::string::npos) << st.out;
  EXPECT_NE(st.out.find("\"realtime\":false"), std::string::npos) << st.out;
  ASSERT_EQ(
      run_process(PFC_BINARY, {"trace", "enable", "R", "{00000015-0000-4000-8000-000000000001}"})
          .exit_code,
      0);
  auto p = enabled_provider();
  write_events(*p, 1000);
  const ProcessResult stop = run_process(PFC_BINARY, {"trace", "stop", "R"});
  ASSERT_EQ(stop.exit_code, 0) << stop.err;
  EXPECT_NE(stop.out.find("\"events\":1000,\"events_lost\":0,\"buffers_written\":"),
            std::string::npos)
      << stop.out;
  const ProcessResult direct = run_process(PFC_BINARY, {"run", script, "--events", file_});
  ASSERT_EQ(direct.exit_code, 0) << direct.err;
  EXPECT_EQ(std::count(direct.out.begin(), direct.out.end(), '\n'), 1000);
  const ProcessResult piped =
      run_process("/bin/sh", {"-c", std::string(PFC_BINARY) + " trace show '" + file_ + "' | " +
                                        PFC_BINARY + " run '" + script + "' --events -"});
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out, direct.out);
  p->send("quit");
  EXPECT_EQ(p->wait(kWait), 0);
}

// A manifest naming the same provider "ManActor" (a --schema given to show wins).
constexpr const char* kManifest = R"(<?xml version="1.0" encoding="UTF-8"?>
<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events"
    xmlns:win="http://manifests.microsoft.com/win/2004/08/windows/events">
  <instrumentation><events>
    <provider name="ManActor" guid="{00000015-0000-4000-8000-000000000001}" symbol="M"
              resourceFileName="m" messageFileName="m">
      <events><event value="1" version="0" level="win:Informational" template="T"
                     symbol="First"/></events>
      <templates><template tid="T"><data name="Seq" inType="win:UInt32"/></template></templates>
    </provider>
  </events></instrumentation>
</instrumentationManifest>
)";

// The file records the schema `enable --script` published (docs/logfile.md, section 2):
// `show FILE` decodes every field without --schema, and its output routed through the
// script equals `pfc run` on the file.
TEST_F(FileSession, ScriptEnableRecordsItsSchemaAndShowDecodesTheFileAlone) {
  const std::string script = dir_ + "/s.pfs";
  ASSERT_NO_FATAL_FAILURE(start_script_session(script));
  auto p = enabled_provider();
  write_events(*p, 1000);
  const ProcessResult stop = run_process(PFC_BINARY, {"trace", "stop", "R"});
  ASSERT_EQ(stop.exit_code, 0) << stop.err;
  p->send("quit");
  EXPECT_EQ(p->wait(kWait), 0);

  const ProcessResult show = run_process(PFC_BINARY, {"trace", "show", file_});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_EQ(show.err, "");
  std::istringstream in(show.out);
  std::string line;
  unsigned events = 0, ones = 0;
  const std::string names[] = {"", "One", "Two", "Three", "Four"};
  while (std::getline(in, line)) {
    ++events;
    unsigned id = 0, seq = 0;
    ASSERT_EQ(line.rfind("{\"provider\":\"Actor\",\"event\":\"", 0), 0u) << line;
    const size_t at = line.find("\"id\":");
    ASSERT_NE(at, std::string::npos) << line;
    id = static_cast<unsigned>(std::stoul(line.substr(at + 5)));
    ASSERT_TRUE(id >= 1 && id <= 4) << line;
    EXPECT_NE(line.find("\"event\":\"" + names[id] + "\""), std::string::npos) << line;
    const size_t f = line.find("\"fields\":{\"Seq\":");
    ASSERT_NE(f, std::string::npos) << line;
    seq = static_cast<unsigned>(std::stoul(line.substr(f + 16)));
    EXPECT_EQ(line.find("payload_hex"), std::string::npos) << line;
    if (id == 1) {
      ++ones;
      EXPECT_TRUE(seq < 100 || seq > 900) << line;  // the where expression, in the provider
    }
  }
  EXPECT_EQ(ones, 25u + 24u);  // Seq 0, 4, ..., 96 and 904, ..., 996
  EXPECT_EQ(events, 750u + ones);

  const ProcessResult direct = run_process(PFC_BINARY, {"run", script, "--events", file_});
  ASSERT_EQ(direct.exit_code, 0) << direct.err;
  const ProcessResult piped =
      run_process("/bin/sh", {"-c", std::string(PFC_BINARY) + " trace show '" + file_ + "' | " +
                                        PFC_BINARY + " run '" + script + "' --events -"});
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(std::count(direct.out.begin(), direct.out.end(), '\n'), static_cast<long>(events));
  EXPECT_EQ(piped.out, direct.out);

  const std::string man = dir_ + "/actor.man";
  std::ofstream(man) << kManifest;
  const ProcessResult with_man = run_process(PFC_BINARY, {"trace", "show", file_, "--schema", man});
  ASSERT_EQ(with_man.exit_code, 0) << with_man.err;
  EXPECT_EQ(with_man.out.rfind("{\"provider\":\"ManActor\",\"event\":\"First\"", 0), 0u)
      << with_man.out.substr(0, 200);
}

TEST_F(FileSession, ShowFollowReadsAGrowingFileUntilItIsClosed) {
  start("seq", 0, 64);
  Child show(Child::Program{PFC_BINARY}, {"trace", "show", file_, "--follow"});
  auto p = enabled_provider();
  write_events(*p, 300);
  int rc = 0;
  EXPECT_EQ(run_actor({"flush", "S"}, &rc), "flush 0\n");
  for (int i = 0; i < 300; ++i) ASSERT_NE(show.read_line(kWait), "") << i;  // before the stop
  write_events(*p, 200);
  EXPECT_EQ(stop_file("S").rc, 0u);
  int more = 0;
  while (!show.read_line(kWait).empty()) ++more;  // until show exits at the file's close
  EXPECT_EQ(more, 200);
  EXPECT_EQ(show.wait(kWait), 0);
  p->send("quit");
  EXPECT_EQ(p->wait(kWait), 0);
}

TEST_F(FileSession, ErrorsNameTheFile) {
  const ProcessResult bad_dir =
      run_process(PFC_BINARY, {"trace", "start", "B", "--file", dir_ + "/no/such/x.etl"});
  EXPECT_EQ(bad_dir.exit_code, 1);
  EXPECT_NE(bad_dir.err.find("no such directory"), std::string::npos) << bad_dir.err;
  const std::string text = dir_ + "/not-a-trace.etl";
  std::ofstream(text) << "hello\n";
  const ProcessResult show = run_process(PFC_BINARY, {"trace", "show", text});
  EXPECT_EQ(show.exit_code, 1);
  EXPECT_NE(show.err.find(text + ": not a pfc trace log file"), std::string::npos) << show.err;
  // A file with the magic and a damaged header: clear error from both readers.
  const std::string damaged = dir_ + "/damaged.etl";
  std::ofstream(damaged) << std::string("PFC-LOG\n") + std::string(200, 'x');
  const std::string script = dir_ + "/s.pfs";
  std::ofstream(script) << kScript;
  const ProcessResult run = run_process(PFC_BINARY, {"run", script, "--events", damaged});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find(damaged + ": damaged log file header"), std::string::npos) << run.err;
  EXPECT_EQ(run_process(PFC_BINARY, {"trace", "start", "C", "--circular", "4"}).exit_code, 2);
}

// CRC-32 (zlib's, docs/logfile.md), bit by bit: an independent check of the header's.
uint32_t crc32_of(const char* p, size_t n) {
  uint32_t c = 0xFFFFFFFF;
  for (size_t i = 0; i < n; ++i) {
    c ^= static_cast<uint8_t>(p[i]);
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320 & (0 - (c & 1)));
  }
  return ~c;
}

ProcessResult pfc_trace(const std::vector<std::string>& args) {
  std::vector<std::string> all{"trace"};
  all.insert(all.end(), args.begin(), args.end());
  return run_process(PFC_BINARY, all);
}

// A failed StartTraceW leaves every file as it was (docs/etw.md "Log-file sessions"): the
// running session's file when a start names the same session or the same file, an
// existing file when the circular size is too small, and no new file at all.
TEST_F(FileSession, FailedStartsLeaveEveryFileAsItWas) {
  start("seq", 0, 64);
  auto p = enabled_provider();
  write_events(*p, 500);
  const ProcessResult same = pfc_trace({"start", "S", "--file", file_});
  EXPECT_EQ(same.exit_code, 1);
  EXPECT_EQ(same.err, "pfc: error: a session named 'S' already exists\n");
  const ProcessResult other = pfc_trace({"start", "T", "--file", file_});
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_NE(other.err.find("log file '" + file_ + "' is being written by a running session"),
            std::string::npos)
      << other.err;
  const std::string fresh = dir_ + "/fresh.etl";
  EXPECT_EQ(pfc_trace({"start", "S", "--file", fresh}).exit_code, 1);
  EXPECT_FALSE(std::filesystem::exists(fresh));
  write_events(*p, 500);
  EXPECT_EQ(stop_file("S").rc, 0u);
  const FileRead r = read_file(file_);
  EXPECT_EQ(r.done, "done 0");
  EXPECT_EQ(r.events.size(), 1000u);
  p->send("quit");
  EXPECT_EQ(p->wait(kWait), 0);
}

TEST_F(FileSession, CircularTooSmallNamesTheSizeAndTouchesNoFile) {
  const std::string kept = dir_ + "/kept.etl";
  std::ofstream(kept) << "recorded before\n";
  for (const std::string& path : {kept, dir_ + "/new.etl"}) {
    const ProcessResult r =
        pfc_trace({"start", "C", "--file", path, "--circular", "1", "--buffer-kb", "512"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err,
              "pfc: error: cannot start 'C': a circular log file of 1 MB holds fewer than 2 "
              "buffers of 512 KB (it needs at least 2 MB)\n");
  }
  EXPECT_EQ(test::read_text(kept), "recorded before\n");
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/new.etl"));
  int rc = 0;  // the API's code: ERROR_INVALID_PARAMETER
  EXPECT_EQ(run_actor({"startfile", "C", dir_ + "/api.etl", "circ", "1", "512"}, &rc),
            "start 87\n");
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/api.etl"));
  EXPECT_EQ(pfc_trace({"list"}).out.find("\"C\""), std::string::npos);
}

// The log file is the caller's alone (docs/etw.md "Log-file sessions"): an existing file of
// its own becomes 0600, a file with a second name (hard link) is refused and kept.
TEST_F(FileSession, LogFileIsMadeOwnerOnlyAndAHardLinkedOneIsRefused) {
  std::ofstream(file_) << "old\n";
  ASSERT_EQ(::chmod(file_.c_str(), 0666), 0);
  ASSERT_EQ(pfc_trace({"start", "S", "--file", file_}).exit_code, 0);
  EXPECT_EQ(stop_file("S").rc, 0u);
  struct stat st {};
  ASSERT_EQ(::stat(file_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(read_file(file_).done, "done 0");
  const std::string linked = dir_ + "/linked.etl";
  std::ofstream(linked) << "elsewhere\n";
  ASSERT_EQ(::link(linked.c_str(), (dir_ + "/second-name").c_str()), 0);
  const ProcessResult r = pfc_trace({"start", "L", "--file", linked});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("log file '" + linked + "' has 2 hard links"), std::string::npos) << r.err;
  EXPECT_EQ(test::read_text(linked), "elsewhere\n");
}

// A file another user planted (mode 0666, in a shared sticky directory) is refused with
// the reason, and stays as it was (owner, mode, bytes): the session's events never go
// where that user reads them.
TEST_F(FileSession, LogFileOfAnotherUserIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a file to another user";
  const std::string shared = dir_ + "/shared";
  ASSERT_TRUE(std::filesystem::create_directory(shared));
  ASSERT_EQ(::chmod(shared.c_str(), 01777), 0);
  const std::string planted = shared + "/t.log";
  std::ofstream(planted) << "planted\n";
  constexpr uid_t kOther = 54321;  // no user needed: root gives the file to any uid
  ASSERT_EQ(::chown(planted.c_str(), kOther, kOther), 0);
  ASSERT_EQ(::chmod(planted.c_str(), 0666), 0);
  const ProcessResult r = pfc_trace({"start", "S", "--file", planted});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "pfc: error: cannot start 'S': log file '" + planted +
                       "' is owned by another user (uid 54321); a session records only into its "
                       "own files\n");
  struct stat st {};
  ASSERT_EQ(::stat(planted.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, kOther);
  EXPECT_EQ(st.st_mode & 0777, 0666u);
  EXPECT_EQ(test::read_text(planted), "planted\n");
  EXPECT_EQ(pfc_trace({"list"}).out.find("\"S\""), std::string::npos);
}

// A closed circular file with one slot's buffer gone (its magic zeroed) is damage for
// every reader alike: `pfc trace show`, `pfc run --events` and OpenTraceW deliver the events
// before it and end with the same error naming the slot's offset (docs/logfile.md).
TEST_F(FileSession, DamagedCircularSlotIsTheSameErrorForEveryReader) {
  start("circ", 1, 64);
  auto p = enabled_provider();
  write_batches(*p, 30);  // 360 KB: more than slot 3's buffer
  EXPECT_EQ(stop_file("S").rc, 0u);
  std::string bytes = test::read_text(file_);
  uint32_t buffer = 0, data = 0;
  std::memcpy(&buffer, bytes.data() + 16, 4);
  std::memcpy(&data, bytes.data() + 20, 4);
  const size_t slot = 3, at = data + slot * size_t{buffer};
  ASSERT_GT(bytes.size(), at + buffer);
  std::memset(bytes.data() + at, 0, 4);
  std::ofstream(file_, std::ios::binary | std::ios::trunc) << bytes;
  const std::string where = " at offset " + std::to_string(at);
  const ProcessResult show = pfc_trace({"show", file_});
  EXPECT_EQ(show.exit_code, 1);
  EXPECT_NE(show.err.find(file_ + ": missing buffer (sequence "), std::string::npos) << show.err;
  EXPECT_NE(show.err.find(where), std::string::npos) << show.err;
  const std::string script = dir_ + "/s.pfs";
  std::ofstream(script) << kScript;
  const ProcessResult run = run_process(PFC_BINARY, {"run", script, "--events", file_});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find(show.err.substr(show.err.find(file_))), std::string::npos) << run.err;
  const FileRead r = read_file(file_);
  EXPECT_EQ(r.done, "done 1392");  // ERROR_FILE_CORRUPT
  EXPECT_EQ(r.events.size(),
            static_cast<size_t>(std::count(show.out.begin(), show.out.end(), '\n')));
  p->send("quit");
  EXPECT_EQ(p->wait(kWait), 0);
}

// Once STOP returned, the file is free: its host closed it (and released the lock
// StartTraceW took) before STOP saw the host go, so a start right after the stop takes the
// same file again, time after time.
TEST_F(FileSession, StartRightAfterStopTakesTheSameFile) {
  for (int i = 0; i < 10; ++i) {
    const ProcessResult st = pfc_trace({"start", "S", "--file", file_});
    ASSERT_EQ(st.exit_code, 0) << i << ": " << st.err;
    ASSERT_EQ(pfc_trace({"stop", "S"}).exit_code, 0) << i;
  }
  EXPECT_EQ(read_file(file_).done, "done 0");
}

// A 65th session fails before its file is looked at: no file is created.
TEST_F(FileSession, SixtyFifthSessionLeavesNoFile) {
  for (int i = 0; i < 64; ++i)
    ASSERT_EQ(pfc_trace({"start", "R" + std::to_string(i)}).exit_code, 0) << i;
  const std::string path = dir_ + "/65.etl";
  const ProcessResult r = pfc_trace({"start", "F", "--file", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("64 sessions are live"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(path));
  for (int i = 0; i < 64; ++i) EXPECT_EQ(pfc_trace({"stop", "R" + std::to_string(i)}).exit_code, 0);
}

// A log file of another format version: `pfc trace show` and `pfc run --events` print the
// same message naming both versions (docs/logfile.md "Versioning").
TEST_F(FileSession, OtherVersionIsNamedByEveryReader) {
  start("seq", 0, 64);
  EXPECT_EQ(stop_file("S").rc, 0u);
  std::string bytes = test::read_text(file_);
  ASSERT_GE(bytes.size(), 128u);
  bytes[8] = 3;  // version 3 (unpacked records), header CRC made valid again
  const uint32_t crc = crc32_of(bytes.data(), 104);
  std::memcpy(bytes.data() + 104, &crc, 4);
  std::ofstream(file_, std::ios::binary | std::ios::trunc) << bytes;
  const std::string want =
      "pfc: error: " + file_ + ": log file version 3 is not supported (this pfc reads version 5)\n";
  const ProcessResult show = pfc_trace({"show", file_});
  EXPECT_EQ(show.exit_code, 1);
  EXPECT_EQ(show.err, want);
  const std::string script = dir_ + "/s.pfs";
  std::ofstream(script) << kScript;
  const ProcessResult run = run_process(PFC_BINARY, {"run", script, "--events", file_});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, want);
}

}  // namespace
}  // namespace pfc::multiproc
