// tests/trace/trace_test_util.h — a fresh namespace directory per test (PFC_TRACE_DIR), and
// the value a test wrote into a ring record.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <string>

#include "trace/dir.h"
#include "trace/ring.h"

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

// The first 4 payload bytes of a test record (its value).
inline uint32_t value_of(const RingReader::View& v) {
  uint32_t x = 0;
  std::memcpy(&x, v.payload, 4);
  return x;
}

}  // namespace pfc::trace::testing
