// cli/counts.cc — the `pfc run --count` summary line.
#include "cli/counts.h"

#include <sys/resource.h>

#include <cmath>
#include <cstdio>

#include "cli/output.h"

namespace pfc::cli {

std::string format_counts(const RouteCounts& counts, const std::vector<std::string>& names,
                          std::string_view engine, double seconds) {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  char timing[96];
  const double rate = seconds > 0 ? double(counts.events()) / seconds : 0;
  std::snprintf(timing, sizeof timing, "\"seconds\":%.6f,\"events_per_second\":%.0f", seconds,
                std::floor(rate));
  std::string out = "{\"events\":" + std::to_string(counts.events()) +
                    ",\"matched\":" + std::to_string(counts.matched()) +
                    ",\"engine\":" + json_quote(engine) + "," + timing +
                    ",\"max_rss_kb\":" + std::to_string(usage.ru_maxrss) + ",\"sessions\":{";
  for (size_t s = 0; s < names.size(); ++s) {
    if (s > 0) out += ',';
    out += json_quote(names[s]) + ":{\"delivered\":" + std::to_string(counts.delivered()[s]) +
           ",\"stack\":" + std::to_string(counts.stack()[s]) + "}";
  }
  return out + "}}\n";
}

}  // namespace pfc::cli
