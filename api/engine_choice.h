// api/engine_choice.h — an engine (by name or value) and the ProgramCompiler that builds
// routing programs with it, through the project's one engine-choice function
// (make_program_compiler, compiler/jit/engine.h), with the JIT failures it reports kept.
// Used by the public API (pfc/filter.h) and the CLI (--engine).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "base/error.h"
#include "pfc/filter.h"
#include "runtime/routing_program.h"

namespace pfc {

// JIT failures the engine reported while compiling (the jit engine then falls back to the
// interpreter; the CLI turns a recorded failure into an internal error instead, so that
// `--engine jit` really tests native code). Thread-safe.
class EngineErrors {
 public:
  void record(const Error& e);
  std::optional<Error> first() const;
  // Crosscheck disagreements: counted, the first one kept as a message.
  void record_mismatch(std::string message);
  uint64_t mismatches() const;
  std::optional<std::string> first_mismatch() const;

 private:
  mutable std::mutex mu_;
  std::optional<Error> first_;
  uint64_t mismatches_ = 0;
  std::optional<std::string> first_mismatch_;
};

struct EngineChoice {
  std::shared_ptr<ProgramCompiler> compiler;
  std::shared_ptr<EngineErrors> errors;  // JIT failures seen so far
  bool strict = false;                   // --engine jit: a recorded JIT failure is fatal (exit 3)
};

// The compiler for engine `name`: "interp", "jit" or "auto" (the --engine values; main
// rejects others as usage errors), or "crosscheck" (--debug-crosscheck: disagreements are
// recorded in `errors`). Fails for a name make_program_compiler does not know.
Result<EngineChoice> make_engine(std::string_view name);
// The same for `engine`; `on_jit_error`, when given, is also told of every JIT failure
// (on the compiling thread; must be thread-safe).
EngineChoice make_engine(Engine engine, std::function<void(const Error&)> on_jit_error = {});

}  // namespace pfc
