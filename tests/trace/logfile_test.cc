// tests/trace/logfile_test.cc — the log file format (docs/logfile.md): header and sections
// round trip, events read back exactly, a file whose writer never closed it (readable up
// to its last complete buffer, and said so), following a growing file, the sequential
// size limit (first events kept, losses counted), circular files (newest kept, oldest
// first), and cut or damaged files (the events before the damage, or an error; never a
// crash).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <random>
#include <vector>

#include "logfile_test_util.h"
#include "trace/logfile.h"

namespace pfc::trace {
namespace {

using namespace testing;  // logfile_test_util.h

TEST(LogFile, HeaderAndSchemasRoundTrip) {
  LogInfo info = settings();
  info.schemas.push_back(
      {Guid{0x1111, 2, 3, {1, 2, 3, 4, 5, 6, 7, 8}}, kSchemaPfcScript, "A", {1, 2, 3}});
  info.schemas.push_back({Guid{0x2222, 2, 3, {1, 2, 3, 4, 5, 6, 7, 9}}, kSchemaManifest, "B", {}});
  TempFile f;
  auto w = LogWriter::create(f.open_rw(), info);
  ASSERT_TRUE(w) << w.error().message;
  ASSERT_TRUE(w->close(133'000'000'100'000'000, 3));
  auto r = open_reader(f);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->info().session, u"Example-Session");
  EXPECT_EQ(r->info().file_name, u"/tmp/x.etl");
  EXPECT_EQ(r->info().schemas, info.schemas);
  EXPECT_TRUE(r->info().closed);
  EXPECT_EQ(r->info().end_time, 133'000'000'100'000'000);
  EXPECT_EQ(r->info().start_time, info.start_time);
  EXPECT_EQ(r->info().events_lost, 3u);
  EXPECT_EQ(r->info().pointer_size, sizeof(void*));
  EXPECT_EQ(r->info().log_file_mode, 8u);
  EXPECT_EQ(read_all(*r).values, std::vector<uint32_t>{});
}

TEST(LogFile, SchemaSectionDecodeChecksLengths) {
  std::vector<ProviderSchema> s{
      {Guid{0x1111, 2, 3, {1, 2, 3, 4, 5, 6, 7, 8}}, kSchemaPfcScript, "A", {9}}};
  auto bytes = encode_schemas(s);
  EXPECT_EQ(*decode_schemas(bytes.data(), bytes.size()), s);
  for (size_t n = 0; n < bytes.size(); ++n) EXPECT_FALSE(decode_schemas(bytes.data(), n));
}

TEST(LogFile, EventsComeBackExactlyAcrossBuffers) {
  TempFile f;
  auto w = LogWriter::create(f.open_rw(), settings());
  ASSERT_TRUE(w);
  for (uint32_t i = 0; i < 1000; ++i) add_event(*w, i);
  ASSERT_TRUE(w->close(1, 0));
  EXPECT_GT(w->info().buffers_written, 10u);
  auto r = open_reader(f);
  ASSERT_TRUE(r);
  const ReadResult got = read_all(*r);
  EXPECT_EQ(got.values, iota(0, 1000));
  EXPECT_EQ(got.last, LogReader::Step::End);
  EXPECT_EQ(r->info().events_written, 1000u);
  EXPECT_EQ(r->buffers_read(), r->info().buffers_written);
}

TEST(LogFile, UnclosedFileReadsUpToItsLastCompleteBufferAndCanBeFollowed) {
  TempFile f;
  auto w = LogWriter::create(f.open_rw(), settings());
  ASSERT_TRUE(w);
  for (uint32_t i = 0; i < 100; ++i) add_event(*w, i);
  ASSERT_TRUE(w->flush());
  for (uint32_t i = 100; i < 110; ++i) add_event(*w, i);  // buffered, not written
  auto r = open_reader(f);
  ASSERT_TRUE(r);
  ReadResult got = read_all(*r);
  EXPECT_EQ(got.values, iota(0, 100));
  EXPECT_EQ(got.last, LogReader::Step::Pending);
  EXPECT_NE(r->not_closed_warning().find("file not closed: writer died or still writing"),
            std::string::npos);
  ASSERT_TRUE(w->close(2, 0));
  ASSERT_TRUE(r->refresh());
  got = read_all(*r);
  EXPECT_EQ(got.values, iota(100, 110));
  EXPECT_EQ(got.last, LogReader::Step::End);
}

ProviderSchema schema_of(uint32_t tag, size_t bytes) {
  return {Guid{tag, 0, 0x4000, {0x80, 0, 0, 0, 0, 0, 0, 1}},
          kSchemaPfcExtension,
          {},
          std::vector<uint8_t>(bytes, static_cast<uint8_t>(tag))};
}

// The host's rewrite of the sections (set_schemas): events already written stay, a reader
// that opened the file before sees the new schemas after refresh(), the closed file keeps
// them, and a schema that does not fit the reserved room is left out (and counted) while a
// later one that fits is kept.
TEST(LogFile, SetSchemasRewritesTheSectionsInTheReservedRoom) {
  TempFile f;
  LogInfo info = settings();
  info.schema_room = 8192;
  auto w = LogWriter::create(f.open_rw(), info);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->info().data_offset, 12288u);  // header + sections + 8 KB, rounded to 4 KB
  for (uint32_t i = 0; i < 100; ++i) add_event(*w, i);
  ASSERT_TRUE(w->flush());
  auto r = open_reader(f);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->info().schemas.empty());
  EXPECT_EQ(read_all(*r).values, iota(0, 100));

  const std::vector<ProviderSchema> first{schema_of(1, 100), schema_of(2, 3000)};
  ASSERT_TRUE(w->set_schemas(first));
  for (uint32_t i = 100; i < 200; ++i) add_event(*w, i);
  ASSERT_TRUE(w->flush());
  ASSERT_TRUE(r->refresh());
  EXPECT_EQ(r->info().schemas, first);
  EXPECT_EQ(r->info().session, u"Example-Session");
  EXPECT_EQ(read_all(*r).values, iota(100, 200));

  // Provider 3's schema is too large for what is left; provider 4's still fits.
  const std::vector<ProviderSchema> second{schema_of(1, 100), schema_of(2, 3000),
                                           schema_of(3, 9000), schema_of(4, 2000)};
  ASSERT_TRUE(w->set_schemas(second));
  EXPECT_EQ(w->info().schemas_left_out, 1u);
  ASSERT_TRUE(w->close(3, 0));
  auto closed = open_reader(f);
  ASSERT_TRUE(closed);
  const std::vector<ProviderSchema> kept{second[0], second[1], second[3]};
  EXPECT_EQ(closed->info().schemas, kept);
  EXPECT_EQ(closed->info().schemas_left_out, 1u);
  EXPECT_TRUE(closed->info().closed);
  EXPECT_EQ(read_all(*closed).values, iota(0, 200));
}

// The writer died before it learnt any schema: the file reads as any unclosed file, with
// no schemas. It died in the middle of a rewrite (sections no longer matching their CRC):
// the events are still read, without the sections, and the warning says so; the same
// damage in a closed file is an error.
TEST(LogFile, WriterThatDiedBeforeOrDuringTheSchemaRewriteLeavesItsEvents) {
  TempFile f;
  LogInfo info = settings();
  info.schema_room = 4096;
  auto w = LogWriter::create(f.open_rw(), info);
  ASSERT_TRUE(w);
  for (uint32_t i = 0; i < 50; ++i) add_event(*w, i);
  ASSERT_TRUE(w->flush());
  {
    auto r = open_reader(f);
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->info().schemas.empty());
    EXPECT_FALSE(r->sections_lost());
    const ReadResult got = read_all(*r);
    EXPECT_EQ(got.values, iota(0, 50));
    EXPECT_EQ(got.last, LogReader::Step::Pending);
  }
  ASSERT_TRUE(w->set_schemas({schema_of(1, 64)}));
  std::vector<uint8_t> bytes = f.bytes();
  bytes[kLogHeaderSize + 20] ^= 0xFF;  // inside the session section
  f.write(bytes);
  {
    auto r = open_reader(f);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->sections_lost());
    EXPECT_TRUE(r->info().schemas.empty());
    EXPECT_EQ(read_all(*r).values, iota(0, 50));
    EXPECT_NE(r->not_closed_warning().find("sections (session, provider schemas) are unreadable"),
              std::string::npos)
        << r->not_closed_warning();
  }
  ASSERT_TRUE(w->close(4, 0));  // rewrites only the fixed header: the damage stays
  auto r = open_reader(f);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("damaged log file header (sections)"), std::string::npos);
}

TEST(LogFile, SequentialLimitKeepsTheFirstEventsAndCountsLosses) {
  TempFile f;
  LogInfo info = settings();
  info.max_bytes = 4096 + 4 * uint64_t{kMinLogBuffer};  // the header page and 4 buffers
  auto w = LogWriter::create(f.open_rw(), info);
  ASSERT_TRUE(w);
  for (uint32_t i = 0; i < 2000; ++i) add_event(*w, i);
  ASSERT_TRUE(w->close(1, 5));
  EXPECT_EQ(w->info().buffers_written, 4u);
  EXPECT_GT(w->info().log_buffers_lost, 0u);
  EXPECT_LE(std::filesystem::file_size(f.path()), info.max_bytes);
  auto r = open_reader(f);
  ASSERT_TRUE(r);
  const ReadResult got = read_all(*r);
  ASSERT_FALSE(got.values.empty());
  EXPECT_EQ(got.values, iota(0, static_cast<uint32_t>(got.values.size())));
  EXPECT_EQ(r->info().events_written, got.values.size());
  EXPECT_EQ(r->info().events_lost, 2000 - got.values.size() + 5);
}

TEST(LogFile, CircularKeepsTheNewestOldestFirst) {
  TempFile f;
  LogInfo info = settings();
  info.circular = true;
  info.max_bytes = 4096 + 3 * uint64_t{kMinLogBuffer};
  auto w = LogWriter::create(f.open_rw(), info);
  ASSERT_TRUE(w);
  for (uint32_t i = 0; i < 2000; ++i) add_event(*w, i);
  ASSERT_TRUE(w->close(1, 0));
  EXPECT_GT(w->info().buffers_written, 3u);
  auto r = open_reader(f);
  ASSERT_TRUE(r);
  const ReadResult got = read_all(*r);
  EXPECT_EQ(got.last, LogReader::Step::End);
  ASSERT_FALSE(got.values.empty());
  const uint32_t first = got.values.front();
  EXPECT_GT(first, 0u);
  EXPECT_EQ(got.values, iota(first, 2000));
  EXPECT_EQ(r->buffers_read(), 3u);
}

// A circular file read while it is written: the follower gets every buffer in order, then
// what the writer added since; when the writer laps it, the overwritten buffers are skipped
// and counted, and reading goes on from the oldest surviving one.
TEST(LogFile, CircularFileCanBeFollowedAndCountsOverwrittenBuffers) {
  TempFile f;
  LogInfo info = settings();
  info.circular = true;
  info.max_bytes = 4096 + 4 * uint64_t{kMinLogBuffer};  // 4 slots
  auto w = LogWriter::create(f.open_rw(), info);
  ASSERT_TRUE(w);
  uint32_t next = 0;
  const auto write_buffer = [&] {  // events until one more buffer is written
    const uint64_t before = w->info().buffers_written;
    while (w->info().buffers_written == before) {
      add_event(*w, next++);
      ASSERT_TRUE(w->write_complete());  // a complete buffer at once, as an idle host does
    }
  };
  write_buffer();
  write_buffer();
  auto r = open_reader(f);
  ASSERT_TRUE(r);
  ReadResult got = read_all(*r);
  EXPECT_EQ(got.last, LogReader::Step::Pending);
  ASSERT_FALSE(got.values.empty());
  EXPECT_EQ(got.values, iota(0, got.values.back() + 1));
  uint32_t seen = got.values.back() + 1;
  // Two more buffers (no lap): read next, in order.
  write_buffer();
  write_buffer();
  ASSERT_TRUE(r->refresh());
  got = read_all(*r);
  EXPECT_EQ(got.last, LogReader::Step::Pending);
  ASSERT_FALSE(got.values.empty());
  EXPECT_EQ(got.values, iota(seen, got.values.back() + 1));
  seen = got.values.back() + 1;
  EXPECT_EQ(r->buffers_overwritten(), 0u);
  // Six more buffers into 4 slots: the reader was lapped; 2 buffers are gone.
  for (int i = 0; i < 6; ++i) write_buffer();
  ASSERT_TRUE(r->refresh());
  got = read_all(*r);
  ASSERT_FALSE(got.values.empty());
  EXPECT_GT(got.values.front(), seen);
  EXPECT_EQ(got.values, iota(got.values.front(), got.values.back() + 1));
  EXPECT_EQ(r->buffers_overwritten(), 2u);
  EXPECT_NE(r->not_closed_warning().find("2 overwritten before they were read"), std::string::npos);
  seen = got.values.back() + 1;
  // Closed: the events buffered at the end, then End.
  for (uint32_t i = 0; i < 5; ++i) add_event(*w, next++);
  ASSERT_TRUE(w->close(2, 0));
  ASSERT_TRUE(r->refresh());
  got = read_all(*r);
  EXPECT_EQ(got.last, LogReader::Step::End);
  EXPECT_EQ(got.values, iota(seen, next));
  EXPECT_NE(r->overwritten_warning().find(": 2 buffers were overwritten before they were read"),
            std::string::npos);
}

// A closed file of 300 events over several buffers.
std::vector<uint8_t> sample_file(TempFile& f, uint64_t* data_offset) {
  auto w = LogWriter::create(f.open_rw(), settings());
  EXPECT_TRUE(w);
  for (uint32_t i = 0; i < 300; ++i) add_event(*w, i);
  EXPECT_TRUE(w->close(1, 0));
  *data_offset = w->info().data_offset;
  return f.bytes();
}

// Reads the file as damaged: never a crash, the events are a prefix of 0..299, and the end
// is a clear problem (or Pending/End).
ReadResult read_damaged(const TempFile& f) {
  ReadResult out;
  auto r = open_reader(f);
  if (!r) {
    out.problem = r.error().message;
    EXPECT_NE(out.problem.find(f.path()), std::string::npos) << out.problem;
    out.last = LogReader::Step::Damaged;
    return out;
  }
  out = read_all(*r);
  EXPECT_EQ(out.values, iota(0, static_cast<uint32_t>(out.values.size())));
  if (out.last == LogReader::Step::Damaged) {
    EXPECT_NE(out.problem.find(f.path()), std::string::npos) << out.problem;
  }
  return out;
}

TEST(LogFile, CutAtEveryBufferBoundaryGivesTheEventsBeforeTheCut) {
  TempFile f;
  uint64_t data = 0;
  const auto whole = sample_file(f, &data);
  size_t previous = 0;
  for (uint64_t cut = data; cut <= whole.size(); cut += kMinLogBuffer) {
    f.write(std::vector<uint8_t>(whole.begin(), whole.begin() + static_cast<long>(cut)));
    const ReadResult got = read_damaged(f);
    EXPECT_GE(got.values.size(), previous);
    previous = got.values.size();
    if (cut < whole.size()) {
      EXPECT_EQ(got.last, LogReader::Step::Damaged);
      EXPECT_NE(got.problem.find("truncated"), std::string::npos) << got.problem;
    } else {
      EXPECT_EQ(got.values.size(), 300u);
    }
  }
}

TEST(LogFile, CutAtRandomBytesNeverCrashes) {
  TempFile f;
  uint64_t data = 0;
  const auto whole = sample_file(f, &data);
  std::mt19937 rng(15);
  for (int round = 0; round < 200; ++round) {
    const size_t cut = rng() % whole.size();
    f.write(std::vector<uint8_t>(whole.begin(), whole.begin() + static_cast<long>(cut)));
    const ReadResult got = read_damaged(f);
    EXPECT_LT(got.values.size(), 300u);
  }
}

TEST(LogFile, CorruptedBytesGiveAClearErrorOrTheEventsBefore) {
  TempFile f;
  uint64_t data = 0;
  const auto whole = sample_file(f, &data);
  std::mt19937 rng(16);
  for (int round = 0; round < 300; ++round) {
    auto bad = whole;
    const size_t at = round < 128 ? static_cast<size_t>(round) : rng() % whole.size();
    bad[at] ^= static_cast<uint8_t>(1 + rng() % 255);
    f.write(bad);
    const ReadResult got = read_damaged(f);
    if (got.last == LogReader::Step::End) {
      EXPECT_EQ(got.values.size(), 300u);
    }
  }
}

TEST(LogFile, DamagedBufferEndsTheEventsWithItsOffset) {
  TempFile f;
  uint64_t data = 0;
  auto bytes = sample_file(f, &data);
  bytes[data + kMinLogBuffer + 100] ^= 0xFF;  // inside the second buffer's records
  f.write(bytes);
  const ReadResult got = read_damaged(f);
  EXPECT_EQ(got.last, LogReader::Step::Damaged);
  EXPECT_NE(got.problem.find("CRC"), std::string::npos) << got.problem;
  EXPECT_NE(got.problem.find(std::to_string(data + kMinLogBuffer)), std::string::npos);
  EXPECT_FALSE(got.values.empty());
}

TEST(LogFile, NotALogFileIsRefusedByName) {
  TempFile f;
  f.write({'{', '"', 'a', '"', '}', '\n'});
  auto r = open_reader(f);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("not a pfc trace log file"), std::string::npos);
  EXPECT_NE(r.error().message.find(f.path()), std::string::npos);
}

}  // namespace
}  // namespace pfc::trace
