// etw/counters.h — a session's counters, summed over the rings of every process that wrote
// to it (QueryTraceW, ControlTraceW, LogfileHeader), and the removal of a stopped session's
// rings (docs/namespace.md §4).
#pragma once

#include <cstdint>

#include <vector>

#include "trace/dir.h"
#include "trace/ring.h"
#include "trace/state.h"

namespace pfc::etw {

struct SessionCounters {
  uint64_t buffers = 0;          // NumberOfBuffers: ring bytes / BufferSize, over all rings
  uint64_t buffers_written = 0;  // bytes consumed / BufferSize
  uint64_t events_lost = 0;
  uint64_t events = 0;  // events the session's rings received (read, pending or in flight)
  // Real-time sessions: lost bytes / BufferSize, rounded up per ring (a file session
  // without EVENT_TRACE_REAL_TIME_MODE delivers nothing in real time: 0, as in ETW; its
  // rings' drops are EventsLost).
  uint64_t realtime_buffers_lost = 0;
  uint64_t log_buffers_lost = 0;  // file sessions: buffers a full file could not take
};

SessionCounters count_session(const trace::TraceDir& dir, const trace::SessionEntry& e);
// The same sums over rings already mapped (they stay readable after their files are removed).
SessionCounters count_rings(const std::vector<trace::RingReader>& rings, uint32_t buffer_kb);
// The rings of `instance`, mapped (unreadable ones skipped).
std::vector<trace::RingReader> map_rings(const trace::TraceDir& dir, uint64_t instance);
// Adds the rings of `instance` that `rings` does not hold yet (created since it was mapped).
void map_new_rings(const trace::TraceDir& dir, uint64_t instance,
                   std::vector<trace::RingReader>& rings);

// The name of the consumer marker of `instance` for `who` (a live marker keeps the rings
// of a stopped session until that consumer has read them).
std::string consumer_marker(uint64_t instance, const trace::ProcessKey& who);
// True when a live process consumes `instance` (markers of dead consumers are removed).
bool has_live_consumer(const trace::TraceDir& dir, uint64_t instance);
// Removes the rings of `instance` unless a live consumer marks it; also drops the markers
// of dead consumers.
void reap_session(const trace::TraceDir& dir, uint64_t instance);
// Reaps every instance that is no longer a session of `state` (the next operation after a
// crash cleans up), and the process slots of dead processes.
void reap_orphans(const trace::TraceDir& dir, const trace::NamespaceState& state);

}  // namespace pfc::etw
