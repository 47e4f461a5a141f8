// compiler/jit/engine.cc — make_program_compiler (engine.h: the one place
// where the engine is chosen, docs/style.md §8) and the crosscheck debug engine. Built
// with PFC_NO_JIT (PFC_ENABLE_JIT=OFF) it is the whole of pfc_jit: every engine runs the
// interpreter, jit reports that it has no native code, crosscheck fails. The engine
// names are in compiler/engine_names.cc.
#include <utility>

#include "compiler/jit/engine.h"
#include "compiler/jit/tiered.h"
#include "compiler/lower.h"

namespace pfc {

namespace {

#ifdef PFC_NO_JIT
constexpr const char* kNoJit = "this pfc was built without the JIT (PFC_ENABLE_JIT=OFF)";

// The jit engine of a build without the JIT: the interpreter, and on_jit_error told so
// for every program (as when the JIT fails; docs/embedding.md).
class NoJitCompiler final : public ProgramCompiler {
 public:
  explicit NoJitCompiler(EngineOptions options) : options_(std::move(options)) {}
  Result<std::shared_ptr<const RoutingProgram>> compile(const ProgramSpec& spec) override {
    if (options_.on_jit_error) options_.on_jit_error(Error{kNoJit});
    return interp_.compile(spec);
  }

 private:
  EngineOptions options_;
  InterpCompiler interp_;
};

class FailingCompiler final : public ProgramCompiler {
 public:
  Result<std::shared_ptr<const RoutingProgram>> compile(const ProgramSpec&) override {
    return make_error(kNoJit);
  }
};
#else

// lower → verify → CrosscheckProgram; JIT failures are errors (the mode exists to test it).
class CrosscheckCompiler final : public ProgramCompiler {
 public:
  explicit CrosscheckCompiler(EngineOptions options) : options_(std::move(options)) {}
  Result<std::shared_ptr<const RoutingProgram>> compile(const ProgramSpec& spec) override {
    auto program = lower(spec);
    if (!program) return std::unexpected(program.error());
    auto checked =
        CrosscheckProgram::create(std::move(*program), options_.level, options_.on_mismatch);
    if (!checked) return std::unexpected(checked.error());
    return std::shared_ptr<const RoutingProgram>(std::move(*checked));
  }

 private:
  EngineOptions options_;
};
#endif

}  // namespace

#ifdef PFC_NO_JIT
bool jit_available() { return false; }

std::shared_ptr<ProgramCompiler> make_program_compiler(Engine engine, EngineOptions options) {
  switch (engine) {
    case Engine::Interp:
    case Engine::Auto: return std::make_shared<InterpCompiler>();
    case Engine::Jit: return std::make_shared<NoJitCompiler>(std::move(options));
    case Engine::Crosscheck: return std::make_shared<FailingCompiler>();
  }
  return std::make_shared<InterpCompiler>();
}
#else
bool jit_available() { return true; }

std::shared_ptr<ProgramCompiler> make_program_compiler(Engine engine, EngineOptions options) {
  switch (engine) {
    case Engine::Interp: return std::make_shared<InterpCompiler>();
    case Engine::Jit: return std::make_shared<TieredCompiler>(std::move(options), /*wait=*/true);
    case Engine::Auto: return std::make_shared<TieredCompiler>(std::move(options), /*wait=*/false);
    case Engine::Crosscheck: return std::make_shared<CrosscheckCompiler>(std::move(options));
  }
  return std::make_shared<InterpCompiler>();
}

Result<std::shared_ptr<const CrosscheckProgram>> CrosscheckProgram::create(
    ir::Program program, OptLevel level, std::function<void(const Mismatch&)> on_mismatch) {
  auto native = JitProgram::create(program, level);
  if (!native) return std::unexpected(native.error());
  auto interp = Interpreter::create(std::move(program));
  if (!interp) return std::unexpected(interp.error());
  std::shared_ptr<CrosscheckProgram> p(new CrosscheckProgram());
  p->interp_ = std::move(*interp);
  p->native_ = std::move(*native);
  p->on_mismatch_ = std::move(on_mismatch);
  return std::shared_ptr<const CrosscheckProgram>(std::move(p));
}

RouteResult CrosscheckProgram::route(const EventView& event) const noexcept {
  RouteResult expected = interp_->route(event);
  RouteResult got = native_->route(event);
  if (got != expected) [[unlikely]] {
    Mismatch m{event.desc, event.payload_size, expected, got};
    if (mismatches_.fetch_add(1, std::memory_order_relaxed) == 0) {
      std::lock_guard lock(mu_);
      first_ = m;
    }
    if (on_mismatch_) on_mismatch_(m);
  }
  return expected;
}

std::optional<Mismatch> CrosscheckProgram::first_mismatch() const {
  std::lock_guard lock(mu_);
  return first_;
}
#endif

}  // namespace pfc
