// compiler/jit/jit.h — the LLVM ORC backend: compiles an ir::Program into one installed
// native function (tier 1), plus the `--emit llvm|asm` text forms. No LLVM type appears
// here; codegen.h / pipeline.h hold the LLVM-facing parts. Design notes: docs/jit.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/error.h"
#include "compiler/ir.h"
#include "compiler/native_fn.h"
#include "pfc/event.h"
#include "runtime/routing_program.h"

namespace pfc {

// Optimisation level of the IR pipeline and of the code generator.
enum class OptLevel : uint8_t { O0, O1, O2 };

// The level used unless one is asked for; chosen by measuring compile latency against
// route cost on the example filter set (docs/jit.md, "Choosing the pipeline").
inline constexpr OptLevel kDefaultOptLevel = OptLevel::O1;

std::string_view opt_level_name(OptLevel level);  // "O0", "O1", "O2"
std::optional<OptLevel> opt_level_from_name(std::string_view name);

class Jit;

// One native function installed in the JIT (one ORC ResourceTracker). Destroying it removes
// the code from the JIT and frees its memory: the caller must make sure no thread can still
// be running fn() (see TieredProgram and the router's epoch reclamation). Keeps the Jit
// alive. Not copyable or movable.
class NativeCode {
 public:
  ~NativeCode();
  NativeCode(const NativeCode&) = delete;
  NativeCode& operator=(const NativeCode&) = delete;

  // Thread-safe; the function is thread-safe, never allocates and never throws.
  NativeRouteFn fn() const { return fn_; }

 private:
  friend class Jit;
  struct Installed;  // the ResourceTracker and the owning Jit
  NativeCode(std::unique_ptr<Installed> installed, NativeRouteFn fn);
  std::unique_ptr<Installed> installed_;
  NativeRouteFn fn_;
};

// The largest program the JIT compiles, in IR instructions (about 90,000 predicates;
// compiling one that size takes seconds and some 650 MB, growing linearly). Larger ones
// fail with jit_limit_error(); the tiered engines keep routing them with the interpreter
// (docs/limits.md).
inline constexpr size_t kMaxJitInstructions = size_t{1} << 18;
Error jit_limit_error(size_t instructions);
// True for jit_limit_error()'s message, also behind a prefix ("provider 'P': …").
bool is_jit_limit_error(const Error& error);

// Asked between compilation stages; true = stop (the result is no longer wanted).
using CancelCheck = std::function<bool()>;
inline constexpr const char* kCancelledMessage = "compilation cancelled";

// The process-wide JIT: one ORC LLJIT whose main JITDylib holds the runtime helpers
// (runtime/tdh.h, compiler/interp.h) as absolute symbols, and one ResourceTracker per
// installed program. Thread-safe: several threads may compile and remove at once (each
// compilation uses its own ThreadSafeContext and TargetMachine).
class Jit {
 public:
  // The process-wide instance, created on first use. Fails (every time, with the same
  // message) when LLVM has no native target or the LLJIT cannot be built.
  static Result<std::shared_ptr<Jit>> shared();
  ~Jit();
  Jit(const Jit&) = delete;
  Jit& operator=(const Jit&) = delete;

  // Generates, optimises at `level`, links and installs `program`. `program` must outlive
  // the returned code (StrIn passes the address of its string sets). Fails on a program
  // the IR verifier rejects (compiler/verify.h) or an LLVM failure; nothing is installed
  // then. `cancelled`, when given, is asked between the stages (generate, optimise, emit,
  // link): once it returns true the compilation stops with kCancelledMessage.
  Result<std::unique_ptr<NativeCode>> compile(const ir::Program& program, OptLevel level,
                                              const CancelCheck& cancelled = {});

 private:
  friend class NativeCode;  // NativeCode::Installed keeps Impl alive
  struct Impl;
  explicit Jit(std::unique_ptr<Impl> impl);
  std::shared_ptr<Impl> impl_;
};

// The LLVM IR (after the `level` pipeline) and the host assembly of `program`'s function,
// named `pfc_route`. Deterministic for a given program, level and host. Thread-safe.
Result<std::string> emit_llvm(const ir::Program& program, OptLevel level);
Result<std::string> emit_asm(const ir::Program& program, OptLevel level);

// A routing program running native code. Owns its ir::Program (the code refers to its
// string sets) and its NativeCode. Immutable, thread-safe.
class JitProgram final : public RoutingProgram {
 public:
  static Result<std::shared_ptr<const JitProgram>> create(ir::Program program, OptLevel level,
                                                          const CancelCheck& cancelled = {});
  PFC_CALLS_JIT_CODE RouteResult route(const EventView& event) const noexcept override {
    return call_native(fn_, event);
  }
  NativeRouteFn native_fn() const { return fn_; }

 private:
  explicit JitProgram(ir::Program program);
  ir::Program program_;
  std::unique_ptr<NativeCode> code_;
  NativeRouteFn fn_ = nullptr;
};

}  // namespace pfc
