// trace/merge.h — one session's rings read as one stream, merged by timestamp
// (docs/namespace.md §3–§4). The real-time consumer (etw/consumer.cc) and the log-file
// session host (trace/host.cc) both read sessions through this: it opens the rings of new
// writers as they appear (scanned every kScanNs), notices the session's stop (the state no
// longer holds the instance), and tells when a record may be delivered: once it is kLagNs
// old, so a writer that took its timestamp but has not reserved its record yet cannot be
// overtaken, or at once after the stop.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "trace/dir.h"
#include "trace/ring.h"
#include "trace/state.h"

namespace pfc::trace {

inline constexpr uint64_t kLagNs = 2'000'000;            // merge horizon
inline constexpr uint64_t kScanNs = 10'000'000;          // new rings, stop checked this often
inline constexpr uint64_t kStopDrainNs = 2'000'000'000;  // after a stop: in-flight writes

class SessionRings {
 public:
  explicit SessionRings(uint64_t instance) : instance_(instance) {}

  // Opens rings created since the last scan and notices the stop (at most every kScanNs).
  void scan(const TraceDir& dir, const StateStore& store, uint64_t now);

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
  // The session stopped and every ring is drained (or the in-flight grace period is over).
  bool finished(uint64_t now);

  uint64_t instance() const { return instance_; }
  uint64_t stopped_at() const { return stopped_at_; }
  // Marks the session stopped (a caller that learnt it otherwise).
  void set_stopped(uint64_t now) {
    if (stopped_at_ == 0) stopped_at_ = now;
  }
  const std::vector<std::unique_ptr<RingReader>>& rings() const { return rings_; }

 private:
  uint64_t instance_;
  std::vector<std::unique_ptr<RingReader>> rings_;
  std::set<std::string> known_;
  uint64_t next_scan_ns_ = 0;
  uint64_t stopped_at_ = 0;  // 0: the session is live
};

}  // namespace pfc::trace
