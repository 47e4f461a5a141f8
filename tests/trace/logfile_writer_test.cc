// tests/trace/logfile_writer_test.cc — LogWriter's staged writes (docs/logfile.md "The
// session host"): buffers larger than a write chunk and records larger than a chunk come
// back exactly; a circular buffer being rewritten is never read with the old header; a
// failing write is reported once and every event is still counted, written or lost.
#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "base/le.h"
#include "logfile_test_util.h"
#include "trace/logfile.h"
#include "trace/packed.h"

namespace pfc::trace {
namespace {

using namespace testing;  // logfile_test_util.h

constexpr uint32_t kBuffer = 256u << 10;  // four to a batch write (kLogBatchBytes)

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
  std::vector<uint8_t> big(0xFFFF);  // the largest payload: a record over a staged chunk
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
  EXPECT_EQ(r->info().events_lost, 0u);
}

// A circular file's slot is rewritten whole, in one write: while the buffer that will
// overwrite the oldest slot is being filled, that slot keeps its old buffer, and a reader
// reads every complete buffer, the oldest first, then waits (the file is not closed).
TEST(LogWriter, ACircularSlotIsRewrittenWhole) {
  TempFile f;
  LogInfo info = settings(kBuffer);
  info.circular = true;
  info.max_bytes = 4096 + 3 * uint64_t{kBuffer};  // 3 slots
  auto w = LogWriter::create(f.open_rw(), info);
  ASSERT_TRUE(w);
  uint32_t next = 0;
  while (w->info().buffers_written < 3) add_event(*w, next++);
  const uint32_t in_complete = next - 1;  // the last one opened the fourth buffer
  for (uint32_t i = 0; i < 1000; ++i) add_event(*w, next++);  // into it: 2/3 of it
  ASSERT_EQ(w->info().buffers_written, 3u);
  auto r = open_reader(f);
  ASSERT_TRUE(r) << r.error().message;
  const ReadResult got = read_all(*r);
  EXPECT_EQ(got.last, LogReader::Step::Pending) << got.problem;
  EXPECT_EQ(got.values, iota(0, in_complete));
  EXPECT_EQ(r->buffers_read(), 3u);
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

// The offset in the file bytes `b` of the first records chunk of the buffer at `at`.
size_t first_records_chunk(const std::vector<uint8_t>& b, size_t at) {
  size_t pos = at + kLogBufferHeaderSize;
  while (load_le<uint32_t>(b.data() + pos + 12) != kChunkRecords)
    pos += kLogChunkHeaderSize + load_le<uint32_t>(b.data() + pos);
  return pos;
}

// A file whose second buffer (records 10..12 in one chunk) was changed by `change` (given
// the bytes and the chunk's offset) and its CRC made valid again: the events of the first
// buffer come, then the damage, named with the buffer's offset.
void expect_second_buffer_damage(const std::function<void(std::vector<uint8_t>&, size_t)>& change,
                                 const std::string& what) {
  TempFile f;
  auto w = LogWriter::create(f.open_rw(), settings(kMinLogBuffer));
  ASSERT_TRUE(w);
  add_run(*w, 1, 0, 1, 10);
  w->set_horizon(9);
  ASSERT_TRUE(w->next_buffer());
  add_run(*w, 1, 10, 1, 3);
  ASSERT_TRUE(w->close(1, 0));
  std::vector<uint8_t> b = f.bytes();
  const size_t second = w->info().data_offset + kMinLogBuffer;
  change(b, first_records_chunk(b, second));
  fix_buffer_crc(b, second);
  f.write(b);
  auto r = open_reader(f);
  ASSERT_TRUE(r);
  const auto [ts, last] = timestamps(*r, false);
  EXPECT_EQ(last, LogReader::Step::Damaged) << what;
  EXPECT_EQ(ts, range(0, 10)) << what;
  EXPECT_NE(r->problem().find(what + " in the buffer at offset " + std::to_string(second)),
            std::string::npos)
      << r->problem();
}

// A chunk whose records do not add up to its header (it says fewer, or more), or a packed
// record whose parts do not fit or carry an unknown bit, inside a buffer whose CRC is right.
TEST(LogMerge, AChunkThatDoesNotAddUpIsDamage) {
  const size_t record = kLogChunkHeaderSize + kPackedChunkBase;  // the first packed record
  expect_second_buffer_damage([](auto& b, size_t c) { store_le<uint32_t>(b.data() + c + 4, 2); },
                              "damaged chunk (event count)");
  expect_second_buffer_damage([](auto& b, size_t c) { store_le<uint32_t>(b.data() + c + 4, 4); },
                              "damaged event record");
  expect_second_buffer_damage([&](auto& b, size_t c) { b[c + record + 3] |= 64; },
                              "damaged event record");
  expect_second_buffer_damage(
      [&](auto& b, size_t c) { store_le<uint16_t>(b.data() + c + record, 0x4000); },
      "damaged event record");
  expect_second_buffer_damage([&](auto& b, size_t c) { b[c + record + 2] = 7; },  // undefined
                              "damaged event record");
}

// The sample event's record packs to 22 bytes (a ring's is 40), 28 when its thread or CPU
// is not its chunk's; a record 2^32 ns or more after its chunk's first, or before it,
// carries its own timestamp; threads, activity IDs, related IDs and stacks come back exactly.
TEST(LogMerge, PackedRecordsKeepEveryPart) {
  const uint8_t payload[14] = {'U', 0, 's', 0, 'e', 0, 'r', 0, 0, 0, 15, 0, 0, 0};
  RecordHead h{};
  h.ts = 5 * kPackedSpan;
  h.entry = 0;
  h.tid = 7;
  h.cpu = 1;
  RecordLayout l{.payload = kMinRecordBytes, .payload_len = sizeof payload};
  const PackedThread same{7, 1};
  EXPECT_EQ(packed_bytes(h, l, h.ts, same), 22u);
  EXPECT_EQ(packed_bytes(h, l, h.ts, PackedThread{8, 1}), 28u);  // another thread's chunk
  EXPECT_EQ(packed_bytes(h, l, h.ts, PackedThread{7, 0}), 28u);  // another CPU
  EXPECT_EQ(packed_bytes(h, l, h.ts + 1, same), 30u);            // before its base: its own
  EXPECT_EQ(packed_bytes(h, l, h.ts - kPackedSpan, same), 30u);  // 2^32 ns after it
  EXPECT_EQ(packed_bytes(h, l, h.ts - kPackedSpan + 1, same), 22u);

  TempFile f;
  auto w = LogWriter::create(f.open_rw(), settings(kMinLogBuffer));
  ASSERT_TRUE(w);
  const uint64_t stack[3] = {7, 0x1122334455667788ull, 3};
  const std::vector<uint64_t> times = {5, 5 + kPackedSpan - 1, 5 + kPackedSpan,
                                       4 + 3 * kPackedSpan};
  std::vector<uint8_t> run;
  const TableEntry entry{};
  for (size_t k = 0; k < times.size(); ++k) {
    const Guid activity{static_cast<uint32_t>(k + 1), 2, 3, {4, 5, 6, 7, 8, 9, 10, 11}};
    const Guid related{static_cast<uint32_t>(k + 9), 2, 3, {4, 5, 6, 7, 8, 9, 10, 11}};
    const RecordParts parts{.inline_entry = k == 3 ? &entry : nullptr,
                            .activity = k % 2 == 0 ? &activity : nullptr,
                            .related = k >= 1 ? &related : nullptr,
                            .stack = stack,
                            .stack_count = static_cast<uint32_t>(k),
                            .payload = payload,
                            .payload_len = static_cast<uint32_t>(sizeof payload - k)};
    const size_t at = run.size();
    run.resize(at + record_bytes(parts), 0);
    auto* r = reinterpret_cast<RecordHead*>(run.data() + at);
    r->size = record_bytes(parts);
    r->state = kRecordEvent;
    r->ts = times[k];
    fill_record(r, static_cast<uint32_t>(100 + k), static_cast<uint16_t>(k), 0, parts);
  }
  ASSERT_TRUE(
      w->add_chunk(run.data(), static_cast<uint32_t>(run.size()), 4, 1, stream_of(1), entry_0()));
  ASSERT_TRUE(w->close(1, 0));
  auto r = open_reader(f);
  ASSERT_TRUE(r);
  RingReader::View v;
  for (size_t k = 0; k < times.size(); ++k) {
    ASSERT_EQ(r->next(v), LogReader::Step::Event) << k << r->problem();
    EXPECT_EQ(v.header.ts, times[k]) << k;
    EXPECT_EQ(v.header.tid, 100 + k);
    EXPECT_EQ(v.header.cpu, k);
    EXPECT_EQ(v.header.activity.data1, k % 2 == 0 ? k + 1 : 0) << k;
    EXPECT_EQ(v.header.has_related != 0, k >= 1) << k;
    EXPECT_EQ(v.header.related.data1, k >= 1 ? k + 9 : 0) << k;
    ASSERT_EQ(v.header.stack_count, k);
    EXPECT_EQ(std::memcmp(v.stack, stack, 8 * k), 0) << k;
    ASSERT_EQ(v.header.payload_len, sizeof payload - k);
    EXPECT_EQ(std::memcmp(v.payload, payload, sizeof payload - k), 0) << k;
  }
  EXPECT_EQ(r->next(v), LogReader::Step::End) << r->problem();
}

// A payload over 64 KB (EventWrite makes none; a packed record cannot hold one) is lost
// and counted, from add() and from a ring's run alike.
TEST(LogWriter, APayloadOver64KBIsLostAndCounted) {
  TempFile f;
  auto w = LogWriter::create(f.open_rw(), settings(kMaxLogBuffer));
  ASSERT_TRUE(w);
  std::vector<uint8_t> big(0x10000, 1);
  EventRecord h{};
  h.payload_len = static_cast<uint32_t>(big.size());
  auto ok = w->add(h, big.data(), nullptr);
  ASSERT_TRUE(ok);
  EXPECT_FALSE(*ok);
  const RecordParts parts{.payload = big.data(), .payload_len = 0x10000};
  std::vector<uint8_t> run(record_bytes(parts), 0);
  auto* r = reinterpret_cast<RecordHead*>(run.data());
  r->size = record_bytes(parts);
  r->state = kRecordEvent;
  fill_record(r, 1, 0, 0, parts);
  add_event(*w, 1);
  ASSERT_TRUE(w->add_chunk(run.data(), r->size, 1, 1, stream_of(1), entry_0()));
  ASSERT_TRUE(w->close(1, 0));
  EXPECT_EQ(w->info().events_lost, 2u);
  EXPECT_EQ(w->info().events_written, 1u);
}

}  // namespace
}  // namespace pfc::trace
