// tests/trace/host_move_test.cc — move_runs and move_windows, the session host's work per
// ring (docs/logfile.md "The session host"): while writer threads fill a small ring
// (wrapping it many times), this thread moves its committed records into a log file; read
// back, the file holds every record exactly once (a writer that finds the ring full counts
// it lost and tries again), each thread's in its order. Also: a record larger than a
// buffer is dropped and counted.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <thread>
#include <vector>

#include "logfile_test_util.h"
#include "trace/host.h"
#include "trace/packed.h"
#include "trace_test_util.h"

namespace pfc::trace {
namespace {

using testing::TempFile;
using testing::TempNamespace;

constexpr uint64_t kInstance = 11;
constexpr int kThreads = 4;
constexpr uint32_t kPerThread = 20'000;

// The closed log file `f` holds `moved` events, each thread's (its id in the payload's high
// half, a sequence number in the low half) in the order it wrote them.
void expect_each_thread_in_order(const TempFile& f, uint64_t moved) {
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
  for (const auto& [tid, s] : seqs) EXPECT_TRUE(std::is_sorted(s.begin(), s.end())) << tid;
}

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
  expect_each_thread_in_order(f, moved);
  EXPECT_EQ(moved, uint64_t{kThreads} * kPerThread);  // about 160 laps of the 64 KB ring
  EXPECT_EQ(w->lost(), refused.load());
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

// A window ring of 1 KB windows in the test's own namespace, its reader, and a log file.
class MoveWindows : public ::testing::Test {
 protected:
  // Creates them, the log file with `buffer`-byte buffers.
  void open(uint32_t buffer) {
    w = RingWriter::create(dir, kInstance, self_process(), kMinRingBytes, false, 10);
    ASSERT_TRUE(w) << w.error().message;
    r = RingReader::open(dir, ring_name(kInstance, self_process()));
    ASSERT_TRUE(r) << r.error().message;
    log = LogWriter::create(f.open_rw(), testing::settings(buffer));
    ASSERT_TRUE(log) << log.error().message;
  }
  TempNamespace ns;
  TraceDir dir = ns.open();
  Result<RingWriter> w = make_error("not created");
  Result<RingReader> r = make_error("not opened");
  TempFile f;
  Result<LogWriter> log = make_error("not created");
};

// move_windows: writer threads fill a window ring of 1 KB windows (wrapping it many times)
// while this thread copies its complete windows, then, once they are done, the committed
// part of the open one; read back, the file holds every record exactly once, each
// thread's in its order, and the file is no larger than the records and their chunks.
TEST_F(MoveWindows, ConcurrentWritersEveryAcceptedRecordOnceInThreadOrder) {
  open(kMinLogBuffer * 4);
  std::atomic<int> done{0};
  std::atomic<uint64_t> refused{0};
  std::vector<std::thread> threads;
  const TableEntry entry;
  const uint8_t index = w->entry_of(entry);
  ASSERT_EQ(index, 0u);
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (uint32_t i = 0; i < kPerThread; ++i) {
        const uint64_t v = uint64_t{static_cast<uint32_t>(t)} << 32 | i;
        const RecordParts parts{.payload = &v, .payload_len = 8};
        RingWriter::Packed p;
        const PackedThread thread{static_cast<uint32_t>(t), 0};
        while (!w->reserve_packed(packed_record_bytes(parts), thread, p)) {  // full: in lost
          refused.fetch_add(1);
          std::this_thread::yield();
        }
        write_packed(p.rec, thread, p.own_thread, index, parts, p.ts, p.base, p.own_ts);
        RingWriter::commit_packed(p);
      }
      done.fetch_add(1);
    });
  uint64_t moved = 0;
  for (;;) {
    const bool last = done.load() == kThreads;  // then one more pass takes the rest
    moved += move_windows(*r, *log, 0, last).events;
    if (last) break;
  }
  for (auto& t : threads) t.join();
  EXPECT_TRUE(r->drained());
  ASSERT_TRUE(log->close(1, 0));
  expect_each_thread_in_order(f, moved);
  EXPECT_EQ(moved, uint64_t{kThreads} * kPerThread);
  EXPECT_EQ(w->lost(), refused.load());
}

// A window larger than a buffer (a large record's) is dropped and counted; one that does
// not fit in what the current buffer has left goes into the next.
TEST_F(MoveWindows, AWindowLargerThanABufferIsDroppedAndCounted) {
  open(kMinLogBuffer);
  const TableEntry entry;
  const uint8_t index = w->entry_of(entry);
  const auto put = [&](uint32_t value, uint32_t len) {
    std::vector<uint8_t> payload(len, 0);
    std::memcpy(payload.data(), &value, sizeof value);
    const RecordParts parts{.payload = payload.data(), .payload_len = len};
    RingWriter::Packed p;
    ASSERT_TRUE(w->reserve_packed(packed_record_bytes(parts), PackedThread{1, 0}, p));
    write_packed(p.rec, PackedThread{1, 0}, p.own_thread, index, parts, p.ts, p.base, p.own_ts);
    RingWriter::commit_packed(p);
  };
  put(1, 4);
  put(2, 900);            // its own window: the first closed early
  put(3, kMinLogBuffer);  // five windows, more than a 4 KB buffer holds
  put(4, 4);
  const Moved m = move_windows(*r, *log, 0, true);
  EXPECT_EQ(m.events, 4u);
  ASSERT_TRUE(log->close(1, 0));
  EXPECT_EQ(log->info().events_lost, 1u);
  EXPECT_EQ(log->info().events_written, 3u);
  auto in = testing::open_reader(f);
  ASSERT_TRUE(in);
  std::vector<uint32_t> got;
  RingReader::View v;
  while (in->next(v) == LogReader::Step::Event) got.push_back(testing::value_of(v));
  EXPECT_EQ(got, (std::vector<uint32_t>{1, 2, 4}));
}

// A large table in small buffers: the whole table's stream chunk (94 entries, 4.5 KB) would
// not fit a 4 KB buffer beside a window, so the window's records are walked for the entries
// they name, and each event reads back with its own descriptor.
TEST_F(MoveWindows, ALargeTableInSmallBuffersDefinesTheEntriesTheRecordsName) {
  open(kMinLogBuffer);
  for (uint16_t id = 0; id < kMaxTableEntries; ++id)
    ASSERT_EQ(w->entry_of(make_entry(Guid{}, id, 0, 0, 0, 0, 0, 0, 0)), id);
  for (uint16_t id = 90; id < kMaxTableEntries; ++id) {
    const uint32_t value = id;
    const RecordParts parts{.payload = &value, .payload_len = 4};
    RingWriter::Packed p;
    ASSERT_TRUE(w->reserve_packed(packed_record_bytes(parts), PackedThread{1, 0}, p));
    write_packed(p.rec, PackedThread{1, 0}, p.own_thread, static_cast<uint8_t>(id), parts, p.ts,
                 p.base, p.own_ts);
    RingWriter::commit_packed(p);
  }
  EXPECT_EQ(move_windows(*r, *log, 0, true).events, 4u);
  ASSERT_TRUE(log->close(1, 0));
  EXPECT_EQ(log->info().events_lost, 0u);
  auto in = testing::open_reader(f);
  ASSERT_TRUE(in);
  RingReader::View v;
  uint16_t id = 90;
  while (in->next(v) == LogReader::Step::Event) {
    EXPECT_EQ(v.header.id, id);
    EXPECT_EQ(testing::value_of(v), id);
    ++id;
  }
  EXPECT_EQ(id, kMaxTableEntries);
}

// The host's idle sleep is half the time a 1 GB/s writer takes to fill the session's
// smallest ring, between 500 µs and 4 ms.
TEST(HostIdleSleep, FollowsTheSmallestRing) {
  const auto sleep_of = [](uint32_t kb, uint32_t max_buffers) {
    SessionEntry e;
    e.buffer_kb = kb;
    e.max_buffers = max_buffers;
    return host_idle_sleep_ns(e);
  };
  EXPECT_EQ(sleep_of(64, 0), kMaxIdleSleepNs);      // ETW's defaults: 8 MB rings
  EXPECT_EQ(sleep_of(32, 0), (4u << 20) / 2);       // 4 MB rings: 2 ms
  EXPECT_EQ(sleep_of(4, 0), kMinIdleSleepNs);       // 512 KB rings: 262 µs, raised
  EXPECT_EQ(sleep_of(1024, 256), kMaxIdleSleepNs);  // 256 MB rings, a 16 MB front ring
}

}  // namespace
}  // namespace pfc::trace
