// tests/multiproc/trace_cli_fixture.h — the fixture of the `pfc trace` process tests: a
// private namespace (PFC_TRACE_DIR) and a scratch directory per test, and `pfc trace ...`
// as a child process.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.h"

namespace pfc::multiproc {

class TraceCliFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/pfc-tc-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    ::setenv("PFC_TRACE_DIR", (dir_ + "/ns").c_str(), 1);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

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
