// compiler/jit/engine.h — the one engine choice (docs/style.md §8, docs/jit.md "Tiering and
// engines"): engine names, the options every engine takes, and make_program_compiler, the
// single factory of the ProgramCompiler that builds routing programs for a Router.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "base/error.h"
#include "compiler/jit/jit.h"
#include "pfc/event.h"
#include "pfc/filter.h"
#include "runtime/routing_program.h"

namespace pfc {

// Engine, engine_name and engine_from_name are public: pfc/filter.h.

// One disagreement seen in crosscheck mode (no strings: recorded on the routing thread).
struct Mismatch {
  EventDescriptor desc;
  uint64_t payload_size = 0;
  RouteResult interp;
  RouteResult native;
};

struct EngineOptions {
  OptLevel level = kDefaultOptLevel;
  // Called (on the compiling thread) when native compilation fails and the interpreter
  // keeps serving. Must be thread-safe.
  std::function<void(const Error&)> on_jit_error;
  // Crosscheck mode: called on the routing thread for every disagreement (the interpreter's
  // result is returned). Must be thread-safe; may allocate.
  std::function<void(const Mismatch&)> on_mismatch;
};

// The program compiler of `engine`: InterpCompiler (interp.h), TieredCompiler waiting for
// native code (jit) or not (auto), or the crosscheck compiler (tiered.h). Never fails: JIT
// problems surface per program (as a Result error in crosscheck mode, through
// on_jit_error and TieredProgram::error() in the jit and auto modes, which keep the
// interpreter serving).
std::shared_ptr<ProgramCompiler> make_program_compiler(Engine engine, EngineOptions options = {});

}  // namespace pfc
