// tests/multiproc/child.cc — see child.h.
#include "child.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace pfc::multiproc {
namespace {

long long now_ms() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

// Whether process `pid` runs (not a zombie) with a command name starting with `comm` and
// PFC_TRACE_DIR=ns in its environment.
bool is_helper(const std::string& pid, const std::string& ns, const std::string& comm) {
  const std::string proc = "/proc/" + pid;
  std::string name, env, line;
  if (!std::getline(std::ifstream(proc + "/comm"), name) || !name.starts_with(comm)) return false;
  std::ifstream status(proc + "/status");
  while (std::getline(status, line))
    if (line.starts_with("State:") && line.find('Z') != std::string::npos) return false;
  std::ifstream environ(proc + "/environ");
  while (std::getline(environ, env, '\0'))
    if (env == "PFC_TRACE_DIR=" + ns) return true;
  return false;
}

}  // namespace

Child::Child(const std::vector<std::string>& args, const std::vector<std::string>& env)
    : Child(Program{TRACE_ACTOR}, args, env) {}

Child::Child(const Program& program, const std::vector<std::string>& args,
             const std::vector<std::string>& env) {
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) return;
  pid_ = ::fork();
  if (pid_ == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    for (const std::string& e : env) ::putenv(const_cast<char*>(e.c_str()));
    std::vector<char*> argv;
    std::string path = program.path;
    argv.push_back(path.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  in_ = in[1];
  out_ = out[0];
}

Child::~Child() {
  if (pid_ > 0 && !reaped_) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (in_ >= 0) ::close(in_);
  if (out_ >= 0) ::close(out_);
}

std::string Child::read_line(int timeout_ms) {
  const long long deadline = now_ms() + timeout_ms;
  for (;;) {
    const size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return line;
    }
    const long long left = deadline - now_ms();
    if (left <= 0 || out_ < 0) return "";
    struct pollfd p {
      out_, POLLIN, 0
    };
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) continue;
    char buf[4096];
    const ssize_t n = ::read(out_, buf, sizeof buf);
    if (n <= 0) {
      ::close(out_);
      out_ = -1;
      return "";
    }
    buffer_.append(buf, static_cast<size_t>(n));
  }
}

std::string Child::expect(const std::string& prefix, int timeout_ms) {
  const long long deadline = now_ms() + timeout_ms;
  for (;;) {
    const long long left = deadline - now_ms();
    if (left <= 0) return "";
    std::string line = read_line(static_cast<int>(left));
    if (line.empty() && out_ < 0) return "";
    if (line.compare(0, prefix.size(), prefix) == 0) return line;
  }
}

void Child::send(const std::string& line) {
  const std::string l = line + "\n";
  if (in_ >= 0) (void)!::write(in_, l.data(), l.size());
}

void Child::close_stdin() {
  if (in_ >= 0) ::close(in_);
  in_ = -1;
}

int Child::wait(int timeout_ms) {
  if (reaped_) return status_;
  const long long deadline = now_ms() + timeout_ms;
  for (;;) {
    int st = 0;
    const pid_t r = ::waitpid(pid_, &st, WNOHANG);
    if (r == pid_) {
      reaped_ = true;
      status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      return status_;
    }
    if (now_ms() >= deadline) return -1;
    ::usleep(2000);
  }
}

void Child::kill9() {
  if (pid_ > 0 && !reaped_) ::kill(pid_, SIGKILL);
  (void)wait(10000);
}

std::string run_actor(const std::vector<std::string>& args, int* rc, int timeout_ms,
                      const std::vector<std::string>& env) {
  Child c(args, env);
  c.close_stdin();
  std::string all;
  const long long deadline = now_ms() + timeout_ms;
  for (;;) {
    const long long left = deadline - now_ms();
    if (left <= 0) break;
    std::string line = c.read_line(static_cast<int>(left));
    if (line.empty() && c.wait(0) >= 0) break;
    if (line.empty()) ::usleep(1000);
    if (!line.empty()) all += line + "\n";
  }
  *rc = c.wait(std::max<long long>(0, deadline - now_ms()));
  return all;
}

void kill_helpers(const std::string& ns, const std::string& comm) {
  std::vector<std::string> killed;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string pid = entry.path().filename();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (is_helper(pid, ns, comm) && ::kill(std::stoi(pid), SIGKILL) == 0) killed.push_back(pid);
  }
  // Gone once a zombie (its parent, init, reaps it): a killed process may still finish the
  // system call it was in, a file it creates in `ns`, after kill() returned.
  const long long deadline = now_ms() + 10000;
  for (const std::string& pid : killed)
    while (is_helper(pid, ns, comm) && now_ms() < deadline) ::usleep(1000);
}

void remove_namespace(const std::string& dir, const std::string& ns) {
  kill_helpers(ns, "pfc-trace-");
  std::filesystem::remove_all(dir);
}

}  // namespace pfc::multiproc
