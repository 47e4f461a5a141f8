// tests/compiler/workload_test.cc — the benchmark workload (bench/route/workload.h) as a
// test: 1..8 sessions with different payload filters; the interpreter agrees with the
// hand-written router and with explicit expectations.
#include "bench/route/workload.h"
#include "test_util.h"

namespace pfc::testing {
namespace {

TEST(Workload, InterpreterMatchesHandRouterForOneToEightSessions) {
  std::vector<Event> events = bench::example_events();
  for (uint32_t n = 1; n <= 8; ++n) {
    auto interp = compile(bench::example_spec(n));
    ASSERT_TRUE(interp);
    bench::HandRouter hand(n);
    for (size_t i = 0; i < events.size(); ++i) {
      EXPECT_EQ(interp->route(events[i].view()), hand.route(events[i].view()))
          << n << " sessions, event " << i;
    }
  }
}

TEST(Workload, EightSessionsExpectedMasks) {
  auto interp = compile(bench::example_spec(8));
  std::vector<Event> ev = bench::example_events();
  // Levels per slot: 1 2 3 4 5 1 2 3; Level ranges 7..16+s; ErrorCode ne s.
  EXPECT_EQ(interp->route(ev[0].view()).deliver, 0xFFu);  // User, 7
  EXPECT_EQ(interp->route(ev[2].view()).deliver, 0u);     // Admin
  EXPECT_EQ(interp->route(ev[3].view()).deliver, 0xF0u);  // User, 20: 16+s ≥ 20 → s ≥ 4
  EXPECT_EQ(interp->route(ev[5].view()).deliver, 0xDEu);  // level 2: slots 1-4, 6, 7
  EXPECT_EQ(interp->route(ev[7].view()).deliver, 0x18u);  // level 4: slots 3, 4 (code 5 ≠ 3, 4)
  EXPECT_EQ(interp->route(ev[8].view()).deliver, 0xFFu);  // unfiltered event
  EXPECT_EQ(interp->route(ev[9].view()).deliver, 0u);     // truncated
}

}  // namespace
}  // namespace pfc::testing
