// tests/trace/ring_span_test.cc — RingReader::span, the session host's way of taking
// records (docs/logfile.md "The session host"): runs of committed records found by one
// word compare each, and the commit protocol's safety on that path (docs/namespace.md §3):
// a run ends at a record in flight and takes it once committed, never takes an earlier
// lap's bytes, ends at the lap's end and at max_bytes, skips a dead writer's reserved
// record, and calls a committed word with an impossible size damage.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "trace/ring.h"
#include "trace_test_util.h"

namespace pfc::trace {
namespace {

using testing::commit_value;
using testing::TempNamespace;
using testing::value_bytes;
using testing::write_one;

using Stop = RingReader::Span::Stop;
constexpr uint64_t kAll = ~uint64_t{0};

struct Fixture {
  TempNamespace ns;
  TraceDir dir = ns.open();
  ProcessKey self = self_process();
  RingWriter writer = *RingWriter::create(dir, 7, self, kMinRingBytes);
  RingReader reader = *RingReader::open(dir, ring_name(7, self));
  // The ring's shared mapping, as another process sees it.
  Mapping map = [&] {
    auto fd = dir.open_file(ring_name(7, self), false);
    return std::move(*Mapping::map(fd->get(), kRingHeaderSize + kMinRingBytes));
  }();
  RingHeader* header() { return reinterpret_cast<RingHeader*>(map.data()); }
  RecordHead* record_at(uint64_t pos) {
    return reinterpret_cast<RecordHead*>(map.data() + kRingHeaderSize +
                                         (pos & (kMinRingBytes - 1)));
  }
};

// The values of a span's records (each a test record, testing::commit_value).
std::vector<uint32_t> values(const RingReader::Span& s) {
  std::vector<uint32_t> out;
  for (uint64_t at = 0; at < s.bytes;) {
    RecordHead h;
    std::memcpy(&h, s.data + at, sizeof h);
    uint32_t v = 0;
    std::memcpy(&v, s.data + at + kMinRecordBytes + sizeof(TableEntry), 4);  // after the entry
    out.push_back(v);
    at += h.size;
  }
  return out;
}

TEST(RingSpan, RunEndsAtARecordInFlightAndTakesItOnceCommitted) {
  Fixture f;
  ASSERT_TRUE(write_one(f.writer, 1));
  ASSERT_TRUE(write_one(f.writer, 2));
  RecordHead* r = f.writer.reserve(value_bytes());
  ASSERT_NE(r, nullptr);
  ASSERT_TRUE(write_one(f.writer, 4));
  RingReader::Span s = f.reader.span(kAll, kAll);
  EXPECT_EQ(values(s), (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(s.events, 2u);
  EXPECT_EQ(s.stop, Stop::InFlight);
  f.reader.release(s.bytes);
  EXPECT_EQ(f.reader.span(kAll, kAll).events, 0u);  // still in flight
  commit_value(r, 3);
  s = f.reader.span(kAll, kAll);
  EXPECT_EQ(values(s), (std::vector<uint32_t>{3, 4}));
  EXPECT_EQ(s.stop, Stop::Empty);
  f.reader.release(s.bytes);
  EXPECT_FALSE(f.reader.damaged());
  EXPECT_TRUE(f.reader.drained());
}

TEST(RingSpan, RunEndsAtMaxBytesAndAtTheLapsEnd) {
  Fixture f;
  const uint32_t bytes = value_bytes();
  const uint64_t per_lap = kMinRingBytes / bytes;
  ASSERT_NE(kMinRingBytes % bytes, 0u);  // the lap ends with a padding record
  for (uint32_t i = 0; i < 10; ++i) ASSERT_TRUE(write_one(f.writer, i));
  RingReader::Span s = f.reader.span(kAll, 3 * bytes + bytes / 2);
  EXPECT_EQ(values(s), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(s.stop, Stop::Full);
  f.reader.release(s.bytes);
  s = f.reader.span(kAll, kAll);
  EXPECT_EQ(s.events, 7u);
  f.reader.release(s.bytes);
  // The rest of the lap, then 5 records that go to the next one (after the padding).
  for (uint32_t i = 10; i < per_lap + 5; ++i) ASSERT_TRUE(write_one(f.writer, i));
  s = f.reader.span(kAll, kAll);
  EXPECT_EQ(s.events, per_lap - 10);
  const uint8_t* lap_end = s.data + s.bytes;  // where the padding begins
  f.reader.release(s.bytes);
  s = f.reader.span(kAll, kAll);  // the padding skipped: the next lap's records at offset 0
  EXPECT_EQ(s.data + per_lap * bytes, lap_end);
  EXPECT_EQ(values(s), (std::vector<uint32_t>{
                           static_cast<uint32_t>(per_lap), static_cast<uint32_t>(per_lap + 1),
                           static_cast<uint32_t>(per_lap + 2), static_cast<uint32_t>(per_lap + 3),
                           static_cast<uint32_t>(per_lap + 4)}));
  EXPECT_EQ(s.stop, Stop::Empty);
  f.reader.release(s.bytes);
  EXPECT_FALSE(f.reader.damaged());
}

// Under a timestamp limit (a writer's other ring has a record in flight: docs/namespace.md
// §3 "The front ring") a run ends before the first record past it.
TEST(RingSpan, RunEndsBeforeARecordPastTheLimit) {
  Fixture f;
  for (uint32_t i = 0; i < 5; ++i) {
    ASSERT_TRUE(write_one(f.writer, i));
    f.record_at(uint64_t{i} * value_bytes())->ts = 10 * (i + 1);  // 10, 20, ..., 50
  }
  RingReader::Span s = f.reader.span(25, kAll);
  EXPECT_EQ(values(s), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(s.stop, Stop::NotReady);
  EXPECT_EQ(s.last_ts, 20u);
  f.reader.release(s.bytes);
  s = f.reader.span(50, kAll);
  EXPECT_EQ(values(s), (std::vector<uint32_t>{2, 3, 4}));
  EXPECT_EQ(s.stop, Stop::Empty);
  EXPECT_EQ(s.last_ts, 50u);
}

// Nothing is zeroed after reading: when a writer has moved head over a record but not
// written its word yet, the bytes there are the previous lap's record, committed and
// whole. A run must not take it (its stamp is of the other lap).
TEST(RingSpan, RecordOfAnEarlierLapIsNotTaken) {
  Fixture f;
  constexpr uint32_t kLen = 1000;
  const uint32_t bytes = value_bytes(kLen);
  const uint64_t per_lap = kMinRingBytes / bytes;
  for (uint32_t i = 0; i < per_lap; ++i) ASSERT_TRUE(write_one(f.writer, i, kLen));
  RingReader::Span s = f.reader.span(kAll, kAll);
  EXPECT_EQ(s.events, per_lap);
  f.reader.release(s.bytes);
  ASSERT_TRUE(write_one(f.writer, 5000, kLen));  // padding to the end, then offset 0
  s = f.reader.span(kAll, kAll);
  ASSERT_EQ(s.events, 1u);
  f.reader.release(s.bytes);
  // A writer's CAS without its word yet: head covers lap 0's record at this offset.
  const uint64_t at = f.header()->head.load();
  ASSERT_EQ(f.record_at(at)->size, bytes);  // the earlier lap's record is there, intact
  f.header()->head.store(at + 3 * bytes);
  s = f.reader.span(kAll, kAll);
  EXPECT_EQ(s.events, 0u);
  EXPECT_EQ(s.stop, Stop::InFlight);
  EXPECT_FALSE(f.reader.damaged());
  f.header()->head.store(at);
  ASSERT_TRUE(write_one(f.writer, 6000, kLen));
  s = f.reader.span(kAll, kAll);
  EXPECT_EQ(values(s), std::vector<uint32_t>{6000});
  EXPECT_FALSE(f.reader.damaged());
}

// A committed word whose size is no record's (0, shorter than a record's head, not a
// multiple of 8, past head or the lap) ends the ring as damage, found on the hot path as on
// the slow one.
TEST(RingSpan, CommittedWordWithAnImpossibleSizeIsDamage) {
  for (uint32_t bad : {0u, 8u, 12u, 16u, 0xFFFFFFF8u, 1u << 20}) {
    for (uint32_t index : {0u, 2u}) {  // the run's first record, or one within it
      Fixture f;
      for (uint32_t i = 0; i < 4; ++i) ASSERT_TRUE(write_one(f.writer, i));
      f.record_at(uint64_t{index} * value_bytes())->size = bad;
      const RingReader::Span s = f.reader.span(kAll, kAll);
      EXPECT_EQ(s.events, index) << bad;
      EXPECT_TRUE(f.reader.damaged()) << bad;
      EXPECT_NE(f.reader.damage().find("a damaged record"), std::string::npos) << bad;
    }
  }
}

TEST(RingSpan, ReservedRecordOfADeadWriterIsSkipped) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto w = RingWriter::create(dir, 9, self_process(), kMinRingBytes);
    if (!w) ::_exit(2);
    write_one(*w, 1);
    (void)w->reserve(value_bytes());  // reserved, never committed
    write_one(*w, 3);
    write_one(*w, 4);
    char c = 1;
    (void)!::write(ready[1], &c, 1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  std::string name;
  for (const auto& n : dir.list("r-9-")) name = n;
  auto reader = RingReader::open(dir, name);
  ASSERT_TRUE(reader) << reader.error().message;
  RingReader::Span s = reader->span(kAll, kAll);
  EXPECT_EQ(values(s), std::vector<uint32_t>{1});
  EXPECT_EQ(s.stop, Stop::InFlight);  // the writer is alive: wait for its commit
  reader->release(s.bytes);
  ::kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  for (int i = 0; i < 100 && (s = reader->span(kAll, kAll)).events == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(11));  // the liveness check's period
  EXPECT_EQ(values(s), (std::vector<uint32_t>{3, 4}));
  reader->release(s.bytes);
  EXPECT_FALSE(reader->damaged());
  EXPECT_TRUE(reader->finished());
  ::close(ready[0]);
  ::close(ready[1]);
}

}  // namespace
}  // namespace pfc::trace
