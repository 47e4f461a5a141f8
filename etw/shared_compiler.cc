// etw/shared_compiler.cc — see shared_compiler.h.
#include "etw/shared_compiler.h"

#include "compiler/interp.h"
#include "compiler/lower.h"
#include "etw/shared_worker.h"

namespace pfc::etw {
namespace {

// Routes with the interpreter until the worker stores the native function (one atomic
// pointer; neither engine is freed before the program). Thread-safe.
class SharedProgram final : public RoutingProgram {
 public:
  explicit SharedProgram(std::shared_ptr<SharedJob> job) : job_(std::move(job)) {}
  ~SharedProgram() override {
    std::lock_guard lock(job_->mu);
    job_->slot = nullptr;
  }
  SharedProgram(const SharedProgram&) = delete;
  SharedProgram& operator=(const SharedProgram&) = delete;

  PFC_CALLS_JIT_CODE RouteResult route(const EventView& event) const noexcept override {
    if (SharedRouteFn fn = native_fn_.load(std::memory_order_acquire))
      return call_native(fn, event);
    return job_->interp->route(event);
  }
  const std::atomic<NativeRouteFn>* native_slot() const noexcept override { return &native_fn_; }

  std::atomic<SharedRouteFn>* slot() { return &native_fn_; }

 private:
  std::shared_ptr<SharedJob> job_;
  std::atomic<SharedRouteFn> native_fn_{nullptr};
};

class SharedCompiler final : public ProgramCompiler {
 public:
  Result<std::shared_ptr<const RoutingProgram>> compile(const ProgramSpec& spec) override {
    if (spec.sessions.empty()) return interp_.compile(spec);
    prestart_shared_service();  // its start overlaps the lowering
    LowerOptions options;
    options.defer_string_databases = true;  // the worker installs them with the native code
    auto prog = lower(spec, options);
    if (!prog) return std::unexpected(prog.error());
    auto interp = Interpreter::create(std::move(*prog));
    if (!interp) return std::unexpected(interp.error());
    auto job = std::make_shared<SharedJob>(std::shared_ptr<const Interpreter>(std::move(*interp)),
                                           spec.provider.guid.to_string());
    auto program = std::make_shared<SharedProgram>(job);
    job->slot = program->slot();  // before the worker can see the job
    submit_shared_job(job);
    return std::shared_ptr<const RoutingProgram>(std::move(program));
  }

 private:
  InterpCompiler interp_;
};

}  // namespace

std::shared_ptr<ProgramCompiler> make_shared_compiler() {
  return std::make_shared<SharedCompiler>();
}

SharedCodeStatus shared_code_status() {
  SharedCounters& c = shared_counters();
  SharedCodeStatus s;
  s.requested = c.requested.load(std::memory_order_relaxed);
  s.native = c.native.load(std::memory_order_relaxed);
  s.interpreted = c.interpreted.load(std::memory_order_relaxed);
  s.databases_loaded = c.databases_loaded.load(std::memory_order_relaxed);
  s.databases_compiled = c.databases_compiled.load(std::memory_order_relaxed);
  s.databases_refused = c.databases_refused.load(std::memory_order_relaxed);
  std::lock_guard lock(c.mu);
  s.last_error = c.last_error;
  s.last_database_error = c.last_database_error;
  return s;
}

}  // namespace pfc::etw
