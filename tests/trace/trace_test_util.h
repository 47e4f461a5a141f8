// tests/trace/trace_test_util.h — a fresh namespace directory per test (PFC_TRACE_DIR), a
// live session in it, and a ring record carrying a test value: writing one, reading the
// value back.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "trace/dir.h"
#include "trace/ring.h"
#include "trace/state.h"

namespace pfc::trace::testing {

class TempNamespace {
 public:
  TempNamespace() {
    char tmpl[] = "/tmp/pfc-trace-test-XXXXXX";
    path_ = ::mkdtemp(tmpl);
    ::setenv("PFC_TRACE_DIR", path_.c_str(), 1);
  }
  ~TempNamespace() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }
  TraceDir open() const {
    auto d = TraceDir::open();
    EXPECT_TRUE(d.has_value()) << (d ? "" : d.error().message);
    return std::move(*d);
  }

 private:
  std::string path_;
};

// Publishes a live session of `instance` (slot 0, named "S") through `store`: its readers
// then wait for the merge horizon. True when the update went through.
inline bool publish_session(StateStore& store, uint64_t instance) {
  auto st = store.update([instance](NamespaceState& s) -> Result<void> {
    SessionEntry e;
    e.instance = instance;
    e.name = u"S";
    s.sessions.push_back(e);
    s.next_instance = std::max(s.next_instance, instance + 1);
    return {};
  });
  EXPECT_TRUE(st.has_value()) << st.error().message;
  return st.has_value();
}

// The first 4 payload bytes of a test record (its value).
inline uint32_t value_of(const RingReader::View& v) {
  uint32_t x = 0;
  std::memcpy(&x, v.payload, 4);
  return x;
}

// The bytes of a test record with `payload_len` payload bytes (commit_value).
inline uint32_t value_bytes(uint32_t payload_len = 4) {
  static const TableEntry entry;
  return record_bytes(RecordParts{.inline_entry = &entry, .payload_len = payload_len});
}

// Fills a record of value_bytes(payload_len) so that it carries `value` (its first 4 of
// `payload_len` payload bytes, zeros after, and its event id, in the record's own table
// entry) and commits it.
inline void commit_value(RecordHead* r, uint32_t value, uint32_t payload_len = 4) {
  TableEntry entry;
  entry.id = static_cast<uint16_t>(value);
  std::vector<uint8_t> payload(payload_len, 0);
  std::memcpy(payload.data(), &value, std::min<size_t>(4, payload_len));
  fill_record(
      r, 1, 0, kEntryInline,
      RecordParts{.inline_entry = &entry, .payload = payload.data(), .payload_len = payload_len});
  RingWriter::commit(r);
}

// Writes and commits one record carrying `value` (commit_value); false when the ring
// dropped it.
inline bool write_one(RingWriter& w, uint32_t value, uint32_t payload_len = 4) {
  RecordHead* r = w.reserve(value_bytes(payload_len));
  if (r == nullptr) return false;
  commit_value(r, value, payload_len);
  return true;
}

// Four threads write 20,000 records of `payload_len` bytes each into `writer` while this
// thread reads them from `reader`: every record accepted is read once, each thread's in
// its order, timestamps never decrease, and accepted + lost is everything written.
inline void check_concurrent_writers(RingWriter& writer, RingReader& reader, uint32_t payload_len) {
  constexpr int kThreads = 4, kPerThread = 20000;
  std::atomic<uint64_t> accepted{0};
  std::vector<std::thread> ts;
  ts.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t)
    ts.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i)
        if (write_one(writer, static_cast<uint32_t>(t * kPerThread + i), payload_len))
          accepted.fetch_add(1);
    });
  uint64_t read = 0, last_ts = 0;
  std::vector<int> next(kThreads, 0);
  auto drain = [&] {
    while (const auto* v = reader.peek()) {
      const uint32_t x = value_of(*v);
      const int t = static_cast<int>(x / kPerThread);
      EXPECT_GE(static_cast<int>(x % kPerThread), next[t]);  // per-thread order kept
      next[t] = static_cast<int>(x % kPerThread) + 1;
      EXPECT_GE(v->header.ts, last_ts);
      last_ts = v->header.ts;
      reader.pop();
      ++read;
    }
  };
  while (read + writer.lost() < uint64_t{kThreads} * kPerThread) drain();
  for (auto& t : ts) t.join();
  drain();
  EXPECT_FALSE(reader.damaged());
  EXPECT_EQ(read, accepted.load());
  EXPECT_EQ(read + writer.lost(), uint64_t{kThreads} * kPerThread);
}

}  // namespace pfc::trace::testing
