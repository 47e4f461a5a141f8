// tests/trace/ring_table_test.cc — compact records and the ring's table (docs/namespace.md
// §3 "Records"): many providers and descriptors in one ring, from several threads; a full
// table (records carry their entry); the optional parts; records naming an unpublished
// entry and a damaged table (the reader stops, naming why); every record size a record
// could be cut to; and the same records moved into a log file in small buffers (each buffer
// defines its streams) and read back whole, also from a circular file's surviving buffers;
// the host's stream chunks carrying the whole table, and a damaged record it copied named
// by the file's reader.
#include <gtest/gtest.h>

#include <array>
#include <thread>
#include <vector>

#include "base/crc32.h"
#include "base/le.h"
#include "logfile_test_util.h"
#include "trace/host.h"
#include "trace_test_util.h"

namespace pfc::trace {
namespace {

using testing::TempFile;
using testing::TempNamespace;

constexpr uint64_t kInstance = 7;

// Entry k: provider k % 5, id k, keyword k * 3, flags k % 4.
TableEntry entry_k(uint32_t k) {
  TableEntry e;
  e.provider.data1 = k % 5 + 1;
  e.provider.data4[7] = static_cast<uint8_t>(k % 5);
  e.id = static_cast<uint16_t>(k);
  e.version = static_cast<uint8_t>(k % 3);
  e.level = static_cast<uint8_t>(k % 6);
  e.opcode = static_cast<uint8_t>(k % 7);
  e.task = static_cast<uint16_t>(k * 11);
  e.keyword = uint64_t{k} * 3;
  e.flags = static_cast<uint16_t>(k % 4);
  return e;
}

// Writes event k (entry_k(k), tid k, payload k as 4 bytes) through the table, as
// EventWrite does; false when the ring dropped it.
bool write_k(RingWriter& w, uint32_t k) {
  const TableEntry e = entry_k(k);
  const uint8_t index = w.entry_of(e);
  RecordParts parts{.payload = &k, .payload_len = 4};
  if (index == kEntryInline) parts.inline_entry = &e;
  RecordHead* r = w.reserve(record_bytes(parts));
  if (r == nullptr) return false;
  fill_record(r, k, static_cast<uint16_t>(k % 3), index, parts);
  RingWriter::commit(r);
  return true;
}

// Checks that `v` is event k as write_k made it, with the ring's pid.
void expect_k(const RingReader::View& v, uint32_t k, uint32_t pid) {
  const TableEntry e = entry_k(k);
  EXPECT_EQ(v.header.provider, e.provider) << k;
  EXPECT_EQ(v.header.id, e.id);
  EXPECT_EQ(v.header.version, e.version);
  EXPECT_EQ(v.header.level, e.level);
  EXPECT_EQ(v.header.opcode, e.opcode);
  EXPECT_EQ(v.header.task, e.task);
  EXPECT_EQ(v.header.keyword, e.keyword);
  EXPECT_EQ(v.header.flags, e.flags);
  EXPECT_EQ(v.header.tid, k);
  EXPECT_EQ(v.header.pid, pid);
  EXPECT_EQ(v.header.cpu, k % 3);
  EXPECT_EQ(v.header.payload_len, 4u);
  EXPECT_EQ(v.header.stack_count, 0u);
  EXPECT_EQ(v.header.has_related, 0u);
  EXPECT_EQ(v.header.activity, Guid{});
  uint32_t x = 0;
  std::memcpy(&x, v.payload, 4);
  EXPECT_EQ(x, k);
}

struct Fixture {
  TempNamespace ns;
  TraceDir dir = ns.open();
  ProcessKey self = self_process();
  RingWriter writer = *RingWriter::create(dir, kInstance, self, kMinRingBytes);
  RingReader reader = *RingReader::open(dir, ring_name(kInstance, self));
};

TEST(RingTable, ManyProvidersAndDescriptorsFromSeveralThreads) {
  Fixture f;
  constexpr uint32_t kThreads = 4, kPerThread = 2000, kEntries = 80;
  std::vector<std::thread> ts;
  ts.reserve(kThreads);
  for (uint32_t t = 0; t < kThreads; ++t)
    ts.emplace_back([&, t] {
      for (uint32_t i = 0; i < kPerThread; ++i)  // every thread uses every entry
        while (!write_k(f.writer, (t * 31 + i) % kEntries)) std::this_thread::yield();
    });
  uint32_t read = 0;
  std::vector<uint32_t> seen(kEntries, 0);
  while (read < kThreads * kPerThread) {
    const RingReader::View* v = f.reader.peek();
    if (v == nullptr) {
      ASSERT_FALSE(f.reader.damaged()) << f.reader.damage();
      continue;
    }
    expect_k(*v, v->header.tid, f.self.pid);
    ASSERT_LT(v->header.tid, kEntries);
    ++seen[v->header.tid];
    EXPECT_EQ(v->header.size, 32u);  // 24-byte head, 4 payload bytes padded
    f.reader.pop();
    ++read;
  }
  for (auto& t : ts) t.join();
  EXPECT_EQ(f.reader.stream().count, kEntries);  // each entry published once
  for (uint32_t n : seen) EXPECT_EQ(n, kThreads * kPerThread / kEntries);
}

TEST(RingTable, AFullTableLeavesTheEntryInTheRecord) {
  Fixture f;
  constexpr uint32_t kEntries = kMaxTableEntries + 50;
  for (uint32_t round = 0; round < 2; ++round)
    for (uint32_t k = 0; k < kEntries; ++k) {
      ASSERT_TRUE(write_k(f.writer, k));
      const RingReader::View* v = f.reader.peek();
      ASSERT_NE(v, nullptr) << f.reader.damage();
      expect_k(*v, k, f.self.pid);
      // The first kMaxTableEntries entries are in the table, the rest in their records.
      EXPECT_EQ(v->header.size, k < kMaxTableEntries ? 32u : 32u + sizeof(TableEntry)) << k;
      f.reader.pop();
    }
  EXPECT_EQ(f.reader.stream().count, kMaxTableEntries);
  EXPECT_EQ(f.writer.lost(), 0u);
}

TEST(RingTable, OptionalPartsComeBack) {
  Fixture f;
  const TableEntry e = entry_k(3);
  const uint8_t index = f.writer.entry_of(e);
  Guid activity, related;
  activity.data1 = 0xAC;
  related.data1 = 0x4E;
  const uint64_t stack[3] = {0, 0x401000, 0x402000};
  const std::vector<uint8_t> payload = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  for (uint32_t mask = 0; mask < 8; ++mask) {
    RecordParts p{.payload = payload.data(), .payload_len = mask == 5 ? 0u : 9u};
    if (mask & 1) p.activity = &activity;
    if (mask & 2) p.related = &related;
    if (mask & 4) {
      p.stack = stack;
      p.stack_count = 3;
    }
    RecordHead* r = f.writer.reserve(record_bytes(p));
    ASSERT_NE(r, nullptr);
    fill_record(r, 77, 1, index, p);
    RingWriter::commit(r);
    const RingReader::View* v = f.reader.peek();
    ASSERT_NE(v, nullptr) << f.reader.damage();
    EXPECT_EQ(v->header.activity, (mask & 1) ? activity : Guid{}) << mask;
    EXPECT_EQ(v->header.has_related, (mask & 2) ? 1u : 0u) << mask;
    EXPECT_EQ(v->header.related, (mask & 2) ? related : Guid{}) << mask;
    ASSERT_EQ(v->header.stack_count, (mask & 4) ? 3u : 0u) << mask;
    if (mask & 4) {
      EXPECT_EQ(std::memcmp(v->stack, stack, sizeof stack), 0);
    }
    ASSERT_EQ(v->header.payload_len, p.payload_len) << mask;
    EXPECT_EQ(std::memcmp(v->payload, payload.data(), p.payload_len), 0);
    EXPECT_EQ(v->header.id, 3u);
    EXPECT_EQ(v->header.tid, 77u);
    f.reader.pop();
  }
}

TEST(RingTable, ARecordNamingAnUnpublishedEntryStopsTheReader) {
  Fixture f;
  ASSERT_TRUE(write_k(f.writer, 0));  // entry 0 published
  const uint32_t k = 1;
  const RecordParts p{.payload = &k, .payload_len = 4};
  RecordHead* r = f.writer.reserve(record_bytes(p));
  ASSERT_NE(r, nullptr);
  fill_record(r, 1, 0, 5, p);  // entry 5: never published
  RingWriter::commit(r);
  ASSERT_NE(f.reader.peek(), nullptr);
  f.reader.pop();
  EXPECT_EQ(f.reader.peek(), nullptr);
  EXPECT_TRUE(f.reader.damaged());
  EXPECT_NE(f.reader.damage().find("a record names table entry 5 of 1 its writer published at "
                                   "offset 32"),
            std::string::npos)
      << f.reader.damage();
  EXPECT_NE(f.reader.damage().find("trace buffer r-7-"), std::string::npos) << f.reader.damage();
  EXPECT_TRUE(f.reader.finished());
}

TEST(RingTable, ADamagedTableStopsTheReader) {
  for (int what = 0; what < 2; ++what) {
    Fixture f;
    ASSERT_TRUE(write_k(f.writer, 0));
    auto fd = f.dir.open_file(ring_name(kInstance, f.self), false);
    ASSERT_TRUE(fd);
    auto map = Mapping::map(fd->get(), kRingHeaderSize + kMinRingBytes);
    ASSERT_TRUE(map);
    auto* h = reinterpret_cast<RingHeader*>(map->data());
    if (what == 0) h->table_count.store(kMaxTableEntries + 1);
    if (what == 1) map->data()[kRingTableOffset + 34] = 1;  // entry 0's reserved bytes
    EXPECT_EQ(f.reader.peek(), nullptr) << what;
    EXPECT_TRUE(f.reader.damaged()) << what;
    EXPECT_NE(f.reader.damage().find("a damaged table"), std::string::npos) << f.reader.damage();
  }
}

// A record's word claiming every size below its real one (a writer's bytes cut short, or
// lying): the reader either stops or takes a record whose parts fit in that size (here:
// only the cut that leaves 5 payload bytes), never reading past it.
TEST(RingTable, EveryCutOfARecordIsDamageOrWhole) {
  const uint64_t stack[2] = {0, 1};
  Guid activity;
  activity.data1 = 1;
  const TableEntry e = entry_k(1);
  const std::vector<uint8_t> payload(13, 0xEE);
  const RecordParts p{.inline_entry = &e,
                      .activity = &activity,
                      .stack = stack,
                      .stack_count = 2,
                      .payload = payload.data(),
                      .payload_len = 13};
  const uint32_t full = record_bytes(p);
  ASSERT_EQ(full, 24u + 40 + 16 + 24 + 16);
  for (uint32_t cut = 0; cut < full; cut += 8) {
    Fixture f;
    RecordHead* r = f.writer.reserve(full);
    ASSERT_NE(r, nullptr);
    fill_record(r, 1, 0, kEntryInline, p);
    RingWriter::commit(r);
    *reinterpret_cast<uint32_t*>(r) = cut;  // the word's size (its stamp kept)
    const RingReader::View* v = f.reader.peek();
    if (cut == full - 8) {
      ASSERT_NE(v, nullptr) << f.reader.damage();
      EXPECT_EQ(v->header.payload_len, 5u);
      EXPECT_EQ(v->header.stack_count, 2u);
      continue;
    }
    EXPECT_EQ(v, nullptr) << cut;
    EXPECT_TRUE(f.reader.damaged()) << cut;
  }
}

// The records of a ring moved into a log file (move_runs) whose small buffers each define
// the stream and the entries their records name (here nearly all 94, one record each: the
// worst case for a 4 KB buffer): every event comes back whole, from a sequential and from
// a circular file whose oldest buffers were overwritten (the first surviving buffer
// defines its entries again).
TEST(RingTable, LogFileBuffersEachDefineTheirStreams) {
  for (const bool circular : {false, true}) {
    Fixture f;
    TempFile file;
    LogInfo info = testing::settings(kMinLogBuffer);
    info.circular = circular;
    if (circular) info.max_bytes = 256u << 10;
    auto log = LogWriter::create(file.open_rw(), info);
    ASSERT_TRUE(log) << log.error().message;
    constexpr uint32_t kEvents = 20000, kEntries = kMaxTableEntries + 10;
    for (uint32_t i = 0; i < kEvents; ++i) {
      ASSERT_TRUE(write_k(f.writer, i % kEntries));
      if (i % 1000 == 999) (void)move_runs(f.reader, *log, ~uint64_t{0}, 3);
    }
    (void)move_runs(f.reader, *log, ~uint64_t{0}, 3);
    ASSERT_FALSE(f.reader.damaged()) << f.reader.damage();
    ASSERT_TRUE(log->close(1, 0));
    auto in = testing::open_reader(file);
    ASSERT_TRUE(in) << in.error().message;
    RingReader::View v;
    uint32_t n = 0, first = ~0u;
    LogReader::Step s;
    while ((s = in->next(v)) == LogReader::Step::Event) {
      const uint32_t k = v.header.tid;
      if (first == ~0u) first = k;
      ASSERT_EQ(k, (first + n) % kEntries);
      expect_k(v, k, f.self.pid);
      const int64_t want = filetime_at(f.reader.stream(), v.header.ts);
      EXPECT_EQ(v.header.filetime, want);
      ++n;
    }
    EXPECT_EQ(s, LogReader::Step::End) << in->problem();
    if (circular) {
      EXPECT_GT(n, 1000u);
      EXPECT_LT(n, kEvents);
    } else {
      EXPECT_EQ(n, kEvents);
    }
  }
}

// The chunks of buffer `k` of a log file: (kind, count, stream) of each.
std::vector<std::array<uint32_t, 3>> chunks_of(const std::vector<uint8_t>& file,
                                               const LogInfo& info, uint32_t k) {
  const size_t at = info.data_offset + size_t{k} * info.buffer_size;
  const uint32_t used = load_le<uint32_t>(file.data() + at + 16);
  std::vector<std::array<uint32_t, 3>> out;
  for (size_t p = at + kLogBufferHeaderSize; p < at + kLogBufferHeaderSize + used;) {
    out.push_back({load_le<uint32_t>(file.data() + p + 12), load_le<uint32_t>(file.data() + p + 4),
                   load_le<uint32_t>(file.data() + p + 8)});
    p += kLogChunkHeaderSize + load_le<uint32_t>(file.data() + p);
  }
  return out;
}

// The host's stream chunks carry the ring's whole published table, whatever the records
// name (docs/logfile.md "The session host"): a buffer's first one every entry published so
// far, a later one only the entries published since; the events read back whole.
TEST(RingTable, StreamChunksCarryTheRingsWholeTable) {
  Fixture f;
  TempFile file;
  auto log = LogWriter::create(file.open_rw(), testing::settings(64u << 10));
  ASSERT_TRUE(log) << log.error().message;
  for (uint32_t k = 0; k < 10; ++k) ASSERT_TRUE(write_k(f.writer, k));
  (void)move_runs(f.reader, *log, ~uint64_t{0}, 3);
  ASSERT_TRUE(log->next_buffer());
  ASSERT_TRUE(write_k(f.writer, 0));  // names entry 0 of 10
  (void)move_runs(f.reader, *log, ~uint64_t{0}, 3);
  ASSERT_TRUE(write_k(f.writer, 10));  // a new entry: defined in the same buffer
  (void)move_runs(f.reader, *log, ~uint64_t{0}, 3);
  ASSERT_TRUE(write_k(f.writer, 4));  // defined: no stream chunk
  (void)move_runs(f.reader, *log, ~uint64_t{0}, 3);
  ASSERT_FALSE(f.reader.damaged()) << f.reader.damage();
  const LogInfo info = log->info();
  ASSERT_TRUE(log->close(1, 0));
  const std::vector<uint8_t> bytes = file.bytes();
  using C = std::array<uint32_t, 3>;
  EXPECT_EQ(chunks_of(bytes, info, 0), (std::vector<C>{{kChunkStream, 10, 3}, {0, 10, 3}}));
  EXPECT_EQ(chunks_of(bytes, info, 1),
            (std::vector<C>{
                {kChunkStream, 10, 3}, {0, 1, 3}, {kChunkStream, 1, 3}, {0, 1, 3}, {0, 1, 3}}));
  auto in = testing::open_reader(file);
  ASSERT_TRUE(in) << in.error().message;
  const std::vector<uint32_t> want = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 10, 4};
  RingReader::View v;
  for (const uint32_t k : want) {
    ASSERT_EQ(in->next(v), LogReader::Step::Event) << in->problem();
    expect_k(v, k, f.self.pid);
  }
  EXPECT_EQ(in->next(v), LogReader::Step::End) << in->problem();
}

// A committed record whose parts are damaged (an unknown part bit; a table index its
// writer never published) is left out by the host, which checks each record as it packs
// it, and counted lost: the file holds the events before and after it, undamaged.
TEST(RingTable, ADamagedRecordIsLeftOutByTheHostAndCounted) {
  for (const int what : {0, 1}) {
    Fixture f;
    TempFile file;
    auto log = LogWriter::create(file.open_rw(), testing::settings(64u << 10));
    ASSERT_TRUE(log) << log.error().message;
    ASSERT_TRUE(write_k(f.writer, 0));
    (void)move_runs(f.reader, *log, ~uint64_t{0}, 3);
    ASSERT_TRUE(log->next_buffer());
    const uint32_t k = 1;
    const RecordParts parts{.payload = &k, .payload_len = 4};
    RecordHead* r = f.writer.reserve(record_bytes(parts));
    ASSERT_NE(r, nullptr);
    fill_record(r, k, 0, f.writer.entry_of(entry_k(k)), parts);
    if (what == 0) r->parts |= 64;
    if (what == 1) r->entry = 60;
    RingWriter::commit(r);
    ASSERT_TRUE(write_k(f.writer, 2));
    const Moved m = move_runs(f.reader, *log, ~uint64_t{0}, 3);
    EXPECT_EQ(m.events, 2u);
    EXPECT_FALSE(f.reader.damaged()) << f.reader.damage();
    ASSERT_TRUE(log->close(1, 0));
    EXPECT_EQ(log->info().events_lost, 1u) << what;
    auto in = testing::open_reader(file);
    ASSERT_TRUE(in) << in.error().message;
    RingReader::View v;
    for (const uint32_t want : {0u, 2u}) {
      ASSERT_EQ(in->next(v), LogReader::Step::Event) << in->problem();
      expect_k(v, want, f.self.pid);
    }
    EXPECT_EQ(in->next(v), LogReader::Step::End) << what << in->problem();
    EXPECT_EQ(in->info().events_lost, 1u);
  }
}

// The same in small buffers with a full table, where the host reads each record's table
// index to define only the entries named: a record naming an index no table can hold
// defines nothing, and is left out and counted.
TEST(RingTable, ARecordNamingNoEntryInSmallBuffersIsLeftOutAndCounted) {
  Fixture f;
  TempFile file;
  auto log = LogWriter::create(file.open_rw(), testing::settings(kMinLogBuffer));
  ASSERT_TRUE(log) << log.error().message;
  for (uint32_t k = 0; k < kMaxTableEntries; ++k) ASSERT_TRUE(write_k(f.writer, k));
  (void)move_runs(f.reader, *log, ~uint64_t{0}, 3);
  ASSERT_TRUE(log->next_buffer());
  const uint32_t k = 1;
  const RecordParts parts{.payload = &k, .payload_len = 4};
  RecordHead* r = f.writer.reserve(record_bytes(parts));
  ASSERT_NE(r, nullptr);
  fill_record(r, k, 0, 200, parts);
  RingWriter::commit(r);
  EXPECT_EQ(move_runs(f.reader, *log, ~uint64_t{0}, 3).events, 1u);
  EXPECT_FALSE(f.reader.damaged()) << f.reader.damage();
  ASSERT_TRUE(log->close(1, 0));
  EXPECT_EQ(log->info().events_lost, 1u);
  auto in = testing::open_reader(file);
  ASSERT_TRUE(in) << in.error().message;
  RingReader::View v;
  for (uint32_t i = 0; i < kMaxTableEntries; ++i) {
    ASSERT_EQ(in->next(v), LogReader::Step::Event) << in->problem();
    expect_k(v, i, f.self.pid);
  }
  EXPECT_EQ(in->next(v), LogReader::Step::End) << in->problem();
}

// A version-4 log file (its chunks carry no thread: every record has its own) is refused by
// name.
TEST(RingTable, LogFileVersion4IsRefusedByName) {
  TempFile file;
  auto log = LogWriter::create(file.open_rw(), testing::settings(kMinLogBuffer));
  ASSERT_TRUE(log);
  ASSERT_TRUE(log->close(1, 0));
  std::vector<uint8_t> b = file.bytes();
  store_le<uint32_t>(b.data() + 8, 4);
  store_le<uint32_t>(b.data() + 104, crc32({b.data(), 104}));  // the header's CRC made valid
  file.write(b);
  auto in = testing::open_reader(file);
  ASSERT_FALSE(in);
  EXPECT_NE(
      in.error().message.find("log file version 4 is not supported (this pfc reads version 5)"),
      std::string::npos)
      << in.error().message;
}

}  // namespace
}  // namespace pfc::trace
