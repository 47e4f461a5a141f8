// trace/procs.h — the processes of the namespace that apply enable changes
// (docs/namespace.md §2): each has a file `p-PID-START` holding the last state generation
// it applied, so EnableTraceEx2 with a Timeout can wait until every live process applied
// its change. Files of dead processes are removed by whoever notices (reap_dead_procs).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "base/error.h"
#include "trace/dir.h"
#include "trace/sys.h"

namespace pfc::trace {

std::string proc_name(const ProcessKey& p);

class ProcSlot {
 public:
  static Result<ProcSlot> create(const TraceDir& dir, const ProcessKey& self);
  void set_applied(uint64_t generation);

 private:
  Mapping map_;
};

// True when every live process other than `self` has applied `generation` (or died).
bool all_applied(const TraceDir& dir, uint64_t generation, const ProcessKey& self);
// Waits until all_applied, polling, at most timeout_ms (UINT32_MAX: no limit). True when
// all have.
bool wait_applied(const TraceDir& dir, uint64_t generation, uint32_t timeout_ms,
                  const ProcessKey& self);
// Removes the files (proc slots and trace buffers) of processes that no longer exist and
// whose buffers hold nothing more to read.
void reap_dead_procs(const TraceDir& dir);

}  // namespace pfc::trace
