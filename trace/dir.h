// trace/dir.h — the trace namespace directory (docs/namespace.md §1): where it is
// (PFC_TRACE_DIR, else $XDG_RUNTIME_DIR/pfc, else /dev/shm/pfc-UID), created 0700 on first
// use, and refused when it is a symlink, not a directory, owned by another user or
// accessible to group or others. Every file inside is opened relative to the directory
// descriptor, without following symlinks, and created 0600.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "trace/sys.h"

namespace pfc::trace {

class TraceDir {
 public:
  // Resolves, creates when missing and validates the namespace directory.
  static Result<TraceDir> open();
  // The same without creating it: for the helper programs a namespace's processes start
  // (session host, compile service), which must not bring back a directory removed while
  // they were starting.
  static Result<TraceDir> open_existing();
  // The directory a process would use (no checks, nothing created).
  static std::string default_path();

  const std::string& path() const { return path_; }
  int fd() const { return fd_.get(); }

  // Opens (creating with `create`) the file `name` inside the directory, read-write,
  // O_NOFOLLOW|O_CLOEXEC, 0600; refuses a file that is not a regular file of this user.
  Result<UniqueFd> open_file(const std::string& name, bool create) const;
  // Names of the entries starting with `prefix` (unsorted).
  std::vector<std::string> list(const std::string& prefix) const;
  void remove(const std::string& name) const;
  // Opens the FIFO `name` inside the directory read-write and non-blocking, O_NOFOLLOW|
  // O_CLOEXEC (with `create`: made afresh, 0600, a leftover of that name removed first);
  // refuses what is not a FIFO of this user. A read-write end never blocks its open, and a
  // write into it never raises SIGPIPE: its opener is a reader too (a session host's
  // doorbell, docs/namespace.md §3 "The doorbell").
  Result<UniqueFd> open_fifo(const std::string& name, bool create) const;

 private:
  static Result<TraceDir> open_dir(bool create);

  std::string path_;
  UniqueFd fd_;
};

// A watch of the namespace directory (inotify) for names created or moved in that start
// with a prefix: a reader that waits for new rings sleeps in wait() instead of listing the
// directory on a timer (an idle session host woke 500 times a second, each time listing it).
class DirWatch {
 public:
  // nullopt when the kernel gives no watch (no inotify, or its limits reached): the caller
  // lists the directory on its timer instead.
  static std::optional<DirWatch> open(const TraceDir& dir, std::string prefix);
  // Waits up to `ns` nanoseconds for any name created or moved into the directory (0:
  // only looks) and reads what came since the last call: kWatchPrefix when a name with the
  // prefix came (or events were dropped: the queue overflowed), kWatchOther when another
  // one did (the state file's replacement, say).
  // With a `bell` (a FIFO's descriptor, else -1) the wait also ends when bytes come into it:
  // kWatchBell, the bytes read (all of them).
  static constexpr uint32_t kWatchPrefix = 1;
  static constexpr uint32_t kWatchOther = 2;
  static constexpr uint32_t kWatchBell = 4;
  uint32_t wait(uint64_t ns, int bell = -1);

 private:
  UniqueFd fd_;
  std::string prefix_;
};

// Waits up to `ns` nanoseconds for bytes in the FIFO `bell` (0: only looks) and reads them
// all: kWatchBell when there were some (DirWatch::wait without a watch).
uint32_t wait_bell(int bell, uint64_t ns);

}  // namespace pfc::trace
