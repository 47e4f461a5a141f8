// trace/merge.h — one session's rings read as one stream, merged by timestamp
// (docs/namespace.md §3–§4). The real-time consumer (etw/consumer.cc) and the log-file
// session host (trace/host.cc) both read sessions through this: it opens the rings of new
// writers as they appear (scanned every kScanNs), notices the session's stop (the state no
// longer holds the instance), and tells when a record may be delivered: once it is kLagNs
// old, so a writer that took its timestamp but has not reserved its record yet cannot be
// overtaken, or at once after the stop. drain() takes every ready record in one call,
// reading no clock: the readiness limit is fixed by the `now` it is given.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "trace/dir.h"
#include "trace/ring.h"
#include "trace/state.h"

namespace pfc::trace {

inline constexpr uint64_t kLagNs = 2'000'000;            // merge horizon
inline constexpr uint64_t kScanNs = 10'000'000;          // new rings, stop checked this often
inline constexpr uint64_t kWatchListNs = 100'000'000;    // watched: listed anyway this often
inline constexpr uint64_t kStopDrainNs = 2'000'000'000;  // after a stop: in-flight writes
inline constexpr size_t kDrainBatch = 4096;              // records per drain() between clock reads
// A reader sleeps (500 µs) after a drain() that took fewer records than this: fewer are
// not worth a clock read each; more mean records are aging into readiness fast, so it
// reads the clock again at once and stays close to the merge horizon.
inline constexpr size_t kDrainSleepBelow = 64;

class SessionRings {
 public:
  // Rings of new writers are looked for every `scan_ns`, the stop every kScanNs.
  explicit SessionRings(uint64_t instance, uint64_t scan_ns = kScanNs)
      : instance_(instance), scan_ns_(scan_ns) {}

  // Opens rings created since the last scan (at most every scan_ns) and notices the stop
  // (at most every kScanNs): the state no longer holds the instance, or is damaged
  // (StateStore::read).
  void scan(const TraceDir& dir, const StateStore& store, uint64_t now);
  // Watches the directory for new rings (DirWatch): scan() then lists it only when one was
  // created (or every kWatchListNs). Without a watch (none to be had) nothing changes.
  void watch(const TraceDir& dir);
  // Sleeps `ns`, or until a name is created in the directory when watching, or bytes come
  // into the FIFO `bell` (-1: none). Returns what ended it (DirWatch::kWatch*; 0: the time):
  // kWatchOther is another name than a ring's (the state's replacement, whose generation is
  // published just after it: a caller looks again soon).
  uint32_t wait(uint64_t ns, int bell = -1);
  // Whether the directory is watched: a new ring wakes wait().
  bool watching() const { return watch_.has_value(); }

  struct Pick {
    RingReader* ring = nullptr;
    const RingReader::View* view = nullptr;
  };
  // The committed record with the smallest timestamp over the rings (ready or not).
  Pick oldest();
  // True when `v` may be delivered now.
  bool ready(const RingReader::View& v, uint64_t now) const {
    return stopped_at_ != 0 || v.header.ts + kLagNs <= now;
  }
  // Takes up to `max` records that are ready at `now`, in merge order — smallest timestamp
  // first, ties to the ring opened first, exactly the order of repeated oldest() — calling
  // take(RingReader&, const RingReader::View&) for each and popping it right after (so a
  // consumer killed inside `take` gets that one record again, nothing more). A ring's
  // records older than every other ring's head go as one run without rescanning the
  // others. The rings of one writer process (its main and front rings) are held together:
  // while one of them has a record in flight at its tail, none of them gives a record, so a
  // thread whose records alternate between the two is never reordered behind another
  // thread's unfinished record (docs/namespace.md §3 "The front ring"; oldest() ignores
  // this). Returns how many were taken; fewer than `max` means none is ready at `now`.
  template <typename Take>
  size_t drain(uint64_t now, size_t max, Take&& take);
  // The session stopped, every provider process applied the stop (so no ring can appear or
  // fill any more; scan() checks it) and every ring is drained — or the in-flight grace
  // period (kStopDrainNs) is over.
  bool finished(uint64_t now);
  // Events given up in damaged rings (docs/namespace.md §5): for each ring that stopped
  // being read, the events its writer reserved less those taken from it, at most what its
  // data area can hold (the counter is in the damaged shared data too).
  uint64_t given_up() const;
  // Events reserved in the rings and never taken, for a reader that finished: given_up()
  // over every ring — records still unread when the grace period ended (behind a record a
  // live writer never committed). The reserved records of writers that died, which the
  // readers skip, are in the rings' drops (`lost`) instead. With those drops, what the
  // session lost besides what its reader lost.
  uint64_t left_behind() const;

  uint64_t instance() const { return instance_; }
  uint64_t stopped_at() const { return stopped_at_; }
  // Marks the session stopped (a caller that learnt it otherwise).
  void set_stopped(uint64_t now) {
    if (stopped_at_ == 0) stopped_at_ = now;
  }
  const std::vector<std::unique_ptr<RingReader>>& rings() const { return rings_; }
  // The index of the first ring of ring i's writer process (the same for its main and front
  // rings), for a reader that takes records itself (RingReader::span)...
  uint32_t group(size_t i) const { return group_[i]; }
  // ... and counts what it took from ring i (given_up() needs it).
  void count_taken(size_t i, uint64_t events) { taken_[i] += events; }

 private:
  uint64_t instance_;
  std::vector<std::unique_ptr<RingReader>> rings_;
  // Per ring: the index of the first ring of the same writer process (its group).
  std::vector<uint32_t> group_;
  std::vector<const RingReader::View*> heads_;  // per ring: drain()'s peek of this round
  std::vector<uint8_t> held_;    // per group index: a ring of that writer has a record in flight
  std::vector<uint64_t> taken_;  // per ring: records drain() took
  bool siblings_ = false;        // some writer has two rings
  std::set<std::string> known_;
  uint64_t stop_generation_ = 0;  // the state's generation that had the session stopped
  bool stop_applied_ = false;     // every provider process has applied it
  uint64_t scan_ns_;
  uint64_t next_scan_ns_ = 0;
  std::optional<DirWatch> watch_;
  bool changed_ = true;  // watched: a ring was created since the last listing
  bool retry_ = false;   // a ring could not be opened yet
  uint64_t next_list_ns_ = 0;
  uint64_t state_generation_ = ~uint64_t{0};  // the state's generation at the last read
  uint64_t next_state_read_ns_ = 0;
  uint64_t next_stop_check_ns_ = 0;
  uint64_t stopped_at_ = 0;  // 0: the session is live
  // Ring i's events reserved less those taken, at most what its data area can hold (the
  // counter is in the shared data, which may be damaged).
  uint64_t untaken(size_t i) const;
};

template <typename Take>
size_t SessionRings::drain(uint64_t now, size_t max, Take&& take) {
  if (stopped_at_ == 0 && now < kLagNs) return 0;
  const uint64_t limit = stopped_at_ != 0 ? ~uint64_t{0} : now - kLagNs;  // ready: ts <= limit
  size_t n = 0;
  while (n < max) {
    RingReader* best = nullptr;
    size_t best_index = 0;
    const RingReader::View* v = nullptr;
    uint64_t second = ~uint64_t{0};  // the smallest head of the other rings
    // One peek per ring: its head, and whether a record in flight holds its writer's group.
    bool held = false;
    for (size_t i = 0; i < rings_.size(); ++i) {
      heads_[i] = rings_[i]->peek();
      if (siblings_ && heads_[i] == nullptr && rings_[i]->pending()) {
        held_[group_[i]] = 1;
        held = true;
      }
    }
    for (size_t i = 0; i < rings_.size(); ++i) {
      const RingReader::View* w = heads_[i];
      if (w == nullptr || (held && held_[group_[i]] != 0)) continue;
      if (v == nullptr || w->header.ts < v->header.ts) {
        if (v != nullptr) second = v->header.ts;  // v's ts was the smallest so far
        best = rings_[i].get();
        best_index = i;
        v = w;
      } else if (w->header.ts < second) {
        second = w->header.ts;
      }
    }
    if (held) std::fill(held_.begin(), held_.end(), uint8_t{0});
    if (v == nullptr || v->header.ts > limit) break;
    do {  // an equal timestamp elsewhere ends the run: the rescan applies the ring order
      take(*best, *v);
      best->pop();
      ++taken_[best_index];
      ++n;
    } while (n < max && (v = best->peek()) != nullptr && v->header.ts <= limit &&
             v->header.ts < second);
  }
  return n;
}

}  // namespace pfc::trace
