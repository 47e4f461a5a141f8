// tests/cli/process.cc — posix_spawn-based process runner; stdout and stderr go to
// temporary files so large outputs cannot deadlock a pipe.
#include "process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char** environ;

namespace pfc::test {
namespace {

struct TempFile {
  std::string path = "/tmp/pfc_cli_test_XXXXXX";
  int fd = -1;
  TempFile() { fd = mkstemp(path.data()); }
  ~TempFile() {
    if (fd >= 0) close(fd);
    unlink(path.c_str());
  }
};

}  // namespace

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

ScratchDir::ScratchDir(const std::string& prefix)
    : dir_((std::filesystem::temp_directory_path() / (prefix + "_" + std::to_string(getpid())))
               .string()) {
  std::filesystem::create_directories(dir_);
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

void ScratchDir::write(const std::string& name, const std::string& text) const {
  std::ofstream(path(name), std::ios::binary) << text;
}

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::string& cwd, StdoutTo to,
                          const std::vector<std::string>& env) {
  ProcessResult result;
  TempFile out, err;
  if (out.fd < 0 || err.fd < 0) {
    result.err = "cannot create temporary files";
    return result;
  }
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp(env.size());
  for (size_t i = 0; i < env.size(); ++i) envp[i] = const_cast<char*>(env[i].c_str());
  for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
  envp.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  int pipe_fds[2] = {-1, -1};  // ClosedPipe: both ends closed here once the child has its own
  if (to == StdoutTo::ClosedPipe && pipe2(pipe_fds, O_CLOEXEC) != 0) {
    result.err = "cannot create a pipe";
    posix_spawn_file_actions_destroy(&actions);
    return result;
  }
  if (to == StdoutTo::ClosedPipe) posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  else if (to == StdoutTo::DevFull)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/full", O_WRONLY, 0);
  else posix_spawn_file_actions_adddup2(&actions, out.fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err.fd, 2);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  for (const int fd : pipe_fds)
    if (fd >= 0) close(fd);  // the reader is gone before the child can write
  if (rc != 0) {
    result.err = "cannot start " + program;
    return result;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  result.out = read_text(out.path);
  result.err = read_text(err.path);
  return result;
}

}  // namespace pfc::test
