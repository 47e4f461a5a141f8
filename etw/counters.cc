// etw/counters.cc — see counters.h.
#include "etw/counters.h"

#include <set>

#include "pfc/etw/evntrace.h"

#include "trace/names.h"
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
    const std::optional<trace::ObjectName> n = trace::parse_object_name(name, 'c', true);
    if (n && trace::process_alive(n->process)) {
      live = true;
    } else {
      dir.remove(name);
    }
  }
  return live;
}

SessionCounters count_rings(const std::vector<trace::RingReader>& rings, uint32_t buffer_kb) {
  SessionCounters c;
  const uint64_t buffer = uint64_t{std::max<uint32_t>(buffer_kb, 1)} * 1024;
  for (const trace::RingReader& r : rings) {
    c.buffers += r.capacity() / buffer;
    c.buffers_written += r.consumed() / buffer;
    c.events_lost += r.lost();
    c.events += r.events();
    c.realtime_buffers_lost += (r.lost_bytes() + buffer - 1) / buffer;
  }
  return c;
}

std::vector<trace::RingReader> map_rings(const trace::TraceDir& dir, uint64_t instance) {
  std::vector<trace::RingReader> rings;
  for (const std::string& name : dir.list(ring_prefix(instance)))
    if (auto r = trace::RingReader::open(dir, name)) rings.push_back(std::move(*r));
  return rings;
}

void map_new_rings(const trace::TraceDir& dir, uint64_t instance,
                   std::vector<trace::RingReader>& rings) {
  std::set<std::string> known;
  for (const trace::RingReader& r : rings) known.insert(r.name());
  for (const std::string& name : dir.list(ring_prefix(instance)))
    if (!known.contains(name))
      if (auto r = trace::RingReader::open(dir, name)) rings.push_back(std::move(*r));
}

SessionCounters count_session(const trace::TraceDir& dir, const trace::SessionEntry& e) {
  SessionCounters c = count_rings(map_rings(dir, e.instance), e.buffer_kb);
  if ((e.log_file_mode & EVENT_TRACE_REAL_TIME_MODE) == 0)
    c.realtime_buffers_lost = 0;  // nothing delivered
  return c;
}

std::string consumer_marker(uint64_t instance, const trace::ProcessKey& who) {
  return trace::object_name('c', instance, who);
}

void reap_session(const trace::TraceDir& dir, uint64_t instance) {
  if (has_live_consumer(dir, instance)) return;
  for (const std::string& name : dir.list(ring_prefix(instance))) dir.remove(name);
  dir.remove(trace::bell_name(instance));  // the doorbell of a host that died
}

void reap_orphans(const trace::TraceDir& dir, const trace::NamespaceState& state) {
  std::set<uint64_t> seen;
  for (const std::string& name : dir.list("r-")) {
    auto id = trace::parse_ring_name(name);
    if (id && state.session_by_instance(id->instance) == nullptr) seen.insert(id->instance);
  }
  for (const std::string& name : dir.list("b-")) {
    auto instance = trace::parse_bell_name(name);
    if (instance && state.session_by_instance(*instance) == nullptr) seen.insert(*instance);
  }
  for (uint64_t instance : seen) reap_session(dir, instance);
  trace::reap_dead_procs(dir);
}

}  // namespace pfc::etw
