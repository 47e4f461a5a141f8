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
  std::atomic<bool> cancelled{false};  // the program is gone: skip the compilation

  mutable std::mutex mu;
  mutable std::condition_variable cv;
  bool done = false;                         // guarded by mu
  std::optional<Error> error;                // guarded by mu
  std::shared_ptr<const JitProgram> native;  // guarded by mu; set once
  // The TieredProgram's routing slot while it lives (null after its destructor); guarded
  // by mu, so the swap never writes into a destroyed program.
  std::atomic<NativeRouteFn>* route_fn = nullptr;

  void finish(Result<std::shared_ptr<const JitProgram>> result) {
    {
      std::lock_guard lock(mu);
      if (result) {
        native = std::move(*result);
        if (route_fn != nullptr) route_fn->store(native->native_fn(), std::memory_order_release);
      } else {
        error = std::move(result.error());
      }
      done = true;
    }
    cv.notify_all();
  }
};

// How a stopped worker abandons its compilation in progress: `flag` is asked between the
// compilation's stages; failures are reported under `report_mu` only while the flag is
// clear, so that once stop() set it (under the same lock) no callback runs any more.
struct Abandon {
  std::atomic<bool> flag{false};
  std::mutex report_mu;
};

// Compiles a state's program and records the outcome, reporting failures (not
// cancellations: the program's destruction or the worker's stop end it between stages).
void tier_up(TierState& state, const EngineOptions& options, Abandon* abandon = nullptr) {
  const CancelCheck cancelled = [&state, abandon] {
    return state.cancelled.load(std::memory_order_acquire) ||
           (abandon != nullptr && abandon->flag.load(std::memory_order_acquire));
  };
  auto native = JitProgram::create(state.program, state.level, cancelled);
  if (!native && options.on_jit_error && native.error().message != kCancelledMessage) {
    if (abandon == nullptr) {
      options.on_jit_error(native.error());
    } else {
      std::lock_guard lock(abandon->report_mu);
      if (!abandon->flag.load(std::memory_order_acquire)) options.on_jit_error(native.error());
    }
  }
  state.finish(std::move(native));
}

// Every worker thread still running, so that process exit waits for them before LLVM's own
// finalizers run: a thread still compiling during exit() would run LLVM code that is
// being torn down (an embedder may well leak its Router, as the ETW layer's process-wide
// runtime does). A stopped worker's thread is detached — it stops at the next stage
// boundary of its compilation — so stopping never waits for LLVM; only exit() does. The
// exit hook is registered when the first worker starts — after LLVM's static
// initialisation — so it runs before LLVM's destructors (exit handlers run in reverse
// order of registration). A program that must not wait even then ends with quick_exit
// when background_compiles_running() (pfc does). The registry is never destroyed.
class WorkerRegistry {
 public:
  static WorkerRegistry& get() {
    static WorkerRegistry* registry = new WorkerRegistry();
    return *registry;
  }
  void thread_started();  // warms LLVM up and registers the exit hook the first time
  void thread_finished();
  bool running() const;
  void wait_all();

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  size_t running_ = 0;   // guarded by mu_
  bool hooked_ = false;  // guarded by mu_
};

// One background thread compiling queued states in FIFO order. Its queue and flags are
// shared with the thread, which may outlive the worker (see stop()).
class TierWorker {
 public:
  explicit TierWorker(const EngineOptions& options) : shared_(std::make_shared<Shared>(options)) {
    WorkerRegistry::get().thread_started();
    std::thread([shared = shared_] {
      run(*shared);
      WorkerRegistry::get().thread_finished();
    }).detach();
  }

  ~TierWorker() { stop(); }

  // Stops the thread without waiting for it: queued states stay on the interpreter, a
  // compilation in progress is abandoned at its next stage boundary. Idempotent.
  void stop() {
    std::deque<std::shared_ptr<TierState>> left;
    {
      std::lock_guard lock(shared_->mu);
      shared_->stop = true;
      left.swap(shared_->queue);
    }
    {
      std::lock_guard lock(shared_->abandon.report_mu);  // waits for a report in progress
      shared_->abandon.flag.store(true, std::memory_order_release);
    }
    shared_->cv.notify_all();
    for (auto& state : left) state->finish(make_error("compiler shut down before tier-up"));
  }

  void push(std::shared_ptr<TierState> state) {
    {
      std::lock_guard lock(shared_->mu);
      if (!shared_->stop) {
        shared_->queue.push_back(std::move(state));
        state = nullptr;
      }
    }
    if (state) state->finish(make_error("compiler shut down before tier-up"));
    shared_->cv.notify_one();
  }

 private:
  struct Shared {
    explicit Shared(const EngineOptions& o) : options(o) {}
    const EngineOptions options;  // a copy: the thread may outlive the TieredCompiler
    std::mutex mu;
    std::condition_variable cv;
    std::deque<std::shared_ptr<TierState>> queue;  // guarded by mu
    bool stop = false;                             // guarded by mu
    Abandon abandon;
  };

  static void run(Shared& shared) {
    for (;;) {
      std::shared_ptr<TierState> state;
      {
        std::unique_lock lock(shared.mu);
        shared.cv.wait(lock, [&shared] { return shared.stop || !shared.queue.empty(); });
        if (shared.stop) return;
        state = std::move(shared.queue.front());
        shared.queue.pop_front();
      }
      if (state->cancelled.load(std::memory_order_acquire)) {
        state->finish(make_error("program destroyed before tier-up"));
        continue;
      }
      tier_up(*state, shared.options, &shared.abandon);
    }
  }

  std::shared_ptr<Shared> shared_;
};

// A small program touching every code path of a typical compile: header checks, a
// payload region with a variable-size skip, integer and string predicates (helper calls).
ir::Program warm_up_program() {
  ProgramSpec spec;
  spec.provider.name = "warm-up";
  EventDef event;
  event.fields = {FieldDef{"s", InType::UnicodeString, {}, {}},
                  FieldDef{"n", InType::UInt32, {}, {}}};
  spec.provider.events.push_back(event);
  PayloadFilter filter;
  filter.expr.preds = {PayloadPredicate{0, PayloadOp::Contains, PayloadValue{0, 0, "a", {}}},
                       PayloadPredicate{1, PayloadOp::Between, PayloadValue{1, 9, "", {}}}};
  using Kind = PayloadExpr::Node::Kind;
  filter.expr.nodes = {{Kind::Pred, 0, 0}, {Kind::Pred, 1, 0}, {Kind::Or, 0, 2}};
  filter.expr.kids = {0, 1};
  EnableParams params;
  params.level = 4;
  params.payload.push_back(filter);
  spec.sessions.emplace_back(0, std::move(params));
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

void WorkerRegistry::thread_started() {
  std::lock_guard lock(mu_);
  if (!hooked_) {
    warm_up_llvm();
    std::atexit([] { WorkerRegistry::get().wait_all(); });
    hooked_ = true;
  }
  ++running_;
}

void WorkerRegistry::thread_finished() {
  {
    std::lock_guard lock(mu_);
    --running_;
  }
  cv_.notify_all();
}

bool WorkerRegistry::running() const {
  std::lock_guard lock(mu_);
  return running_ != 0;
}

void WorkerRegistry::wait_all() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [this] { return running_ == 0; });
}

}  // namespace internal

bool background_compiles_running() { return internal::WorkerRegistry::get().running(); }

TieredProgram::TieredProgram(std::shared_ptr<const Interpreter> interp,
                             std::shared_ptr<internal::TierState> state)
    : interp_(std::move(interp)), state_(std::move(state)) {
  std::lock_guard lock(state_->mu);
  state_->route_fn = &native_fn_;
  if (state_->native) native_fn_.store(state_->native->native_fn(), std::memory_order_release);
}

TieredProgram::~TieredProgram() {
  state_->cancelled.store(true, std::memory_order_release);
  std::lock_guard lock(state_->mu);
  state_->route_fn = nullptr;
}

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
  // A program over the JIT's limit stays on the interpreter, without a copy for the JIT.
  const size_t size = program.code.size();
  const bool jit = size <= kMaxJitInstructions;
  auto state = std::make_shared<internal::TierState>(jit ? program : ir::Program{}, options_.level);
  auto interp = Interpreter::create(std::move(program));
  if (!interp) return std::unexpected(interp.error());
  std::shared_ptr<const TieredProgram> tiered(
      new TieredProgram(std::shared_ptr<const Interpreter>(std::move(*interp)), state));
  if (!jit) {
    const Error error = jit_limit_error(size);
    if (options_.on_jit_error) options_.on_jit_error(error);
    state->finish(std::unexpected(error));
  } else if (wait_) {
    internal::tier_up(*state, options_);
  } else {
    worker_->push(std::move(state));
  }
  return tiered;
}

}  // namespace pfc
