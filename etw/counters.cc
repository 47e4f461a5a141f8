// etw/counters.cc — see counters.h.
#include "etw/counters.h"

#include <cinttypes>
#include <cstdio>
#include <set>

#include "trace/procs.h"
#include "trace/ring.h"

namespace pfc::etw {
namespace {

std::string ring_prefix(uint64_t instance) { return "r-" + std::to_string(instance) + "-"; }
std::string marker_prefix(uint64_t instance) { return "c-" + std::to_string(instance) + "-"; }

}  // namespace

bool has_live_consumer(const trace::TraceDir& dir, uint64_t instance) {
  bool live = false;
  for (const std::string& name : dir.list(marker_prefix(instance))) {
    unsigned long long inst = 0, start = 0;
    unsigned pid = 0;
    if (std::sscanf(name.c_str(), "c-%llu-%u-%llu", &inst, &pid, &start) == 3 &&
        trace::process_alive(trace::ProcessKey{pid, start})) {
      live = true;
    } else {
      dir.remove(name);
    }
  }
  return live;
}

SessionCounters count_session(const trace::TraceDir& dir, const trace::SessionEntry& e) {
  SessionCounters c;
  const uint64_t buffer = uint64_t{std::max<uint32_t>(e.buffer_kb, 1)} * 1024;
  for (const std::string& name : dir.list(ring_prefix(e.instance))) {
    auto ring = trace::RingReader::open(dir, name);
    if (!ring) continue;
    c.buffers += ring->capacity() / buffer;
    c.buffers_written += ring->consumed() / buffer;
    c.events_lost += ring->lost();
    c.realtime_buffers_lost += (ring->lost_bytes() + buffer - 1) / buffer;
  }
  return c;
}

std::string consumer_marker(uint64_t instance, const trace::ProcessKey& who) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "c-%" PRIu64 "-%u-%" PRIu64, instance, who.pid, who.start);
  return buf;
}

void reap_session(const trace::TraceDir& dir, uint64_t instance) {
  if (has_live_consumer(dir, instance)) return;
  for (const std::string& name : dir.list(ring_prefix(instance))) dir.remove(name);
}

void reap_orphans(const trace::TraceDir& dir, const trace::NamespaceState& state) {
  std::set<uint64_t> seen;
  for (const std::string& name : dir.list("r-")) {
    auto id = trace::parse_ring_name(name);
    if (id && state.session_by_instance(id->instance) == nullptr) seen.insert(id->instance);
  }
  for (uint64_t instance : seen) reap_session(dir, instance);
  trace::reap_dead_procs(dir);
}

}  // namespace pfc::etw
