// cli/progress.cc — the progress line.
#include "cli/progress.h"

#include <cstdio>

namespace pfc::cli {

Progress::Progress(bool enabled, std::ostream& err)
    : enabled_(enabled), err_(err), start_(std::chrono::steady_clock::now()), last_(start_) {}

void Progress::update(uint64_t events, uint64_t consumed, std::optional<uint64_t> total) {
  using namespace std::chrono;
  const auto now = steady_clock::now();
  const double elapsed = duration<double>(now - start_).count();
  if (elapsed < 1.0 || now - last_ < milliseconds(250)) return;
  last_ = now;
  char line[160];
  int n = std::snprintf(line, sizeof line, "\r\x1b[K%llu events, %.0f events/s",
                        static_cast<unsigned long long>(events), double(events) / elapsed);
  if (total && *total > 0 && consumed <= *total) {
    const double done = double(consumed) / double(*total);
    const double left = done > 0 ? elapsed * (1 - done) / done : 0;
    n += std::snprintf(line + n, sizeof line - size_t(n), ", %.0f%%, ETA %.0f s", 100 * done, left);
  }
  err_.write(line, n);
  err_.flush();
  drawn_ = true;
}

void Progress::clear() {
  if (!drawn_) return;
  err_ << "\r\x1b[K" << std::flush;
  drawn_ = false;
}

}  // namespace pfc::cli
