// etw/file_session.h — the controller's side of file sessions (docs/logfile.md "The
// session host"): StartTraceW opens the log file (so a bad path fails at once), spawns the
// session host `pfc-trace-host` with the file on descriptor 3 and waits for its start-up
// status; QUERY adds the host's live counters; STOP waits for the host to drain the rings
// and close the file, then reads the final counters from the file's header. A host that
// died leaves an unclosed file and a dead marker: STOP still succeeds (counters from the
// rings) and the marker is reaped like a dead consumer's.
#pragma once

#include <string>

#include "etw/counters.h"
#include "pfc/etw/evntrace.h"
#include "trace/state.h"

namespace pfc::etw {

// The absolute UTF-16 path of the properties' LogFileName ("" when none); false when the
// offset or the name is malformed.
bool read_log_file_name(const EVENT_TRACE_PROPERTIES* p, std::u16string& out);
// Creates (truncates) the log file; ERROR_SUCCESS and the descriptor in *fd.
ULONG create_log_file(const std::u16string& path, int* fd);
// Spawns the host for `instance` (the session already published) with `fd`; closes fd.
// ERROR_SUCCESS once the host runs and the file header is written.
ULONG spawn_host(const trace::TraceDir& dir, uint64_t instance, int fd);
// Live counters of a file session: the rings' plus what the host has written.
void add_host_counters(const trace::TraceDir& dir, uint64_t instance, SessionCounters& c);
// After the session left the state: waits (bounded) for its host to close the file and
// returns the final counters: the file's when it was closed, else the rings' plus what
// the (dead or stuck) host had written.
SessionCounters finish_file_session(const trace::TraceDir& dir, const trace::SessionEntry& e);
// Where the host executable is: PFC_TRACE_HOST, else beside the library, else the install
// libexec directory, else the build tree.
std::string host_executable();

}  // namespace pfc::etw
