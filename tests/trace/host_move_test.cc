// tests/trace/host_move_test.cc — move_runs, the session host's work per ring (docs/logfile.md
// "The session host"): while writer threads fill a small ring (wrapping it many times), this
// thread moves its committed records into a log file in runs; read back, the file holds
// every record exactly once (a writer that finds the ring full counts it lost and tries
// again), each thread's in its order. Also: a record larger than a buffer is dropped and counted.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <thread>
#include <vector>

#include "logfile_test_util.h"
#include "trace/host.h"
#include "trace_test_util.h"

namespace pfc::trace {
namespace {

using testing::TempFile;
using testing::TempNamespace;

constexpr uint64_t kInstance = 11;
constexpr int kThreads = 4;
constexpr uint32_t kPerThread = 20'000;

TEST(MoveRuns, ConcurrentWritersEveryAcceptedRecordOnceInThreadOrder) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  // This process writes: a record in flight is waited for, not skipped as a dead writer's.
  const ProcessKey self = self_process();
  auto w = RingWriter::create(dir, kInstance, self, kMinRingBytes);
  ASSERT_TRUE(w);
  auto r = RingReader::open(dir, ring_name(kInstance, self));
  ASSERT_TRUE(r) << r.error().message;
  TempFile f;
  auto log = LogWriter::create(f.open_rw(), testing::settings(kMinLogBuffer));
  ASSERT_TRUE(log);
  std::atomic<int> done{0};
  std::atomic<uint64_t> refused{0};
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  const TableEntry entry;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (uint32_t i = 0; i < kPerThread; ++i) {
        const uint64_t v = uint64_t{static_cast<uint32_t>(t)} << 32 | i;
        const RecordParts parts{.inline_entry = &entry, .payload = &v, .payload_len = 8};
        RecordHead* rec;
        while ((rec = w->reserve(record_bytes(parts))) == nullptr) {  // full: counted in lost
          refused.fetch_add(1);
          std::this_thread::yield();  // and tried again, so every record gets through
        }
        fill_record(rec, static_cast<uint32_t>(t), 0, kEntryInline, parts);
        RingWriter::commit(rec);
      }
      done.fetch_add(1);
    });
  uint64_t moved = 0;
  for (;;) {
    const bool last = done.load() == kThreads;  // then one more pass takes the rest
    moved += move_runs(*r, *log, ~uint64_t{0}, 0).events;
    if (last) break;
  }
  for (auto& t : threads) t.join();
  ASSERT_TRUE(log->close(1, 0));
  auto in = testing::open_reader(f);
  ASSERT_TRUE(in) << in.error().message;
  std::map<uint32_t, std::vector<uint32_t>> seqs;
  RingReader::View v;
  uint64_t read = 0;
  LogReader::Step step;
  while ((step = in->next(v)) == LogReader::Step::Event) {
    uint64_t x = 0;
    std::memcpy(&x, v.payload, 8);
    ASSERT_EQ(x >> 32, v.header.tid);
    seqs[v.header.tid].push_back(static_cast<uint32_t>(x));
    ++read;
  }
  EXPECT_EQ(step, LogReader::Step::End) << in->problem();
  EXPECT_EQ(read, moved);
  EXPECT_EQ(moved, uint64_t{kThreads} * kPerThread);  // about 160 laps of the 64 KB ring
  EXPECT_EQ(w->lost(), refused.load());
  for (const auto& [tid, s] : seqs) EXPECT_TRUE(std::is_sorted(s.begin(), s.end())) << tid;
}

TEST(MoveRuns, ARecordLargerThanABufferIsDroppedAndCounted) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  const ProcessKey self = self_process();
  auto w = RingWriter::create(dir, kInstance, self, kMinRingBytes);
  ASSERT_TRUE(w);
  auto r = RingReader::open(dir, ring_name(kInstance, self));
  ASSERT_TRUE(r);
  TempFile f;
  auto log = LogWriter::create(f.open_rw(), testing::settings(kMinLogBuffer));
  ASSERT_TRUE(log);
  ASSERT_TRUE(testing::write_one(*w, 1));
  ASSERT_TRUE(testing::write_one(*w, 2, kMinLogBuffer));  // more than a 4 KB buffer holds
  ASSERT_TRUE(testing::write_one(*w, 3));
  const Moved m = move_runs(*r, *log, ~uint64_t{0}, 0);
  EXPECT_EQ(m.events, 3u);
  ASSERT_TRUE(log->close(1, 0));
  EXPECT_EQ(log->info().events_lost, 1u);
  EXPECT_EQ(log->info().events_written, 2u);
  auto in = testing::open_reader(f);
  ASSERT_TRUE(in);
  std::vector<uint32_t> got;
  RingReader::View v;
  while (in->next(v) == LogReader::Step::Event) got.push_back(testing::value_of(v));
  EXPECT_EQ(got, (std::vector<uint32_t>{1, 3}));
}

// The host's idle sleep is a quarter of the time a 1 GB/s writer takes to fill the
// session's smallest ring, between 500 µs and 2 ms.
TEST(HostIdleSleep, FollowsTheSmallestRing) {
  const auto sleep_of = [](uint32_t kb, uint32_t max_buffers) {
    SessionEntry e;
    e.buffer_kb = kb;
    e.max_buffers = max_buffers;
    return host_idle_sleep_ns(e);
  };
  EXPECT_EQ(sleep_of(64, 0), kMaxIdleSleepNs);      // ETW's defaults: 8 MB rings
  EXPECT_EQ(sleep_of(32, 0), (4u << 20) / 4);       // 4 MB rings: 1 ms
  EXPECT_EQ(sleep_of(4, 0), kMinIdleSleepNs);       // 512 KB rings: 131 µs, raised
  EXPECT_EQ(sleep_of(1024, 256), kMaxIdleSleepNs);  // 256 MB rings, a 16 MB front ring
}

}  // namespace
}  // namespace pfc::trace
