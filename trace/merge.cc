// trace/merge.cc — see merge.h.
#include "trace/merge.h"

#include "trace/procs.h"

#include <chrono>
#include <thread>

namespace pfc::trace {

void SessionRings::watch(const TraceDir& dir) {
  watch_ = DirWatch::open(dir, "r-" + std::to_string(instance_) + "-");
}

uint32_t SessionRings::wait(uint64_t ns, int bell) {
  if (!watch_) {
    if (bell >= 0) return wait_bell(bell, ns);
    std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
    return 0;
  }
  const uint32_t seen = watch_->wait(ns, bell);
  changed_ |= (seen & DirWatch::kWatchPrefix) != 0;
  return seen;
}

void SessionRings::scan(const TraceDir& dir, const StateStore& store, uint64_t now) {
  const bool timed = now >= next_scan_ns_;
  if (!timed && !changed_) return;
  if (timed) next_scan_ns_ = now + scan_ns_;
  // The state is read when its generation moved (a publish, a stop among them), and every
  // kWatchListNs in case it was damaged in place.
  if (timed && stopped_at_ == 0 && now >= next_stop_check_ns_ &&
      (store.generation() != state_generation_ || now >= next_state_read_ns_)) {
    next_stop_check_ns_ = now + kScanNs;
    next_state_read_ns_ = now + kWatchListNs;
    state_generation_ = store.generation();
    // A damaged state holds no session any more (the next publish replaces it by an empty
    // one): that is this session's stop too, so its readers finish instead of waiting for
    // a session that can never stop (docs/namespace.md §2).
    bool damaged = false;
    auto st = store.read(&damaged);
    if (damaged || (st && st->session_by_instance(instance_) == nullptr)) {
      stopped_at_ = now;
      stop_generation_ = st ? st->generation : 0;  // damaged: no process applies a stop
    }
  }
  // Until every provider process applied the stop, one may still create a ring and write
  // into it; the rings are listed after this check, so the scan that sees them all applied
  // also sees every ring of the session.
  // Without a watch the directory is listed at every timed scan; with one when a ring was
  // created (changed_), when one could not be opened yet, and every kWatchListNs in case.
  bool list = !watch_ || changed_ || (timed && (retry_ || now >= next_list_ns_));
  if (stopped_at_ != 0 && !stop_applied_) {
    stop_applied_ = stop_generation_ == 0 || all_applied(dir, stop_generation_, self_process());
    list |= stop_applied_;
  }
  if (!list) return;
  changed_ = retry_ = false;
  next_list_ns_ = now + kWatchListNs;
  const std::string prefix = "r-" + std::to_string(instance_) + "-";
  for (const std::string& name : dir.list(prefix)) {
    if (known_.contains(name)) continue;
    auto ring = RingReader::open(dir, name);
    if (!ring) {  // still being created: the next timed scan
      retry_ = true;
      continue;
    }
    known_.insert(name);
    uint32_t group = static_cast<uint32_t>(rings_.size());
    for (size_t i = 0; i < rings_.size(); ++i)
      if (rings_[i]->id().writer == ring->id().writer) group = group_[i];
    siblings_ |= group != rings_.size();
    group_.push_back(group);
    heads_.push_back(nullptr);
    held_.push_back(0);
    taken_.push_back(0);
    rings_.push_back(std::make_unique<RingReader>(std::move(*ring)));
  }
}

SessionRings::Pick SessionRings::oldest() {
  Pick best;
  for (auto& r : rings_) {
    const auto* v = r->peek();
    if (v != nullptr && (best.view == nullptr || v->header.ts < best.view->header.ts)) {
      best.view = v;
      best.ring = r.get();
    }
  }
  return best;
}

bool SessionRings::finished(uint64_t now) {
  if (stopped_at_ == 0 || now < stopped_at_ + kScanNs) return false;  // one scan after the stop
  if (now >= stopped_at_ + kStopDrainNs) return true;
  if (!stop_applied_) return false;  // a provider may still write
  for (auto& r : rings_)
    if (!r->finished() && !(r->peek() == nullptr && r->drained())) return false;
  return true;
}

uint64_t SessionRings::untaken(size_t i) const {
  const RingReader& r = *rings_[i];
  // A dead writer's skipped records are in the ring's `lost` already (RingReader::count_dead).
  const uint64_t reserved = r.events(), gone = taken_[i] + r.dead_skipped();
  const uint64_t left = reserved > gone ? reserved - gone : 0;
  return std::min<uint64_t>(left, r.capacity() / kMinRecordBytes);
}

uint64_t SessionRings::given_up() const {
  uint64_t out = 0;
  for (size_t i = 0; i < rings_.size(); ++i)
    if (rings_[i]->damaged()) out += untaken(i);
  return out;
}

uint64_t SessionRings::left_behind() const {
  uint64_t out = 0;
  for (size_t i = 0; i < rings_.size(); ++i) out += untaken(i);
  return out;
}

}  // namespace pfc::trace
