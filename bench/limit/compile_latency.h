// bench/limit/compile_latency.h — compile-latency benchmarks of bench_limit: script text →
// interpreter-ready and text → native-ready (make_compiler(Engine::Jit)) for the
// EnableTraceEx2 example (1 and 8 sessions) and a 1,000-filter set; p50/p99 counters.
#pragma once

#include <string>

namespace pfc::bench {

// Registers Compile<Set>_<Interp|Jit> (manual timing, fixed repetitions).
void register_compile_latency();
// Writes the native code of each compile set as DIR/Compile<Set>.s; returns 0.
int emit_compile_asm(const std::string& dir);

}  // namespace pfc::bench
