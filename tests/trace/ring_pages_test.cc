// tests/trace/ring_pages_test.cc — a writer takes its ring's pages a window at a time
// ahead of its writes (docs/namespace.md §3 "Taking the pages"): after one event only the
// header and the first window are resident; while it writes, the pages a window ahead are
// always there (so no write faults); nothing is lost across windows and laps; and on a
// file system that fills up, the ring ends each lap before the pages it could not have.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>

#include "tests/small_tmpfs.h"
#include "trace/ring.h"
#include "trace_test_util.h"

namespace pfc::trace {
namespace {

using testing::TempNamespace;
using testing::value_bytes;
using testing::value_of;
using testing::write_one;

// The resident bytes (smaps Rss) of this process's mappings of the file named `name`.
uint64_t resident_bytes(const std::string& name) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool ours = false;
  uint64_t kb = 0;
  while (std::getline(smaps, line)) {
    unsigned long v = 0;
    const std::string first = line.substr(0, line.find(' '));
    if (first.find('-') != std::string::npos && first.back() != ':') {
      // A mapping's first line: "START-END PERMS OFFSET DEV INODE PATH".
      const std::string path = "/" + name;
      ours = line.size() > path.size() &&
             line.compare(line.size() - path.size(), path.size(), path) == 0;
    } else if (ours && std::sscanf(line.c_str(), "Rss: %lu kB", &v) == 1) {
      kb += v;
    }
  }
  return kb * 1024;
}

constexpr uint32_t kPayload = 100;  // 168-byte records (value_bytes)

TEST(RingPages, OneEventLeavesTheHeaderAndOneWindowResident) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  const uint64_t cap = ring_capacity(64, 0, 0);  // ETW's defaults: 8 MB
  ASSERT_GT(cap, 4 * kRingWindow);
  RingWriter w = *RingWriter::create(dir, 7, self_process(), cap);
  ASSERT_TRUE(write_one(w, 1, kPayload));
  EXPECT_EQ(resident_bytes(ring_name(7, self_process())), kRingHeaderSize + kRingWindow);
}

// Writes `records` records of kPayload bytes (values from `first`), checking every 64th
// that the pages half a window past the last record are resident already and, while in
// the first lap, no more than a window and a half past it.
void write_checking_pages(RingWriter& w, const std::string& name, uint64_t cap, uint32_t first,
                          uint32_t records) {
  const uint64_t size = value_bytes(kPayload);
  for (uint32_t i = 0; i < records; ++i) {
    ASSERT_TRUE(write_one(w, first + i, kPayload)) << first + i;
    const uint64_t end = (uint64_t{first} + i + 1) * size;
    if (i % 64 != 0 || end >= cap) continue;
    const uint64_t resident = resident_bytes(name) - kRingHeaderSize;
    EXPECT_GE(resident, std::min(cap, end + kRingWindow / 2)) << "at " << end;
    EXPECT_LE(resident, end + 3 * kRingWindow / 2) << "at " << end;
  }
}

TEST(RingPages, PagesAreTakenAheadOfTheWriterAndNothingIsLostAcrossLaps) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  const ProcessKey self = self_process();
  const uint64_t cap = 4 * kRingWindow;
  const std::string name = ring_name(7, self);
  RingWriter w = *RingWriter::create(dir, 7, self, cap);
  // The first lap, nearly to the end, with no reader mapping the file yet.
  const auto lap = static_cast<uint32_t>(cap / value_bytes(kPayload));
  write_checking_pages(w, name, cap, 0, lap - 1);
  EXPECT_EQ(resident_bytes(name), kRingHeaderSize + cap);
  RingReader r = *RingReader::open(dir, name);
  uint32_t next = 0;
  auto drain = [&] {
    while (const auto* v = r.peek()) {
      EXPECT_EQ(value_of(*v), next++);
      r.pop();
    }
  };
  drain();
  // Two laps more, read as they are written.
  for (uint32_t i = lap - 1; i < 3 * lap; ++i) {
    ASSERT_TRUE(write_one(w, i, kPayload)) << i;
    drain();
  }
  EXPECT_EQ(next, 3 * lap);
  EXPECT_EQ(w.lost(), 0u);
  EXPECT_FALSE(r.damaged());
}

// A tmpfs of 1 MB of its own holds the namespace (tests/small_tmpfs.h).
class RingPagesFull : public tests::SmallTmpfs {
 protected:
  RingPagesFull() : SmallTmpfs("1m") {}
};

// The file system fills after the ring was created: its writer goes on within the pages it
// has (every lap ends before the first page it could not get), so a reader that keeps up
// loses nothing; a ring created now cannot get its first window and is refused.
TEST_F(RingPagesFull, ALapEndsBeforeThePagesTheFileSystemCouldNotSupply) {
  auto dir = TraceDir::open();
  ASSERT_TRUE(dir.has_value()) << dir.error().message;
  const ProcessKey self = self_process();
  const uint64_t cap = 8 * kRingWindow;  // 2 MB: more than the file system holds
  auto created = RingWriter::create(*dir, 7, self, cap);
  ASSERT_TRUE(created.has_value()) << created.error().message;
  RingWriter w = std::move(*created);
  fill();
  auto opened = RingReader::open(*dir, ring_name(7, self));
  ASSERT_TRUE(opened.has_value()) << opened.error().message;
  RingReader r = std::move(*opened);
  auto again = RingWriter::create(*dir, 8, self, cap);
  ASSERT_FALSE(again.has_value());
  EXPECT_NE(again.error().message.find("cannot allocate"), std::string::npos)
      << again.error().message;
  EXPECT_FALSE(RingReader::open(*dir, ring_name(8, self)).has_value());  // removed again
  uint32_t next = 0;
  uint64_t highest = 0;
  const auto records = static_cast<uint32_t>(3 * cap / value_bytes(kPayload));
  for (uint32_t i = 0; i < records; ++i) {
    ASSERT_TRUE(write_one(w, i, kPayload)) << i;
    const auto* v = r.peek();
    ASSERT_NE(v, nullptr) << i;
    highest = std::max(highest, (r.consumed() & (cap - 1)) + value_bytes(kPayload));
    EXPECT_EQ(value_of(*v), next++);
    r.pop();
  }
  EXPECT_EQ(w.lost(), 0u);
  EXPECT_FALSE(r.damaged());
  // Every lap ended within the first window, the only one the file system supplied.
  EXPECT_LE(highest, kRingWindow);
  EXPECT_GT(highest, kRingWindow - 2 * value_bytes(kPayload));
}

}  // namespace
}  // namespace pfc::trace
