// tests/trace/logfile_writer_test.cc — LogWriter's staged writes (docs/logfile.md "The
// session host"): buffers larger than a write chunk and records larger than a chunk come
// back exactly; a circular buffer being rewritten is never read with the old header; a
// failing write is reported once and every event is still counted, written or lost.
#include <signal.h>
#include <sys/resource.h>

#include <cstring>
#include <vector>

#include "logfile_test_util.h"
#include "trace/logfile.h"

namespace pfc::trace {
namespace {

using namespace testing;  // logfile_test_util.h

constexpr uint32_t kBuffer = 256u << 10;  // four write chunks

TEST(LogWriter, BuffersOfManyChunksComeBackExactly) {
  TempFile f;
  auto w = LogWriter::create(f.open_rw(), settings(kBuffer));
  ASSERT_TRUE(w);
  constexpr uint32_t kEvents = 20'000;  // ≈ 3 MB: a dozen buffers
  for (uint32_t i = 0; i < kEvents; ++i) add_event(*w, i);
  ASSERT_TRUE(w->close(1, 0));
  EXPECT_GT(w->info().buffers_written, 10u);
  auto r = open_reader(f);
  ASSERT_TRUE(r) << r.error().message;
  const ReadResult got = read_all(*r);
  EXPECT_EQ(got.last, LogReader::Step::End) << got.problem;
  EXPECT_EQ(got.values, iota(0, kEvents));
  EXPECT_EQ(r->info().events_written, kEvents);
  EXPECT_EQ(r->info().events_lost, 0u);
}

TEST(LogWriter, ARecordLargerThanAChunkComesBackExactly) {
  TempFile f;
  auto w = LogWriter::create(f.open_rw(), settings(kBuffer));
  ASSERT_TRUE(w);
  std::vector<uint8_t> big(3 * kLogWriteChunk / 2);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<uint8_t>(i * 7);
  EventRecord h{};
  h.id = 9;
  h.payload_len = static_cast<uint32_t>(big.size());
  for (int round = 0; round < 3; ++round) {
    for (uint32_t i = 0; i < 100; ++i) add_event(*w, i);
    auto ok = w->add(h, big.data(), nullptr);
    ASSERT_TRUE(ok && *ok);
  }
  ASSERT_TRUE(w->close(1, 0));
  auto r = open_reader(f);
  ASSERT_TRUE(r);
  RingReader::View v;
  int bigs = 0, small = 0;
  while (r->next(v) == LogReader::Step::Event) {
    if (v.header.payload_len != big.size()) {
      ++small;
      continue;
    }
    ++bigs;
    EXPECT_EQ(std::memcmp(v.payload, big.data(), big.size()), 0);
  }
  EXPECT_EQ(r->problem(), "");
  EXPECT_EQ(bigs, 3);
  EXPECT_EQ(small, 300);
}

// A circular file whose writer has begun overwriting the oldest slot (more than one chunk
// written into it, its buffer not complete): a reader keeps the other slots and does not
// take the slot's old header over the new records (which would read as damage and end the
// reading there, before the newer buffers).
TEST(LogWriter, ACircularSlotBeingRewrittenIsNotReadWithItsOldHeader) {
  TempFile f;
  LogInfo info = settings(kBuffer);
  info.circular = true;
  info.max_bytes = 4096 + 3 * uint64_t{kBuffer};  // 3 slots
  auto w = LogWriter::create(f.open_rw(), info);
  ASSERT_TRUE(w);
  uint32_t next = 0;
  while (w->info().buffers_written < 3) add_event(*w, next++);
  const uint32_t in_complete = next - 1;  // the last one opened the fourth buffer
  // Two more chunks into the fourth buffer (slot 0), which stays incomplete.
  for (uint32_t i = 0; i < 2 * kLogWriteChunk / 100; ++i) add_event(*w, next++);
  ASSERT_EQ(w->info().buffers_written, 3u);
  auto r = open_reader(f);
  ASSERT_TRUE(r) << r.error().message;
  const ReadResult got = read_all(*r);
  EXPECT_EQ(got.last, LogReader::Step::Pending) << got.problem;
  ASSERT_FALSE(got.values.empty());
  EXPECT_GT(got.values.front(), 0u);  // slot 0's first buffer is gone
  EXPECT_EQ(got.values, iota(got.values.front(), in_complete));
  EXPECT_EQ(r->buffers_read(), 2u);
}

// Writes fail past `bytes` of file (RLIMIT_FSIZE: EFBIG, SIGXFSZ ignored) for the life of
// the object.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &old_);
    old_handler_ = ::signal(SIGXFSZ, SIG_IGN);
    rlimit r = old_;
    r.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &r);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &old_);
    ::signal(SIGXFSZ, old_handler_);
  }

 private:
  rlimit old_{};
  sighandler_t old_handler_ = SIG_DFL;
};

TEST(LogWriter, AFailedWriteIsReportedOnceAndEveryEventIsCounted) {
  TempFile f;
  auto w = LogWriter::create(f.open_rw(), settings(kBuffer));
  ASSERT_TRUE(w);
  constexpr uint32_t kEvents = 10'000;  // ≈ 6 buffers
  int errors = 0;
  {
    const FileSizeLimit limit(4096 + 2 * kBuffer + kBuffer / 2);  // fails in the third
    for (uint32_t i = 0; i < kEvents; ++i) {
      auto ok = try_add_event(*w, i);
      if (!ok) {
        ++errors;
        EXPECT_NE(ok.error().message.find("cannot write the log file"), std::string::npos);
      } else {
        EXPECT_TRUE(*ok);
      }
    }
    (void)w->flush();
  }
  ASSERT_TRUE(w->close(1, 0));
  EXPECT_EQ(errors, 1);
  const LogInfo& i = w->info();
  EXPECT_EQ(i.buffers_written, 2u);
  EXPECT_GT(i.log_buffers_lost, 2u);
  EXPECT_EQ(i.events_written + i.events_lost, kEvents);
  auto r = open_reader(f);
  ASSERT_TRUE(r);
  const ReadResult got = read_all(*r);
  EXPECT_EQ(got.values, iota(0, static_cast<uint32_t>(i.events_written)));
}

}  // namespace
}  // namespace pfc::trace
