// trace/dir.cc — see dir.h.
#include "trace/dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace pfc::trace {
namespace {

Result<void> check_owner(const struct stat& st, const std::string& what) {
  if (st.st_uid != ::geteuid()) return make_error(what + " is owned by another user");
  if ((st.st_mode & 077) != 0)
    return make_error(what + " is accessible to other users (mode must be 0700/0600)");
  return {};
}

// Reads every byte in the FIFO `bell` (non-blocking): DirWatch::kWatchBell when there were
// some.
uint32_t drain_bell(int bell) {
  uint32_t seen = 0;
  char buf[256];
  while (::read(bell, buf, sizeof buf) > 0) seen = DirWatch::kWatchBell;
  return seen;
}

}  // namespace

std::string TraceDir::default_path() {
  if (const char* dir = std::getenv("PFC_TRACE_DIR"); dir != nullptr && *dir != '\0') return dir;
  if (const char* xdg = std::getenv("XDG_RUNTIME_DIR"); xdg != nullptr && *xdg != '\0')
    return std::string(xdg) + "/pfc";
  return "/dev/shm/pfc-" + std::to_string(::geteuid());
}

Result<TraceDir> TraceDir::open() { return open_dir(true); }
Result<TraceDir> TraceDir::open_existing() { return open_dir(false); }

Result<TraceDir> TraceDir::open_dir(bool create) {
  TraceDir d;
  d.path_ = default_path();
  const std::string what = "trace directory '" + d.path_ + "'";
  if (create && ::mkdir(d.path_.c_str(), 0700) != 0 && errno != EEXIST)
    return make_error(errno_text("cannot create " + what, errno));
  d.fd_ = UniqueFd(::open(d.path_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!d.fd_) {
    if (errno == ELOOP || errno == ENOTDIR)
      return make_error(what + " is not a directory (or is a symlink)");
    return make_error(errno_text("cannot open " + what, errno));
  }
  struct stat st;
  if (::fstat(d.fd_.get(), &st) != 0) return make_error(errno_text("cannot stat " + what, errno));
  if (auto ok = check_owner(st, what); !ok) return std::unexpected(ok.error());
  return d;
}

Result<UniqueFd> TraceDir::open_file(const std::string& name, bool create) const {
  const int flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC | (create ? O_CREAT : 0);
  UniqueFd fd(::openat(fd_.get(), name.c_str(), flags, 0600));
  const std::string what = "trace file '" + path_ + "/" + name + "'";
  if (!fd) return make_error(errno_text("cannot open " + what, errno));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return make_error(errno_text("cannot stat " + what, errno));
  if (!S_ISREG(st.st_mode)) return make_error(what + " is not a regular file");
  if (auto ok = check_owner(st, what); !ok) return std::unexpected(ok.error());
  return fd;
}

Result<UniqueFd> TraceDir::open_fifo(const std::string& name, bool create) const {
  const std::string what = "trace file '" + path_ + "/" + name + "'";
  if (create) {
    (void)::unlinkat(fd_.get(), name.c_str(), 0);
    if (::mkfifoat(fd_.get(), name.c_str(), 0600) != 0)
      return make_error(errno_text("cannot create " + what, errno));
  }
  UniqueFd fd(::openat(fd_.get(), name.c_str(), O_RDWR | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC));
  if (!fd) return make_error(errno_text("cannot open " + what, errno));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return make_error(errno_text("cannot stat " + what, errno));
  if (!S_ISFIFO(st.st_mode)) return make_error(what + " is not a FIFO");
  if (auto ok = check_owner(st, what); !ok) return std::unexpected(ok.error());
  return fd;
}

std::vector<std::string> TraceDir::list(const std::string& prefix) const {
  std::vector<std::string> out;
  const int fd = ::openat(fd_.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return out;
  // Closed also when an allocation below throws.
  const std::unique_ptr<DIR, int (*)(DIR*)> d(::fdopendir(fd), ::closedir);
  if (d == nullptr) {
    ::close(fd);
    return out;
  }
  while (const struct dirent* e = ::readdir(d.get())) {
    std::string name = e->d_name;
    if (name.compare(0, prefix.size(), prefix) == 0) out.push_back(std::move(name));
  }
  return out;
}

void TraceDir::remove(const std::string& name) const {
  (void)::unlinkat(fd_.get(), name.c_str(), 0);
}

std::optional<DirWatch> DirWatch::open(const TraceDir& dir, std::string prefix) {
  UniqueFd fd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
  if (!fd) return std::nullopt;
  // The directory itself, through its descriptor: not a path that could be replaced.
  const std::string self = "/proc/self/fd/" + std::to_string(dir.fd());
  if (::inotify_add_watch(fd.get(), self.c_str(), IN_CREATE | IN_MOVED_TO | IN_ONLYDIR) < 0)
    return std::nullopt;
  DirWatch w;
  w.fd_ = std::move(fd);
  w.prefix_ = std::move(prefix);
  return w;
}

uint32_t DirWatch::wait(uint64_t ns, int bell) {
  pollfd p[2] = {{fd_.get(), POLLIN, 0}, {bell, POLLIN, 0}};
  const timespec t{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
  // A wait that timed out read nothing (one syscall less per idle round).
  if (ns != 0 && ::ppoll(p, bell >= 0 ? 2 : 1, &t, nullptr) == 0) return 0;
  uint32_t seen = bell >= 0 ? drain_bell(bell) : 0;
  alignas(inotify_event) char buf[4096];
  for (;;) {
    const ssize_t got = ::read(fd_.get(), buf, sizeof buf);
    if (got <= 0) break;  // EAGAIN: all read
    for (ssize_t at = 0; at + static_cast<ssize_t>(sizeof(inotify_event)) <= got;) {
      inotify_event e;
      std::memcpy(&e, buf + at, sizeof e);
      const char* name = buf + at + sizeof e;
      if ((e.mask & IN_Q_OVERFLOW) != 0 ||
          (e.len != 0 && std::strncmp(name, prefix_.c_str(), prefix_.size()) == 0))
        seen |= kWatchPrefix;
      else seen |= kWatchOther;
      at += static_cast<ssize_t>(sizeof e + e.len);
    }
  }
  return seen;
}

uint32_t wait_bell(int bell, uint64_t ns) {
  pollfd p{bell, POLLIN, 0};
  const timespec t{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
  if (ns != 0 && ::ppoll(&p, 1, &t, nullptr) == 0) return 0;
  return drain_bell(bell);
}

}  // namespace pfc::trace
