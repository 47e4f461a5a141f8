// bench/limit/limit_bench.cc — pfc against the practical limit and against the peer: every
// workload of workload.h routed by the reference interpreter (Interp), JIT native code
// (Jit, obtained through make_program_compiler(Engine::Jit)), a hand-written C++ router (Hand) and,
// for integer-only workloads, libpcap's bpf_filter (Bpf); plus the disabled-path check and
// compile latency (script text → interpreter-ready / native-ready, p50/p99). JitO2 (native
// code from the full O2 pipeline, JitProgram directly) is a diagnostic column for the JIT
// owners: what the default O1 pipeline leaves on the table. Shared is the same program
// compiled by compile_shared and loaded from its compiled-program file (helpers and pool
// entries through pfc_table): its cost should equal Jit's.
// Names: <Workload>_<Engine>. Before any timing, every engine must produce identical
// masks on every event of every workload, or the program aborts.
// `bench_limit --emit-asm=DIR` writes each workload's native code as DIR/<Workload>.s
// (for code-size measurement by scripts/run-bench), its IR (.ir) and LLVM IR (.ll), and
// exits; `--compile-loop=SET:N`
// compiles one compile-latency set N times and exits, `--route-loop=<Workload>_<Engine>:N`
// routes one workload's events N times and exits (targets for profilers).
#include <benchmark/benchmark.h>

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "base/hex.h"
#include "bench/limit/compile_latency.h"
#include "bench/limit/shared_engine.h"
#include "bench/limit/workload.h"
#include "compiler/ir_dump.h"
#include "compiler/jit/tiered.h"
#include "compiler/lower.h"
#include "runtime/router.h"

// The disabled-path check as a stand-alone function, so scripts/run-bench can disassemble
// exactly what ProviderState::enabled() compiles to.
extern "C" __attribute__((noinline)) bool pfc_bench_enabled(const pfc::ProviderState* state,
                                                            uint8_t level, uint64_t keyword) {
  return state->enabled(level, keyword);
}

namespace pfc::bench {
namespace {

[[noreturn]] void die(const std::string& message) {
  std::fprintf(stderr, "bench_limit: %s\n", message.c_str());
  std::abort();
}

// A workload with its engines built and cross-checked.
struct Prepared {
  Workload w;
  std::shared_ptr<const RoutingProgram> interp;
  std::shared_ptr<const RoutingProgram> jit;
  std::shared_ptr<const RoutingProgram> jit_o2;  // diagnostic: the full O2 pipeline
  std::shared_ptr<const RoutingProgram> shared;  // compile_shared + load_native
  std::vector<EventView> views;
};

// Native code at an explicit optimisation level (JitProgram, no tiering).
std::shared_ptr<const RoutingProgram> build_native(OptLevel level, const ProgramSpec& spec) {
  auto program = lower(spec);
  if (!program) die("lower failed: " + program.error().message);
  auto native = JitProgram::create(std::move(*program), level);
  if (!native) die("JIT failed: " + native.error().message);
  return *native;
}

std::shared_ptr<const RoutingProgram> build(Engine engine, const ProgramSpec& spec) {
  auto program = make_program_compiler(engine)->compile(spec);
  if (!program) die("compile failed: " + program.error().message);
  if (engine == Engine::Jit) {
    auto tiered = std::dynamic_pointer_cast<const TieredProgram>(*program);
    if (!tiered || tiered->tier() != TieredProgram::Tier::Native)
      die("the JIT did not produce native code" +
          (tiered && tiered->error() ? ": " + tiered->error()->message : std::string()));
  }
  return *program;
}

std::string mask_text(const RouteResult& r) {
  std::string out;
  append_hex(out, r.deliver, 16);
  out += '/';
  append_hex(out, r.stack, 16);
  return out;
}

void cross_check(const Prepared& p) {
  for (size_t i = 0; i < p.views.size(); ++i) {
    const RouteResult want = p.interp->route(p.views[i]);
    std::vector<std::pair<const char*, RouteResult>> got = {{"Jit", p.jit->route(p.views[i])},
                                                            {"JitO2", p.jit_o2->route(p.views[i])},
                                                            {"Shared", p.shared->route(p.views[i])},
                                                            {"Hand", p.w.hand->route(p.views[i])}};
    if (p.w.bpf) {
      const auto& rec = p.w.bpf->records[i];
      got.emplace_back("Bpf", p.w.bpf->route(rec.data(), uint32_t(rec.size())));
    }
    for (const auto& [engine, r] : got)
      if (!(r == want))
        die(p.w.name + ": " + engine + " disagrees with Interp on event " + std::to_string(i) +
            ": " + mask_text(r) + " vs " + mask_text(want));
  }
}

void route_loop(benchmark::State& state, const RoutingProgram& program,
                const std::vector<EventView>& views) {
  for ([[maybe_unused]] auto _ : state)
    for (const EventView& v : views) benchmark::DoNotOptimize(program.route(v));
  state.SetItemsProcessed(int64_t(state.iterations() * views.size()));
}

void bpf_loop(benchmark::State& state, const BpfRouter& bpf) {
  for ([[maybe_unused]] auto _ : state)
    for (const auto& rec : bpf.records)
      benchmark::DoNotOptimize(bpf.route(rec.data(), uint32_t(rec.size())));
  state.SetItemsProcessed(int64_t(state.iterations() * bpf.records.size()));
}

void register_routes(const Prepared& p) {
  auto reg = [&](const char* engine, auto fn) {
    benchmark::RegisterBenchmark((p.w.name + "_" + engine).c_str(), fn)->MinTime(0.2);
  };
  reg("Interp", [&p](benchmark::State& s) { route_loop(s, *p.interp, p.views); });
  reg("Jit", [&p](benchmark::State& s) { route_loop(s, *p.jit, p.views); });
  reg("JitO2", [&p](benchmark::State& s) { route_loop(s, *p.jit_o2, p.views); });
  reg("Shared", [&p](benchmark::State& s) { route_loop(s, *p.shared, p.views); });
  reg("Hand", [&p](benchmark::State& s) { route_loop(s, *p.w.hand, p.views); });
  if (p.w.bpf) reg("Bpf", [&p](benchmark::State& s) { bpf_loop(s, *p.w.bpf); });
}

std::vector<Workload> all_workloads() {
  std::vector<Workload> out;
  for (uint32_t n : {1u, 8u, 64u}) out.push_back(header_workload(n));
  out.push_back(int_payload_workload());
  out.push_back(payload64_workload());
  for (uint32_t n : {1u, 8u}) out.push_back(example_workload(n));
  out.push_back(string_workload());
  out.push_back(var_layout_workload());
  out.push_back(in_set_workload());
  out.push_back(glob_workload());
  out.push_back(regex_workload());
  out.push_back(scope_workload());
  out.push_back(contains64_workload());
  out.push_back(glob64_workload());
  out.push_back(regex64_workload());
  return out;
}

// --- the disabled path: ProviderState::enabled for levels/keywords nobody asked for ---

struct Query {
  uint8_t level;
  uint64_t keyword;
};

// What a provider with a hand-written "is anyone listening" test would keep: plain fields.
struct HandEnabled {
  bool on = true;
  uint8_t level = 2;
  uint64_t any = 0x1;
  uint64_t all = 0;
  bool enabled(uint8_t l, uint64_t kw) const {
    return on && l <= level && (kw == 0 || ((kw & any) != 0 && (kw & all) == all));
  }
};

struct Disabled {
  std::unique_ptr<Router> router;
  ProviderHandle state = nullptr;
  HandEnabled hand;
  BpfRouter bpf;
  std::vector<Query> queries;
};

Disabled& disabled() {
  static Disabled d = [] {
    Disabled d;
    auto router = Router::create(make_program_compiler(Engine::Jit));
    if (!router) die(router.error().message);
    d.router = std::move(*router);
    ProviderDef provider{"Quiet-Provider", Guid::from_provider_name("Quiet-Provider"), false, {}};
    auto handle = d.router->register_provider(provider);
    auto session = d.router->create_session("S", nullptr);
    if (!handle || !session) die("router setup failed");
    d.state = *handle;
    EnableParams params;
    params.level = 2;
    params.any = 0x1;
    if (!d.router->enable(*session, provider.guid, params)) die("enable failed");
    BpfAsm a;
    const int reject = a.label();
    emit_header_checks(a, params, reject);
    a.stmt(BPF_RET | BPF_K, 1);
    a.bind(reject);
    a.stmt(BPF_RET | BPF_K, 0);
    d.bpf.add_session(0, a.finish());
    for (uint8_t level = 3; level <= 5; ++level)
      for (uint64_t kw : {0x1ull, 0x6ull, 0x100ull, 0x0ull}) d.queries.push_back({level, kw});
    for (uint64_t kw : {0x2ull, 0x10ull, 0x8000000000000000ull}) d.queries.push_back({1, kw});
    for (const Query& q : d.queries) {
      Event e;
      e.desc.level = q.level;
      e.desc.keyword = q.keyword;
      d.bpf.records.push_back(bpf_header(e.view()));
    }
    return d;
  }();
  return d;
}

void check_disabled() {
  Disabled& d = disabled();
  for (size_t i = 0; i < d.queries.size(); ++i) {
    const Query& q = d.queries[i];
    const bool router = pfc_bench_enabled(d.state, q.level, q.keyword);
    const bool hand = d.hand.enabled(q.level, q.keyword);
    const bool bpf = d.bpf.route(d.bpf.records[i].data(), kBpfHeaderSize).deliver != 0;
    if (router || hand || bpf) die("Disabled: query " + std::to_string(i) + " is enabled");
  }
  if (!d.state->enabled(1, 0x1) || !d.hand.enabled(1, 0x1))
    die("Disabled: the wanted event is off");
}

template <typename Fn>
void disabled_loop(benchmark::State& state, Fn enabled) {
  const std::vector<Query>& qs = disabled().queries;
  for ([[maybe_unused]] auto _ : state)
    for (const Query& q : qs) benchmark::DoNotOptimize(enabled(q));
  state.SetItemsProcessed(int64_t(state.iterations() * qs.size()));
}

void register_disabled() {
  benchmark::RegisterBenchmark("Disabled_Jit", [](benchmark::State& s) {
    const ProviderState* st = disabled().state;
    disabled_loop(s, [st](const Query& q) { return st->enabled(q.level, q.keyword); });
  })->MinTime(0.2);
  benchmark::RegisterBenchmark("Disabled_Hand", [](benchmark::State& s) {
    const HandEnabled* h = &disabled().hand;
    disabled_loop(s, [h](const Query& q) { return h->enabled(q.level, q.keyword); });
  })->MinTime(0.2);
  benchmark::RegisterBenchmark("Disabled_Bpf", [](benchmark::State& s) {
    bpf_loop(s, disabled().bpf);
  })->MinTime(0.2);
}

// The loop of --route-loop, on its own so profilers can isolate it
// (valgrind --tool=callgrind --toggle-collect='*route_times*').
__attribute__((noinline)) uint64_t route_times(const RoutingProgram& p,
                                               const std::vector<Event>& events, long times) {
  uint64_t delivered = 0;
  for (long t = 0; t < times; ++t)
    for (const Event& e : events) delivered += uint64_t(std::popcount(p.route(e.view()).deliver));
  return delivered;
}

// `--route-loop=<Workload>_<Engine>:N`: routes the workload's events N times with one
// engine and nothing else (a clean target for callgrind / perf). Returns 0, or 2.
int route_loop_only(const std::string& spec, std::vector<Workload>& workloads) {
  const size_t colon = spec.find(':'), underscore = spec.rfind('_', colon);
  if (colon == std::string::npos || underscore == std::string::npos) return 2;
  const std::string name = spec.substr(0, underscore),
                    engine = spec.substr(underscore + 1, colon - underscore - 1);
  const long times = std::atol(spec.c_str() + colon + 1);
  for (Workload& w : workloads) {
    if (w.name != name) continue;
    std::shared_ptr<const RoutingProgram> program;
    if (engine == "Interp") program = build(Engine::Interp, w.spec);
    if (engine == "Jit") program = build(Engine::Jit, w.spec);
    if (engine == "JitO2") program = build_native(OptLevel::O2, w.spec);
    if (engine == "Shared") program = build_shared(w.spec);
    const RoutingProgram* p = engine == "Hand" ? w.hand.get() : program.get();
    if (p == nullptr) return 2;
    const uint64_t delivered = route_times(*p, w.events, times);
    std::printf("%s: %llu deliveries\n", spec.c_str(), (unsigned long long)delivered);
    return 0;
  }
  return 2;
}

int emit_asm_files(const std::string& dir, const std::vector<Workload>& workloads) {
  for (const Workload& w : workloads) {
    auto program = lower(w.spec);
    if (!program) die("lower failed: " + program.error().message);
    auto text = emit_asm(*program, kDefaultOptLevel);
    if (!text) die("emit_asm failed: " + text.error().message);
    std::ofstream(dir + "/" + w.name + ".s") << *text;
    std::ofstream(dir + "/" + w.name + ".ir") << dump_ir(*program);
    if (auto ll = emit_llvm(*program, kDefaultOptLevel))
      std::ofstream(dir + "/" + w.name + ".ll") << *ll;
  }
  return emit_compile_asm(dir);
}

}  // namespace
}  // namespace pfc::bench

int main(int argc, char** argv) {
  using namespace pfc::bench;
  static std::vector<Prepared> prepared;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--compile-loop=")) {
      const std::string spec(arg.substr(15));
      const size_t colon = spec.find(':');
      if (colon == std::string::npos) return 2;
      return compile_loop(spec.substr(0, colon), std::atoi(spec.c_str() + colon + 1));
    }
  }
  std::vector<Workload> workloads = all_workloads();
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--emit-asm="))
      return emit_asm_files(std::string(arg.substr(11)), workloads);
    if (arg.starts_with("--route-loop="))
      return route_loop_only(std::string(arg.substr(13)), workloads);
  }
  prepared.reserve(workloads.size());
  for (Workload& w : workloads) {
    Prepared& p = prepared.emplace_back();
    p.w = std::move(w);
    p.interp = build(pfc::Engine::Interp, p.w.spec);
    p.jit = build(pfc::Engine::Jit, p.w.spec);
    p.jit_o2 = build_native(pfc::OptLevel::O2, p.w.spec);
    p.shared = build_shared(p.w.spec);
    for (const pfc::Event& e : p.w.events) p.views.push_back(e.view());
    cross_check(p);
  }
  check_disabled();
  register_disabled();
  for (const Prepared& p : prepared) register_routes(p);
  register_compile_latency();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
