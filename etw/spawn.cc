// etw/spawn.cc — see spawn.h.
#include "etw/spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace pfc::etw {
namespace {

// PFC_TRACE_DIR=trace_dir, then the rest of this process's environment.
std::vector<std::string> environment(const std::string& trace_dir) {
  std::vector<std::string> env{"PFC_TRACE_DIR=" + trace_dir};
  for (char** e = environ; e != nullptr && *e != nullptr; ++e)
    if (std::strncmp(*e, "PFC_TRACE_DIR=", 14) != 0) env.emplace_back(*e);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& text) {
  std::vector<char*> p;
  p.reserve(text.size() + 1);
  for (auto& s : text) p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

int spawn(const std::vector<std::string>& argv, const std::string& trace_dir, int fd3, pid_t& pid) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  if (fd3 >= 0) posix_spawn_file_actions_adddup2(&actions, fd3, 3);
  posix_spawn_file_actions_addclosefrom_np(&actions, fd3 >= 0 ? 4 : 3);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setsigmask(&attr, &none);
  // A session of its own from the start (each helper detaches into one anyway): with
  // autogroup scheduling, its start-up — mapping LLVM, for the compile service — is not
  // scheduled among the starter's threads, 64 provider processes busy applying an enable.
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSID);
  std::vector<std::string> env_text = environment(trace_dir);
  std::vector<std::string> argv_text = argv;
  std::vector<char*> envp = pointers(env_text), args = pointers(argv_text);
  const int rc = ::posix_spawn(&pid, args[0], &actions, &attr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  return rc;
}

}  // namespace

SpawnResult spawn_and_reap(const std::vector<std::string>& argv, const std::string& trace_dir,
                           int fd3, bool close_fd3) {
  const int given = fd3;
  const auto release = [&] {
    if (close_fd3 && given >= 0) ::close(given);
  };
  int moved = -1;
  if (fd3 == 3) {  // dup2(3, 3) would keep close-on-exec
    moved = ::fcntl(fd3, F_DUPFD_CLOEXEC, 4);
    if (moved < 0) {
      const int err = errno;
      release();
      return SpawnResult{err, 0};
    }
    fd3 = moved;
  }
  pid_t pid = 0;
  SpawnResult r;
  r.error = spawn(argv, trace_dir, fd3, pid);
  if (moved >= 0) ::close(moved);
  release();
  if (r.error != 0) return r;
  int status = 0;
  pid_t got;
  while ((got = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  if (got == pid) r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace pfc::etw
