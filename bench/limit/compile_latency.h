// bench/limit/compile_latency.h — compile-latency benchmarks of bench_limit: script text →
// interpreter-ready and text → native-ready (make_program_compiler(Engine::Jit)) for the
// EnableTraceEx2 example (1 and 8 sessions), a 1,000-filter set and 64 sessions' regexes on
// one field; p50/p99 counters.
#pragma once

#include <string>

namespace pfc::bench {

// Registers Compile<Set>_<Interp|Jit> (manual timing, fixed repetitions).
void register_compile_latency();
// Compiles set `name` (Example1, Example8, Thousand, Regex64) text → native `times` times and
// returns 0, or 1 for an unknown set or a failure: a clean target for profilers
// (`bench_limit --compile-loop=Example1:200`).
int compile_loop(const std::string& name, int times);
// Writes the native code of each compile set as DIR/Compile<Set>.s; returns 0.
int emit_compile_asm(const std::string& dir);

}  // namespace pfc::bench
