// tests/multiproc/multiproc_test.cc — the ETW API across processes (docs/namespace.md):
// controllers, providers and consumers as separate trace_actor processes in one private
// namespace per test. Exact event sets, composite callbacks, SIGKILL at each role, and
// writers racing a controller that changes filters. Every wait is bounded; every child is
// killed and reaped when a test fails (Child's destructor).
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <chrono>
#include <compare>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <thread>

#include "child.h"

namespace pfc::multiproc {
namespace {

constexpr int kWait = 20000;  // ms: generous bound for any single step on a loaded machine

class Namespace : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/dev/shm/pfc-mp-XXXXXX";  // tmpfs, like a real namespace
    dir_ = ::mkdtemp(tmpl);
    ::setenv("PFC_TRACE_DIR", dir_.c_str(), 1);
  }
  void TearDown() override { remove_namespace(dir_, dir_); }

  static void ok(const std::vector<std::string>& args) {
    int rc = -1;
    const std::string out = run_actor(args, &rc);
    ASSERT_EQ(rc, 0) << args[0] << ": " << out;
  }

  std::string dir_;
};

struct Event {
  unsigned pid, id, seq;
  auto operator<=>(const Event&) const = default;
};

// Reads a consumer's "event" lines until "done".
std::vector<Event> collect(Child& consumer) {
  std::vector<Event> out;
  for (;;) {
    const std::string line = consumer.read_line(kWait);
    if (line.empty() || line.rfind("done", 0) == 0) break;
    Event e{};
    if (std::sscanf(line.c_str(), "event %u %u %u", &e.pid, &e.id, &e.seq) == 3) out.push_back(e);
  }
  return out;
}

std::array<unsigned, 5> wrote(Child& provider) {
  std::array<unsigned, 5> n{};
  const std::string line = provider.expect("wrote", kWait);
  EXPECT_EQ(std::sscanf(line.c_str(), "wrote %u %u %u %u", &n[1], &n[2], &n[3], &n[4]), 4) << line;
  return n;
}

// A real-time consumer that falls behind (stopped while a writer puts 40,000 events, 1.25 MB,
// into a 512 KB ring): the ring drops what does not fit, and every event EventWrite took is
// delivered or counted in EventsLost, exactly; RealTimeBuffersLost is their bytes in whole
// buffers (docs/namespace.md §4).
TEST_F(Namespace, ConsumerThatFallsBehindIsToldExactlyWhatItLost) {
  ok({"start", "S", "4", "128"});  // 4 KB buffers: a ring of 128 of them
  Child provider({"provider", "0x502"});
  ASSERT_EQ(provider.read_line(kWait), "registered");
  ok({"enable", "S", "0x502", "4", "0"});
  EXPECT_NE(provider.expect("callback", kWait), "");
  Child consumer({"consume", "S"});
  ASSERT_EQ(consumer.read_line(kWait), "open");
  ASSERT_EQ(::kill(consumer.pid(), SIGSTOP), 0);
  provider.send("write 40000 1");
  const std::array<unsigned, 5> n = wrote(provider);
  ::kill(consumer.pid(), SIGCONT);
  EXPECT_EQ(n[1] + n[2] + n[3] + n[4], 40000u);
  int rc = -1;
  const std::string stop = run_actor({"stop", "S"}, &rc);
  unsigned stop_rc = 99, lost = 0, rtlost = 0;
  ASSERT_EQ(std::sscanf(stop.c_str(), "stop %u lost %u rtlost %u", &stop_rc, &lost, &rtlost), 3)
      << stop;
  const std::vector<Event> got = collect(consumer);
  EXPECT_EQ(consumer.wait(kWait), 0);
  EXPECT_EQ(stop_rc, 0u);
  EXPECT_GT(lost, 0u);
  EXPECT_EQ(got.size() + lost, 40000u);
  EXPECT_EQ(std::set<Event>(got.begin(), got.end()).size(), got.size());  // no duplicates
  EXPECT_EQ(rtlost, (lost * 32 + 4095) / 4096);  // 32-byte records (a uint32 payload)
  provider.send("quit");
  EXPECT_EQ(provider.wait(kWait), 0);
}

TEST_F(Namespace, ProvidersStartedBeforeAndAfterTheEnableDeliverExactlyTheFilteredEvents) {
  ok({"start", "S"});  // the controller exits: the session outlives it
  Child before({"provider", "0x501"});
  ASSERT_EQ(before.read_line(kWait), "registered");
  ok({"enable", "S", "0x501", "4", "0", "1,3"});
  EXPECT_EQ(before.expect("callback", kWait), "callback 1 4 0xffffffffffffffff");  // any 0 = all
  Child after({"provider", "0x501"});
  EXPECT_EQ(after.expect("callback", kWait),
            "callback 1 4 0xffffffffffffffff");  // at EventRegister
  ASSERT_EQ(after.expect("registered", kWait), "registered");
  Child consumer({"consume", "S"});
  ASSERT_EQ(consumer.read_line(kWait), "open");
  before.send("write 100 1");
  after.send("write 100 1");
  wrote(before);
  wrote(after);
  ok({"stop", "S"});
  std::vector<Event> got = collect(consumer);
  EXPECT_EQ(consumer.wait(kWait), 0);
  std::set<Event> want;
  for (unsigned pid : {unsigned(before.pid()), unsigned(after.pid())})
    for (unsigned i = 0; i < 100; ++i)
      if (1 + i % 4 == 1 || 1 + i % 4 == 3) want.insert(Event{pid, 1 + i % 4, i});
  EXPECT_EQ(std::set<Event>(got.begin(), got.end()), want);
  EXPECT_EQ(got.size(), want.size());  // no duplicates
  // Each writer's events arrive in its order.
  std::map<unsigned, unsigned> last;
  for (const Event& e : got) {
    if (last.contains(e.pid)) {
      EXPECT_GT(e.seq, last[e.pid]);
    }
    last[e.pid] = e.seq;
  }
  before.send("quit");
  after.send("quit");
  EXPECT_EQ(before.wait(kWait), 0);
  EXPECT_EQ(after.wait(kWait), 0);
}

TEST_F(Namespace, CompositeCallbacksAcrossThreeSessionsFromTwoControllers) {
  ok({"start", "A"});
  ok({"start", "B"});
  Child p({"provider", "0x502"});
  ASSERT_EQ(p.read_line(kWait), "registered");
  ok({"enable", "A", "0x502", "2", "0x1"});
  EXPECT_EQ(p.expect("callback", kWait), "callback 1 2 0x1");
  ok({"enable", "B", "0x502", "5", "0x10"});
  EXPECT_EQ(p.expect("callback", kWait), "callback 1 5 0x11");
  ok({"start", "C"});  // a second controller process
  ok({"enable", "C", "0x502", "3", "0x100"});
  EXPECT_EQ(p.expect("callback", kWait), "callback 1 5 0x111");
  ok({"disable", "B", "0x502"});
  EXPECT_EQ(p.expect("callback", kWait), "callback 1 3 0x101");
  ok({"stop", "A"});
  EXPECT_EQ(p.expect("callback", kWait), "callback 1 3 0x100");
  ok({"stop", "C"});
  EXPECT_EQ(p.expect("callback", kWait), "callback 0 0 0x0");
  p.send("quit");
  EXPECT_EQ(p.wait(kWait), 0);
  ok({"stop", "B"});
}

TEST_F(Namespace, KilledProviderMidWriteCostsOnlyItsOwnEvents) {
  ok({"start", "S", "1024", "64"});
  Child victim({"provider", "0x503"});
  Child steady({"provider", "0x504"});
  ASSERT_EQ(victim.read_line(kWait), "registered");
  ASSERT_EQ(steady.read_line(kWait), "registered");
  ok({"enable", "S", "0x503", "5", "0"});
  ok({"enable", "S", "0x504", "5", "0"});
  Child consumer({"consume", "S"});
  ASSERT_EQ(consumer.read_line(kWait), "open");
  victim.send("write 100000000 2");  // writes until killed
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  victim.kill9();
  steady.send("write 1000 1");
  wrote(steady);
  ok({"stop", "S"});
  std::vector<Event> got = collect(consumer);
  EXPECT_EQ(consumer.wait(kWait), 0);
  unsigned from_steady = 0;
  for (const Event& e : got) from_steady += e.pid == unsigned(steady.pid()) ? 1 : 0;
  EXPECT_EQ(from_steady, 1000u);
  ok({"start", "T"});  // the namespace is usable
  ok({"stop", "T"});
  steady.send("quit");
  EXPECT_EQ(steady.wait(kWait), 0);
}

TEST_F(Namespace, KilledControllerMidEnableLeavesTheNamespaceUsable) {
  ok({"start", "S"});
  Child p({"provider", "0x505"});
  ASSERT_EQ(p.read_line(kWait), "registered");
  for (int delay_ms : {5, 20, 50}) {
    Child toggler({"toggle", "S", "0x505", "100000"});
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    toggler.kill9();
  }
  ok({"enable", "S", "0x505", "4", "0x7"});  // the namespace lock was released by the kernel
  EXPECT_EQ(p.expect("callback 1 4 0x7", kWait), "callback 1 4 0x7");
  ok({"stop", "S"});
  p.send("quit");
  EXPECT_EQ(p.wait(kWait), 0);
}

TEST_F(Namespace, KilledConsumerMidReadLetsAnotherConsumerAttach) {
  ok({"start", "S", "1024", "64"});
  Child p({"provider", "0x506"});
  ASSERT_EQ(p.read_line(kWait), "registered");
  ok({"enable", "S", "0x506", "5", "0"});
  auto first = std::make_unique<Child>(std::vector<std::string>{"consume", "S"});
  ASSERT_EQ(first->read_line(kWait), "open");
  p.send("write 5000 1");
  wrote(p);
  first->kill9();
  Child second({"consume", "S"});
  ASSERT_EQ(second.read_line(kWait), "open");  // not busy: the dead consumer was reaped
  p.send("write 200 1");
  wrote(p);
  ok({"stop", "S"});
  std::vector<Event> got = collect(second);
  EXPECT_EQ(second.wait(kWait), 0);
  // Whatever the first consumer had not read yet, then all 200 later events.
  std::set<unsigned> late;
  for (const Event& e : got) late.insert(e.seq);
  EXPECT_GE(got.size(), 200u);
  for (unsigned i = 0; i < 200; ++i) EXPECT_TRUE(late.contains(i)) << i;
  p.send("quit");
  EXPECT_EQ(p.wait(kWait), 0);
}

TEST_F(Namespace, WritersRacingFilterChangesNeverGetWhatNoFilterAllowed) {
  ok({"start", "Fixed", "1024", "64"});
  ok({"start", "Moving", "1024", "64"});
  std::vector<std::unique_ptr<Child>> writers;
  for (int i = 0; i < 4; ++i) {
    writers.push_back(std::make_unique<Child>(std::vector<std::string>{"provider", "0x507"}));
    ASSERT_EQ(writers.back()->read_line(kWait), "registered");
  }
  ok({"enable", "Fixed", "0x507", "5", "0", "1"});
  ok({"enable", "Moving", "0x507", "5", "0", "2"});
  Child fixed({"consume", "Fixed"});
  Child moving({"consume", "Moving"});
  ASSERT_EQ(fixed.read_line(kWait), "open");
  ASSERT_EQ(moving.read_line(kWait), "open");
  Child toggler({"toggle", "Moving", "0x507", "200"});
  for (auto& w : writers) w->send("write 20000 2");
  unsigned ones = 0;
  for (auto& w : writers) ones += wrote(*w)[1];
  EXPECT_EQ(toggler.wait(kWait * 3), 0);
  int rc = -1;
  const std::string stop_fixed = run_actor({"stop", "Fixed"}, &rc);
  EXPECT_EQ(stop_fixed, "stop 0 lost 0 rtlost 0\n");
  ok({"stop", "Moving"});
  std::vector<Event> a = collect(fixed);
  std::vector<Event> b = collect(moving);
  EXPECT_EQ(a.size(), ones);  // nothing lost where the filter never changed
  for (const Event& e : a) EXPECT_EQ(e.id, 1u);
  for (const Event& e : b) EXPECT_TRUE(e.id == 2 || e.id == 3) << e.id;
  EXPECT_GT(b.size(), 0u);
  for (auto& w : writers) w->send("quit");
  for (auto& w : writers) EXPECT_EQ(w->wait(kWait), 0);
}

}  // namespace
}  // namespace pfc::multiproc

namespace pfc::multiproc {
namespace {

// SIGKILL at each step of each role (trace/testpoint.h): the killed process loses at most
// its own in-flight work, every other process goes on, the namespace stays usable.
std::vector<std::string> crash_at(const std::string& point) {
  return {"PFC_TEST_CRASH_AT=" + point};
}

std::string point_name(const ::testing::TestParamInfo<const char*>& info) {
  std::string n = info.param;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

class CrashAt : public Namespace, public ::testing::WithParamInterface<const char*> {};

// A controller killed while publishing: holding the lock, with state.tmp written, or after
// the rename but before the announcement. The next controller succeeds and the provider
// ends up with the last published enable.
TEST_P(CrashAt, Controller) {
  ok({"start", "S"});
  Child p({"provider", "0x510"});
  ASSERT_EQ(p.read_line(kWait), "registered");
  int rc = -1;
  (void)run_actor({"enable", "S", "0x510", "3", "0"}, &rc, kWait, crash_at(GetParam()));
  EXPECT_EQ(rc, 128 + SIGKILL);
  ok({"enable", "S", "0x510", "5", "0x3"});
  EXPECT_EQ(p.expect("callback 1 5 0x3", kWait), "callback 1 5 0x3");
  Child consumer({"consume", "S"});
  ASSERT_EQ(consumer.read_line(kWait), "open");
  p.send("write 10 1");
  wrote(p);
  ok({"stop", "S"});
  EXPECT_EQ(collect(consumer).size(), 10u);
  p.send("quit");
  EXPECT_EQ(p.wait(kWait), 0);
}
INSTANTIATE_TEST_SUITE_P(Publish, CrashAt,
                         ::testing::Values("state.locked", "state.tmp-written", "state.renamed"),
                         point_name);

class ProviderCrash : public Namespace, public ::testing::WithParamInterface<const char*> {};

// A provider killed while applying a change or inside EventWrite after reserving its
// record: the other provider's events all arrive and the session stops cleanly.
TEST_P(ProviderCrash, OthersAreUnaffected) {
  ok({"start", "S", "1024", "64"});
  ok({"enable", "S", "0x511", "5", "0"});
  Child steady({"provider", "0x511"});
  ASSERT_EQ(steady.expect("registered", kWait), "registered");
  Child consumer({"consume", "S"});
  ASSERT_EQ(consumer.read_line(kWait), "open");
  Child victim({"provider", "0x511"}, crash_at(GetParam()));
  victim.send("write 100 1");
  EXPECT_EQ(victim.wait(kWait), 128 + SIGKILL);
  steady.send("write 100 1");
  wrote(steady);
  ok({"stop", "S"});
  unsigned from_steady = 0, from_victim = 0;
  for (const Event& e : collect(consumer))
    (e.pid == unsigned(steady.pid()) ? from_steady : from_victim)++;
  EXPECT_EQ(from_steady, 100u);
  EXPECT_EQ(from_victim, 0u);  // killed at registration or at its first event
  ok({"start", "T"});
  ok({"stop", "T"});
  steady.send("quit");
  EXPECT_EQ(steady.wait(kWait), 0);
}
INSTANTIATE_TEST_SUITE_P(Apply, ProviderCrash,
                         ::testing::Values("mirror.sessions-applied", "ring.reserved"), point_name);

// A provider killed after reserving its first record, before committing it, in a real-time
// session: the consumer skips the record once it sees the writer gone and counts it in the
// ring's drops, so QUERY and STOP say EventsLost 1 — every event EventWrite took is
// delivered or counted.
TEST_F(Namespace, RealTimeCountsADeadWritersReservationLost) {
  ok({"start", "S", "1024", "64"});
  ok({"enable", "S", "0x514", "5", "0"});
  Child steady({"provider", "0x514"});
  ASSERT_EQ(steady.expect("registered", kWait), "registered");
  Child consumer({"consume", "S"});
  ASSERT_EQ(consumer.read_line(kWait), "open");
  Child victim({"provider", "0x514"}, crash_at("ring.reserved"));
  victim.send("write 100 1");
  EXPECT_EQ(victim.wait(kWait), 128 + SIGKILL);
  steady.send("write 100 1");
  wrote(steady);
  std::string lost;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kWait);
  int rc = 0;
  while ((lost = run_actor({"querylost", "S"}, &rc)) != "lost 1\n" &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(lost, "lost 1\n");
  EXPECT_EQ(run_actor({"stopfile", "S"}, &rc).rfind("stop 0 lost 1 ", 0), 0u);
  const std::vector<Event> got = collect(consumer);
  EXPECT_EQ(got.size(), 100u);
  for (const Event& e : got) EXPECT_EQ(e.pid, unsigned(steady.pid()));
  steady.send("quit");
  EXPECT_EQ(steady.wait(kWait), 0);
}

// A consumer killed after delivering its 5th event but before releasing it: the next
// consumer starts exactly at that event (delivery is at-least-once across a crash).
TEST_F(Namespace, ConsumerKilledBetweenDeliveryAndReleaseRedeliversOneEvent) {
  ok({"start", "S", "1024", "64"});
  Child p({"provider", "0x512"});
  ASSERT_EQ(p.read_line(kWait), "registered");
  ok({"enable", "S", "0x512", "5", "0"});
  p.send("write 50 1");
  wrote(p);
  {
    Child first({"consume", "S"}, crash_at("consumer.delivered:5"));
    EXPECT_EQ(first.wait(kWait), 128 + SIGKILL);
  }
  Child second({"consume", "S"});
  ASSERT_EQ(second.read_line(kWait), "open");
  ok({"stop", "S"});
  std::vector<Event> got = collect(second);
  ASSERT_EQ(got.size(), 46u);
  for (unsigned i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].seq, 4 + i);
  p.send("quit");
  EXPECT_EQ(p.wait(kWait), 0);
}

// The same across two writers' rings, killed in the middle of one drained batch (all 120
// events were written before it started, so they are ready at once): the next consumer gets every
// event not released — the killed one again and the rest — each once, and each writer's in order.
TEST_F(Namespace, ConsumerKilledMidBatchAcrossTwoRingsLosesNothing) {
  ok({"start", "S", "1024", "64"});
  Child a({"provider", "0x513"}), b({"provider", "0x513"});
  ASSERT_EQ(a.read_line(kWait), "registered");
  ASSERT_EQ(b.read_line(kWait), "registered");
  ok({"enable", "S", "0x513", "5", "0"});
  a.send("write 60 1");
  b.send("write 60 1");
  wrote(a);
  wrote(b);
  {
    Child first({"consume", "S"}, crash_at("consumer.delivered:37"));
    EXPECT_EQ(first.wait(kWait), 128 + SIGKILL);
  }
  Child second({"consume", "S"});
  ASSERT_EQ(second.read_line(kWait), "open");
  ok({"stop", "S"});
  std::vector<Event> got = collect(second);
  ASSERT_EQ(got.size(), 120u - 36u);
  std::map<unsigned, std::vector<unsigned>> by_pid;
  for (const Event& e : got) by_pid[e.pid].push_back(e.seq);
  unsigned released = 0;
  for (auto& [pid, seqs] : by_pid) {
    for (size_t i = 1; i < seqs.size(); ++i) EXPECT_EQ(seqs[i], seqs[i - 1] + 1) << pid;
    EXPECT_EQ(seqs.back(), 59u);
    released += seqs.front();
  }
  EXPECT_EQ(released, 36u);  // what the first consumer released, over both writers
  a.send("quit");
  b.send("quit");
  EXPECT_EQ(a.wait(kWait), 0);
  EXPECT_EQ(b.wait(kWait), 0);
}

}  // namespace
}  // namespace pfc::multiproc
