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

// Where the child's standard output goes: captured (ProcessResult::out), a pipe whose
// reading end is already closed (every write fails with EPIPE, whatever its size or
// timing), or /dev/full (every write fails with ENOSPC).
enum class StdoutTo { Capture, ClosedPipe, DevFull };

// Runs `program` with `args` (argv[1..]) in directory `cwd` (empty: the current one),
// stdin closed, in this process's environment plus `env` ("NAME=VALUE" entries). Never
// throws; a failure to start shows as exit_code -1 with a message in err.
ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::string& cwd = "", StdoutTo to = StdoutTo::Capture,
                          const std::vector<std::string>& env = {});

// The whole file, or "" if it cannot be read.
std::string read_text(const std::string& path);

// A fresh directory PREFIX_PID in the system's temporary directory, removed with everything
// in it when destroyed.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& dir() const { return dir_; }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  // Creates or replaces the file `name` holding exactly `text`.
  void write(const std::string& name, const std::string& text) const;

 private:
  std::string dir_;
};

}  // namespace pfc::test
