// cli/counts.h — `pfc run --count`: per-session totals of routed events and the one-line
// JSON summary printed instead of one line per event (docs/cli.md, "--count").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pfc/event.h"

namespace pfc::cli {

// Totals over route results. Not thread-safe.
class RouteCounts {
 public:
  explicit RouteCounts(size_t sessions) : delivered_(sessions), stack_(sessions) {}
  void add(const RouteResult& r) {
    ++events_;
    if (r.deliver != 0) ++matched_;
    for (uint64_t m = r.deliver; m != 0; m &= m - 1) ++delivered_[size_t(__builtin_ctzll(m))];
    for (uint64_t m = r.stack; m != 0; m &= m - 1) ++stack_[size_t(__builtin_ctzll(m))];
  }
  uint64_t events() const { return events_; }
  uint64_t matched() const { return matched_; }
  const std::vector<uint64_t>& delivered() const { return delivered_; }
  const std::vector<uint64_t>& stack() const { return stack_; }

 private:
  uint64_t events_ = 0;
  uint64_t matched_ = 0;             // events at least one session received
  std::vector<uint64_t> delivered_;  // by session slot
  std::vector<uint64_t> stack_;      // by session slot
};

// {"events":N,"matched":M,"engine":"jit","seconds":S,"events_per_second":R,
//  "max_rss_kb":K,"sessions":{"A":{"delivered":n,"stack":k},...}}\n — sessions in slot
// order; `seconds` is the routing time alone; max_rss_kb is the process's peak resident set
// so far (getrusage).
std::string format_counts(const RouteCounts& counts, const std::vector<std::string>& names,
                          std::string_view engine, double seconds);

}  // namespace pfc::cli
