// tests/trace/ring_window_test.cc — window rings (docs/namespace.md §3 "Window rings"):
// packed records reserved and committed per window, read back as slices (whole windows
// and the committed part of the open one), windows closed early, large records taking
// whole windows, laps, several writer threads, and a writer that died mid-record.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "trace/packed.h"
#include "trace/ring.h"
#include "trace_test_util.h"

namespace pfc::trace {
namespace {

using testing::TempNamespace;

constexpr uint64_t kInstance = 9;
constexpr uint32_t kShift = 10;  // 1 KB windows

// Writes one packed record whose payload is `len` bytes, each the low byte of `value`,
// with `value` as its thread id (so the reader can tell records apart).
bool write_value(RingWriter& w, uint32_t value, uint32_t len) {
  std::vector<uint8_t> payload(len, static_cast<uint8_t>(value));
  RecordParts parts;
  parts.payload = payload.data();
  parts.payload_len = len;
  RingWriter::Packed p;
  const PackedThread thread{value, 0};
  if (!w.reserve_packed(packed_record_bytes(parts), thread, p)) return false;
  write_packed(p.rec, thread, p.own_thread, 0, parts, p.ts, p.base, p.own_ts);
  RingWriter::commit_packed(p);
  return true;
}

struct Got {
  std::vector<uint32_t> values;
  std::vector<uint64_t> ts;
  uint32_t bad = 0;
};

// Takes every slice there is and walks its records.
void drain(RingReader& r, Got& got) {
  for (;;) {
    const RingReader::Slice s = r.slice();
    if (s.data == nullptr && !s.complete) return;
    uint32_t at = 0;
    for (uint32_t i = 0; i < s.events; ++i) {
      PackedLayout l;
      if (!packed_layout(s.data + at, s.bytes - at, s.base, l)) {
        got.bad++;
        break;
      }
      uint32_t tid = s.thread.tid;  // the window's, unless it carries its own
      if (l.thread != 0) std::memcpy(&tid, s.data + at + l.thread, 4);
      got.values.push_back(tid);
      got.ts.push_back(l.ts);
      for (uint32_t k = 0; k < l.payload_len; ++k)
        if (s.data[at + l.payload + k] != static_cast<uint8_t>(tid)) {
          got.bad++;
          break;
        }
      at += l.size;
    }
    if (at != s.bytes) got.bad++;
    r.take(s);
  }
}

struct Fixture {
  TempNamespace ns;
  TraceDir dir = ns.open();
  RingWriter writer =
      *RingWriter::create(dir, kInstance, self_process(), kMinRingBytes, false, kShift);
  RingReader reader = *RingReader::open(dir, ring_name(kInstance, self_process()));
};

TEST(WindowRing, WindowSizeIsA32ndOfTheBufferWithinItsBounds) {
  EXPECT_EQ(window_shift_for(64, 8u << 20), 11u);         // 64 KB buffers: 2 KB windows
  EXPECT_EQ(window_shift_for(4, 8u << 20), 10u);          // at least 1 KB
  EXPECT_EQ(window_shift_for(16384, 256u << 20), 18u);    // at most 256 KB
  EXPECT_EQ(window_shift_for(100, 8u << 20), 11u);        // of 64 KB, the power of two below 100 KB
  EXPECT_EQ(window_shift_for(1024, kMinRingBytes), 14u);  // a quarter of the ring at most
}

TEST(WindowRing, RecordsComeBackInOrderAcrossWindowsAndLaps) {
  Fixture f;
  EXPECT_TRUE(f.writer.windowed());
  EXPECT_TRUE(f.reader.windowed());
  Got got;
  uint32_t n = 0;
  // Ten laps of a 64 KB ring, in bursts the reader keeps up with.
  for (int burst = 0; burst < 200; ++burst) {
    for (int i = 0; i < 150; ++i, ++n) ASSERT_TRUE(write_value(f.writer, n, 1 + n % 37)) << n;
    drain(f.reader, got);
  }
  EXPECT_EQ(got.bad, 0u);
  ASSERT_EQ(got.values.size(), n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got.values[i], i);
  for (size_t i = 1; i < got.ts.size(); ++i) ASSERT_LE(got.ts[i - 1], got.ts[i]);
  EXPECT_EQ(f.writer.lost(), 0u);
  EXPECT_TRUE(f.reader.drained());
  EXPECT_EQ(f.reader.taken_events(), n);
}

TEST(WindowRing, TheOpenWindowIsTakenInPartsAndAFullRingCountsItsLosses) {
  Fixture f;
  Got got;
  ASSERT_TRUE(write_value(f.writer, 0, 10));
  drain(f.reader, got);  // the open window's committed part
  ASSERT_EQ(got.values.size(), 1u);
  ASSERT_TRUE(write_value(f.writer, 1, 10));
  drain(f.reader, got);
  ASSERT_EQ(got.values.size(), 2u);
  // A reservation not yet committed holds back the window's later records.
  RecordParts parts;
  parts.payload_len = 0;
  RingWriter::Packed held;
  ASSERT_TRUE(f.writer.reserve_packed(packed_record_bytes(parts), PackedThread{2, 0}, held));
  ASSERT_TRUE(write_value(f.writer, 3, 10));
  drain(f.reader, got);
  EXPECT_EQ(got.values.size(), 2u);
  EXPECT_TRUE(f.reader.in_flight());
  EXPECT_NE(f.reader.untaken_floor(), ~uint64_t{0});
  write_packed(held.rec, PackedThread{2, 0}, held.own_thread, 0, parts, held.ts, held.base,
               held.own_ts);
  RingWriter::commit_packed(held);
  drain(f.reader, got);
  ASSERT_EQ(got.values.size(), 4u);
  EXPECT_EQ(got.values[2], 2u);
  EXPECT_EQ(got.values[3], 3u);
  EXPECT_EQ(f.reader.untaken_floor(), ~uint64_t{0});
  // Without a reader the ring fills: the rest is lost and counted.
  uint32_t written = 0, lost = 0;
  for (uint32_t i = 0; i < 10000; ++i) (write_value(f.writer, 4 + i, 30) ? written : lost)++;
  EXPECT_GT(lost, 0u);
  EXPECT_EQ(f.writer.lost(), lost);
  drain(f.reader, got);
  EXPECT_EQ(got.values.size(), 4u + written);
  EXPECT_EQ(got.bad, 0u);
}

TEST(WindowRing, ALargeRecordTakesWholeWindowsOfItsOwn) {
  Fixture f;
  Got got;
  uint32_t n = 0;
  for (int round = 0; round < 40; ++round) {
    ASSERT_TRUE(write_value(f.writer, n++, 20));
    ASSERT_TRUE(write_value(f.writer, n++, 3000));  // three windows of 1 KB
    ASSERT_TRUE(write_value(f.writer, n++, 20));
    drain(f.reader, got);
  }
  EXPECT_EQ(got.bad, 0u);
  ASSERT_EQ(got.values.size(), n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got.values[i], i);
  // Larger than half the ring: never.
  EXPECT_FALSE(write_value(f.writer, 0, kMinRingBytes / 2));
  EXPECT_EQ(f.writer.lost(), 1u);
}

TEST(WindowRing, ThreadsWritingTogetherLoseNothingTheReaderTakes) {
  Fixture f;
  constexpr uint32_t kThreads = 4, kEach = 50000;
  std::atomic<bool> done{false};
  Got got;
  std::thread reader([&] {
    while (!done.load()) drain(f.reader, got);
    drain(f.reader, got);
  });
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  std::atomic<uint64_t> lost{0};
  for (uint32_t t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (uint32_t i = 0; i < kEach; ++i)
        if (!write_value(f.writer, t << 24 | i, 4 + i % 29)) lost++;
    });
  for (auto& t : threads) t.join();
  done.store(true);
  reader.join();
  EXPECT_EQ(got.bad, 0u);
  EXPECT_EQ(got.values.size() + lost.load(), uint64_t{kThreads} * kEach);
  EXPECT_EQ(f.writer.lost(), lost.load());
  // Each thread's records in the order it wrote them, timestamps never decreasing.
  std::vector<int64_t> last(kThreads, -1);
  for (size_t i = 0; i < got.values.size(); ++i) {
    const uint32_t t = got.values[i] >> 24, k = got.values[i] & 0xFFFFFF;
    ASSERT_LT(t, kThreads);
    ASSERT_GT(int64_t{k}, last[t]);
    last[t] = k;
    if (i != 0) {
      ASSERT_LE(got.ts[i - 1], got.ts[i]);
    }
  }
}

TEST(WindowRing, AWriterThatDiedMidRecordLeavesWhatItCommitted) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto w = RingWriter::create(dir, kInstance, self_process(), kMinRingBytes, false, kShift);
    if (!w) ::_exit(1);
    for (uint32_t i = 0; i < 100; ++i) write_value(*w, i, 12);
    RingWriter::Packed p;
    (void)w->reserve_packed(kPackedHeadBytes + 12, PackedThread{1, 0}, p);  // never committed
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  const std::string name = dir.list("r-")[0];
  RingReader r = *RingReader::open(dir, name);
  Got got;
  for (int i = 0; i < 100 && !r.finished(); ++i) {
    drain(r, got);
    ::usleep(2000);
  }
  EXPECT_TRUE(r.finished());
  EXPECT_EQ(got.bad, 0u);
  ASSERT_EQ(got.values.size(), 100u);
  for (uint32_t i = 0; i < 100; ++i) EXPECT_EQ(got.values[i], i);
  EXPECT_EQ(r.dead_skipped(), 1u);  // the reservation it never committed
  EXPECT_EQ(r.lost(), 1u);
}

}  // namespace
}  // namespace pfc::trace
