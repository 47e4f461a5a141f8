// tests/trace/ring_test.cc — the shared event ring: order, wrap-around, drops counted when
// full, concurrent writers, a writer killed between reservation and commit, bytes of an
// earlier lap never read as a record (nothing is zeroed), the version check, and damaged
// shared data, for the reader and the writers (never a crash or an out-of-bounds access).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
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

struct Fixture {
  TempNamespace ns;
  TraceDir dir = ns.open();
  ProcessKey self = self_process();
  RingWriter writer = *RingWriter::create(dir, 7, self, kMinRingBytes);
  RingReader reader = *RingReader::open(dir, ring_name(7, self));
};

TEST(Ring, RecordsComeOutInOrderWithNonDecreasingTimestamps) {
  Fixture f;
  for (uint32_t i = 0; i < 100; ++i) ASSERT_TRUE(write_one(f.writer, i));
  uint64_t last_ts = 0;
  for (uint32_t i = 0; i < 100; ++i) {
    const auto* v = f.reader.peek();
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(value_of(*v), i);
    EXPECT_GE(v->header.ts, last_ts);
    last_ts = v->header.ts;
    f.reader.pop();
  }
  EXPECT_EQ(f.reader.peek(), nullptr);
  EXPECT_FALSE(f.reader.damaged());
}

TEST(Ring, FullRingDropsAndCountsThenRecovers) {
  Fixture f;
  uint32_t written = 0;
  while (write_one(f.writer, written, 1000)) ++written;
  EXPECT_EQ(f.writer.lost(), 1u);
  EXPECT_GT(written, 10u);
  for (uint32_t i = 0; i < written; ++i) {
    const auto* v = f.reader.peek();
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(value_of(*v), i);
    f.reader.pop();
  }
  // Wraps around the end with a padding record.
  for (uint32_t round = 0; round < 5; ++round) {
    for (uint32_t i = 0; i < written / 2; ++i) ASSERT_TRUE(write_one(f.writer, i, 1000));
    for (uint32_t i = 0; i < written / 2; ++i) {
      const auto* v = f.reader.peek();
      ASSERT_NE(v, nullptr);
      EXPECT_EQ(value_of(*v), i);
      f.reader.pop();
    }
  }
  EXPECT_EQ(f.reader.lost(), 1u);
}

TEST(Ring, OversizedRecordIsDropped) {
  Fixture f;
  EXPECT_FALSE(write_one(f.writer, 1, kMinRingBytes));
  EXPECT_EQ(f.writer.lost(), 1u);
}

TEST(Ring, ConcurrentWritersLoseNothingThatWasAccepted) {
  Fixture f;
  testing::check_concurrent_writers(f.writer, f.reader, 4);
}

TEST(Ring, WriterKilledMidRecordIsSkipped) {
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
    (void)w->reserve(value_bytes(4));  // reserved, never committed
    write_one(*w, 3);
    char c = 1;
    (void)::write(ready[1], &c, 1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  std::string name;
  for (const auto& n : dir.list("r-9-")) name = n;
  auto reader = RingReader::open(dir, name);
  ASSERT_TRUE(reader) << reader.error().message;
  const auto* v = reader->peek();
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(value_of(*v), 1u);
  reader->pop();
  EXPECT_EQ(reader->peek(), nullptr);  // the writer is alive: wait for its commit
  ::kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  const auto* after = reader->peek();
  for (int i = 0; i < 100 && after == nullptr; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(11));
    after = reader->peek();
  }
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(value_of(*after), 3u);
  reader->pop();
  EXPECT_TRUE(reader->finished());
  ::close(ready[0]);
  ::close(ready[1]);
}

TEST(Ring, DamagedSharedDataStopsTheReaderSafely) {
  for (int what = 0; what < 4; ++what) {
    Fixture f;
    ASSERT_TRUE(write_one(f.writer, 1));
    ASSERT_TRUE(write_one(f.writer, 2));
    auto fd = f.dir.open_file(ring_name(7, f.self), false);
    ASSERT_TRUE(fd);
    auto map = Mapping::map(fd->get(), kRingHeaderSize + kMinRingBytes);
    ASSERT_TRUE(map);
    auto* h = reinterpret_cast<RingHeader*>(map->data());
    auto* rec = reinterpret_cast<RecordHead*>(map->data() + kRingHeaderSize);
    if (what == 0) h->head.store(1u << 30);
    if (what == 1) rec->size = 0xFFFFFFF8u;
    if (what == 2) rec->parts = 0xC0;  // parts no record has
    if (what == 3) rec->size = 12;     // a committed word with a size no record has
    // what == 0: head is read when the reader's copy of it says the ring is empty — at once
    // here — and a head more than a ring ahead of tail is damage.
    EXPECT_EQ(f.reader.peek(), nullptr) << what;
    EXPECT_TRUE(f.reader.damaged()) << what;
    EXPECT_TRUE(f.reader.finished());
  }
}

// A reader starts at the shared tail. Unaligned, the record words at it were read through
// a misaligned pointer, and at capacity - 4 the state word lay past the end of the mapping
// (found by fuzz/trace after the reader stopped checking alignment with head).
TEST(Ring, MisalignedTailStopsTheReader) {
  for (uint64_t tail : {uint64_t{4}, kMinRingBytes - 4, uint64_t{1} << 40 | 12}) {
    Fixture f;
    ASSERT_TRUE(write_one(f.writer, 1));
    auto fd = f.dir.open_file(ring_name(7, f.self), false);
    ASSERT_TRUE(fd);
    ASSERT_EQ(::pwrite(fd->get(), &tail, 8, offsetof(RingHeader, tail)), 8);
    auto reader = RingReader::open(f.dir, ring_name(7, f.self));
    ASSERT_TRUE(reader);
    EXPECT_EQ(reader->peek(), nullptr) << tail;
    EXPECT_TRUE(reader->damaged()) << tail;
    EXPECT_TRUE(reader->finished()) << tail;
  }
}

// Writers read head from shared memory too. A misaligned head (another process wrote it)
// once made the padding word of the lap's end go at capacity - 1 or - 2, past the end of the
// mapping: SIGSEGV inside EventWrite. Now the writer drops such records and counts them, as
// it does when head is a ring or more ahead of tail; the reader stops (docs/namespace.md §5).
TEST(Ring, OutOfRangeHeadDropsTheWritersRecords) {
  for (uint64_t head : {~uint64_t{0}, ~uint64_t{1}, uint64_t{4}, uint64_t{1} << 40}) {
    Fixture f;
    ASSERT_TRUE(write_one(f.writer, 1));
    auto fd = f.dir.open_file(ring_name(7, f.self), false);
    ASSERT_TRUE(fd);
    ASSERT_EQ(::pwrite(fd->get(), &head, 8, offsetof(RingHeader, head)), 8);
    EXPECT_FALSE(write_one(f.writer, 2)) << head;
    EXPECT_EQ(f.writer.lost(), 1u) << head;
    EXPECT_EQ(f.reader.peek(), nullptr) << head;
    EXPECT_TRUE(f.reader.damaged()) << head;
    EXPECT_TRUE(f.reader.finished()) << head;
  }
}

// A word that is no stamp of its position (another lap's, or any other bytes) is a record
// not committed yet: while its writer lives the reader waits, without calling it damage.
TEST(Ring, ForeignStampIsWaitedForWhileTheWriterLives) {
  Fixture f;
  ASSERT_TRUE(write_one(f.writer, 1));
  auto fd = f.dir.open_file(ring_name(7, f.self), false);
  ASSERT_TRUE(fd);
  auto map = Mapping::map(fd->get(), kRingHeaderSize + kMinRingBytes);
  ASSERT_TRUE(map);
  auto* rec = reinterpret_cast<RecordHead*>(map->data() + kRingHeaderSize);
  const uint32_t good = rec->state;
  rec->state = 77;
  EXPECT_EQ(f.reader.peek(), nullptr);
  EXPECT_FALSE(f.reader.damaged());
  rec->state = good;
  ASSERT_NE(f.reader.peek(), nullptr);
  EXPECT_EQ(value_of(*f.reader.peek()), 1u);
}

// Nothing is zeroed after reading: when a writer has moved head over a record but not yet
// written its word, the bytes there are the record of the previous lap, committed and
// complete. The reader must not take it again (its stamp is of the other lap).
TEST(Ring, RecordOfAnEarlierLapIsNotReadAgain) {
  Fixture f;
  constexpr uint32_t kLen = 1000;
  const uint32_t bytes = value_bytes(kLen);
  const uint64_t per_lap = kMinRingBytes / bytes;
  // One full lap and a bit, read as it goes; the ring's first record now lies one lap back.
  for (uint32_t i = 0; i < per_lap; ++i) {
    ASSERT_TRUE(write_one(f.writer, i, kLen));
    ASSERT_NE(f.reader.peek(), nullptr);
    f.reader.pop();
  }
  ASSERT_TRUE(write_one(f.writer, 5000, kLen));  // crosses the end: padding, then offset 0
  ASSERT_NE(f.reader.peek(), nullptr);
  EXPECT_EQ(value_of(*f.reader.peek()), 5000u);
  f.reader.pop();
  auto fd = f.dir.open_file(ring_name(7, f.self), false);
  ASSERT_TRUE(fd);
  auto map = Mapping::map(fd->get(), kRingHeaderSize + kMinRingBytes);
  ASSERT_TRUE(map);
  auto* h = reinterpret_cast<RingHeader*>(map->data());
  // A writer's CAS without its word yet: head covers the record of lap 0 at this offset.
  const uint64_t at = h->head.load();
  const auto* old = reinterpret_cast<const RecordHead*>(map->data() + kRingHeaderSize +
                                                        (at & (kMinRingBytes - 1)));
  ASSERT_EQ(old->size, bytes);  // the earlier lap's record is there, intact
  h->head.store(at + bytes);
  EXPECT_EQ(f.reader.peek(), nullptr);
  EXPECT_FALSE(f.reader.damaged());
  h->head.store(at);
  ASSERT_TRUE(write_one(f.writer, 6000, kLen));
  ASSERT_NE(f.reader.peek(), nullptr);
  EXPECT_EQ(value_of(*f.reader.peek()), 6000u);
}

TEST(Ring, OtherRingVersionIsAClearError) {
  Fixture f;
  auto fd = f.dir.open_file(ring_name(7, f.self), false);
  ASSERT_TRUE(fd);
  const uint32_t v1 = 1;
  ASSERT_EQ(::pwrite(fd->get(), &v1, 4, offsetof(RingHeader, version)), 4);
  auto r = RingReader::open(f.dir, ring_name(7, f.self));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("ring version 1; this pfc reads version 7"), std::string::npos)
      << r.error().message;
}

TEST(Ring, BadHeadersAreRefusedAtOpen) {
  Fixture f;
  auto fd = f.dir.open_file(ring_name(7, f.self), false);
  ASSERT_TRUE(fd);
  uint64_t cap = 3;
  ASSERT_EQ(::pwrite(fd->get(), &cap, 8, offsetof(RingHeader, capacity)), 8);
  EXPECT_FALSE(RingReader::open(f.dir, ring_name(7, f.self)));
  ASSERT_EQ(::ftruncate(fd->get(), 100), 0);
  EXPECT_FALSE(RingReader::open(f.dir, ring_name(7, f.self)));
  EXPECT_FALSE(RingReader::open(f.dir, "r-x"));
}

}  // namespace
}  // namespace pfc::trace
