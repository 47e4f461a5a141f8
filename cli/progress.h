// cli/progress.h — a one-line progress display on stderr for long runs: events, events/s,
// % of the input and the time left when the input's size is known. Shown only when enabled
// (stderr is a terminal and stdout is not the same kind of display, decided by the
// command) and only once the run has lasted a second; erased at the end.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>

namespace pfc::cli {

class Progress {
 public:
  Progress(bool enabled, std::ostream& err);
  // Called per event; looks at the clock every 4096 events and redraws at most 4 times a
  // second. `consumed` / `total`: input bytes read so far and the input's size if known.
  void tick(uint64_t events, uint64_t consumed, std::optional<uint64_t> total) {
    if (due(events)) update(events, consumed, total);
  }
  // Whether tick(events, ...) would look at the clock: callers whose `consumed` and `total`
  // cost something to compute test this first.
  bool due(uint64_t events) const { return enabled_ && (events & 4095) == 0; }
  // Erases the line (if one was drawn).
  void clear();

 private:
  void update(uint64_t events, uint64_t consumed, std::optional<uint64_t> total);

  bool enabled_;
  std::ostream& err_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
  bool drawn_ = false;
};

}  // namespace pfc::cli
