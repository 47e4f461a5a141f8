// bench/limit/payload64_workload.cc — Payload64: 64 sessions with payload predicates, half of
// them shared. Session s filters `payload Io all { <shared s % 4>; Latency gt 100 + 3·s }`,
// where the shared predicate is one of four Status tests, each used by 16 sessions. The
// hand-written router evaluates the four shared tests once and then compares the latency
// with each session's threshold, as a C++ programmer would write it.
#include "bench/limit/workload.h"

namespace pfc::bench {
namespace {

using Kind = PayloadExpr::Node::Kind;

constexpr uint32_t kSessions = 64;
uint32_t latency_min(uint32_t s) { return 100 + 3 * s; }

// The four shared Status tests: eq 200, ne 0, between 400,599, eq 404.
PayloadPredicate shared_pred(uint32_t k) {
  switch (k) {
    case 0: return {0, PayloadOp::Eq, {200, 0, "", {}}};
    case 1: return {0, PayloadOp::Ne, {0, 0, "", {}}};
    case 2: return {0, PayloadOp::Between, {400, 599, "", {}}};
    default: return {0, PayloadOp::Eq, {404, 0, "", {}}};
  }
}

class Payload64Hand final : public RoutingProgram {
 public:
  RouteResult route(const EventView& e) const noexcept override {
    if (e.desc.id != 10 || e.desc.version != 0) return {~uint64_t{0}, 0};
    if (e.payload_size < 18) return {0, 0};  // Latency (bytes 14..18) is in every filter
    const uint32_t status = load_u32(e.payload);
    const uint32_t latency = load_u32(e.payload + 14);
    const bool shared[4] = {status == 200, status != 0, status >= 400 && status <= 599,
                            status == 404};
    uint64_t out = 0;
    for (uint32_t s = 0; s < kSessions; ++s)
      if (shared[s % 4] && latency > latency_min(s)) out |= uint64_t{1} << s;
    return {out, 0};
  }
};

Event io_event(BenchRng& rng) {
  Event e;
  e.desc.id = rng.chance(90) ? 10 : 11;
  if (e.desc.id == 11) return e;
  const uint32_t statuses[] = {0, 200, 200, 404, 503, uint32_t(rng.below(1000))};
  PayloadWriter w;
  w.le(statuses[rng.below(6)], 4).le(rng.next() >> 40, 8);
  w.le(rng.below(65536), 2).le(rng.below(400), 4);
  e.payload = std::move(w.bytes);
  if (rng.chance(3)) e.payload.resize(rng.below(e.payload.size() + 1));
  return e;
}

}  // namespace

Workload payload64_workload() {
  Workload w;
  w.name = "Payload64";
  w.spec.provider = io_provider();
  for (uint32_t s = 0; s < kSessions; ++s) {
    PayloadFilter f{10, 0, false, {}};
    f.expr.preds = {shared_pred(s % 4), {3, PayloadOp::Gt, {latency_min(s), 0, "", {}}}};
    f.expr.nodes = {{Kind::Pred, 0, 0}, {Kind::Pred, 1, 0}, {Kind::And, 0, 2}};
    f.expr.kids = {0, 1};
    EnableParams params;
    params.payload = {std::move(f)};
    w.spec.sessions.emplace_back(s, params);
  }
  BenchRng rng(64);
  for (size_t i = 0; i < kEventsPerWorkload; ++i) w.events.push_back(io_event(rng));
  w.hand = std::make_unique<Payload64Hand>();
  return w;
}

}  // namespace pfc::bench
