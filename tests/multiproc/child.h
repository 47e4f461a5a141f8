// tests/multiproc/child.h — a child process of a multi-process test: trace_actor with
// pipes on stdin/stdout, bounded line reads, and SIGKILL + reap on destruction, so a failed
// test never leaves a process behind.
#pragma once

#include <string>
#include <vector>

namespace pfc::multiproc {

class Child {
 public:
  // Starts trace_actor with `args`. The environment (PFC_TRACE_DIR) is inherited.
  // `env` entries ("NAME=VALUE") are added to the child's environment.
  explicit Child(const std::vector<std::string>& args, const std::vector<std::string>& env = {});
  // Starts `program.path` with `args` the same way (tests of the pfc command).
  struct Program {
    std::string path;
  };
  Child(const Program& program, const std::vector<std::string>& args,
        const std::vector<std::string>& env = {});
  ~Child();
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  // The next stdout line, or "" after timeout_ms or at end of output.
  std::string read_line(int timeout_ms);
  // Reads lines until one starts with `prefix` (returned) or the time is up ("").
  std::string expect(const std::string& prefix, int timeout_ms);
  void send(const std::string& line);
  void close_stdin();
  // Exit status (0..255), 128+signal, or -1 when still running after timeout_ms.
  int wait(int timeout_ms);
  void kill9();
  int pid() const { return pid_; }

 private:
  int pid_ = -1;
  int in_ = -1;
  int out_ = -1;
  std::string buffer_;
  bool reaped_ = false;
  int status_ = 0;
};

// Runs trace_actor to completion (bounded) and returns its whole stdout; status in *rc.
std::string run_actor(const std::vector<std::string>& args, int* rc, int timeout_ms = 20000,
                      const std::vector<std::string>& env = {});

// Kills the processes whose command name starts with `comm` and whose environment names the
// namespace `ns` (PFC_TRACE_DIR=ns), and waits (bounded) until each is gone. The namespace's
// helpers (the compile service, session hosts) detach, so no test reaps them; one that
// outlives the processes that started it may still write into `ns`.
void kill_helpers(const std::string& ns, const std::string& comm);

// The end of a test: every helper of its namespace `ns` killed as above, so nothing is left
// running and nothing writes into `ns`, then `dir` (ns or a directory holding it) removed.
void remove_namespace(const std::string& dir, const std::string& ns);

}  // namespace pfc::multiproc
