// etw/file_session.h — the controller's side of file sessions (docs/logfile.md "The
// session host"): StartTraceW opens the log file (so a bad path fails at once; the file
// is changed only once the start is sure to succeed), spawns the
// session host `pfc-trace-host` with the file on descriptor 3 and waits for its start-up
// status; QUERY adds the host's live counters; STOP waits for the host to drain the rings
// and close the file, then reads the final counters from the file's header. A host that
// died leaves an unclosed file and a dead marker: STOP still succeeds (counters from the
// rings) and the marker is reaped like a dead consumer's.
#pragma once

#include <sys/types.h>

#include <string>

#include "etw/counters.h"
#include "pfc/etw/evntrace.h"
#include "trace/state.h"

namespace pfc::etw {

// The absolute UTF-16 path of the properties' LogFileName ("" when none); false when the
// offset or the name is malformed.
bool read_log_file_name(const EVENT_TRACE_PROPERTIES* p, std::u16string& out);
// The log file StartTraceW opened: not truncated (the host truncates it once the session
// is published, trace::LogWriter::create), locked (flock) for as long as the host lives.
struct OpenedLog {
  trace::UniqueFd fd;
  std::string path;      // UTF-8
  bool created = false;  // StartTraceW created it: removed again when the start fails
  dev_t dev = 0;
  ino_t ino = 0;
};
// Opens (or creates, mode 0600) the log file without changing it: a regular file of the
// calling user with one name, that no live session writes (its host holds an exclusive
// flock). ERROR_PATH_NOT_FOUND, ERROR_BAD_PATHNAME, ERROR_ACCESS_DENIED (another user's
// file, several hard links) or ERROR_BUSY (a live session writes it), with
// the reason in start_problem() where the code alone does not say it.
ULONG open_log_file(const std::u16string& path, OpenedLog& out);
// A failed start: removes the file when open_log_file created it (and it is still that file).
void discard_log_file(const OpenedLog& log);
// Why the calling thread's last StartTraceW failed, when its code alone does not say it
// ("log file 'F' is owned by another user", a circular size that holds fewer than 2
// buffers, ...); "" otherwise. For the pfc command's messages (not exported).
std::string start_problem();
// Sets start_problem() (clear_start_problem() at each StartTraceW) and returns `rc`.
ULONG start_failed(ULONG rc, std::string text);
void clear_start_problem();
// Spawns the host for `instance` (the session already published) with `fd` (the open file
// description carries open_log_file's lock to the host); closes fd.
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
