// bench/limit/shared_engine.h — the Shared column of bench_limit: a workload's program
// compiled by compile_shared (compiler/jit/shared_code.h) into a compiled-program file,
// parsed and loaded with load_native as a provider process would, so its routing cost can
// be set against the JIT's (docs/jit.md "Shared code").
#pragma once

#include <memory>

#include "runtime/routing_program.h"

namespace pfc::bench {

// Lowers `spec`, compiles it at the default level and loads the file; aborts on an error.
std::shared_ptr<const RoutingProgram> build_shared(const ProgramSpec& spec);

}  // namespace pfc::bench
