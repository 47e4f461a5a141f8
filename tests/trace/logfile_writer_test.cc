// tests/trace/logfile_writer_test.cc — LogWriter's staged writes (docs/logfile.md "The
// session host"): buffers larger than a write chunk and records larger than a chunk come
// back exactly; a circular buffer being rewritten is never read with the old header; a
// failing write is reported once and every event is still counted, written or lost.
#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "base/le.h"
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

namespace pfc::trace {
namespace {

using namespace testing;  // logfile_test_util.h

// `n` records of writer `pid` as one chunk, timestamps first, first + step, ..., each
// naming entry 0 of its stream's table (stream_of).
std::vector<uint8_t> run_of(uint32_t pid, uint64_t first, uint64_t step, uint32_t n) {
  (void)pid;
  std::vector<uint8_t> out;
  for (uint32_t k = 0; k < n; ++k) {
    const auto ts = static_cast<uint32_t>(first + k * step);
    const RecordParts parts{.payload = &ts, .payload_len = 4};
    const size_t at = out.size();
    out.resize(at + record_bytes(parts), 0);
    auto* h = reinterpret_cast<RecordHead*>(out.data() + at);
    h->size = record_bytes(parts);
    h->state = ring_stamp(k * 128, 20, 0x5A5A, kRecordEvent);  // a ring's stamp, as moved
    h->ts = first + k * step;
    fill_record(h, 1, 0, 0, parts);
  }
  return out;
}

// The stream of writer `pid`: one table entry, which the records name.
StreamInfo stream_of(uint32_t pid) {
  static const TableEntry entry;
  return StreamInfo{.pid = pid, .table = &entry, .count = 1};
}
EntrySet entry_0() {
  EntrySet e;
  e.add(0);
  return e;
}

void add_run(LogWriter& w, uint32_t pid, uint64_t first, uint64_t step, uint32_t n) {
  const std::vector<uint8_t> run = run_of(pid, first, step, n);
  if (run.size() > w.room(pid, entry_0())) {
    ASSERT_TRUE(w.next_buffer());
  }
  ASSERT_TRUE(w.add_chunk(run.data(), static_cast<uint32_t>(run.size()), n, pid, stream_of(pid),
                          entry_0()));
}

// Every event's timestamp, and the step the reading ended with (release_held() once at
// the first Pending when `release`).
std::pair<std::vector<uint64_t>, LogReader::Step> timestamps(LogReader& r, bool release) {
  std::vector<uint64_t> out;
  RingReader::View v;
  for (;;) {
    const LogReader::Step s = r.next(v);
    if (s == LogReader::Step::Pending && release && r.release_held()) {
      release = false;
      continue;
    }
    if (s != LogReader::Step::Event) return {out, s};
    out.push_back(v.header.ts);
  }
}

std::vector<uint64_t> range(uint64_t from, uint64_t to) {
  std::vector<uint64_t> v;
  for (uint64_t t = from; t < to; ++t) v.push_back(t);
  return v;
}

// The session host writes each writer's records as runs (chunks) in the order it moved
// them, not merged: readers merge them by timestamp (docs/logfile.md "Merging"), across
// chunks and buffers, and hold back what lies above the last horizon until the file says
// more (or ends, or the reader stops following).
TEST(LogMerge, ChunksOfTwoWritersComeBackInTimestampOrder) {
  TempFile f;
  auto w = LogWriter::create(f.open_rw(), settings(kMinLogBuffer));
  ASSERT_TRUE(w);
  for (uint64_t round = 0; round < 40; ++round) {  // writer 1: even, writer 2: odd timestamps
    add_run(*w, 1, round * 20, 2, 10);
    add_run(*w, 2, round * 20 + 1, 2, 10);
    w->set_horizon(round * 20 + 19);
  }
  ASSERT_TRUE(w->flush());  // not closed: the horizon is the last round's
  {
    auto r = open_reader(f);
    ASSERT_TRUE(r) << r.error().message;
    const auto [ts, last] = timestamps(*r, false);
    EXPECT_EQ(last, LogReader::Step::Pending);
    EXPECT_EQ(ts, range(0, 800));
  }
  add_run(*w, 2, 801, 2, 5);  // above the horizon, then a late run below what came after it
  add_run(*w, 1, 800, 2, 5);
  ASSERT_TRUE(w->flush());
  {
    auto r = open_reader(f);
    ASSERT_TRUE(r);
    const auto [ts, last] = timestamps(*r, false);  // a follower: held back, not lost
    EXPECT_EQ(last, LogReader::Step::Pending);
    EXPECT_EQ(ts, range(0, 800));
    auto r2 = open_reader(f);
    ASSERT_TRUE(r2);
    const auto [all, last2] = timestamps(*r2, true);  // one that stops following: all
    EXPECT_EQ(last2, LogReader::Step::Pending);
    EXPECT_EQ(all, range(0, 810));
  }
  ASSERT_TRUE(w->close(1, 0));
  auto r = open_reader(f);
  ASSERT_TRUE(r);
  const auto [ts, last] = timestamps(*r, false);
  EXPECT_EQ(last, LogReader::Step::End) << r->problem();
  EXPECT_EQ(ts, range(0, 810));
  EXPECT_GT(r->buffers_read(), 3u);
}

// A file whose horizon never passes its records (here: never set) costs a reader at most
// kMaxHeldBytes of held buffers; past that it delivers the oldest records without waiting.
TEST(LogMerge, ReaderHoldsAtMostItsLimitOfBuffers) {
  TempFile f;
  auto w = LogWriter::create(f.open_rw(), settings(kMaxLogBuffer));
  ASSERT_TRUE(w);
  for (uint64_t b = 0; b < 6; ++b) {
    add_run(*w, 1, b * 10, 1, 10);
    ASSERT_TRUE(w->next_buffer());
  }
  auto r = open_reader(f);
  ASSERT_TRUE(r);
  const auto [ts, last] = timestamps(*r, false);  // not closed, horizon 0: nothing is due
  EXPECT_EQ(last, LogReader::Step::Pending);
  // 64 MB is 4 buffers of 16 MB: the first buffer's records at least came out, in order,
  // but not the records of the buffers read after the limit was reached.
  ASSERT_GE(ts.size(), 10u);
  EXPECT_EQ(ts, range(0, ts.size()));
  EXPECT_LT(ts.size(), 60u);
}

// A closed two-writer file of chunks (interleaved timestamps 0-799, a horizon per round)
// cut at every buffer boundary and at random bytes: the reader delivers, in timestamp
// order, exactly the events of the whole buffers before the cut, then says the file is
// truncated or damaged; it never crashes and never delivers an event twice.
TEST(LogMerge, ChunkedFileCutAnywhereGivesTheWholeBuffersBeforeTheCut) {
  TempFile f;
  auto w = LogWriter::create(f.open_rw(), settings(kMinLogBuffer));
  ASSERT_TRUE(w);
  for (uint64_t round = 0; round < 40; ++round) {
    add_run(*w, 1, round * 20, 2, 10);
    add_run(*w, 2, round * 20 + 1, 2, 10);
    w->set_horizon(round * 20 + 19);
  }
  ASSERT_TRUE(w->close(1, 0));
  const std::vector<uint8_t> whole = f.bytes();
  const uint64_t data = w->info().data_offset;
  // Events per whole buffer, in file order.
  std::vector<uint32_t> per_buffer;
  for (uint64_t at = data; at + kMinLogBuffer <= whole.size(); at += kMinLogBuffer)
    per_buffer.push_back(load_le<uint32_t>(whole.data() + at + 20));
  const auto read_cut = [&](size_t cut) {
    f.write(std::vector<uint8_t>(whole.begin(), whole.begin() + static_cast<long>(cut)));
    auto r = open_reader(f);
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    if (!r) return std::pair<std::vector<uint64_t>, LogReader::Step>{};
    return timestamps(*r, false);
  };
  size_t before = 0;
  for (size_t k = 0; k <= per_buffer.size(); ++k) {
    const auto [ts, last] = read_cut(data + k * kMinLogBuffer);
    EXPECT_EQ(ts.size(), before) << k;
    EXPECT_TRUE(std::is_sorted(ts.begin(), ts.end())) << k;
    EXPECT_EQ(std::adjacent_find(ts.begin(), ts.end()), ts.end()) << k;
    EXPECT_EQ(last, k < per_buffer.size() ? LogReader::Step::Damaged : LogReader::Step::End) << k;
    if (k < per_buffer.size()) before += per_buffer[k];
  }
  EXPECT_EQ(before, 800u);
  std::mt19937 rng(27);
  for (int round = 0; round < 200; ++round) {
    const size_t cut = data + rng() % (whole.size() - data);  // in the buffers
    const auto [ts, last] = read_cut(cut);
    EXPECT_TRUE(std::is_sorted(ts.begin(), ts.end())) << cut;
    EXPECT_EQ(std::adjacent_find(ts.begin(), ts.end()), ts.end()) << cut;
    EXPECT_NE(last, LogReader::Step::End) << cut;
  }
}

// A chunk whose records do not add up to its header, inside a buffer whose CRC is right:
// the events of the buffers before come, then the damage, named with the buffer's offset.
TEST(LogMerge, AChunkThatDoesNotAddUpIsDamage) {
  TempFile f;
  auto w = LogWriter::create(f.open_rw(), settings(kMinLogBuffer));
  ASSERT_TRUE(w);
  add_run(*w, 1, 0, 1, 10);
  w->set_horizon(9);
  ASSERT_TRUE(w->next_buffer());
  const std::vector<uint8_t> run = run_of(1, 10, 1, 3);
  ASSERT_TRUE(w->add_chunk(run.data(), static_cast<uint32_t>(run.size()), 2, 1, stream_of(1),
                           entry_0()));  // says 2
  ASSERT_TRUE(w->close(1, 0));
  auto r = open_reader(f);
  ASSERT_TRUE(r);
  const auto [ts, last] = timestamps(*r, false);
  EXPECT_EQ(last, LogReader::Step::Damaged);
  EXPECT_EQ(ts, range(0, 10));
  EXPECT_NE(r->problem().find("damaged chunk (event count) in the buffer at offset"),
            std::string::npos)
      << r->problem();
}

}  // namespace
}  // namespace pfc::trace
