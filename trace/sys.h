// trace/sys.h — the operating-system pieces the trace namespace is built from: owned file
// descriptors, shared mappings, whole-file OFD locks (released by the kernel when the
// holder dies), shared futex waits, clocks and process identities that survive PID reuse.
// Every function reports failure through Result; nothing here throws or aborts.
#pragma once

#include <time.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/error.h"

namespace pfc::trace {

// An owned file descriptor (-1 = none).
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd();

  int get() const { return fd_; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// A MAP_SHARED read-write mapping of a whole file, unmapped on destruction. Marked
// MADV_DONTFORK so a forked child never writes through its parent's mappings.
class Mapping {
 public:
  Mapping() = default;
  static Result<Mapping> map(int fd, size_t size);
  Mapping(Mapping&& o) noexcept;
  Mapping& operator=(Mapping&& o) noexcept;
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  ~Mapping();

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  // Takes the pages of [offset, offset + n) and fills their page tables for writing
  // (MADV_POPULATE_WRITE), so the writes that follow take no page faults. For a file on a
  // full file system this is an error where a store would raise SIGBUS. Returns 0 or the
  // errno: EFAULT (a page could not be had: the file system is full, or the file was
  // shrunk), ENOMEM, EINVAL (also: a kernel before Linux 5.14, which lacks it).
  int populate(size_t offset, size_t n) const;
  // Drops the mapping without unmapping it (a forked child: it was never inherited).
  void forget() {
    data_ = nullptr;
    size_ = 0;
  }

 private:
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// "what: strerror(errno)".
std::string errno_text(const std::string& what, int err);

// Takes the file's blocks for [0, size) now (posix_fallocate; a smaller file grows to
// `size`), so a store through a mapping of them never raises SIGBUS on a full file system
// (docs/namespace.md §3). Every page of the namespace that is mapped is reserved this way
// before it is touched, by each process that maps it (a no-op when the blocks exist).
// Returns 0 or the errno (ENOSPC, EDQUOT, ...); a file system without fallocate counts as
// success (its files stay sparse).
int reserve_file(int fd, uint64_t size);
// True for the errnos of a full file system (ENOSPC, EDQUOT).
bool disk_full(int err);

// Blocks until this open file description holds the write lock of the whole file. The
// kernel releases it when the descriptor is closed or the process dies.
Result<void> lock_file(int fd);
void unlock_file(int fd);

// Waits while *word == expected, at most timeout_ms (shared futex: works across
// processes mapping the same file). Returns on a wake, a timeout or a signal.
void futex_wait(std::atomic<uint32_t>* word, uint32_t expected, int timeout_ms);
void futex_wake_all(std::atomic<uint32_t>* word);

// CLOCK_MONOTONIC in ns (the event clock inside one boot: comparable across processes).
// Inline: the write path reads it once per event.
inline uint64_t mono_ns() {
  struct timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}
// CLOCK_REALTIME as a FILETIME (100 ns since 1601-01-01 UTC).
int64_t filetime_now();
// The FILETIME of the CLOCK_MONOTONIC instant `mono` (ns, from mono_ns() moments ago):
// mono plus this process's offset between the two clocks, re-measured when `mono` is
// kClockOffsetNs past the last measurement (so it follows clock steps and NTP slewing
// within that). One clock read per event instead of two on the write path. Any thread.
inline constexpr uint64_t kClockOffsetNs = 10'000'000;
namespace clock_detail {
inline constexpr int64_t kEpochDelta = 116444736000000000LL;  // 1601-01-01 → 1970-01-01, 100 ns
// CLOCK_REALTIME − CLOCK_MONOTONIC (ns) and the monotonic time it stops being fresh. The
// two are stored separately: a thread may pair a new offset with an old deadline (or the
// reverse), and then only measures once more or once less.
extern std::atomic<int64_t> offset;
extern std::atomic<uint64_t> offset_until;
int64_t filetime_of_mono_measured(uint64_t mono);  // re-measures the offset first
}  // namespace clock_detail
inline int64_t filetime_of_mono(uint64_t mono) {
  using namespace clock_detail;
  if (mono >= offset_until.load(std::memory_order_relaxed)) [[unlikely]]
    return filetime_of_mono_measured(mono);
  return kEpochDelta + (static_cast<int64_t>(mono) + offset.load(std::memory_order_relaxed)) / 100;
}

// A process as the namespace names it: pid plus its start time in clock ticks since
// boot (/proc/PID/stat field 22), so a reused pid is a different process.
struct ProcessKey {
  uint32_t pid = 0;
  uint64_t start = 0;
  bool operator==(const ProcessKey&) const = default;
};
ProcessKey self_process();  // recomputed after fork
// True while the process exists and is not a zombie.
bool process_alive(const ProcessKey& p);

}  // namespace pfc::trace
