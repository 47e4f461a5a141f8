// trace/procs.cc — see procs.h.
#include "trace/procs.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <thread>

#include "trace/names.h"

namespace pfc::trace {
namespace {

constexpr size_t kProcFileSize = 64;

std::optional<ProcessKey> parse_proc_name(const std::string& name) {
  const std::optional<ObjectName> n = parse_object_name(name, 'p', false);
  if (!n || !n->rest.empty()) return std::nullopt;
  return n->process;
}

// The applied generation in a proc file; nullopt when unreadable or malformed.
std::optional<uint64_t> read_applied(const TraceDir& dir, const std::string& name) {
  auto fd = dir.open_file(name, false);
  if (!fd) return std::nullopt;
  uint64_t v = 0;
  if (::pread(fd->get(), &v, sizeof v, 0) != static_cast<ssize_t>(sizeof v)) return std::nullopt;
  return v;
}

}  // namespace

std::string proc_name(const ProcessKey& p) { return object_name('p', std::nullopt, p); }

Result<ProcSlot> ProcSlot::create(const TraceDir& dir, const ProcessKey& self) {
  const std::string name = proc_name(self);
  auto fd = dir.open_file(name, true);
  if (!fd) return std::unexpected(fd.error());
  // Its page is taken before it is mapped: a full file system fails here, not with a SIGBUS
  // in set_applied (docs/namespace.md §3); the file is removed again.
  int err = ::ftruncate(fd->get(), kProcFileSize) != 0 ? errno : 0;
  if (err == 0) err = reserve_file(fd->get(), kProcFileSize);
  if (err != 0) {
    dir.remove(name);
    return make_error(errno_text("cannot allocate the process slot " + name, err));
  }
  auto map = Mapping::map(fd->get(), kProcFileSize);
  if (!map) {
    dir.remove(name);
    return std::unexpected(map.error());
  }
  ProcSlot s;
  s.map_ = std::move(*map);
  return s;
}

void ProcSlot::set_applied(uint64_t generation) {
  std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(map_.data()))
      .store(generation, std::memory_order_release);
}

bool all_applied(const TraceDir& dir, uint64_t generation, const ProcessKey& self) {
  for (const std::string& name : dir.list("p-")) {
    auto key = parse_proc_name(name);
    if (!key || *key == self) continue;
    auto applied = read_applied(dir, name);
    if (applied && *applied >= generation) continue;
    if (process_alive(*key)) return false;
  }
  return true;
}

bool wait_applied(const TraceDir& dir, uint64_t generation, uint32_t timeout_ms,
                  const ProcessKey& self) {
  const uint64_t deadline = mono_ns() + uint64_t{timeout_ms} * 1'000'000;
  for (;;) {
    if (all_applied(dir, generation, self)) return true;
    if (timeout_ms != UINT32_MAX && mono_ns() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

void reap_dead_procs(const TraceDir& dir) {
  for (const std::string& name : dir.list("p-")) {
    auto key = parse_proc_name(name);
    if (key && !process_alive(*key)) dir.remove(name);
  }
}

}  // namespace pfc::trace
