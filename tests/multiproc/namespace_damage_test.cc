// tests/multiproc/namespace_damage_test.cc — hostile input to the trace namespace
// (docs/namespace.md §5) with controllers, providers and consumers as separate processes:
// a ring's shared head overwritten while its provider writes, a damaged `state` file while
// a session has a consumer, and a full file system under the namespace (root: a small
// tmpfs). Nothing may crash, hang, reuse an instance number or deliver across sessions.
// Every wait is bounded; every child is killed and reaped when a test fails (Child).
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "child.h"
#include "tests/small_tmpfs.h"
#include "trace/names.h"
#include "trace/ring.h"
#include "trace/state.h"

namespace pfc::multiproc {
namespace {

constexpr int kWait = 20000;  // ms: generous bound for any single step on a loaded machine

void ok(const std::vector<std::string>& args) {
  int rc = -1;
  const std::string out = run_actor(args, &rc);
  ASSERT_EQ(rc, 0) << args[0] << ": " << out;
}

// Reads `n` "event PID ID SEQ" lines from a consumer (fewer when it stops or the time is up).
std::vector<std::string> events(Child& consumer, size_t n) {
  std::vector<std::string> out;
  while (out.size() < n) {
    const std::string line = consumer.read_line(kWait);
    if (line.empty() || line.rfind("done", 0) == 0) break;
    if (line.rfind("event ", 0) == 0) out.push_back(line);
  }
  return out;
}

// The rest of a consumer's events, up to its "done" line.
std::vector<std::string> rest(Child& consumer) { return events(consumer, ~size_t{0}); }

// Polls `done` every 20 ms until it holds (true) or kWait ms passed (false).
template <class F>
bool wait_until(F done) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(kWait);
  while (!done()) {
    if (std::chrono::steady_clock::now() >= end) return false;
    ::usleep(20000);
  }
  return true;
}

void write_events(Child& provider, int n) {
  provider.send("write " + std::to_string(n) + " 1");
  ASSERT_NE(provider.expect("wrote", kWait), "") << "the provider did not answer";
}

// A session with a provider process enabled in it and a consumer process reading it.
struct Traced {
  std::unique_ptr<Child> provider, consumer;
};

// Starts session `name`, the provider process of `tag` (enabled at level 5 in it), then a
// consumer of it.
void start_traced(const std::string& name, const std::string& tag, Traced& t) {
  ok({"start", name});
  t.provider = std::make_unique<Child>(std::vector<std::string>{"provider", tag});
  ASSERT_EQ(t.provider->read_line(kWait), "registered");
  ok({"enable", name, tag, "5", "0"});
  t.consumer = std::make_unique<Child>(std::vector<std::string>{"consume", name});
  ASSERT_EQ(t.consumer->read_line(kWait), "open");  // not "open-failed 170"
}

// `pfc trace ARGS` with its stdout and stderr, bounded.
struct Ran {
  int status = -1;
  std::string output;
};
Ran pfc_trace(const std::vector<std::string>& args) {
  std::vector<std::string> sh = {"-c", "exec \"$0\" trace \"$@\" 2>&1", PFC_BINARY};
  sh.insert(sh.end(), args.begin(), args.end());
  Child c(Child::Program{"/bin/sh"}, sh);
  c.close_stdin();
  Ran r;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kWait);
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string line = c.read_line(100);
    if (!line.empty()) r.output += line + "\n";
    if (line.empty() && c.wait(0) >= 0) break;
  }
  for (std::string line; !(line = c.read_line(100)).empty();) r.output += line + "\n";
  r.status = c.wait(kWait);
  return r;
}

// The ring files in the namespace directory `dir`.
size_t ring_files(const std::string& dir) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    n += trace::parse_ring_name(e.path().filename().string()) ? 1 : 0;
  return n;
}

// A child that died (the failure these tests look for) must not kill the test with
// SIGPIPE when it is sent a line: the test reports it and cleans up.
void ignore_sigpipe() { ::signal(SIGPIPE, SIG_IGN); }

// A private namespace directory per test on /dev/shm (tmpfs, like a real namespace).
class Damage : public ::testing::Test {
 protected:
  void SetUp() override {
    ignore_sigpipe();
    char tmpl[] = "/dev/shm/pfc-nd-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    ::setenv("PFC_TRACE_DIR", dir_.c_str(), 1);
  }
  void TearDown() override { remove_namespace(dir_, dir_); }

  // The namespace's ring files written by process `pid` (any session).
  std::vector<trace::RingId> rings_of(int pid) const {
    std::vector<trace::RingId> out;
    for (const auto& e : std::filesystem::directory_iterator(dir_))
      if (auto id = trace::parse_ring_name(e.path().filename().string()))
        if (id->writer.pid == uint32_t(pid)) out.push_back(*id);
    return out;
  }

  std::string dir_;
};

// ---- a ring's head out of range (docs/namespace.md §5) --------------------------------

class RingHead : public Damage, public ::testing::WithParamInterface<uint64_t> {};

// Another same-user process writes `head` of a live ring. The provider once died of SIGSEGV
// inside EventWrite for a misaligned value; now its events for that ring are dropped and
// counted, the consumer stops reading the ring, and the session stops as usual.
TEST_P(RingHead, OutOfRangeCostsTheProviderItsEventsNotItsLife) {
  Traced s;  // 2 MB rings: no front ring, every event goes to the one ring
  ASSERT_NO_FATAL_FAILURE(start_traced("S", "0x601", s));
  Child& provider = *s.provider;
  Child& consumer = *s.consumer;
  write_events(provider, 100);
  ASSERT_EQ(events(consumer, 100).size(), 100u);  // all read before the damage
  const std::vector<trace::RingId> rings = rings_of(provider.pid());
  ASSERT_EQ(rings.size(), 1u);
  {
    const std::string path = dir_ + "/" + trace::ring_name(rings[0].instance, rings[0].writer);
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    const uint64_t head = GetParam();
    f.seekp(offsetof(trace::RingHeader, head));
    f.write(reinterpret_cast<const char*>(&head), sizeof head);
    ASSERT_TRUE(f.good());
  }
  write_events(provider, 100);
  int rc = -1;
  // 100 records of 32 bytes: less than one buffer.
  EXPECT_EQ(run_actor({"stop", "S"}, &rc), "stop 0 lost 100 rtlost 1\n");
  EXPECT_TRUE(rest(consumer).empty());  // the damaged ring gives nothing more
  EXPECT_EQ(consumer.wait(kWait), 0);
  provider.send("quit");
  EXPECT_EQ(provider.wait(kWait), 0);  // not 139 (SIGSEGV)
}

INSTANTIATE_TEST_SUITE_P(Values, RingHead,
                         ::testing::Values(~uint64_t{0}, ~uint64_t{1}, uint64_t{1} << 40),
                         [](const ::testing::TestParamInfo<uint64_t>& i) {
                           return "head_" + std::to_string(i.param);
                         });

// ---- a damaged state file (docs/namespace.md §2) ---------------------------------------

enum class StateDamage { RandomBytes, BadBodyWithValidCrc, Truncated, HugeSize };

void damage_state(const std::string& path, StateDamage how) {
  std::vector<uint8_t> bytes;
  if (how == StateDamage::RandomBytes) {
    uint32_t x = 7;
    for (int i = 0; i < 4096; ++i) bytes.push_back(uint8_t((x = x * 1664525u + 1013904223u) >> 24));
  } else if (how == StateDamage::BadBodyWithValidCrc) {
    trace::NamespaceState bad;
    trace::SessionEntry e;
    e.instance = 9;  // not below next_instance (1)
    e.name = u"X";
    bad.sessions.push_back(e);
    bytes = trace::encode_state_file(bad);
  } else if (how == StateDamage::Truncated) {
    std::filesystem::resize_file(path, 10);
    return;
  } else {
    std::filesystem::resize_file(path, trace::kMaxStateBytes + 4096);
    return;
  }
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

class StateDamaged : public Damage, public ::testing::WithParamInterface<StateDamage> {};

// The state is damaged while session S has a consumer. S is gone with it: its consumer
// returns with what it had, by itself. The next session gets a new instance number (it once
// got S's again: its own consumer was refused with ERROR_BUSY and S's consumer received its
// events), and its consumer gets exactly its events.
TEST_P(StateDamaged, EndsItsSessionsAndNoInstanceComesBack) {
  Traced s;
  ASSERT_NO_FATAL_FAILURE(start_traced("S", "0x602", s));
  Child& p1 = *s.provider;
  Child& c1 = *s.consumer;
  write_events(p1, 10);
  ASSERT_EQ(events(c1, 10).size(), 10u);
  const std::vector<trace::RingId> old_rings = rings_of(p1.pid());
  ASSERT_EQ(old_rings.size(), 1u);
  damage_state(dir_ + "/state", GetParam());
  EXPECT_TRUE(rest(c1).empty());
  EXPECT_EQ(c1.wait(kWait), 0);  // returned without any STOP
  const Ran list = pfc_trace({"list"});
  EXPECT_EQ(list.status, 1);
  EXPECT_NE(list.output.find("trace file '" + dir_ + "/state' is damaged ("), std::string::npos)
      << list.output;

  Traced other;
  ASSERT_NO_FATAL_FAILURE(start_traced("Other", "0x603", other));
  Child& p2 = *other.provider;
  Child& c2 = *other.consumer;
  write_events(p2, 5);
  const std::vector<trace::RingId> new_rings = rings_of(p2.pid());
  ASSERT_EQ(new_rings.size(), 1u);
  EXPECT_GT(new_rings[0].instance, old_rings[0].instance);
  ok({"stop", "Other"});
  const std::vector<std::string> got = rest(c2);
  EXPECT_EQ(got.size(), 5u);
  for (const std::string& line : got)
    EXPECT_EQ(line.rfind("event " + std::to_string(p2.pid()) + " ", 0), 0u) << line;
  EXPECT_EQ(c2.wait(kWait), 0);
  for (Child* p : {&p1, &p2}) {
    p->send("quit");
    EXPECT_EQ(p->wait(kWait), 0);
  }
}

std::string damage_name(const ::testing::TestParamInfo<StateDamage>& i) {
  static const char* const kNames[] = {"RandomBytes", "BadBodyWithValidCrc", "Truncated",
                                       "HugeSize"};
  return kNames[static_cast<int>(i.param)];
}

INSTANTIATE_TEST_SUITE_P(Kinds, StateDamaged,
                         ::testing::Values(StateDamage::RandomBytes,
                                           StateDamage::BadBodyWithValidCrc, StateDamage::Truncated,
                                           StateDamage::HugeSize),
                         damage_name);

// ---- a full file system (docs/namespace.md §3) -----------------------------------------

// A 4 MB tmpfs of its own holds the namespace (tests/small_tmpfs.h).
class FullFileSystem : public tests::SmallTmpfs {
 protected:
  FullFileSystem() : SmallTmpfs("4m") {}
  void SetUp() override {
    SmallTmpfs::SetUp();
    ignore_sigpipe();
    ::setenv("PFC_COMPILER_IDLE_MS", "200", 1);  // a compile service leaves soon
    ::setenv("PFC_COMPILER_KEEP_MS", "200", 1);
  }
  void TearDown() override {
    kill_helpers(mnt_ + "/ns", "pfc-trace-");  // nothing left
    ::unsetenv("PFC_COMPILER_IDLE_MS");
    ::unsetenv("PFC_COMPILER_KEEP_MS");
    SmallTmpfs::TearDown();
  }
};

// Nothing can be created: no process dies of SIGBUS (exit 135) on a page it could not get;
// a provider registers and runs untraced; controllers say the file system is full.
TEST_F(FullFileSystem, NoProcessDiesWhenTheNamespaceCannotBeCreated) {
  fill();
  Child provider({"provider", "0x604"});
  EXPECT_EQ(provider.read_line(kWait), "registered");
  provider.send("write 10 1");
  EXPECT_NE(provider.expect("wrote", kWait), "");
  provider.send("quit");
  EXPECT_EQ(provider.wait(kWait), 0);
  int rc = -1;
  EXPECT_EQ(run_actor({"start", "S"}, &rc), "start 112\n");  // ERROR_DISK_FULL
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"start", "S"},
        {"list"},
        {"stop", "S"},
        {"disable", "S", "{00000604-0000-4000-8000-000000000001}"}}) {
    const Ran r = pfc_trace(args);
    EXPECT_EQ(r.status, 1) << args[0] << ": " << r.output;
    if (args[0] != "disable") {
      EXPECT_NE(r.output.find("No space left on device"), std::string::npos)
          << args[0] << ": " << r.output;
    }
  }
}

// The file system fills while a session runs: its ring has its pages, so its events still
// arrive; a second session's ring cannot be had, so its events are dropped; a provider
// process started now still gets its callbacks; and both sessions stop (STOP writes the
// state into the blocks the previous publish reserved for it).
TEST_F(FullFileSystem, EventsAreDroppedAndSessionsStillStop) {
  ok({"start", "S", "4", "16"});  // 128 KB rings
  Child provider({"provider", "0x605"});
  ASSERT_EQ(provider.read_line(kWait), "registered");
  ok({"enable", "S", "0x605", "5", "0"});
  write_events(provider, 10);
  ASSERT_EQ(ring_files(mnt_ + "/ns"), 1u);
  fill();
  Child consumer({"consume", "S"});
  ASSERT_EQ(consumer.read_line(kWait), "open");
  ok({"start", "T", "4", "16"});
  ok({"enable", "T", "0x605", "5", "0"});
  Child late({"provider", "0x605"});
  EXPECT_EQ(late.expect("callback 1", kWait), "callback 1 5 0xffffffffffffffff");
  write_events(provider, 10);
  write_events(late, 10);
  const Ran stop_t = pfc_trace({"stop", "T"});
  EXPECT_EQ(stop_t.status, 0) << stop_t.output;
  const Ran stop_s = pfc_trace({"stop", "S"});
  EXPECT_EQ(stop_s.status, 0) << stop_s.output;
  EXPECT_NE(stop_s.output.find("\"events\":20,"), std::string::npos) << stop_s.output;
  EXPECT_EQ(rest(consumer).size(), 20u);
  EXPECT_EQ(consumer.wait(kWait), 0);
  for (Child* p : {&provider, &late}) {
    p->send("quit");
    EXPECT_EQ(p->wait(kWait), 0);
  }
}

// A publish on a full file system that grows the state past a page cannot reserve a spare
// for the new size, and then another file takes every block that is free. STOP still has
// the blocks it needs: the spare is the replaced `state` itself, which no other file can
// take (docs/namespace.md §2). The publish once freed the replaced state's blocks and took
// a spare again only if no other file had taken them first: STOP then failed with "No space
// left on device".
TEST_F(FullFileSystem, StopHasItsBlocksWhenAnotherFileTookTheFreeOnes) {
  const std::string a(1000, 'A'), b(1000, 'B');  // 2 KB of the state each
  const Ran start_a = pfc_trace({"start", a});
  ASSERT_EQ(start_a.status, 0) << start_a.output;
  fill();
  const Ran start_b = pfc_trace({"start", b});  // into the spare: the state needs 2 pages now
  ASSERT_EQ(start_b.status, 0) << start_b.output;
  fill();  // another file takes every free block
  for (const std::string& name : {b, a}) {
    const Ran stop = pfc_trace({"stop", name});
    EXPECT_EQ(stop.status, 0) << stop.output.substr(stop.output.rfind('\'') + 1);
  }
}

// A controller killed on a full file system right after its publish put the new state
// into place (trace/testpoint.h), then another file takes every free block: the next STOP
// still finds the blocks it needs, and so does the one after it.
TEST_F(FullFileSystem, StopSucceedsAfterAPublisherDiedOnAFullFileSystem) {
  ok({"start", "S"});
  fill();
  int rc = -1;
  (void)run_actor({"start", "T"}, &rc, kWait, {"PFC_TEST_CRASH_AT=state.renamed"});
  ASSERT_EQ(rc, 128 + SIGKILL);
  fill();
  for (const char* name : {"T", "S"}) {
    const Ran stop = pfc_trace({"stop", name});
    EXPECT_EQ(stop.status, 0) << stop.output;
  }
}

// A compile service that can write neither a program's code nor its failure (a request
// written by a provider that could start no service, then the file system filled) does
// not compile that program again and again: it leaves once idle.
TEST_F(FullFileSystem, TheCompileServiceLeavesWhenItCannotWriteAResult) {
  ok({"start", "S", "4", "16"});
  {
    Child provider({"provider", "0x606"}, {"PFC_TRACE_COMPILER=/bin/false"});
    ASSERT_EQ(provider.read_line(kWait), "registered");
    ok({"enable", "S", "0x606", "5", "0"});
    write_events(provider, 10);  // the first event has the provider lower its program
    const auto requested = [&] {
      for (const auto& e : std::filesystem::directory_iterator(mnt_ + "/ns"))
        if (e.path().extension() == ".req") return true;
      return false;
    };
    ASSERT_TRUE(wait_until(requested)) << "the provider wrote no request";
    provider.send("quit");
    EXPECT_EQ(provider.wait(kWait), 0);
  }
  fill();
  Child service(Child::Program{TRACE_COMPILER}, {"--foreground"});
  EXPECT_EQ(service.wait(kWait), 0) << "the compile service is still running on a full file system";
  EXPECT_EQ(pfc_trace({"stop", "S"}).status, 0);
}

}  // namespace
}  // namespace pfc::multiproc
