// compiler/jit/tiered.h — the engines beyond the interpreter: background tiering
// (interpreter at once, native code swapped in when ready) and the debug crosscheck program
// that runs both engines on every event. They are chosen by make_program_compiler
// (compiler/jit/engine.h). Design: docs/jit.md.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>

#include "compiler/interp.h"
#include "compiler/jit/engine.h"
#include "compiler/jit/jit.h"
#include "runtime/routing_program.h"

namespace pfc {

namespace internal {
struct TierState;
class TierWorker;
}  // namespace internal

// A program that routes with the interpreter until its native code is ready, then with the
// native code; the switch is one atomic pointer store, so routing threads never wait and
// never see a half-installed function. Neither tier is freed before the TieredProgram
// itself, so the swap frees nothing; freeing the TieredProgram while other threads may
// still route through it is the owner's business (the router retires it through its
// EpochDomain). Thread-safe.
class TieredProgram final : public RoutingProgram {
 public:
  enum class Tier : uint8_t { Interp, Native, Failed };

  ~TieredProgram() override;
  // One load of the program's own slot, then a direct call of the native function (no
  // pointer chase into the shared state on every event).
  PFC_CALLS_JIT_CODE RouteResult route(const EventView& event) const noexcept override {
    if (NativeRouteFn fn = native_fn_.load(std::memory_order_acquire))
      return call_native(fn, event);
    return interp_->route(event);
  }
  const std::atomic<NativeRouteFn>* native_slot() const noexcept override { return &native_fn_; }

  // Interp while compiling (or never compiled), Native after the swap, Failed when the
  // JIT reported an error (the interpreter keeps serving).
  Tier tier() const;
  std::optional<Error> error() const;
  // Blocks until the background compilation finished (Native or Failed).
  void wait() const;

 private:
  friend class TieredCompiler;
  TieredProgram(std::shared_ptr<const Interpreter> interp,
                std::shared_ptr<internal::TierState> state);

  std::shared_ptr<const Interpreter> interp_;
  std::shared_ptr<internal::TierState> state_;
  // The swap target: stored (under the state's mutex) by the compilation that finishes
  // while this program lives; the state forgets it in the destructor.
  mutable std::atomic<NativeRouteFn> native_fn_{nullptr};
};

// Builds TieredPrograms. With `wait` false (Engine::Auto) compile() returns at once and a
// single background thread, started by the compiler, compiles programs in FIFO order
// (programs destroyed before their turn are skipped, a program destroyed while compiling
// stops it at the next stage boundary); with `wait` true (Engine::Jit) it compiles on the
// calling thread. Destroying the compiler does not wait for the thread: programs still
// queued stay on the interpreter (Failed, "compiler shut down"), a compilation in progress
// is abandoned at its next stage boundary, and no on_jit_error callback runs after the
// destructor returned. Process exit (exit(), a return from main) waits for such threads
// before LLVM is torn down; see background_compiles_running(). Thread-safe.
class TieredCompiler final : public ProgramCompiler {
 public:
  explicit TieredCompiler(EngineOptions options = {}, bool wait = false);
  ~TieredCompiler() override;

  // Fails only when lowering or verification fails.
  Result<std::shared_ptr<const RoutingProgram>> compile(const ProgramSpec& spec) override;
  // Same, for an already lowered program.
  Result<std::shared_ptr<const TieredProgram>> compile_ir(ir::Program program);

 private:
  EngineOptions options_;
  bool wait_;
  std::unique_ptr<internal::TierWorker> worker_;  // null when wait_
};

// True while some background compilation thread (Engine::Auto) is still running, e.g.
// abandoned but inside a long LLVM stage. exit() waits for it; a program that must not
// wait ends with std::quick_exit instead (after flushing its output): nothing is torn
// down under the running thread then, and the process ends at once (pfc does this).
bool background_compiles_running();

// Debug engine: routes every event with the interpreter and the native code, returns the
// interpreter's result and reports each disagreement (counter + first mismatch + callback).
class CrosscheckProgram final : public RoutingProgram {
 public:
  static Result<std::shared_ptr<const CrosscheckProgram>> create(
      ir::Program program, OptLevel level, std::function<void(const Mismatch&)> on_mismatch);
  RouteResult route(const EventView& event) const noexcept override;

  uint64_t mismatches() const { return mismatches_.load(std::memory_order_relaxed); }
  std::optional<Mismatch> first_mismatch() const;

 private:
  CrosscheckProgram() = default;
  std::shared_ptr<const Interpreter> interp_;
  std::shared_ptr<const JitProgram> native_;
  std::function<void(const Mismatch&)> on_mismatch_;
  mutable std::atomic<uint64_t> mismatches_{0};
  mutable std::mutex mu_;
  mutable std::optional<Mismatch> first_;
};

}  // namespace pfc
