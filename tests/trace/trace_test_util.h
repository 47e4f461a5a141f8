// tests/trace/trace_test_util.h — a fresh namespace directory per test (PFC_TRACE_DIR).
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "trace/dir.h"

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

}  // namespace pfc::trace::testing
