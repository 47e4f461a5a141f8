// bench/route/route_bench.cc — per-event routing cost of the example workload
// (workload.h) with 1 and 8 sessions: reference interpreter vs a hand-written router.
// Names: Route_Example<N>_<Engine>.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

#include "bench/route/workload.h"
#include "compiler/interp.h"
#include "compiler/lower.h"

namespace pfc::bench {
namespace {

void route_loop(benchmark::State& state, const RoutingProgram& program) {
  std::vector<Event> events = example_events();
  std::vector<EventView> views;
  views.reserve(events.size());
  for (const Event& e : events) views.push_back(e.view());
  size_t i = 0;
  for ([[maybe_unused]] auto _ : state) {
    benchmark::DoNotOptimize(program.route(views[i]));
    if (++i == views.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

std::unique_ptr<Interpreter> interpreter(uint32_t sessions) {
  auto prog = lower(example_spec(sessions));
  if (!prog) std::abort();
  auto interp = Interpreter::create(std::move(*prog));
  if (!interp) std::abort();
  return std::move(*interp);
}

// The baseline must agree with the reference before it is worth timing.
void check_hand(uint32_t sessions) {
  auto interp = interpreter(sessions);
  HandRouter hand(sessions);
  for (const Event& e : example_events()) {
    if (!(interp->route(e.view()) == hand.route(e.view()))) {
      std::fprintf(stderr, "HandRouter disagrees with the interpreter (event id %u)\n", e.desc.id);
      std::abort();
    }
  }
}

void Route_Example1_Interp(benchmark::State& state) { route_loop(state, *interpreter(1)); }
void Route_Example8_Interp(benchmark::State& state) { route_loop(state, *interpreter(8)); }
void Route_Example1_Hand(benchmark::State& state) { route_loop(state, HandRouter(1)); }
void Route_Example8_Hand(benchmark::State& state) { route_loop(state, HandRouter(8)); }

BENCHMARK(Route_Example1_Interp);
BENCHMARK(Route_Example8_Interp);
BENCHMARK(Route_Example1_Hand);
BENCHMARK(Route_Example8_Hand);

}  // namespace
}  // namespace pfc::bench

int main(int argc, char** argv) {
  pfc::bench::check_hand(1);
  pfc::bench::check_hand(8);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
