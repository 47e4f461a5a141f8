// bench/limit/header_workload.cc — header-only filters: every session has a level, MatchAny/
// MatchAll keywords (some with ignore_keyword_0), and half of them a PID list and an
// event-ID set (in or not in). The hand-written router precomputes one session mask per
// level, keyword byte, PID and event ID, so an event costs four table lookups.
#include <array>
#include <cstdlib>
#include <unordered_map>

#include "bench/limit/workload.h"

namespace pfc::bench {
namespace {

constexpr uint32_t kPids[16] = {4,    88,   412,  1000, 1337, 2048,  3112,  4096,
                                5000, 6200, 7777, 8080, 9001, 12000, 20000, 31337};
constexpr uint16_t kMaxId = 40;  // events use ids 0..39; filters list ids below this

EnableParams header_params(uint32_t s) {
  EnableParams p;
  p.level = s % 7 == 6 ? 0 : uint8_t(1 + s % 5);
  p.any = s % 8 == 7 ? 0 : uint64_t{0x3} << (s % 6);
  p.all = s % 3 == 0 && p.any != 0 ? uint64_t{1} << (s % 6) : 0;
  if (s % 5 == 4) p.properties |= enable_property::kIgnoreKeyword0;
  if (s % 2 == 0)
    p.pids = std::vector<uint32_t>{kPids[s % 16], kPids[(s + 3) % 16], kPids[(s + 7) % 16]};
  if (s % 4 != 1) {
    EventIdFilter f;
    f.filter_in = s % 4 != 3;
    for (uint16_t k = 0; k < 6; ++k) f.ids.push_back(uint16_t((s + 7 * k) % 32));
    p.event_ids = f;
  }
  return p;
}

// The practical limit for these filters: session masks precomputed per header value. The
// keyword filters only use bits 0..7, so the low keyword byte decides MatchAny/MatchAll.
class HeaderHand final : public RoutingProgram {
 public:
  explicit HeaderHand(const ProgramSpec& spec) {
    for (const SessionEntry& e : spec.sessions) add(e.slot, *e.params);
  }

  RouteResult route(const EventView& e) const noexcept override {
    uint64_t m = level_[e.desc.level];
    const uint64_t kw = e.desc.keyword;
    m &= kw == 0 ? kw_zero_ : kw_byte_[kw & 0xFF];
    m &= e.desc.id < kMaxId ? id_[e.desc.id] : id_other_;
    uint64_t pid_mask = no_pid_filter_;
    for (const auto& [pid, mask] : pids_) pid_mask |= pid == e.pid ? mask : 0;
    return {m & pid_mask, 0};
  }

 private:
  void add(uint32_t slot, const EnableParams& p) {
    const uint64_t bit = uint64_t{1} << slot;
    for (uint32_t l = 0; l < 256; ++l)
      if (l == 0 || p.level == 0 || l <= p.level) level_[l] |= bit;
    if ((p.properties & enable_property::kIgnoreKeyword0) == 0) kw_zero_ |= bit;
    if ((p.any | p.all) > 0xFF) std::abort();  // the keyword table relies on it
    for (uint64_t b = 0; b < 256; ++b)         // b = the low byte of a non-zero keyword
      if (p.any == 0 || ((b & p.any) != 0 && (b & p.all) == p.all)) kw_byte_[b] |= bit;
    for (uint16_t id = 0; id < kMaxId; ++id) id_[id] |= passes_ids(p, id) ? bit : 0;
    id_other_ |= passes_ids(p, kMaxId) ? bit : 0;
    if (!p.pids) {
      no_pid_filter_ |= bit;
    } else {
      for (uint32_t pid : *p.pids) add_pid(pid, bit);
    }
  }
  static bool passes_ids(const EnableParams& p, uint16_t id) {
    if (!p.event_ids) return true;
    bool listed = false;
    for (uint16_t x : p.event_ids->ids) listed = listed || x == id;
    return listed == p.event_ids->filter_in;
  }
  void add_pid(uint32_t pid, uint64_t bit) {
    for (auto& [p, mask] : pids_)
      if (p == pid) {
        mask |= bit;
        return;
      }
    pids_.emplace_back(pid, bit);
  }

  std::array<uint64_t, 256> level_{};
  std::array<uint64_t, 256> kw_byte_{};
  uint64_t kw_zero_ = 0;
  std::array<uint64_t, kMaxId> id_{};
  uint64_t id_other_ = 0;
  uint64_t no_pid_filter_ = 0;
  std::vector<std::pair<uint32_t, uint64_t>> pids_;
};

std::unique_ptr<BpfRouter> header_bpf(const ProgramSpec& spec) {
  auto router = std::make_unique<BpfRouter>();
  for (const SessionEntry& e : spec.sessions) {
    BpfAsm a;
    const int reject = a.label();
    emit_header_checks(a, *e.params, reject);
    a.stmt(BPF_RET | BPF_K, 1);
    a.bind(reject);
    a.stmt(BPF_RET | BPF_K, 0);
    router->add_session(e.slot, a.finish());
  }
  return router;
}

Event header_event(BenchRng& rng) {
  Event e;
  e.desc.id = uint16_t(rng.below(kMaxId));
  e.desc.level = uint8_t(rng.below(6));
  const uint64_t kinds[] = {0, uint64_t{1} << rng.below(8), rng.next() & 0xFF, rng.next()};
  e.desc.keyword = kinds[rng.below(4)];
  e.pid = rng.chance(60) ? kPids[rng.below(16)] : uint32_t(rng.below(40000));
  e.tid = uint32_t(rng.below(40000));
  return e;
}

}  // namespace

Workload header_workload(uint32_t sessions) {
  Workload w;
  w.name = "Header" + std::to_string(sessions);
  w.spec.provider.name = "Header-Provider";
  w.spec.provider.guid = Guid::from_provider_name("Header-Provider");
  for (uint16_t id = 0; id < 32; ++id)
    w.spec.provider.events.push_back(
        EventDef{"E" + std::to_string(id), {id, 0, 0, 4, 0, 0, 1}, {}});
  for (uint32_t s = 0; s < sessions; ++s) w.spec.sessions.emplace_back(s, header_params(s));
  BenchRng rng(sessions);
  for (size_t i = 0; i < kEventsPerWorkload; ++i) w.events.push_back(header_event(rng));
  w.hand = std::make_unique<HeaderHand>(w.spec);
  w.bpf = header_bpf(w.spec);
  for (const Event& e : w.events) w.bpf->records.push_back(bpf_header(e.view()));
  return w;
}

}  // namespace pfc::bench
