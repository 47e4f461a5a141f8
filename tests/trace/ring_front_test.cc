// tests/trace/ring_front_test.cc — the front ring (docs/namespace.md §3 "The front ring"):
// its name, try_reserve (a miss is not a loss, and space the reader freed is seen within
// kFrontRecheck attempts), and a writer's records spread over its front and main rings
// coming out of the merge in the order they were written, by one thread or by several.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "trace/merge.h"
#include "trace_test_util.h"

namespace pfc::trace {
namespace {

using testing::commit_value;
using testing::publish_session;
using testing::TempNamespace;
using testing::value_bytes;
using testing::value_of;

constexpr uint64_t kInstance = 7;

TEST(FrontRing, NameRoundTrips) {
  const ProcessKey p{4321, 99};
  const std::string main = ring_name(kInstance, p), front = ring_name(kInstance, p, true);
  EXPECT_EQ(main, "r-7-4321-99");
  EXPECT_EQ(front, "r-7-4321-99-front");
  const auto m = parse_ring_name(main), f = parse_ring_name(front);
  ASSERT_TRUE(m && f);
  EXPECT_FALSE(m->front);
  EXPECT_TRUE(f->front);
  EXPECT_EQ(f->writer, p);
  EXPECT_EQ(f->instance, kInstance);
  for (const char* bad :
       {"r-7-4321-99-host", "r-7-4321-99-front-2", "r-7-4321-99-Front", "r-7-4321-99-"})
    EXPECT_FALSE(parse_ring_name(bad)) << bad;
}

TEST(FrontRing, OnlyLargeRingsHaveOneOfAQuarterAtMost16MB) {
  EXPECT_EQ(front_ring_capacity(kMinRingBytes), 0u);
  EXPECT_EQ(front_ring_capacity(kFrontRingMinMain / 2), 0u);
  EXPECT_EQ(front_ring_capacity(kFrontRingMinMain), kFrontRingMinMain / 4);
  EXPECT_EQ(front_ring_capacity(64u << 20), 16u << 20);
  EXPECT_EQ(front_ring_capacity(kMaxRingBytes), kFrontRingMaxBytes);
  EXPECT_EQ(kFrontRingMaxBytes, 16u << 20);
}

// Fills the ring with try_reserve, through kFrontRecheck misses in a row (a miss may come
// from the writer's stale copy of the tail); returns how many records it took.
uint32_t fill_front(RingWriter& w) {
  uint32_t n = 0;
  for (uint32_t misses = 0; misses < RingWriter::kFrontRecheck;) {
    RecordHead* r = w.try_reserve(value_bytes(4));
    if (r == nullptr) {
      ++misses;
      continue;
    }
    misses = 0;
    commit_value(r, n++);
  }
  return n;
}

TEST(FrontRing, AMissIsNotALossAndFreedSpaceIsSeenWithinTheRecheck) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  const ProcessKey self = self_process();
  RingWriter w = *RingWriter::create(dir, kInstance, self, kMinRingBytes, true);
  RingReader reader = *RingReader::open(dir, ring_name(kInstance, self, true));
  for (int round = 0; round < 3; ++round) {
    const uint32_t n = fill_front(w);
    EXPECT_GT(n, 100u);
    for (int i = 0; i < 50; ++i) EXPECT_EQ(w.try_reserve(value_bytes(4)), nullptr);
    EXPECT_EQ(w.lost(), 0u);
    for (uint32_t i = 0; i < n; ++i) {
      const auto* v = reader.peek();
      ASSERT_NE(v, nullptr);
      EXPECT_EQ(value_of(*v), i);
      reader.pop();
    }
    // The writer's copy of the tail is stale now: it looks again within kFrontRecheck.
    uint32_t attempts = 0;
    RecordHead* r = nullptr;
    while (r == nullptr && attempts < 2 * RingWriter::kFrontRecheck) {
      r = w.try_reserve(value_bytes(4));
      ++attempts;
    }
    ASSERT_NE(r, nullptr);
    EXPECT_LE(attempts, RingWriter::kFrontRecheck);
    const uint32_t marker = 0xABCD;
    commit_value(r, marker);
    const auto* v = reader.peek();
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(value_of(*v), marker);
    reader.pop();
  }
  EXPECT_FALSE(reader.damaged());
}

// A writer's records go to its front ring while it has room and to its main ring
// otherwise, as etw::Session::write does; the reader drains a few now and then, so the two
// rings take turns. The merge hands them out in write order (the test stamps them with a
// counter, its own clock), and nothing is lost while the main ring has room.
TEST(FrontRing, RecordsSpreadOverBothRingsMergeInWriteOrder) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  StateStore store = *StateStore::open(dir);  // no session: stopped, every record ready
  const ProcessKey self = self_process();
  RingWriter front = *RingWriter::create(dir, kInstance, self, kMinRingBytes, true);
  RingWriter main = *RingWriter::create(dir, kInstance, self, 32 * kMinRingBytes);
  SessionRings rings(kInstance);
  rings.scan(dir, store, 1);
  ASSERT_EQ(rings.rings().size(), 2u);

  std::vector<uint32_t> got;
  auto take = [&](size_t max) {
    rings.drain(1, max,
                [&](RingReader&, const RingReader::View& v) { got.push_back(value_of(v)); });
  };
  constexpr uint32_t kRecords = 20000;
  uint32_t in_front = 0, in_main = 0;
  for (uint32_t i = 0; i < kRecords; ++i) {
    const uint32_t bytes = value_bytes(4);
    RecordHead* r = front.try_reserve(bytes);
    (r != nullptr ? in_front : in_main)++;
    if (r == nullptr) r = main.reserve(bytes);
    ASSERT_NE(r, nullptr) << i;
    r->ts = 1000 + i;  // the test's own clock
    commit_value(r, i);
    if (i % 997 == 0) take(600);
  }
  take(~size_t{0});
  EXPECT_GT(in_front, 1000u);
  EXPECT_GT(in_main, 1000u);
  EXPECT_EQ(front.lost() + main.lost(), 0u);
  ASSERT_EQ(got.size(), kRecords);
  for (uint32_t i = 0; i < kRecords; ++i) ASSERT_EQ(got[i], i);
}

// Four threads write through a front and a main ring at once, as etw::Session::write does,
// while this thread merges them (a live session: records wait for the merge horizon):
// every record kept is read once, each thread's in its order, and only the main ring
// counts losses.
TEST(FrontRing, ConcurrentWritersThroughBothRingsKeepEachThreadsOrder) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  StateStore store = *StateStore::open(dir);
  ASSERT_TRUE(publish_session(store, kInstance));
  const ProcessKey self = self_process();
  RingWriter front = *RingWriter::create(dir, kInstance, self, kMinRingBytes, true);
  RingWriter main = *RingWriter::create(dir, kInstance, self, 16 * kMinRingBytes);
  SessionRings rings(kInstance);
  rings.scan(dir, store, mono_ns());
  ASSERT_EQ(rings.rings().size(), 2u);

  constexpr uint32_t kThreads = 4, kPerThread = 20000;
  std::atomic<uint64_t> kept{0}, in_front{0};
  std::vector<std::thread> ts;
  ts.reserve(kThreads);
  for (uint32_t t = 0; t < kThreads; ++t)
    ts.emplace_back([&, t] {
      for (uint32_t i = 0; i < kPerThread; ++i) {
        const uint32_t bytes = value_bytes(4);
        RecordHead* r = front.try_reserve(bytes);
        if (r != nullptr) in_front.fetch_add(1);
        if (r == nullptr) r = main.reserve(bytes);
        if (r == nullptr) continue;
        commit_value(r, t * kPerThread + i);
        kept.fetch_add(1);
      }
    });
  uint64_t read = 0;
  std::vector<uint32_t> next(kThreads, 0);
  auto drain = [&](uint64_t now) {
    rings.drain(now, ~size_t{0}, [&](RingReader&, const RingReader::View& v) {
      const uint32_t x = value_of(v), t = x / kPerThread;
      EXPECT_GE(x % kPerThread, next[t]);  // per-thread order kept
      next[t] = x % kPerThread + 1;
      ++read;
    });
  };
  const uint64_t total = uint64_t{kThreads} * kPerThread;
  const uint64_t deadline = mono_ns() + 30'000'000'000;
  while (read + main.lost() < total && mono_ns() < deadline) drain(mono_ns());
  for (auto& t : ts) t.join();
  drain(mono_ns() + kLagNs + 1);
  EXPECT_EQ(read, kept.load());
  EXPECT_EQ(read + main.lost(), total);
  EXPECT_EQ(front.lost(), 0u);
  EXPECT_GT(in_front.load(), 0u);
  EXPECT_LT(in_front.load(), kept.load());
}

}  // namespace
}  // namespace pfc::trace
