// tests/trace/logfile_test_util.h — what the log file tests share: a temporary file,
// writer settings, numbered events written and checked back (event i has id i, pid
// 1000 + i % 2, i % 50 + 4 payload bytes holding i, a stack when i % 7 == 0).
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "base/crc32.h"
#include "base/le.h"
#include "trace/logfile.h"

namespace pfc::trace::testing {

class TempFile {
 public:
  TempFile() {
    char tmpl[] = "/tmp/pfc-logfile-test-XXXXXX";
    const int fd = ::mkstemp(tmpl);
    ::close(fd);
    path_ = tmpl;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  const std::string& path() const { return path_; }
  UniqueFd open_rw() const { return UniqueFd(::open(path_.c_str(), O_RDWR | O_CLOEXEC)); }
  std::vector<uint8_t> bytes() const {
    std::vector<uint8_t> out(std::filesystem::file_size(path_));
    const int fd = ::open(path_.c_str(), O_RDONLY);
    EXPECT_EQ(::read(fd, out.data(), out.size()), static_cast<ssize_t>(out.size()));
    ::close(fd);
    return out;
  }
  void write(const std::vector<uint8_t>& b) const {
    const int fd = ::open(path_.c_str(), O_WRONLY | O_TRUNC);
    EXPECT_EQ(::write(fd, b.data(), b.size()), static_cast<ssize_t>(b.size()));
    ::close(fd);
  }

 private:
  std::string path_;
};

inline LogInfo settings(uint32_t buffer = kMinLogBuffer) {
  LogInfo info;
  info.session = u"Example-Session";
  info.file_name = u"/tmp/x.etl";
  info.buffer_size = buffer;
  info.start_time = 133'000'000'000'000'000;
  info.log_file_mode = 8;
  return info;
}

// Event i: id i, pid 1000 + i % 2, payload of i % 50 + 4 bytes holding i, a stack when
// i % 7 == 0; what LogWriter::add answered.
inline Result<bool> try_add_event(LogWriter& w, uint32_t i) {
  EventRecord h{};
  h.id = static_cast<uint16_t>(i);
  h.pid = 1000 + i % 2;
  h.tid = 7;
  h.filetime = 133'000'000'000'000'000 + i;
  h.ts = i;
  h.payload_len = 4 + i % 50;
  h.stack_count = i % 7 == 0 ? 2 : 0;
  std::vector<uint8_t> payload(h.payload_len, 0xAB);
  std::memcpy(payload.data(), &i, 4);
  const uint64_t stack[2] = {i, ~uint64_t{i}};
  return w.add(h, payload.data(), reinterpret_cast<const uint8_t*>(stack));
}

inline void add_event(LogWriter& w, uint32_t i) {
  auto ok = try_add_event(w, i);
  ASSERT_TRUE(ok.has_value()) << ok.error().message;
  EXPECT_TRUE(*ok);
}

struct ReadResult {
  std::vector<uint32_t> values;
  LogReader::Step last = LogReader::Step::End;
  std::string problem;
};

// Checks every event is event i as add_event made it.
inline ReadResult read_all(LogReader& r) {
  ReadResult out;
  RingReader::View v;
  for (;;) {
    out.last = r.next(v);
    if (out.last != LogReader::Step::Event) break;
    uint32_t i = 0;
    std::memcpy(&i, v.payload, 4);
    EXPECT_EQ(v.header.id, static_cast<uint16_t>(i));
    EXPECT_EQ(v.header.payload_len, 4 + i % 50);
    EXPECT_EQ(v.header.pid, 1000 + i % 2);
    EXPECT_EQ(v.header.filetime, 133'000'000'000'000'000 + i);
    EXPECT_EQ(v.header.stack_count, i % 7 == 0 ? 2 : 0);
    if (v.header.stack_count == 2) {
      uint64_t s[2];
      std::memcpy(s, v.stack, sizeof s);
      EXPECT_EQ(s[0], i);
    }
    out.values.push_back(i);
  }
  out.problem = r.problem();
  return out;
}

inline Result<LogReader> open_reader(const TempFile& f) {
  return LogReader::open(fd_input(UniqueFd(::open(f.path().c_str(), O_RDONLY))), f.path());
}

// Makes the CRC of the buffer at `at` in the file bytes `b` valid again after a change.
inline void fix_buffer_crc(std::vector<uint8_t>& b, uint64_t at) {
  uint8_t head[kLogBufferHeaderSize];
  std::memcpy(head, b.data() + at, sizeof head);
  store_le<uint32_t>(head + 24, 0);
  const uint32_t used = load_le<uint32_t>(b.data() + at + 16);
  store_le<uint32_t>(b.data() + at + 24,
                     crc32({b.data() + at + kLogBufferHeaderSize, used}, crc32(head)));
}

inline std::vector<uint32_t> iota(uint32_t from, uint32_t to) {
  std::vector<uint32_t> v;
  for (uint32_t i = from; i < to; ++i) v.push_back(i);
  return v;
}

}  // namespace pfc::trace::testing
