// trace/host.h — the session host of a file session (docs/logfile.md "The session host",
// docs/namespace.md §4): a detached process, `pfc-trace-host`, that StartTraceW spawns with
// the log file already open on descriptor 3. It is the session's consumer: it merges the
// session's rings by timestamp (trace/merge.h, as the real-time consumer does), writes
// them into the log file buffer by buffer (LogWriter) off the writers' path, flushes a
// partly filled buffer every FlushTimer seconds, records the provider schemas published
// with the session's enables in the file's sections (docs/logfile.md "Provider schemas"),
// and after the session's STOP drains the rings, closes the file (final header) and exits. Its
// marker `c-INSTANCE-PID-START-host` tells controllers it is alive, holds its live counters and
// carries FLUSH requests.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "trace/dir.h"
#include "trace/logfile.h"
#include "trace/ring.h"
#include "trace/state.h"
#include "trace/sys.h"

namespace pfc::trace {

// The descriptor type whose bytes the host records as provider schemas (kind
// kSchemaPfcExtension): etw::kFilterTypePfcExtension, asserted equal in etw/file_session.cc.
inline constexpr uint32_t kHostSchemaFilterType = 0x80FC0001u;

// Moves ring `r`'s committed records with timestamps up to `limit` into `w` as chunks
// (RingReader::span runs, each at most the current buffer's room, written from the ring's
// mapping; a full buffer is written and the next begun), handing their space back to the
// writers: the session host's work per ring and round (docs/logfile.md "The session
// host"). A record larger than a buffer is dropped and counted lost in `w`. Returns what it
// took (bytes of records, events — the dropped one included —, the last timestamp).
struct Moved {
  uint64_t bytes = 0;
  uint64_t events = 0;
  uint64_t last_ts = 0;
  uint64_t windows = 0;  // move_windows: complete windows taken
};
Moved move_runs(RingReader& r, LogWriter& w, uint64_t limit, uint32_t stream);
// The same for a window ring (docs/logfile.md "The session host"): each slice of committed
// packed records (RingReader::slice) is copied into the current buffer as one chunk, after
// a stream chunk of the ring's whole table; nothing of a record is read. Only when the
// whole table would take more than an eighth of a buffer (a large table in small buffers)
// are a slice's records walked for the entries they name. A slice that no empty buffer
// can take (a record larger than a buffer) is dropped and its events counted lost.
// With `partial` false only complete windows (a busy host); true also the committed part
// of each ring's open window (a quiet round, the stop).
Moved move_windows(RingReader& r, LogWriter& w, uint32_t stream, bool partial);

// The log file layout the host writes for session `e` (before LogWriter::create's
// plan_log_layout); StartTraceW checks it before it touches the file.
LogInfo host_log_info(const SessionEntry& e);
// How long the host sleeps after a round that found little to move when it cannot sleep on
// its doorbell (docs/namespace.md §3 "The doorbell": a ring's writer has none, a flush
// waits, the session stopped, the namespace is not watched): half the time a writer
// at kFastWriterBytesPerNs (1 GB/s, above what two writers of the sample event reach here)
// takes to fill the session's smallest ring, within [kMinIdleSleepNs, kMaxIdleSleepNs]:
// each wake-up takes a core from a writer and costs the host about 24 µs of CPU on this VM
// (a third of its CPU in a recording at 2 ms), and every context switch empties the TLB
// (docs/performance.md "Working sets").
inline constexpr uint64_t kFastWriterBytesPerNs = 1;
inline constexpr uint64_t kMinIdleSleepNs = 500'000;
inline constexpr uint64_t kMaxIdleSleepNs = 4'000'000;
uint64_t host_idle_sleep_ns(const SessionEntry& e);

// The host's marker name, and the host a marker name denotes.
std::string host_marker(uint64_t instance, const ProcessKey& host);
// The host of `instance` named by a marker in `dir` (alive or not), if any.
struct HostRef {
  ProcessKey key;
  std::string marker;
};
std::optional<HostRef> find_host(const TraceDir& dir, uint64_t instance);

// What the host has written so far (its marker's content).
struct HostCounters {
  uint64_t buffers_written = 0;
  uint64_t events_lost = 0;  // events the file could not take (not those the rings dropped)
  uint64_t log_buffers_lost = 0;
  uint64_t events_written = 0;
};
std::optional<HostCounters> read_host_counters(const TraceDir& dir, const std::string& marker);

// ControlTraceW(FLUSH) of a file session: asks the host to write its partly filled buffer
// once every event committed before now is in it, and waits (at most timeout_ms) until it
// did. False when there is no live host or it did not answer in time. The request and the
// answer are CLOCK_MONOTONIC times in the marker (offsets 32 and 40).
bool request_host_flush(const TraceDir& dir, uint64_t instance, uint32_t timeout_ms);

// The host process: `pfc-trace-host --instance N` with the namespace in PFC_TRACE_DIR and
// the log file on fd 3. Detaches (fork, setsid; the spawned process exits at once), then
// runs until the session stops. Returns the exit status.
int host_main(int argc, char** argv);

}  // namespace pfc::trace
