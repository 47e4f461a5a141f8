// tests/trace/ring_bell_test.cc — the doorbell of a file session's host (docs/namespace.md §3
// "The doorbell"): a window ring's writer holds the session's FIFO when the host made one
// and rings it once per arming, when a window opens with a quarter of the ring unread; a
// ring whose writer has none says so; a bell whose host is gone costs a writer nothing.
#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <thread>
#include <vector>

#include "trace/names.h"
#include "trace/packed.h"
#include "trace/ring.h"
#include "trace_test_util.h"

namespace pfc::trace {
namespace {

using testing::TempNamespace;

constexpr uint64_t kInstance = 11;
constexpr uint32_t kShift = 10;            // 1 KB windows
constexpr uint64_t kRing = kMinRingBytes;  // 64 KB
constexpr uint64_t kQuarter = kRing / 4;   // what the host asks for
constexpr uint32_t kPayload = 100;         // 114 packed bytes a record

bool write_one(RingWriter& w) {
  std::vector<uint8_t> payload(kPayload, 0x5a);
  RecordParts parts;
  parts.payload = payload.data();
  parts.payload_len = kPayload;
  RingWriter::Packed p;
  const PackedThread thread{1, 0};
  if (!w.reserve_packed(packed_record_bytes(parts), thread, p)) return false;
  write_packed(p.rec, thread, p.own_thread, 0, parts, p.ts, p.base, p.own_ts);
  RingWriter::commit_packed(p);
  return true;
}

// Bytes waiting in the FIFO `fd`.
int waiting(int fd) {
  int n = -1;
  EXPECT_EQ(::ioctl(fd, FIONREAD, &n), 0);
  return n;
}

// Records of kPayload fill a 1 KB window nine at a time: writing 9 × n records opens n
// windows, and the next record opens one more, with n KB before it.
constexpr uint32_t kPerWindow = 9;
static_assert(((1u << kShift) - kWindowHeadBytes) / (kPackedHeadBytes + kPayload) == kPerWindow);
void write_n(RingWriter& w, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) ASSERT_TRUE(write_one(w)) << i;
}

struct Host {
  TempNamespace ns;
  TraceDir dir = ns.open();
  UniqueFd bell = *dir.open_fifo(bell_name(kInstance), true);
};

struct Ring {
  RingWriter writer;
  RingReader reader;
};
Ring make_ring(const TraceDir& dir) {
  auto w = RingWriter::create(dir, kInstance, self_process(), kRing, false, kShift);
  EXPECT_TRUE(w.has_value());
  auto r = RingReader::open(dir, ring_name(kInstance, self_process()));
  EXPECT_TRUE(r.has_value());
  return Ring{std::move(*w), std::move(*r)};
}

TEST(Doorbell, AWriterRingsOnceWhenAQuarterOfItsRingIsUnread) {
  Host h;
  Ring ring = make_ring(h.dir);
  ASSERT_TRUE(ring.reader.has_bell());
  EXPECT_EQ(waiting(h.bell.get()), 0);
  // Not armed: a writer rings nothing.
  write_n(ring.writer, 4 * kPerWindow);
  EXPECT_EQ(waiting(h.bell.get()), 0);
  // Armed (nothing taken: every byte written is unread), below the quarter nothing rings...
  ASSERT_TRUE(ring.reader.arm_bell(kQuarter));
  write_n(ring.writer, 12 * kPerWindow);  // 16 windows: the last opened with 15 KB unread
  EXPECT_EQ(waiting(h.bell.get()), 0);
  // ... the writer that opens a window with a quarter unread rings, once however much follows.
  write_n(ring.writer, 1);
  EXPECT_EQ(waiting(h.bell.get()), 1);
  write_n(ring.writer, 8 * kPerWindow);
  EXPECT_EQ(waiting(h.bell.get()), 1);
  // Armed with a quarter unread already: the host must not sleep on it.
  EXPECT_FALSE(ring.reader.arm_bell(kQuarter));
  ring.reader.disarm_bell();
  write_n(ring.writer, 8 * kPerWindow);
  EXPECT_EQ(waiting(h.bell.get()), 1);
  EXPECT_EQ(wait_bell(h.bell.get(), 0), DirWatch::kWatchBell);  // read: empty again
  EXPECT_EQ(waiting(h.bell.get()), 0);
  EXPECT_EQ(wait_bell(h.bell.get(), 0), 0u);
}

TEST(Doorbell, ThreadsRaceToRingItOnce) {
  Host h;
  Ring ring = make_ring(h.dir);
  ASSERT_TRUE(ring.reader.arm_bell(kQuarter));
  std::atomic<int> lost{0};
  std::vector<std::thread> threads;
  threads.reserve(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (uint32_t i = 0; i < 6 * kPerWindow; ++i)  // 24 windows: over a quarter, below all
        if (!write_one(ring.writer)) lost++;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(lost.load(), 0);
  EXPECT_EQ(waiting(h.bell.get()), 1);
}

TEST(Doorbell, WithoutTheHostsFifoTheRingHasNoBell) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  Ring none = make_ring(dir);
  EXPECT_FALSE(none.reader.has_bell());
  EXPECT_FALSE(ring_session_bell(dir, kInstance));
  // A regular file of that name is no bell either.
  ASSERT_TRUE(dir.open_file(bell_name(kInstance), true).has_value());
  auto refused = dir.open_fifo(bell_name(kInstance), false);
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message.find("/" + bell_name(kInstance) + "' is not a FIFO"),
            std::string::npos)
      << refused.error().message;
  Ring regular = make_ring(dir);
  EXPECT_FALSE(regular.reader.has_bell());
  // Record rings (a real-time session's) never have one.
  Host h;
  auto rec = RingWriter::create(h.dir, kInstance, self_process(), kRing);
  ASSERT_TRUE(rec.has_value());
  auto rr = RingReader::open(h.dir, ring_name(kInstance, self_process()));
  ASSERT_TRUE(rr.has_value());
  EXPECT_FALSE(rr->has_bell());
}

TEST(Doorbell, RingingABellWhoseHostIsGoneCostsTheWriterNothing) {
  Host h;
  Ring ring = make_ring(h.dir);
  ASSERT_TRUE(ring.reader.arm_bell(kQuarter));
  // The host dies: its end closed, its name removed. The writer's own end is a reader too,
  // so its write raises no SIGPIPE (the test process would die of it).
  h.bell = UniqueFd();
  h.dir.remove(bell_name(kInstance));
  write_n(ring.writer, 20 * kPerWindow);
  EXPECT_EQ(ring.writer.lost(), 0u);
  EXPECT_FALSE(ring_session_bell(h.dir, kInstance));  // a controller finds none either
}

TEST(Doorbell, BellNamesParseStrictly) {
  EXPECT_EQ(bell_name(42), "b-42");
  EXPECT_EQ(parse_bell_name("b-42"), 42u);
  for (const char* bad :
       {"b-", "b-4-2", "b-+4", "b- 4", "b-42x", "r-42", "b42", "b-99999999999999999999"})
    EXPECT_FALSE(parse_bell_name(bad).has_value()) << bad;
}

}  // namespace
}  // namespace pfc::trace
