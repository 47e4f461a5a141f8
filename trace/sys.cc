// trace/sys.cc — see sys.h.
#include "trace/sys.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

namespace pfc::trace {

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.release();
  }
  return *this;
}

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) ::close(fd_);
}

Result<Mapping> Mapping::map(int fd, size_t size) {
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) return make_error(errno_text("mmap", errno));
  (void)::madvise(p, size, MADV_DONTFORK);
  Mapping m;
  m.data_ = static_cast<uint8_t*>(p);
  m.size_ = size;
  return m;
}

int Mapping::populate(size_t offset, size_t n) const {
#ifndef MADV_POPULATE_WRITE
  constexpr int MADV_POPULATE_WRITE = 23;  // Linux 5.14
#endif
  if (data_ == nullptr || offset > size_ || n > size_ - offset) return EINVAL;
  return ::madvise(data_ + offset, n, MADV_POPULATE_WRITE) == 0 ? 0 : errno;
}

Mapping::Mapping(Mapping&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}

Mapping& Mapping::operator=(Mapping&& o) noexcept {
  if (this != &o) {
    if (data_ != nullptr) ::munmap(data_, size_);
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
  }
  return *this;
}

Mapping::~Mapping() {
  if (data_ != nullptr) ::munmap(data_, size_);
}

std::string errno_text(const std::string& what, int err) {
  return what + ": " + std::strerror(err);
}

int reserve_file(int fd, uint64_t size) {
  const int err = ::posix_fallocate(fd, 0, static_cast<off_t>(size));
  return err == EOPNOTSUPP || err == EINVAL ? 0 : err;
}

bool disk_full(int err) { return err == ENOSPC || err == EDQUOT; }

Result<void> lock_file(int fd) {
  struct flock fl {};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  for (;;) {
    if (::fcntl(fd, F_OFD_SETLKW, &fl) == 0) return {};
    if (errno != EINTR) return make_error(errno_text("cannot lock the trace namespace", errno));
  }
}

void unlock_file(int fd) {
  struct flock fl {};
  fl.l_type = F_UNLCK;
  fl.l_whence = SEEK_SET;
  (void)::fcntl(fd, F_OFD_SETLK, &fl);
}

void futex_wait(std::atomic<uint32_t>* word, uint32_t expected, int timeout_ms) {
  struct timespec ts {
    timeout_ms / 1000, static_cast<long>(timeout_ms % 1000) * 1000000L
  };
  (void)::syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT, expected, &ts, nullptr,
                  0);
}

void futex_wake_all(std::atomic<uint32_t>* word) {
  (void)::syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE, INT32_MAX, nullptr,
                  nullptr, 0);
}

namespace clock_detail {
std::atomic<int64_t> offset{0};
std::atomic<uint64_t> offset_until{0};
}  // namespace clock_detail

namespace {

int64_t realtime_ns() {
  struct timespec ts;
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

}  // namespace

int64_t filetime_now() { return clock_detail::kEpochDelta + realtime_ns() / 100; }

int64_t clock_detail::filetime_of_mono_measured(uint64_t mono) {
  const uint64_t before = mono_ns();
  const int64_t real = realtime_ns();
  const uint64_t after = mono_ns();
  offset.store(real - static_cast<int64_t>(before + (after - before) / 2),
               std::memory_order_relaxed);
  offset_until.store(after + kClockOffsetNs, std::memory_order_relaxed);
  return kEpochDelta + (static_cast<int64_t>(mono) + offset.load(std::memory_order_relaxed)) / 100;
}

namespace {

// Field 22 (starttime) and field 3 (state) of /proc/PID/stat; false when unreadable.
bool read_stat(uint32_t pid, uint64_t* start, char* state) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%u/stat", pid);
  UniqueFd fd(::open(path, O_RDONLY | O_CLOEXEC));
  if (!fd) return false;
  char buf[1024];
  const ssize_t n = ::read(fd.get(), buf, sizeof buf - 1);
  if (n <= 0) return false;
  buf[n] = '\0';
  const char* p = std::strrchr(buf, ')');  // the command name may contain anything
  if (p == nullptr || p[1] != ' ') return false;
  *state = p[2];
  p += 2;
  for (int field = 3; field < 22; ++field) {
    p = std::strchr(p, ' ');
    if (p == nullptr) return false;
    ++p;
  }
  *start = std::strtoull(p, nullptr, 10);
  return true;
}

}  // namespace

ProcessKey self_process() {
  ProcessKey k;
  k.pid = static_cast<uint32_t>(::getpid());
  char state = 0;
  (void)read_stat(k.pid, &k.start, &state);
  return k;
}

bool process_alive(const ProcessKey& p) {
  uint64_t start = 0;
  char state = 0;
  if (!read_stat(p.pid, &start, &state)) return false;
  return start == p.start && state != 'Z' && state != 'X';
}

}  // namespace pfc::trace
