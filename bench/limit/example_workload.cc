// bench/limit/example_workload.cc — the EnableTraceEx2 example filters for 1 or 8 sessions
// (bench/route/workload.h: example_spec and its HandRouter) over a random mix of
// Example_Event_1/2 payloads (matching, near misses, truncated) and unfiltered events.
#include "bench/limit/workload.h"
#include "bench/route/workload.h"

namespace pfc::bench {
namespace {

Event example_event(BenchRng& rng) {
  static constexpr const char16_t* kInitiators[] = {u"User",  u"user",  u"USER",
                                                    u"Admin", u"Users", u""};
  static constexpr const char16_t* kTitles[] = {u"UNIX system", u"community", u"Hello",
                                                u"unicorn",     u"Uninstall", u"service host",
                                                u"Updater"};
  Event e;
  const uint64_t kind = rng.below(20);
  e.desc.id = kind < 9 ? 1 : kind < 18 ? 2 : 3;
  e.desc.level = uint8_t(rng.below(6));
  PayloadWriter w;
  if (e.desc.id == 1) {
    w.wstr(kInitiators[rng.below(6)]).le(rng.below(30), 4);
  } else if (e.desc.id == 2) {
    w.wstr(kTitles[rng.below(7)]);
    const auto guid = rng.chance(30)
                          ? kExampleGuid.to_bytes()
                          : Guid::from_provider_name(std::to_string(rng.next())).to_bytes();
    for (uint8_t b : guid) w.le(b, 1);
    w.le(rng.below(10), 4);
  }
  e.payload = std::move(w.bytes);
  if (rng.chance(3)) e.payload.resize(rng.below(e.payload.size() + 1));
  return e;
}

}  // namespace

Workload example_workload(uint32_t sessions) {
  Workload w;
  w.name = "Example" + std::to_string(sessions);
  w.spec = example_spec(sessions);
  BenchRng rng(100 + sessions);
  for (size_t i = 0; i < kEventsPerWorkload; ++i) w.events.push_back(example_event(rng));
  w.hand = std::make_unique<HandRouter>(sessions);
  return w;
}

}  // namespace pfc::bench
