// etw/file_session.cc — see file_session.h.
#include "etw/file_session.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <thread>

#include "base/utf8.h"
#include "etw/beside.h"
#include "etw/enable_ext.h"
#include "etw/spawn.h"
#include "etw/util.h"
#include "trace/host.h"
#include "trace/logfile.h"

namespace pfc::etw {
namespace {

// The host (pfc_trace, which does not link etw) records these descriptors as schemas.
static_assert(trace::kHostSchemaFilterType == kFilterTypePfcExtension);

// STOP waits this long for the host to drain the rings (≤ 2 s after the stop) and close.
constexpr uint64_t kHostStopWaitNs = 15'000'000'000;

std::string utf8(const std::u16string& s) {
  std::string out;
  utf16_to_utf8(s, out, Unpaired::Replace);
  return out;
}

bool usable(const std::string& path) { return !path.empty() && ::access(path.c_str(), X_OK) == 0; }

}  // namespace

std::string host_executable() {
  if (const char* env = ::secure_getenv("PFC_TRACE_HOST"); env != nullptr && *env != '\0')
    return env;
  // Beside the library or program, or in its installed tree's libexec (bin/ or lib/ →
  // ../libexec, lib/ARCH/ → ../../libexec), so an unpacked or relocated install works; then
  // the build tree's host, for the build tree's programs only (an installed pfc never
  // starts a build tree's host); then the configured install directory.
  const char* built = own_directory_within(PFC_BUILD_DIR) ? PFC_BUILD_TRACE_HOST : "";
  return find_beside(
      {"pfc-trace-host", "../libexec/pfc-trace-host", "../../libexec/pfc-trace-host"},
      {built, PFC_LIBEXEC_DIR "/pfc-trace-host"}, usable);
}

bool read_log_file_name(const EVENT_TRACE_PROPERTIES* p, std::u16string& out) {
  out.clear();
  const ULONG off = p->LogFileNameOffset;
  if (off == 0) return true;
  const auto* base = reinterpret_cast<const uint8_t*>(p);
  const size_t units = (p->Wnode.BufferSize - off) / sizeof(WCHAR);
  for (size_t i = 0; i < units && i <= trace::kMaxPathUnits; ++i) {
    WCHAR c;
    std::memcpy(&c, base + off + i * sizeof(WCHAR), sizeof c);
    if (c == 0) {
      if (out.empty() || out.front() == u'/') return true;
      std::string cwd = std::filesystem::current_path().string() + "/";
      std::u16string prefix;
      utf8_to_utf16(cwd, prefix);
      out.insert(0, prefix);
      return true;
    }
    out.push_back(static_cast<char16_t>(c));
  }
  return false;  // no terminator within the buffer (or too long)
}

namespace {

std::string& problem_text() {
  thread_local std::string text;
  return text;
}

// The errno of a failed open as StartTraceW's code (and start_problem() when the code alone
// does not say it).
ULONG open_failed(int err, const std::string& what) {
  if (err == ENOENT || err == ENOTDIR) return ERROR_PATH_NOT_FOUND;
  if (err == EISDIR || err == ELOOP || err == ENAMETOOLONG) return ERROR_BAD_PATHNAME;
  if (err == EACCES || err == EPERM) return ERROR_ACCESS_DENIED;
  return start_failed(ERROR_ACCESS_DENIED, trace::errno_text("cannot create " + what, err));
}

// What open_log_file refuses in a file it opened.
ULONG check_log_file(const struct stat& st, const std::string& what) {
  if (!S_ISREG(st.st_mode))
    return start_failed(ERROR_BAD_PATHNAME, what + " is not a regular file");
  if (st.st_uid != ::geteuid())
    return start_failed(ERROR_ACCESS_DENIED, what + " is owned by another user (uid " +
                                                 std::to_string(st.st_uid) +
                                                 "); a session records only into its own files");
  if (st.st_nlink > 1)
    return start_failed(ERROR_ACCESS_DENIED, what + " has " + std::to_string(st.st_nlink) +
                                                 " hard links; a session records only into a "
                                                 "file with one name");
  return ERROR_SUCCESS;
}

}  // namespace

std::string start_problem() { return problem_text(); }
void clear_start_problem() { problem_text().clear(); }
ULONG start_failed(ULONG rc, std::string text) {
  problem_text() = std::move(text);
  return rc;
}

ULONG open_log_file(const std::u16string& path, OpenedLog& out) {
  out.path = utf8(path);
  const std::string what = "log file '" + out.path + "'";
  // O_NONBLOCK: a FIFO or device planted there must not block the open (refused below).
  constexpr int kFlags = O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
  int err = 0;
  for (int attempt = 0; attempt < 3 && !out.fd; ++attempt) {
    const int made = ::open(out.path.c_str(), kFlags | O_CREAT | O_EXCL, 0600);
    if (made >= 0) {
      out.fd = trace::UniqueFd(made);
      out.created = true;
      break;
    }
    err = errno;
    if (err != EEXIST) break;
    const int found = ::open(out.path.c_str(), kFlags);
    if (found >= 0) {
      out.fd = trace::UniqueFd(found);
      break;
    }
    err = errno;
    if (err != ENOENT) break;  // ENOENT: removed in between, create it again
  }
  if (!out.fd) return open_failed(err, what);
  struct stat st;
  if (::fstat(out.fd.get(), &st) != 0) return open_failed(errno, what);
  out.dev = st.st_dev;
  out.ino = st.st_ino;
  ULONG rc = check_log_file(st, what);
  if (rc == ERROR_SUCCESS && ::flock(out.fd.get(), LOCK_EX | LOCK_NB) != 0)
    rc = errno == EWOULDBLOCK
             ? start_failed(ERROR_BUSY, what + " is being written by a running session")
             : open_failed(errno, what);
  if (rc == ERROR_SUCCESS) (void)::fcntl(out.fd.get(), F_SETFL, 0);  // O_NONBLOCK off
  if (rc != ERROR_SUCCESS) {
    discard_log_file(out);
    out.fd = trace::UniqueFd();
  }
  return rc;
}

void discard_log_file(const OpenedLog& log) {
  struct stat st;
  if (log.created && ::stat(log.path.c_str(), &st) == 0 && st.st_dev == log.dev &&
      st.st_ino == log.ino)
    (void)::unlink(log.path.c_str());
}

ULONG spawn_host(const trace::TraceDir& dir, uint64_t instance, int fd) {
  const std::string exe = host_executable();
  if (exe.empty()) {
    ::close(fd);
    return ERROR_FILE_NOT_FOUND;
  }
  const SpawnResult r =
      spawn_and_reap({exe, "--instance", std::to_string(instance)}, dir.path(), fd);
  ::close(fd);
  if (r.error == ENOMEM || r.error == EMFILE || r.error == ENFILE) return ERROR_NOT_ENOUGH_MEMORY;
  if (r.error != 0) return ERROR_FILE_NOT_FOUND;
  // A host that could not be reaped (SIGCHLD ignored here) reports through its marker.
  return r.exit_status == 0 ? ERROR_SUCCESS : ERROR_NOT_SUPPORTED;
}

void add_host_counters(const trace::TraceDir& dir, uint64_t instance, SessionCounters& c) {
  auto host = trace::find_host(dir, instance);
  if (!host) return;
  auto n = trace::read_host_counters(dir, host->marker);
  if (!n) return;
  c.buffers_written = n->buffers_written;
  c.events_lost += n->events_lost;
  c.log_buffers_lost = n->log_buffers_lost;
}

SessionCounters finish_file_session(const trace::TraceDir& dir, const trace::SessionEntry& e) {
  const uint64_t deadline = trace::mono_ns() + kHostStopWaitNs;
  for (;;) {
    auto host = trace::find_host(dir, e.instance);
    if (!host) break;
    const bool dead = !trace::process_alive(host->key);
    // A host removes its marker before it exits: one seen gone whose marker has gone too
    // ended cleanly after the listing above, and its closed file has the counters.
    if (dead && !trace::find_host(dir, e.instance)) break;
    if (dead || trace::mono_ns() >= deadline) {
      SessionCounters c = count_session(dir, e);
      add_host_counters(dir, e.instance, c);
      if (dead) dir.remove(host->marker);  // its file stays unclosed, and says so
      return c;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  SessionCounters c = count_session(dir, e);
  trace::UniqueFd fd(::open(utf8(e.log_file).c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return c;
  auto r = trace::LogReader::open(trace::fd_input(std::move(fd)), utf8(e.log_file));
  if (!r || !r->info().closed) return c;
  c.buffers_written = r->info().buffers_written;
  c.events_lost = r->info().events_lost;
  c.log_buffers_lost = r->info().log_buffers_lost;
  return c;
}

}  // namespace pfc::etw
