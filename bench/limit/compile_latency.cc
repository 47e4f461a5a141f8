// bench/limit/compile_latency.cc — script texts of the compile-latency sets and their
// benchmarks. Each repetition starts from the text: parse, check, lower, then either the
// interpreter or the JIT (make_program_compiler(Engine::Jit) compiles on the calling thread).
#include "bench/limit/compile_latency.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <vector>

#include "compiler/frontend.h"
#include "compiler/jit/tiered.h"
#include "compiler/lower.h"
#include "grammar/source.h"

namespace pfc::bench {
namespace {

const char* const kProvider = R"(provider Example-Provider {37a59b93-bb25-4cee-97aa-8b6acd0c4df8} {
    event Example_Event_1 (id=1, level=1) { Initiator: wstring; Level: uint32; }
    event Example_Event_2 (id=2, level=1) { Title: wstring; InstanceId: guid; ErrorCode: uint32; }
}
)";

// The EnableTraceEx2 example for `sessions` sessions (session 0 is examples/etw-sample.pfs's
// MyTrace).
std::string example_text(int sessions) {
  std::string text = kProvider;
  for (int s = 0; s < sessions; ++s) {
    text += "session S" + std::to_string(s) +
            " {\n  enable Example-Provider level=" + std::to_string(s == 0 ? 5 : 1 + s % 5) +
            " {\n" + "    payload Example_Event_1 all { Initiator is \"User\"; Level between 7," +
            std::to_string(16 + s) + " }\n" +
            "    payload Example_Event_2 any { Title contains \"UNI\";\n"
            "      InstanceId is {0E95CFBC-58D4-44BA-BE40-E63A853536DF}; ErrorCode ne " +
            std::to_string(s) + " }\n  }\n}\n";
  }
  return text;
}

// 1,000 payload filters: 50 events × 20 sessions, each filter two or three predicates
// (integer comparisons, and on every other event a case-insensitive CONTAINS).
std::string thousand_text() {
  std::string text = "provider Big-Provider {\n";
  for (int e = 0; e < 50; ++e)
    text += "  event E" + std::to_string(e) + " (id=" + std::to_string(100 + e) +
            ") { Name: wstring; Size: uint64; Code: uint32; }\n";
  text += "}\n";
  for (int s = 0; s < 20; ++s) {
    text += "session S" + std::to_string(s) +
            " {\n  enable Big-Provider level=" + std::to_string(1 + s % 5) + " {\n";
    for (int e = 0; e < 50; ++e) {
      text += "    payload E" + std::to_string(e) + (s % 2 ? " any" : " all") + " { Size between " +
              std::to_string(e * 10) + "," + std::to_string(e * 10 + 100 + s) + "; Code ne " +
              std::to_string(s);
      if (e % 2 == 0) text += "; Name contains \"k" + std::to_string(s) + "\"";
      text += " }\n";
    }
    text += "  }\n}\n";
  }
  return text;
}

// 64 sessions, each with its own regex on one field (Regex64's patterns, docs/ir.md §4
// "String indexing": one mask.strs, its Hyperscan databases and RE2 sets built per compile).
std::string regex64_text() {
  std::string text = "provider Url-Provider {\n  event E (id=52) { Url: wstring; }\n}\n";
  uint64_t x = 54;
  for (int s = 0; s < 64; ++s) {
    std::string word;
    for (int i = 0; i < 5; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      word += char('a' + (x >> 33) % 26);
    }
    text += "session S" + std::to_string(s) +
            " {\n  enable Url-Provider {\n    payload E all { Url regex "
            "\"^https?://[a-z0-9.]+\\\\.(com|org)/" +
            word + "/v[0-9]+/\" }\n  }\n}\n";
  }
  return text;
}

struct CompileSet {
  const char* name;
  std::string text;
  int reps_interp;
  int reps_jit;
  int reps_o2;  // 0: not measured
};

const std::vector<CompileSet>& compile_sets() {
  static const std::vector<CompileSet> sets = {
      {"Example1", example_text(1), 300, 200, 50},
      {"Example8", example_text(8), 200, 50, 20},
      {"Thousand", thousand_text(), 10, 3, 0},
      {"Regex64", regex64_text(), 50, 20, 0},
  };
  return sets;
}

// Script text → the first provider's ProgramSpec; aborts on a script error (a bench bug).
ProgramSpec spec_from_text(const std::string& text) {
  FrontendOutput out = compile_script(SourceFile("bench.pfs", text));
  if (!out.ok()) {
    std::fprintf(stderr, "bench_limit: compile set does not check\n");
    std::abort();
  }
  const CheckedScript& script = out.checked.script;
  ProgramSpec spec;
  spec.provider = script.schema.providers.at(0);
  for (uint32_t slot = 0; slot < script.sessions.size(); ++slot)
    for (const SessionDecl::Enable& e : script.sessions[slot].enables)
      if (e.provider == 0) spec.sessions.push_back(SessionEntry::sharing(slot, e.params));
  return spec;
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// Text → ready program. `o2`: native code from the O2 pipeline (JitProgram, diagnostic).
bool compile_once(ProgramCompiler& compiler, const std::string& text, bool o2, bool jit,
                  std::string& error) {
  if (o2) {
    auto program = lower(spec_from_text(text));
    auto native = program ? JitProgram::create(std::move(*program), OptLevel::O2)
                          : std::unexpected(program.error());
    if (!native) error = native.error().message;
    return native.has_value();
  }
  auto program = compiler.compile(spec_from_text(text));
  if (!program) {
    error = program.error().message;
    return false;
  }
  if (!jit) return true;
  auto tiered = std::dynamic_pointer_cast<const TieredProgram>(*program);
  error = "no native code";
  return tiered && tiered->tier() == TieredProgram::Tier::Native;
}

double percentile(std::vector<double>& v, double q) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}

// Wall-clock time is what a user waits; the calling thread's CPU time is the compile's own
// cost (the JIT compiles on the calling thread), which a loaded machine does not inflate.
void compile_bench(benchmark::State& state, const CompileSet* set, Engine engine, bool o2) {
  const auto compiler = make_program_compiler(engine);
  std::vector<double> wall, cpu;
  std::string error;
  for ([[maybe_unused]] auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = thread_cpu_seconds();
    const bool ok = compile_once(*compiler, set->text, o2, engine == Engine::Jit, error);
    const double c1 = thread_cpu_seconds();
    const auto t1 = std::chrono::steady_clock::now();
    if (!ok) return state.SkipWithError(error.c_str());
    const double seconds = std::chrono::duration<double>(t1 - t0).count();
    state.SetIterationTime(seconds);
    wall.push_back(seconds * 1e6);
    cpu.push_back((c1 - c0) * 1e6);
  }
  state.counters["p50_us"] = percentile(wall, 0.50);
  state.counters["p99_us"] = percentile(wall, 0.99);
  state.counters["cpu_p50_us"] = percentile(cpu, 0.50);
  state.counters["cpu_p99_us"] = percentile(cpu, 0.99);
}

}  // namespace

void register_compile_latency() {
  for (const CompileSet& set : compile_sets()) {
    const std::string base = std::string("Compile") + set.name;
    auto reg = [&](const char* engine, Engine e, bool o2, int reps) {
      benchmark::RegisterBenchmark((base + "_" + engine).c_str(), compile_bench, &set, e, o2)
          ->UseManualTime()
          ->Iterations(reps)
          ->Unit(benchmark::kMicrosecond);
    };
    reg("Interp", Engine::Interp, false, set.reps_interp);
    reg("Jit", Engine::Jit, false, set.reps_jit);
    if (set.reps_o2 > 0) reg("JitO2", Engine::Jit, true, set.reps_o2);
  }
}

int compile_loop(const std::string& name, int times) {
  const auto compiler = make_program_compiler(Engine::Jit);
  for (const CompileSet& set : compile_sets()) {
    if (set.name != name) continue;
    std::string error;
    for (int i = 0; i < times; ++i)
      if (!compile_once(*compiler, set.text, false, true, error)) return 1;
    return 0;
  }
  return 1;
}

int emit_compile_asm(const std::string& dir) {
  for (const CompileSet& set : compile_sets()) {
    auto program = lower(spec_from_text(set.text));
    if (!program) return 1;
    auto text = emit_asm(*program, kDefaultOptLevel);
    if (!text) return 1;
    std::ofstream(dir + "/Compile" + set.name + ".s") << *text;
  }
  return 0;
}

}  // namespace pfc::bench
