// tests/trace/ring_wrap_test.cc — the early wrap (soft_wrap_bytes, docs/namespace.md §3
// "The working set"): a writer whose reader keeps up stays in the first part of its ring,
// one that is behind still has the whole ring, and nothing is reordered or lost either way,
// with one writer or several threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "trace/ring.h"
#include "trace_test_util.h"

namespace pfc::trace {
namespace {

using testing::TempNamespace;
using testing::value_bytes;
using testing::value_of;
using testing::write_one;

constexpr uint64_t kSoft = kMinRingBytes / 4;  // 16 KB of a 64 KB ring
constexpr uint32_t kPayload = 200;             // 264-byte records

struct Fixture {
  explicit Fixture(uint64_t soft) { writer.set_soft_wrap(soft); }
  TempNamespace ns;
  TraceDir dir = ns.open();
  ProcessKey self = self_process();
  RingWriter writer = *RingWriter::create(dir, 7, self, kMinRingBytes);
  RingReader reader = *RingReader::open(dir, ring_name(7, self));

  // Reads one record: its value, and its offset in the ring in *offset.
  uint32_t read_one(uint64_t* offset) {
    const auto* v = reader.peek();
    EXPECT_NE(v, nullptr);
    if (v == nullptr) return ~0u;
    // peek() skips padding before it returns, so tail is the record's position only now.
    *offset = reader.consumed() & (kMinRingBytes - 1);
    const uint32_t x = value_of(*v);
    reader.pop();
    return x;
  }
};

TEST(RingWrap, AQuarterOfLargeRingsNeverSmallOnes) {
  EXPECT_EQ(soft_wrap_bytes(kSoftWrapMinRing / 2), 0u);
  EXPECT_EQ(soft_wrap_bytes(kSoftWrapMinRing), kSoftWrapMinRing / 4);
  EXPECT_EQ(soft_wrap_bytes(kMaxRingBytes), kMaxRingBytes / 4);
  EXPECT_EQ(soft_wrap_bytes(kMinRingBytes), 0u);
}

// Reads `n` records written `lag` records ahead of the reader; returns the highest offset
// any of them had, and checks their order.
uint64_t lockstep(Fixture& f, uint32_t n, uint32_t lag) {
  uint64_t highest = 0;
  uint32_t next_read = 0;
  for (uint32_t i = 0; i < n + lag; ++i) {
    if (i < n) {
      EXPECT_TRUE(write_one(f.writer, i, kPayload)) << i;
    }
    if (i < lag) continue;
    uint64_t off = 0;
    EXPECT_EQ(f.read_one(&off), next_read++);
    highest = std::max(highest, off);
  }
  EXPECT_EQ(f.reader.peek(), nullptr);
  EXPECT_EQ(f.writer.lost(), 0u);
  EXPECT_FALSE(f.reader.damaged());
  return highest;
}

TEST(RingWrap, AWriterWhoseReaderKeepsUpStaysInTheFirstPart) {
  Fixture f(kSoft);
  // Ten rings' worth of records, read as they are written.
  const uint64_t highest = lockstep(f, 10 * kMinRingBytes / value_bytes(kPayload), 1);
  // Wraps at the first sixteenth-step past kSoft: one step and one record beyond it at most.
  EXPECT_LT(highest, kSoft + kSoft / 16 + value_bytes(kPayload));
  EXPECT_GE(highest, kSoft);
}

TEST(RingWrap, WithoutItTheWriterGoesRoundTheWholeRing) {
  Fixture f(0);
  const uint64_t highest = lockstep(f, 10 * kMinRingBytes / value_bytes(kPayload), 1);
  EXPECT_GE(highest, kMinRingBytes - 2 * value_bytes(kPayload));  // the last record that fits
}

TEST(RingWrap, ABacklogOverAnEighthKeepsTheWholeRing) {
  // 8 records = 2,496 bytes unread > kSoft / 8 = 2,048: no early wrap.
  Fixture f(kSoft);
  const uint64_t highest = lockstep(f, 10 * kMinRingBytes / value_bytes(kPayload), 8);
  EXPECT_GE(highest, kMinRingBytes - 2 * value_bytes(kPayload));  // the last record that fits
}

TEST(RingWrap, ABacklogUnderAnEighthWrapsEarly) {
  // 6 records = 1,872 bytes unread ≤ 2,048.
  Fixture f(kSoft);
  const uint64_t highest = lockstep(f, 10 * kMinRingBytes / value_bytes(kPayload), 6);
  EXPECT_LT(highest, kSoft + kSoft / 16 + value_bytes(kPayload));
}

// Writes until the ring is full, without reading; returns how many fitted.
uint32_t fill(Fixture& f) {
  uint32_t n = 0;
  while (write_one(f.writer, n, kPayload)) ++n;
  return n;
}

// Reads back `n` records written by fill(), in order, and checks the ring is then empty.
void read_back(Fixture& f, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t off = 0;
    ASSERT_EQ(f.read_one(&off), i);
  }
  EXPECT_EQ(f.reader.peek(), nullptr);
  EXPECT_FALSE(f.reader.damaged());
}

TEST(RingWrap, AReaderStalledBeforeTheOffsetLeavesTheWholeRing) {
  Fixture with(kSoft), without(0);
  lockstep(with, 10, 1);  // 3,120 bytes in: below kSoft
  lockstep(without, 10, 1);
  const uint32_t n = fill(with);
  EXPECT_EQ(n, fill(without));
  EXPECT_GT(uint64_t{n + 1} * value_bytes(kPayload), kMinRingBytes);
  EXPECT_EQ(with.writer.lost(), 1u);
  read_back(with, n);
}

TEST(RingWrap, AReaderStalledJustAfterAnEarlyWrapStillLeavesSevenEighthsOfTheOffset) {
  // The price of the early wrap: until the reader reaches the padding, the room is what
  // lies before the unread records in the ring, not the whole ring.
  Fixture with(kSoft), without(0);
  const uint32_t past = kSoft / value_bytes(kPayload) + 3;  // the next record wraps
  lockstep(with, past, 1);
  lockstep(without, past, 1);
  const uint32_t n = fill(with);
  EXPECT_GE(uint64_t{n + 1} * value_bytes(kPayload), kSoft - kSoft / 8);
  EXPECT_LT(n, fill(without));
  read_back(with, n);
}

TEST(RingWrap, ConcurrentWritersKeepTheirOrderAndLoseNothingAccepted) {
  Fixture f(kSoft);
  testing::check_concurrent_writers(f.writer, f.reader, kPayload);
}

}  // namespace
}  // namespace pfc::trace
