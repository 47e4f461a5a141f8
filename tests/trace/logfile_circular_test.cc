// tests/trace/logfile_circular_test.cc — a closed circular log file checked against its
// header (docs/logfile.md "Reading damaged and unfinished files"): every kind of damage to
// a slot (header zeroed, magic zeroed, slots swapped, a slot copied over another, sequence
// or used changed with a valid CRC, a zero-filled range, the file cut) ends the events with
// an error naming the file and where, after the events before the damage — never a silent
// gap. A file that lost buffers may lack its oldest one (the writer cleared its header
// before a failed write), and reads to its end.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "base/crc32.h"
#include "base/le.h"
#include "logfile_test_util.h"
#include "trace/logfile.h"

namespace pfc::trace {
namespace {

using namespace testing;  // logfile_test_util.h

constexpr uint64_t kSlots = 8;

// Where things are in the file under test.
struct Layout {
  uint64_t data_offset = 0;
  uint64_t buffer = kMinLogBuffer;
  uint64_t written = 0;  // BuffersWritten
  uint64_t offset_of_sequence(uint64_t seq) const { return data_offset + (seq % kSlots) * buffer; }
};

// A closed circular file of kSlots slots holding `buffers` buffers' worth of events (the
// writer laps when that is more than kSlots).
std::vector<uint8_t> circular_file(const TempFile& f, uint64_t buffers, Layout* layout) {
  LogInfo info = settings();
  info.circular = true;
  info.max_bytes = 4096 + kSlots * uint64_t{kMinLogBuffer};
  auto w = LogWriter::create(f.open_rw(), info);
  EXPECT_TRUE(w);
  uint32_t next = 0;
  while (w->info().buffers_written + 1 < buffers) {
    add_event(*w, next++);
    EXPECT_TRUE(w->write_complete());  // each complete buffer at once, as an idle host does
  }
  for (int i = 0; i < 5; ++i) add_event(*w, next++);  // the last buffer, written at close
  EXPECT_TRUE(w->close(1, 0));
  layout->data_offset = w->info().data_offset;
  layout->written = w->info().buffers_written;
  EXPECT_EQ(layout->written, buffers);
  return f.bytes();
}

void fix_header_crc(std::vector<uint8_t>& b) {
  store_le<uint32_t>(b.data() + 104, crc32({b.data(), 104}));
}

struct Mutation {
  const char* name;
  uint64_t buffers;  // the file's BuffersWritten (kSlots or fewer: not lapped)
  std::function<void(std::vector<uint8_t>&, const Layout&)> apply;
  std::string expect;  // in the problem
};

// The sequence of the k-th surviving buffer (0: the oldest).
uint64_t survivor(const Layout& l, uint64_t k) {
  return (l.written > kSlots ? l.written - kSlots : 0) + k;
}

const std::vector<Mutation>& mutations() {
  static const std::vector<Mutation> all = {
      {"header zeroed", 13,
       [](auto& b, const Layout& l) {
         std::fill_n(b.begin() + static_cast<long>(l.offset_of_sequence(survivor(l, 3))), 32, 0);
       },
       "missing buffer"},
      {"magic zeroed", 13,
       [](auto& b, const Layout& l) {
         std::fill_n(b.begin() + static_cast<long>(l.offset_of_sequence(survivor(l, 0))), 4, 0);
       },
       "missing buffer"},
      {"two slots swapped", 13,
       [](auto& b, const Layout& l) {
         const auto x = b.begin() + static_cast<long>(l.offset_of_sequence(survivor(l, 2)));
         const auto y = b.begin() + static_cast<long>(l.offset_of_sequence(survivor(l, 5)));
         std::swap_ranges(x, x + static_cast<long>(l.buffer), y);
       },
       "buffer out of place"},
      {"a slot copied over another", 13,
       [](auto& b, const Layout& l) {
         const auto from = b.begin() + static_cast<long>(l.offset_of_sequence(survivor(l, 6)));
         std::copy_n(from, l.buffer,
                     b.begin() + static_cast<long>(l.offset_of_sequence(survivor(l, 4))));
       },
       "buffer out of place"},
      {"sequence one lap older, valid CRC", 13,
       [](auto& b, const Layout& l) {
         const uint64_t at = l.offset_of_sequence(survivor(l, 4));
         store_le<uint64_t>(b.data() + at + 8, survivor(l, 4) - kSlots);
         fix_buffer_crc(b, at);
       },
       "buffer out of place"},
      {"sequence one lap newer, valid CRC", 13,
       [](auto& b, const Layout& l) {
         const uint64_t at = l.offset_of_sequence(survivor(l, 1));
         store_le<uint64_t>(b.data() + at + 8, survivor(l, 1) + kSlots);
         fix_buffer_crc(b, at);
       },
       "buffer out of place"},
      {"used grown, valid CRC", 13,  // the newest buffer: partly filled, room to grow
       [](auto& b, const Layout& l) {
         const uint64_t at = l.offset_of_sequence(survivor(l, 7));
         store_le<uint32_t>(b.data() + at + 16, load_le<uint32_t>(b.data() + at + 16) + 8);
         fix_buffer_crc(b, at);
       },
       "damaged chunk header"},
      {"used shrunk, valid CRC", 13,
       [](auto& b, const Layout& l) {
         const uint64_t at = l.offset_of_sequence(survivor(l, 3));
         store_le<uint32_t>(b.data() + at + 16, load_le<uint32_t>(b.data() + at + 16) - 8);
         fix_buffer_crc(b, at);
       },
       "damaged chunk header"},
      {"zero-filled slot", 13,
       [](auto& b, const Layout& l) {
         std::fill_n(b.begin() + static_cast<long>(l.offset_of_sequence(survivor(l, 7))), l.buffer,
                     0);
       },
       "missing buffer"},
      {"zero-filled range over two slots", 13,
       [](auto& b, const Layout& l) {
         std::fill_n(b.begin() + static_cast<long>(l.data_offset + 2 * l.buffer - 100), l.buffer,
                     0);
       },
       " at offset "},
      {"records changed, CRC kept", 13,
       [](auto& b, const Layout& l) { b[l.offset_of_sequence(survivor(l, 2)) + 200] ^= 1; },
       "CRC mismatch"},
      {"cut to data_offset", 13, [](auto& b, const Layout& l) { b.resize(l.data_offset); },
       "truncated: 0 of 8 buffers present"},
      {"cut after 3 slots", 13,
       [](auto& b, const Layout& l) { b.resize(l.data_offset + 3 * l.buffer); },
       "truncated: 3 of 8 buffers present"},
      {"BuffersWritten raised, valid CRC", 13,
       [](auto& b, const Layout& l) {
         store_le<uint64_t>(b.data() + 72, l.written + 1);
         fix_header_crc(b);
       },
       "buffer out of place"},
      {"BuffersWritten lowered, valid CRC", 13,
       [](auto& b, const Layout& l) {
         store_le<uint64_t>(b.data() + 72, l.written - 1);
         fix_header_crc(b);
       },
       "buffer out of place"},
      // Not lapped: 5 of the 8 slots written.
      {"not lapped: header zeroed", 5,
       [](auto& b, const Layout& l) {
         std::fill_n(b.begin() + static_cast<long>(l.offset_of_sequence(2)), 32, 0);
       },
       "missing buffer (sequence 2)"},
      {"not lapped: a buffer copied into a slot never written", 5,
       [](auto& b, const Layout& l) {
         b.resize(l.data_offset + kSlots * l.buffer, 0);
         std::copy_n(b.begin() + static_cast<long>(l.offset_of_sequence(1)), l.buffer,
                     b.begin() + static_cast<long>(l.offset_of_sequence(6)));
       },
       "unexpected buffer (sequence 1)"},
      {"not lapped: last record dropped, used/events/CRC consistent", 5,
       [](auto& b, const Layout& l) {
         const uint64_t at = l.offset_of_sequence(4);
         const uint32_t events = load_le<uint32_t>(b.data() + at + 20);
         uint32_t pos = kLogBufferHeaderSize;
         // One records chunk per event (LogWriter::add), stream chunks between them: the
         // chunks up to the last event's.
         for (uint32_t i = 0;
              i + 1 < events || load_le<uint32_t>(b.data() + at + pos + 12) != kChunkRecords;) {
           if (load_le<uint32_t>(b.data() + at + pos + 12) == kChunkRecords) ++i;
           pos += kLogChunkHeaderSize + load_le<uint32_t>(b.data() + at + pos);
         }
         store_le<uint32_t>(b.data() + at + 16, pos - kLogBufferHeaderSize);
         store_le<uint32_t>(b.data() + at + 20, events - 1);
         fix_buffer_crc(b, at);
       },
       "events, the header says"},
      {"not lapped: BuffersWritten raised, valid CRC", 5,
       [](auto& b, const Layout& l) {
         store_le<uint64_t>(b.data() + 72, l.written + 1);
         fix_header_crc(b);
       },
       "truncated: 5 of 6 buffers present"},
  };
  return all;
}

TEST(CircularLogFile, IntactFilesReadToTheirEnd) {
  for (const uint64_t buffers : {uint64_t{1}, uint64_t{5}, kSlots, uint64_t{13}}) {
    TempFile f;
    Layout l;
    circular_file(f, buffers, &l);
    auto r = open_reader(f);
    ASSERT_TRUE(r);
    const ReadResult got = read_all(*r);
    EXPECT_EQ(got.last, LogReader::Step::End) << buffers << ": " << got.problem;
    ASSERT_FALSE(got.values.empty());
    EXPECT_EQ(got.values, iota(got.values.front(), got.values.back() + 1));
    EXPECT_EQ(r->buffers_read(), std::min(buffers, kSlots));
  }
}

TEST(CircularLogFile, EveryKindOfDamageIsAnErrorAfterTheEventsBeforeIt) {
  for (const Mutation& m : mutations()) {
    SCOPED_TRACE(m.name);
    TempFile f;
    Layout l;
    auto bytes = circular_file(f, m.buffers, &l);
    auto intact = open_reader(f);
    ASSERT_TRUE(intact);
    const std::vector<uint32_t> all = read_all(*intact).values;
    m.apply(bytes, l);
    f.write(bytes);
    auto r = open_reader(f);
    ASSERT_TRUE(r) << r.error().message;
    const ReadResult got = read_all(*r);
    EXPECT_EQ(got.last, LogReader::Step::Damaged);
    EXPECT_NE(got.problem.find(f.path() + ": "), std::string::npos) << got.problem;
    EXPECT_NE(got.problem.find(m.expect), std::string::npos) << got.problem;
    // What was delivered is a run of the intact file's events: those before the damage
    // (from the oldest surviving buffer the damaged header names).
    ASSERT_LE(got.values.size(), all.size());
    EXPECT_NE(std::search(all.begin(), all.end(), got.values.begin(), got.values.end()), all.end());
  }
}

// The host clears the header of the slot it is about to overwrite; when that write fails,
// the file counts lost buffers and its oldest surviving buffer is gone. That reads to the
// end; the same file without lost buffers in its header is damaged.
TEST(CircularLogFile, OldestBufferMayBeMissingWhenBuffersWereLost) {
  for (const uint64_t lost : {uint64_t{0}, uint64_t{1}}) {
    TempFile f;
    Layout l;
    auto bytes = circular_file(f, 13, &l);
    std::fill_n(bytes.begin() + static_cast<long>(l.offset_of_sequence(survivor(l, 0))), 32, 0);
    store_le<uint64_t>(bytes.data() + 96, lost);
    fix_header_crc(bytes);
    f.write(bytes);
    auto r = open_reader(f);
    ASSERT_TRUE(r);
    const ReadResult got = read_all(*r);
    EXPECT_EQ(got.last, lost != 0 ? LogReader::Step::End : LogReader::Step::Damaged) << got.problem;
    EXPECT_EQ(got.values.empty(), lost == 0);
    EXPECT_EQ(r->buffers_read(), lost != 0 ? kSlots - 1 : 0);
  }
}

}  // namespace
}  // namespace pfc::trace
