// compiler/jit/tiered.cc — TieredProgram / TieredCompiler: the interpreter serves at once,
// a background thread compiles, one atomic store swaps in the native function.
#include "compiler/jit/tiered.h"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "compiler/lower.h"

namespace pfc {
namespace internal {

// What the background compilation and the program share. The native code lives here (not
// in the TieredProgram) so a compilation finishing after its program died is harmless.
struct TierState {
  explicit TierState(ir::Program p, OptLevel l) : program(std::move(p)), level(l) {}
  const ir::Program program;  // compiled by the worker; immutable
  const OptLevel level;
  std::atomic<NativeRouteFn> fn{nullptr};
  std::atomic<bool> cancelled{false};  // the program is gone: skip the compilation

  mutable std::mutex mu;
  mutable std::condition_variable cv;
  bool done = false;  // guarded by mu
  std::optional<Error> error;                    // guarded by mu
  std::shared_ptr<const JitProgram> native;      // guarded by mu; set once

  void finish(Result<std::shared_ptr<const JitProgram>> result) {
    {
      std::lock_guard lock(mu);
      if (result) {
        native = std::move(*result);
        fn.store(native->native_fn(), std::memory_order_release);  // the swap
      } else {
        error = std::move(result.error());
      }
      done = true;
    }
    cv.notify_all();
  }
};

// Compiles a state's program and records the outcome (reporting failures).
void tier_up(TierState& state, const EngineOptions& options) {
  auto native = JitProgram::create(state.program, state.level);
  if (!native && options.on_jit_error) options.on_jit_error(native.error());
  state.finish(std::move(native));
}

class TierWorker;

// Every live worker, so that process exit stops them before LLVM's own finalizers run: a
// worker still compiling during exit() would run LLVM code that is being torn down (an
// embedder may well leak its Router, as the ETW layer's process-wide runtime does). The
// exit hook is registered when the first worker starts — after LLVM's static
// initialisation — so it runs before LLVM's destructors (exit handlers run in reverse
// order of registration). The registry itself is never destroyed.
class WorkerRegistry {
 public:
  static WorkerRegistry& get() {
    static WorkerRegistry* registry = new WorkerRegistry();
    return *registry;
  }
  void add(TierWorker* worker);
  void remove(TierWorker* worker);
  void stop_all();  // holds the lock while stopping, so no worker is destroyed meanwhile

 private:
  std::mutex mu_;
  std::vector<TierWorker*> workers_;  // guarded by mu_
  bool hooked_ = false;               // guarded by mu_
};

// One background thread compiling queued states in FIFO order.
class TierWorker {
 public:
  explicit TierWorker(const EngineOptions& options)
      : options_(options), thread_([this] { run(); }) {
    WorkerRegistry::get().add(this);
  }

  ~TierWorker() {
    WorkerRegistry::get().remove(this);
    stop();
  }

  // Stops the thread; queued states stay on the interpreter. Idempotent.
  void stop() {
    std::deque<std::shared_ptr<TierState>> left;
    {
      std::lock_guard lock(mu_);
      stop_ = true;
      left.swap(queue_);
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    for (auto& state : left) state->finish(make_error("compiler shut down before tier-up"));
  }

  void push(std::shared_ptr<TierState> state) {
    {
      std::lock_guard lock(mu_);
      if (!stop_) {
        queue_.push_back(std::move(state));
        state = nullptr;
      }
    }
    if (state) state->finish(make_error("compiler shut down before tier-up"));
    cv_.notify_one();
  }

 private:
  void run() {
    for (;;) {
      std::shared_ptr<TierState> state;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        if (stop_) return;
        state = std::move(queue_.front());
        queue_.pop_front();
      }
      if (state->cancelled.load(std::memory_order_acquire)) {
        state->finish(make_error("program destroyed before tier-up"));
        continue;
      }
      tier_up(*state, options_);
    }
  }

  const EngineOptions& options_;  // owned by the TieredCompiler, which owns *this
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<TierState>> queue_;  // guarded by mu_
  bool stop_ = false;                             // guarded by mu_
  std::thread thread_;                            // last: starts after the rest exists
};

// A small program touching every code path of a typical compile: header checks, a
// payload region with a variable-size skip, integer and string predicates (helper calls).
ir::Program warm_up_program() {
  ProgramSpec spec;
  spec.provider.name = "warm-up";
  EventDef event;
  event.fields = {FieldDef{"s", InType::UnicodeString, {}, {}}, FieldDef{"n", InType::UInt32, {}, {}}};
  spec.provider.events.push_back(event);
  PayloadFilter filter;
  filter.expr.preds = {PayloadPredicate{0, PayloadOp::Contains, PayloadValue{0, 0, "a", {}}},
                       PayloadPredicate{1, PayloadOp::Between, PayloadValue{1, 9, "", {}}}};
  using Kind = PayloadExpr::Node::Kind;
  filter.expr.nodes = {{Kind::Pred, 0, 0}, {Kind::Pred, 1, 0}, {Kind::Or, 0, 2}};
  filter.expr.kids = {0, 1};
  SessionEntry session;
  session.params.level = 4;
  session.params.payload.push_back(filter);
  spec.sessions.push_back(session);
  auto program = lower(spec);
  return program ? std::move(*program) : ir::Program{};
}

// LLVM creates function-local statics during its first compiles and registers their
// destructors then. Compiling once at every level before the exit hook is registered
// puts the hook after them, so it runs (and stops the workers) before they are destroyed.
void warm_up_llvm() {
  const ir::Program program = warm_up_program();
  for (OptLevel level : {OptLevel::O0, OptLevel::O1, OptLevel::O2}) {
    (void)JitProgram::create(program, level);  // a failure here resurfaces per program
  }
}

void WorkerRegistry::add(TierWorker* worker) {
  std::lock_guard lock(mu_);
  if (!hooked_) {
    warm_up_llvm();
    std::atexit([] { WorkerRegistry::get().stop_all(); });
    hooked_ = true;
  }
  workers_.push_back(worker);
}

void WorkerRegistry::remove(TierWorker* worker) {
  std::lock_guard lock(mu_);
  std::erase(workers_, worker);
}

void WorkerRegistry::stop_all() {
  std::lock_guard lock(mu_);
  for (TierWorker* worker : workers_) worker->stop();
}

}  // namespace internal

TieredProgram::TieredProgram(std::shared_ptr<const Interpreter> interp,
                             std::shared_ptr<internal::TierState> state)
    : interp_(std::move(interp)), state_(std::move(state)), native_fn_(&state_->fn) {}

TieredProgram::~TieredProgram() { state_->cancelled.store(true, std::memory_order_release); }

TieredProgram::Tier TieredProgram::tier() const {
  std::lock_guard lock(state_->mu);
  if (state_->native) return Tier::Native;
  return state_->error ? Tier::Failed : Tier::Interp;
}

std::optional<Error> TieredProgram::error() const {
  std::lock_guard lock(state_->mu);
  return state_->error;
}

void TieredProgram::wait() const {
  std::unique_lock lock(state_->mu);
  state_->cv.wait(lock, [this] { return state_->done; });
}

TieredCompiler::TieredCompiler(EngineOptions options, bool wait)
    : options_(std::move(options)), wait_(wait) {
  if (!wait_) worker_ = std::make_unique<internal::TierWorker>(options_);
}

TieredCompiler::~TieredCompiler() = default;

Result<std::shared_ptr<const RoutingProgram>> TieredCompiler::compile(const ProgramSpec& spec) {
  auto program = lower(spec);
  if (!program) return std::unexpected(program.error());
  auto tiered = compile_ir(std::move(*program));
  if (!tiered) return std::unexpected(tiered.error());
  return std::shared_ptr<const RoutingProgram>(std::move(*tiered));
}

Result<std::shared_ptr<const TieredProgram>> TieredCompiler::compile_ir(ir::Program program) {
  auto state = std::make_shared<internal::TierState>(program, options_.level);
  auto interp = Interpreter::create(std::move(program));
  if (!interp) return std::unexpected(interp.error());
  std::shared_ptr<const TieredProgram> tiered(
      new TieredProgram(std::shared_ptr<const Interpreter>(std::move(*interp)), state));
  if (wait_)
    internal::tier_up(*state, options_);
  else
    worker_->push(std::move(state));
  return tiered;
}

}  // namespace pfc
