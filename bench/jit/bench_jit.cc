// bench/jit/bench_jit.cc — JIT benchmarks: compile latency from script text to native code
// ready (p50/p99 counters, per optimisation level) and route cost of the example filter set
// (examples/etw-sample.pfs, 1 and 8 sessions) on the interpreter and on native code.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/route/workload.h"
#include "compiler/frontend.h"
#include "compiler/interp.h"
#include "compiler/jit/jit.h"
#include "compiler/jit/tiered.h"
#include "compiler/lower.h"
#include "pfc/guid.h"
#include "runtime/encode.h"

namespace pfc {
namespace {

// The example provider and `sessions` sessions enabling it with the example filters; the
// sessions differ in level and Level range, so their predicates are not all shared.
std::string example_script(int sessions) {
  std::string text = R"(provider Example-Provider {37a59b93-bb25-4cee-97aa-8b6acd0c4df8} {
    event Example_Event_1 (id=1, level=1) { Initiator: wstring; Level: uint32; }
    event Example_Event_2 (id=2, level=1) { Title: wstring; InstanceId: guid; ErrorCode: uint32; }
}
)";
  for (int s = 0; s < sessions; ++s) {
    text += "session S" + std::to_string(s) +
            " {\n  enable Example-Provider level=" + std::to_string(1 + s % 5) + " {\n";
    text += "    payload Example_Event_1 all { Initiator is \"User\"; Level between 7," +
            std::to_string(16 + s) + " }\n";
    text +=
        "    payload Example_Event_2 any { Title contains \"UNI\";\n"
        "      InstanceId is {0E95CFBC-58D4-44BA-BE40-E63A853536DF}; ErrorCode ne " +
        std::to_string(s) + " }\n  }\n}\n";
  }
  return text;
}

// Script text → the provider's ProgramSpec (aborts the benchmark on a script error).
ProgramSpec spec_from_text(const std::string& text) {
  FrontendOutput out = compile_script(SourceFile("bench.pfs", text));
  if (!out.ok()) std::abort();
  const CheckedScript& script = out.checked.script;
  ProgramSpec spec;
  spec.provider = script.schema.providers.at(0);
  for (uint32_t slot = 0; slot < script.sessions.size(); ++slot)
    for (const SessionDecl::Enable& e : script.sessions[slot].enables)
      spec.sessions.push_back(SessionEntry::sharing(slot, e.params));
  return spec;
}

ir::Program lowered(const std::string& text) {
  auto program = lower(spec_from_text(text));
  if (!program) std::abort();
  return std::move(*program);
}

// Per-iteration wall-clock and thread CPU time, in microseconds. The CPU figures are the
// meaningful ones on a shared machine (wall time includes waiting for a core).
struct Sample {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  double cpu = thread_cpu_us();
  static double thread_cpu_us() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
  }
};

struct Percentiles {
  std::vector<double> wall, cpu;
  void add(const Sample& start) {
    wall.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start.wall)
            .count());
    cpu.push_back(Sample::thread_cpu_us() - start.cpu);
  }
  void report(benchmark::State& state) {
    auto set = [&](std::vector<double>& v, const std::string& name) {
      if (v.empty()) return;
      std::sort(v.begin(), v.end());
      auto at = [&](double q) { return v[std::min(v.size() - 1, size_t(q * v.size()))]; };
      state.counters[name + "_p50_us"] = at(0.50);
      state.counters[name + "_p99_us"] = at(0.99);
    };
    set(cpu, "cpu");
    set(wall, "wall");
  }
};

// Script text → parse, check, lower, codegen, optimise, emit, link: native code ready.
void compile_text(benchmark::State& state, OptLevel level, int sessions) {
  const std::string text = example_script(sessions);
  Percentiles p;
  for ([[maybe_unused]] auto _ : state) {
    Sample start;
    auto native = JitProgram::create(lowered(text), level);
    if (!native) state.SkipWithError(native.error().message.c_str());
    benchmark::DoNotOptimize(native);
    p.add(start);
  }
  p.report(state);
}

// Script text → interpreter ready (the tier-0 latency, for comparison).
void compile_text_interp(benchmark::State& state, int sessions) {
  const std::string text = example_script(sessions);
  Percentiles p;
  for ([[maybe_unused]] auto _ : state) {
    Sample start;
    auto interp = Interpreter::create(lowered(text));
    benchmark::DoNotOptimize(interp);
    p.add(start);
  }
  p.report(state);
}

// The events of examples/etw-sample.jsonl that have typed fields, plus a truncated one.
std::vector<Event> example_events(const ProviderDef& provider) {
  using V = FieldValue;
  const Guid target = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  struct Row {
    const char* event;
    std::vector<std::pair<std::string, V>> fields;
  };
  const std::vector<Row> rows = {
      {"Example_Event_1", {{"Initiator", V::of_string("User")}, {"Level", V::of_uint(7)}}},
      {"Example_Event_1", {{"Initiator", V::of_string("user")}, {"Level", V::of_uint(16)}}},
      {"Example_Event_1", {{"Initiator", V::of_string("Admin")}, {"Level", V::of_uint(10)}}},
      {"Example_Event_1", {{"Initiator", V::of_string("User")}, {"Level", V::of_uint(17)}}},
      {"Example_Event_2", {{"Title", V::of_string("UNIX system")}, {"ErrorCode", V::of_uint(0)}}},
      {"Example_Event_2", {{"Title", V::of_string("community")}, {"ErrorCode", V::of_uint(0)}}},
      {"Example_Event_2", {{"Title", V::of_string("Hello")}, {"InstanceId", V::of_guid(target)}}},
      {"Example_Event_2", {{"Title", V::of_string("Hello")}, {"ErrorCode", V::of_uint(5)}}},
  };
  std::vector<Event> events;
  for (const Row& row : rows) {
    const EventDef* def = provider.find_event(row.event);
    Event e;
    e.desc = def->desc;
    e.payload = *encode_payload(*def, row.fields);
    events.push_back(std::move(e));
  }
  events.push_back(events.back());
  events.back().payload.resize(6);  // truncated: Title only
  return events;
}

void route_loop(benchmark::State& state, const RoutingProgram& program,
                const std::vector<Event>& events) {
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

void route_interp(benchmark::State& state, int sessions) {
  const std::string text = example_script(sessions);
  auto interp = Interpreter::create(lowered(text));
  route_loop(state, **interp, example_events(spec_from_text(text).provider));
}

void route_jit(benchmark::State& state, OptLevel level, int sessions) {
  const std::string text = example_script(sessions);
  auto native = JitProgram::create(lowered(text), level);
  if (!native) return state.SkipWithError(native.error().message.c_str());
  route_loop(state, **native, example_events(spec_from_text(text).provider));
}

// The tiered program after its swap: the native function behind one atomic load.
void route_tiered(benchmark::State& state, int sessions) {
  const std::string text = example_script(sessions);
  TieredCompiler compiler;
  auto tiered = compiler.compile_ir(lowered(text));
  if (!tiered) return state.SkipWithError(tiered.error().message.c_str());
  (*tiered)->wait();
  route_loop(state, **tiered, example_events(spec_from_text(text).provider));
}

// The shared workload of bench/route (bench/route/workload.h): the same filter set built as
// a ProgramSpec, its event mix, and the hand-written router — so Hand / Interp / Jit ratios
// come from one run of one binary.
void route_workload(benchmark::State& state, int engine, uint32_t sessions) {
  const std::vector<Event> events = bench::example_events();
  std::shared_ptr<const RoutingProgram> program;
  if (engine < 0) {
    program = std::make_shared<bench::HandRouter>(sessions);
  } else {
    auto lowered_spec = lower(bench::example_spec(sessions));
    if (!lowered_spec) return state.SkipWithError(lowered_spec.error().message.c_str());
    if (engine == 3) {
      auto interp = Interpreter::create(std::move(*lowered_spec));
      if (!interp) return state.SkipWithError(interp.error().message.c_str());
      program = std::move(*interp);
    } else {
      auto native = JitProgram::create(std::move(*lowered_spec), static_cast<OptLevel>(engine));
      if (!native) return state.SkipWithError(native.error().message.c_str());
      program = std::move(*native);
    }
  }
  route_loop(state, *program, events);
}

void register_all() {
  for (uint32_t sessions : {1u, 8u}) {
    const std::string w = "RouteWorkload" + std::to_string(sessions);
    benchmark::RegisterBenchmark((w + "_Hand").c_str(), route_workload, -1, sessions);
    benchmark::RegisterBenchmark((w + "_Interp").c_str(), route_workload, 3, sessions);
    for (OptLevel l : {OptLevel::O0, OptLevel::O1, OptLevel::O2})
      benchmark::RegisterBenchmark((w + "_Jit" + std::string(opt_level_name(l))).c_str(),
                                   route_workload, static_cast<int>(l), sessions);
  }
  for (int sessions : {1, 8}) {
    const std::string w = "Example" + std::to_string(sessions);
    benchmark::RegisterBenchmark(("Compile" + w + "_Interp").c_str(), compile_text_interp, sessions)
        ->Unit(benchmark::kMicrosecond);
    for (OptLevel l : {OptLevel::O0, OptLevel::O1, OptLevel::O2})
      benchmark::RegisterBenchmark(
          ("Compile" + w + "_Jit" + std::string(opt_level_name(l))).c_str(), compile_text, l,
          sessions)
          ->Unit(benchmark::kMicrosecond)
          ->Iterations(200);
    benchmark::RegisterBenchmark(("Route" + w + "_Interp").c_str(), route_interp, sessions);
    for (OptLevel l : {OptLevel::O0, OptLevel::O1, OptLevel::O2})
      benchmark::RegisterBenchmark(("Route" + w + "_Jit" + std::string(opt_level_name(l))).c_str(),
                                   route_jit, l, sessions);
    benchmark::RegisterBenchmark(("Route" + w + "_Tiered").c_str(), route_tiered, sessions);
  }
}

}  // namespace
}  // namespace pfc

int main(int argc, char** argv) {
  pfc::register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
