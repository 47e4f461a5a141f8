// tests/trace/merge_test.cc — SessionRings::drain, the batched merge of a session's rings
// (docs/namespace.md §4): the order is exactly that of repeated oldest() (timestamp, ties
// to the ring opened first) whatever the batch size; only records ready at `now` are taken
// (2 ms old, or everything after the stop); a record still being written holds back its
// own ring only; every taken record is popped at once (its space is handed back); what is
// never taken is counted (given_up, left_behind); and a reader finishes after a stop only
// once every live process applied it.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <tuple>
#include <vector>

#include "trace/merge.h"
#include "trace/procs.h"
#include "trace_test_util.h"

namespace pfc::trace {
namespace {

using testing::commit_value;
using testing::publish_session;
using testing::TempNamespace;
using testing::value_bytes;
using testing::value_of;

constexpr uint64_t kInstance = 7;

// A ring of a made-up writer process `pid` (not alive: only matters for reserved records).
RingWriter make_ring(const TraceDir& dir, uint32_t pid) {
  auto w = RingWriter::create(dir, kInstance, ProcessKey{pid, 1000 + pid}, kMinRingBytes);
  EXPECT_TRUE(w.has_value());
  return std::move(*w);
}

// Writes one committed event with timestamp `ts` and payload `value`.
void put(RingWriter& w, uint64_t ts, uint32_t value) {
  RecordHead* r = w.reserve(value_bytes(4));
  ASSERT_NE(r, nullptr);
  r->ts = ts;  // the test chooses the clock
  commit_value(r, value);
}

struct Fixture {
  TempNamespace ns;
  TraceDir dir = ns.open();
  StateStore store = *StateStore::open(dir);
  SessionRings rings{kInstance};

  // live: the session is in the state (records wait for the merge horizon); otherwise
  // the first scan finds it stopped and everything is ready.
  explicit Fixture(bool live) {
    if (live) (void)publish_session(store, kInstance);
  }
  void scan(uint64_t now) { rings.scan(dir, store, now); }
  // The index (in open order) of the ring a reader belongs to.
  size_t index_of(const RingReader* r) const {
    for (size_t i = 0; i < rings.rings().size(); ++i)
      if (rings.rings()[i].get() == r) return i;
    return ~size_t{0};
  }
};

struct Taken {
  size_t ring;
  uint64_t ts;
  uint32_t value;
  bool operator==(const Taken&) const = default;
};

std::vector<Taken> drain_all(Fixture& f, uint64_t now, size_t batch) {
  std::vector<Taken> out;
  for (;;) {
    const size_t n = f.rings.drain(now, batch, [&](RingReader& r, const RingReader::View& v) {
      out.push_back(Taken{f.index_of(&r), v.header.ts, value_of(v)});
    });
    EXPECT_LE(n, batch);
    if (n < batch) break;
  }
  return out;
}

// The one-at-a-time merge: stable order by (timestamp, ring open order); `written` lists
// (writer pid, ts, value) in each ring's write order.
std::vector<Taken> reference(const Fixture& f,
                             const std::vector<std::tuple<uint32_t, uint64_t, uint32_t>>& written) {
  std::vector<Taken> want;
  for (const auto& [pid, ts, value] : written) {
    size_t idx = 0;
    while (idx < f.rings.rings().size() && f.rings.rings()[idx]->id().writer.pid != pid) ++idx;
    want.push_back({idx, ts, value});
  }
  std::stable_sort(want.begin(), want.end(), [](const Taken& x, const Taken& y) {
    return std::tie(x.ts, x.ring) < std::tie(y.ts, y.ring);
  });
  return want;
}

TEST(Merge, DrainTakesRunsAndBreaksTiesByRingOrder) {
  Fixture f(false);
  RingWriter a = make_ring(f.dir, 101), b = make_ring(f.dir, 102);
  std::vector<std::tuple<uint32_t, uint64_t, uint32_t>> written;
  // runs in each ring, a tie across the rings at 50, equal timestamps inside one ring
  for (uint64_t ts : {10, 11, 12, 50, 50, 90}) {
    put(a, ts, static_cast<uint32_t>(ts));
    written.emplace_back(101, ts, static_cast<uint32_t>(ts));
  }
  for (uint64_t ts : {20, 21, 50, 60, 60, 61}) {
    put(b, ts, static_cast<uint32_t>(ts + 1000));
    written.emplace_back(102, ts, static_cast<uint32_t>(ts + 1000));
  }
  f.scan(1'000'000'000);
  ASSERT_EQ(f.rings.rings().size(), 2u);
  ASSERT_NE(f.rings.stopped_at(), 0u);  // not in the state: everything is ready
  const std::vector<Taken> got = drain_all(f, 1'000'000'000, 1000);
  EXPECT_EQ(got, reference(f, written));
  ASSERT_EQ(got.size(), 12u);
  EXPECT_EQ(got[0].value, 10u);
  EXPECT_EQ(got[3].value, 1020u);
  for (const auto& r : f.rings.rings()) {
    EXPECT_TRUE(r->drained());  // every taken record was popped: its space handed back
    EXPECT_EQ(r->consumed(), 6u * value_bytes(4));
  }
}

// Random rings: any batch size gives exactly the order of the one-at-a-time merge.
TEST(Merge, AnyBatchSizeGivesTheOrderOfRepeatedOldest) {
  std::mt19937_64 rng(42);
  for (size_t batch : {size_t{1}, size_t{2}, size_t{7}, size_t{4096}}) {
    Fixture f(false);
    std::vector<RingWriter> writers;
    writers.reserve(4);
    for (uint32_t i = 0; i < 4; ++i) writers.push_back(make_ring(f.dir, 200 + i));
    std::vector<std::tuple<uint32_t, uint64_t, uint32_t>> written;  // pid, ts, value
    for (uint32_t i = 0; i < 4; ++i) {
      uint64_t ts = 1000;
      for (uint32_t k = 0; k < 150; ++k) {
        ts += rng() % 4;  // many ties, within and across rings
        put(writers[i], ts, i * 1000 + k);
        written.emplace_back(200 + i, ts, i * 1000 + k);
      }
    }
    f.scan(1'000'000'000);
    ASSERT_EQ(f.rings.rings().size(), 4u);
    const std::vector<Taken> want = reference(f, written);
    EXPECT_EQ(drain_all(f, 1'000'000'000, batch), want) << "batch " << batch;
  }
}

TEST(Merge, OnlyRecordsPastTheHorizonAreTakenWhileTheSessionLives) {
  Fixture f(true);
  RingWriter a = make_ring(f.dir, 301), b = make_ring(f.dir, 302);
  const uint64_t now = 10'000'000'000;
  put(a, now - 3 * kLagNs, 1);
  put(b, now - kLagNs, 2);  // exactly 2 ms old: ready
  put(a, now - kLagNs + 1, 3);
  put(b, now, 4);
  f.scan(now);
  ASSERT_EQ(f.rings.stopped_at(), 0u);
  std::vector<uint32_t> got;
  const auto take = [&](RingReader&, const RingReader::View& v) { got.push_back(value_of(v)); };
  EXPECT_EQ(f.rings.drain(now, 100, take), 2u);
  EXPECT_EQ(got, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(f.rings.drain(now, 100, take), 0u);         // nothing more at the same instant
  EXPECT_EQ(f.rings.drain(now + kLagNs, 1, take), 1u);  // a batch of one
  EXPECT_EQ(f.rings.drain(now + kLagNs, 100, take), 1u);
  EXPECT_EQ(got, (std::vector<uint32_t>{1, 2, 3, 4}));
  EXPECT_EQ(f.rings.drain(1, 100, take), 0u);  // a clock before the horizon: nothing
}

TEST(Merge, ARecordBeingWrittenHoldsBackOnlyItsRing) {
  Fixture f(false);
  // this process's own ring: its writer is alive, so the reserved record is waited for
  auto w = RingWriter::create(f.dir, kInstance, self_process(), kMinRingBytes);
  ASSERT_TRUE(w.has_value());
  RingWriter other = make_ring(f.dir, 401);
  put(*w, 100, 1);
  RecordHead* open = w->reserve(value_bytes(4));  // reserved, not committed
  ASSERT_NE(open, nullptr);
  open->ts = 150;
  for (uint64_t ts : {120, 200, 300}) put(other, ts, static_cast<uint32_t>(ts));
  f.scan(1'000'000'000);
  std::vector<uint32_t> got;
  const auto take = [&](RingReader&, const RingReader::View& v) { got.push_back(value_of(v)); };
  EXPECT_EQ(f.rings.drain(1'000'000'000, 100, take), 4u);
  EXPECT_EQ(got, (std::vector<uint32_t>{1, 120, 200, 300}));
  commit_value(open, 7);
  EXPECT_EQ(f.rings.drain(1'000'000'000, 100, take), 1u);
  EXPECT_EQ(got.back(), 7u);
}

// The front and main rings of one writer are held together while either has a record in
// flight at its tail: a record of the same writer in the other ring must not overtake the
// records waiting behind it (docs/namespace.md §3 "The front ring"). Other writers go on.
TEST(Merge, AWritersRingsAreHeldTogetherWhileOneHasARecordInFlight) {
  Fixture f(false);
  const ProcessKey self = self_process();  // alive: its reserved record is waited for
  RingWriter main = *RingWriter::create(f.dir, kInstance, self, kMinRingBytes);
  RingWriter front = *RingWriter::create(f.dir, kInstance, self, kMinRingBytes, true);
  RingWriter other = make_ring(f.dir, 402);
  RecordHead* open = main.reserve(value_bytes(4));  // another thread's, not committed
  ASSERT_NE(open, nullptr);
  open->ts = 100;
  put(main, 110, 2);   // this thread's record, behind it in the main ring
  put(front, 120, 3);  // the same thread's next record, in the front ring
  put(other, 130, 4);  // another writer
  f.scan(1'000'000'000);
  ASSERT_EQ(f.rings.rings().size(), 3u);
  std::vector<uint32_t> got;
  const auto take = [&](RingReader&, const RingReader::View& v) { got.push_back(value_of(v)); };
  EXPECT_EQ(f.rings.drain(1'000'000'000, 100, take), 1u);
  EXPECT_EQ(got, (std::vector<uint32_t>{4}));
  commit_value(open, 1);
  EXPECT_EQ(f.rings.drain(1'000'000'000, 100, take), 3u);
  EXPECT_EQ(got, (std::vector<uint32_t>{4, 1, 2, 3}));
}

// A ring that turns out damaged stops giving records; its events never taken are counted
// as given up (the host adds them to EventsLost), and an intact ring counts none.
TEST(Merge, EventsOfADamagedRingAreCountedAsGivenUp) {
  Fixture f(false);
  RingWriter bad = make_ring(f.dir, 403), good = make_ring(f.dir, 404);
  for (uint32_t i = 0; i < 10; ++i) {
    put(bad, 100 + 2 * i, i);
    put(good, 101 + 2 * i, 100 + i);
  }
  f.scan(1'000'000'000);
  std::vector<uint32_t> got;
  const auto take = [&](RingReader&, const RingReader::View& v) { got.push_back(value_of(v)); };
  EXPECT_EQ(f.rings.drain(1'000'000'000, 6, take), 6u);  // 3 of each
  EXPECT_EQ(f.rings.given_up(), 0u);
  // The fifth record's size becomes 12 (not a multiple of 8) under a valid stamp.
  auto fd = f.dir.open_file(ring_name(kInstance, ProcessKey{403, 1403}), false);
  ASSERT_TRUE(fd);
  const off_t at = static_cast<off_t>(kRingHeaderSize + 4 * value_bytes(4));
  uint32_t size = 12;
  ASSERT_EQ(::pwrite(fd->get(), &size, 4, at), 4);
  EXPECT_EQ(f.rings.drain(1'000'000'000, 100, take), 8u);  // the bad ring's 4th, the good's 7
  const size_t bad_index = f.rings.rings()[0]->id().writer.pid == 403 ? 0 : 1;
  EXPECT_TRUE(f.rings.rings()[bad_index]->damaged());
  EXPECT_FALSE(f.rings.rings()[1 - bad_index]->damaged());
  EXPECT_EQ(f.rings.given_up(), 6u);  // 10 reserved, 4 taken
  EXPECT_EQ(got.size(), 14u);
  EXPECT_EQ(f.rings.left_behind(), 6u);  // and none of the good ring's
}

// Events reserved and never taken in intact rings (records behind a record never
// committed) are what a finished reader left behind: counted by left_behind(), not by
// given_up() (the rings are not damaged). A dead writer's reservation, once the reader has
// skipped it, is in the ring's drops (`lost`) instead, where STOP and QUERY count it.
TEST(Merge, EventsNeverTakenFromIntactRingsAreLeftBehind) {
  Fixture f(false);
  RingWriter w = make_ring(f.dir, 405);  // pid 405: not alive
  put(w, 100, 1);
  ASSERT_NE(w.reserve(value_bytes(4)), nullptr);  // reserved by the dead writer
  put(w, 120, 3);
  put(w, 130, 4);
  f.scan(1'000'000'000);
  std::vector<uint32_t> got;
  const auto take = [&](RingReader&, const RingReader::View& v) { got.push_back(value_of(v)); };
  EXPECT_EQ(f.rings.drain(1'000'000'000, 2, take), 2u);  // 1, then the reservation skipped, 3
  EXPECT_EQ(got, (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(f.rings.given_up(), 0u);
  EXPECT_EQ(f.rings.left_behind(), 1u);  // 4
  EXPECT_EQ(w.lost(), 1u);               // the reservation
  EXPECT_EQ(f.rings.drain(1'000'000'000, 100, take), 1u);
  EXPECT_EQ(f.rings.left_behind(), 0u);
  EXPECT_EQ(w.lost(), 1u);
}

// After a stop a provider process may still create a ring and write into it until it has
// applied the stop: a reader finishes only once every live process has (docs/namespace.md
// §4), or the grace period is over.
TEST(Merge, FinishedWaitsUntilEveryProcessAppliedTheStop) {
  Fixture f(true);
  int ready[2], go[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(go), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // a provider process: its slot says it applied nothing yet
    auto slot = ProcSlot::create(f.dir, self_process());
    char c = slot ? 1 : 0;
    (void)!::write(ready[1], &c, 1);
    uint64_t gen = 0;
    if (!slot || ::read(go[0], &gen, sizeof gen) != sizeof gen) ::_exit(2);
    slot->set_applied(gen);
    (void)!::write(ready[1], &c, 1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ASSERT_EQ(c, 1);
  ASSERT_TRUE(f.store.update([](NamespaceState& s) -> Result<void> {
    s.sessions.clear();
    return {};
  }));
  const uint64_t stop = f.store.generation();
  f.scan(1'000'000'000);
  EXPECT_EQ(f.rings.stopped_at(), 1'000'000'000u);
  EXPECT_FALSE(f.rings.finished(1'020'000'000));  // nothing to read, but the stop not applied
  ASSERT_EQ(::write(go[1], &stop, sizeof stop), static_cast<ssize_t>(sizeof stop));
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  f.scan(1'030'000'000);
  EXPECT_TRUE(f.rings.finished(1'040'000'000));
  ::kill(child, SIGKILL);
  int status = 0;
  EXPECT_EQ(::waitpid(child, &status, 0), child);
  for (int fd : {ready[0], ready[1], go[0], go[1]}) ::close(fd);
}

}  // namespace
}  // namespace pfc::trace
