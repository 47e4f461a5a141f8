// tests/cli/process.h — runs the real `pfc` binary for the CLI and golden tests and
// captures its exit code, stdout and stderr.
#pragma once

#include <string>
#include <vector>

namespace pfc::test {

struct ProcessResult {
  int exit_code = -1;  // -1: did not exit normally (signal, could not start)
  std::string out;
  std::string err;
};

// Runs `program` with `args` (argv[1..]) in directory `cwd` (empty: the current one),
// stdin closed. Never throws; a failure to start shows as exit_code -1 with a message in err.
ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::string& cwd = "");

// The whole file, or "" if it cannot be read.
std::string read_text(const std::string& path);

}  // namespace pfc::test
