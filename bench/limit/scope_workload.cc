// bench/limit/scope_workload.cc — ScopeExe8: eight sessions, each with a level and an exe
// list of three names out of ten (neighbouring sessions share two), on events from
// executables named in any case behind a path, or unlisted. The hand-written router keeps
// one session mask per listed name (lower-cased, sorted) and per level, so an event costs
// one final-component cut, one case-insensitive binary search and two loads.
#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/ascii.h"
#include "bench/limit/workload.h"

namespace pfc::bench {
namespace {

constexpr uint32_t kSessions = 8;
constexpr std::string_view kNames[] = {"app.exe", "svc.exe",  "tool.exe", "Shell.EXE", "db.exe",
                                       "web.exe", "cron.exe", "ssh.exe",  "git.exe",   "make.exe"};
constexpr std::string_view kUnlisted[] = {"explorer.exe", "a.exe", "svc.ex", "tool.exe.bak"};
constexpr std::string_view kDirs[] = {"C:\\Windows\\System32\\", "/usr/bin/", "D:\\apps\\x\\"};

EnableParams scope_params(uint32_t s) {
  EnableParams p;
  p.level = uint8_t(2 + s % 4);
  std::vector<std::string> names;
  names.reserve(3);
  for (uint32_t k = 0; k < 3; ++k) names.emplace_back(kNames[(s + k) % std::size(kNames)]);
  p.exe_names = std::move(names);
  return p;
}

// -1 / 0 / 1 as `a` (folded on the fly) orders before / equal to / after the lower-case `b`.
int compare_nocase(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const auto x = static_cast<unsigned char>(ascii_lower(a[i]));
    const auto y = static_cast<unsigned char>(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

class ScopeHand final : public RoutingProgram {
 public:
  explicit ScopeHand(const ProgramSpec& spec) {
    for (const SessionEntry& e : spec.sessions) {
      const uint64_t bit = uint64_t{1} << e.slot;
      for (uint32_t l = 0; l < 256; ++l)
        if (l == 0 || e.params->level == 0 || l <= e.params->level) level_[l] |= bit;
      for (const std::string& n : *e.params->exe_names) add(to_ascii_lower(n), bit);
    }
    std::sort(names_.begin(), names_.end());
  }

  RouteResult route(const EventView& e) const noexcept override {
    std::string_view exe = e.exe.view();
    const size_t slash = exe.find_last_of("/\\");
    if (slash != std::string_view::npos) exe.remove_prefix(slash + 1);
    size_t lo = 0, hi = names_.size();
    uint64_t listed = 0;
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      const int c = compare_nocase(exe, names_[mid].first);
      if (c == 0) {
        listed = names_[mid].second;
        break;
      }
      if (c < 0) hi = mid;
      else lo = mid + 1;
    }
    return {level_[e.desc.level] & listed, 0};
  }

 private:
  void add(const std::string& name, uint64_t bit) {
    for (auto& [n, mask] : names_)
      if (n == name) {
        mask |= bit;
        return;
      }
    names_.emplace_back(name, bit);
  }

  std::array<uint64_t, 256> level_{};
  std::vector<std::pair<std::string, uint64_t>> names_;
};

// A name as events spell it: in its own case, upper case or mixed.
std::string spelled(std::string_view name, BenchRng& rng) {
  std::string s(name);
  const uint64_t how = rng.below(3);
  for (size_t i = 0; i < s.size(); ++i)
    if (how == 1 || (how == 2 && i % 2 == 0)) s[i] = ascii_upper(s[i]);
  return s;
}

}  // namespace

Workload scope_workload() {
  Workload w;
  w.name = "ScopeExe8";
  w.spec.provider.name = "Scope-Provider";
  w.spec.provider.guid = Guid::from_provider_name("Scope-Provider");
  w.spec.provider.events = {EventDef{"E", {1, 0, 0, 4, 0, 0, 0}, {}}};
  for (uint32_t s = 0; s < kSessions; ++s) w.spec.sessions.emplace_back(s, scope_params(s));
  BenchRng rng(88);
  for (size_t i = 0; i < kEventsPerWorkload; ++i) {
    Event e;
    e.desc = {1, 0, 0, uint8_t(rng.below(6)), 0, 0, 0};
    const std::string_view name = rng.chance(80) ? kNames[rng.below(std::size(kNames))]
                                                 : kUnlisted[rng.below(std::size(kUnlisted))];
    e.exe = std::string(kDirs[rng.below(std::size(kDirs))]) + spelled(name, rng);
    w.events.push_back(std::move(e));
  }
  w.hand = std::make_unique<ScopeHand>(w.spec);
  return w;
}

}  // namespace pfc::bench
