// tests/multiproc/trace_cli_fixture.h — the fixture of the `pfc trace` process tests: a
// private namespace (PFC_TRACE_DIR) and a scratch directory per test, and `pfc trace ...`
// as a child process.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "child.h"
#include "process.h"

namespace pfc::multiproc {

// Polls `done` every 20 ms until it holds (true) or `timeout_ms` passed (false).
inline bool wait_for(const std::function<bool()>& done, int timeout_ms) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!done()) {
    if (std::chrono::steady_clock::now() >= end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

// The compile service of the namespace `ns`, killed and gone (child.h).
inline void kill_compile_service(const std::string& ns) { kill_helpers(ns, "pfc-trace-comp"); }

class TraceCliFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/pfc-tc-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    ::setenv("PFC_TRACE_DIR", (dir_ + "/ns").c_str(), 1);
  }
  void TearDown() override { remove_namespace(dir_, dir_ + "/ns"); }

  // Writes `text` to dir_/name and returns the path.
  std::string write_file(const std::string& name, const std::string& text) const {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  static test::ProcessResult pfc(std::vector<std::string> args) {
    args.insert(args.begin(), "trace");
    return test::run_process(PFC_BINARY, args);
  }

  std::string dir_;
};

}  // namespace pfc::multiproc
