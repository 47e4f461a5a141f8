// compiler/jit/jit.cc — the process-wide LLJIT, installation and removal of native routing
// functions (one ResourceTracker each), the --emit text forms, JitProgram.
#include "compiler/jit/jit.h"

#include <atomic>
#include <utility>

#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "compiler/jit/codegen.h"
#include "compiler/jit/llvm_error.h"
#include "compiler/jit/pipeline.h"

namespace pfc {

std::string_view opt_level_name(OptLevel level) {
  static constexpr std::string_view kNames[] = {"O0", "O1", "O2"};
  return kNames[static_cast<size_t>(level)];
}

std::optional<OptLevel> opt_level_from_name(std::string_view name) {
  for (OptLevel l : {OptLevel::O0, OptLevel::O1, OptLevel::O2})
    if (name == opt_level_name(l)) return l;
  return std::nullopt;
}

namespace {
constexpr std::string_view kLimitStart = "the routing program has ";
constexpr std::string_view kLimitMiddle = " IR instructions, more than the JIT's limit of ";
}  // namespace

Error jit_limit_error(size_t instructions) {
  return Error{std::string(kLimitStart) + std::to_string(instructions) + std::string(kLimitMiddle) +
               std::to_string(kMaxJitInstructions)};
}

bool is_jit_limit_error(const Error& error) {
  const size_t start = error.message.find(kLimitStart);
  return start != std::string::npos &&
         error.message.find(kLimitMiddle, start + kLimitStart.size()) != std::string::npos;
}

struct Jit::Impl {
  std::unique_ptr<llvm::orc::LLJIT> lljit;
  std::atomic<uint64_t> next_id{0};
};

struct NativeCode::Installed {
  std::shared_ptr<Jit::Impl> jit;  // keeps the LLJIT alive while code is installed
  llvm::orc::ResourceTrackerSP tracker;
};

NativeCode::NativeCode(std::unique_ptr<Installed> installed, NativeRouteFn fn)
    : installed_(std::move(installed)), fn_(fn) {}

NativeCode::~NativeCode() {
  // A failed removal leaves the code's memory with the JITDylib until the LLJIT goes away;
  // there is nobody to report it to from a destructor, so it is dropped.
  if (llvm::Error err = installed_->tracker->remove())
    (void)internal::llvm_to_error(std::move(err), "removing JIT code");
  installed_->tracker = nullptr;
  // Every compile interns a fresh name (pfc_route_N, its sections' symbols); the session's
  // string pool keeps entries nobody references until told to drop them, about 70 bytes
  // per compile otherwise (issue B8). Thread-safe: the pool locks itself, and a dead entry
  // can only come back through intern(), under the same lock.
  installed_->jit->lljit->getExecutionSession().getSymbolStringPool()->clearDeadEntries();
}

namespace {

// The JITDylib that stands in for "process symbols": it holds exactly the helpers, as
// absolute symbols, and is linked after the main JITDylib. Nothing else of the process is
// visible to JIT code.
llvm::Expected<llvm::orc::JITDylibSP> define_helpers(llvm::orc::LLJIT& lljit) {
  llvm::orc::JITDylib& jd = lljit.getExecutionSession().createBareJITDylib("<pfc helpers>");
  llvm::orc::SymbolMap symbols;
  for (const NativeHelper& h : native_helpers())
    symbols[lljit.mangleAndIntern(h.name)] = llvm::orc::ExecutorSymbolDef(
        llvm::orc::ExecutorAddr::fromPtr(h.address),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
  if (llvm::Error err = jd.define(llvm::orc::absoluteSymbols(std::move(symbols)))) return err;
  return llvm::orc::JITDylibSP(&jd);
}

Result<std::unique_ptr<llvm::orc::LLJIT>> build_lljit() {
  if (auto ok = internal::init_native_target(); !ok) return std::unexpected(ok.error());
  return internal::llvm_result(
      llvm::orc::LLJITBuilder().setProcessSymbolsJITDylibSetup(define_helpers).create(),
      "creating the LLJIT");
}

bool stop(const CancelCheck& cancelled) { return cancelled && cancelled(); }

// An optimised module for `program` in `context`, with the host's layout and triple.
Result<std::unique_ptr<llvm::Module>> optimised_module(const ir::Program& program,
                                                       llvm::LLVMContext& context,
                                                       const std::string& name,
                                                       llvm::TargetMachine& tm, OptLevel level,
                                                       const CancelCheck& cancelled = {}) {
  auto module = internal::generate_module(program, context, name);
  if (!module) return module;
  if (stop(cancelled)) return make_error(kCancelledMessage);
  (*module)->setDataLayout(tm.createDataLayout());
  (*module)->setTargetTriple(tm.getTargetTriple().str());
  internal::optimize_module(**module, tm, level);
  return module;
}

}  // namespace

Jit::Jit(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Jit::~Jit() = default;

Result<std::shared_ptr<Jit>> Jit::shared() {
  static const Result<std::shared_ptr<Jit>> instance = []() -> Result<std::shared_ptr<Jit>> {
    auto lljit = build_lljit();
    if (!lljit) return std::unexpected(lljit.error());
    auto impl = std::make_unique<Impl>();
    impl->lljit = std::move(*lljit);
    return std::shared_ptr<Jit>(new Jit(std::move(impl)));
  }();
  return instance;
}

Result<std::unique_ptr<NativeCode>> Jit::compile(const ir::Program& program, OptLevel level,
                                                 const CancelCheck& cancelled) {
  if (stop(cancelled)) return make_error(kCancelledMessage);
  if (program.code.size() > kMaxJitInstructions)
    return std::unexpected(jit_limit_error(program.code.size()));
  const std::string name = "pfc_route_" + std::to_string(impl_->next_id.fetch_add(1));
  auto tm = internal::host_target_machine(level);
  if (!tm) return std::unexpected(tm.error());
  // One context per compiled program; it is only needed until the object is emitted.
  llvm::orc::ThreadSafeContext context(std::make_unique<llvm::LLVMContext>());
  auto lock = context.getLock();
  auto module = optimised_module(program, *context.getContext(), name, **tm, level, cancelled);
  if (!module) return std::unexpected(module.error());
  if (stop(cancelled)) return make_error(kCancelledMessage);
  auto object = internal::emit_machine_code(**module, **tm, internal::EmitKind::Object);
  if (!object) return std::unexpected(object.error());
  if (stop(cancelled)) return make_error(kCancelledMessage);

  llvm::orc::LLJIT& lljit = *impl_->lljit;
  auto installed = std::make_unique<NativeCode::Installed>();
  installed->jit = impl_;
  installed->tracker = lljit.getMainJITDylib().createResourceTracker();
  auto added = internal::llvm_result(
      lljit.addObjectFile(installed->tracker, llvm::MemoryBuffer::getMemBufferCopy(*object, name)),
      "adding JIT object");
  auto address = added ? internal::llvm_result(lljit.lookup(name), "linking JIT code")
                       : Result<llvm::orc::ExecutorAddr>(std::unexpected(added.error()));
  if (!address) {
    // Whatever was added goes with the tracker; the lookup error is the one to report.
    if (llvm::Error err = installed->tracker->remove())
      (void)internal::llvm_to_error(std::move(err), "removing JIT code");
    return std::unexpected(address.error());
  }
  auto fn = address->toPtr<NativeRouteFn>();
  return std::unique_ptr<NativeCode>(new NativeCode(std::move(installed), fn));
}

Result<std::string> emit_llvm(const ir::Program& program, OptLevel level) {
  if (program.code.size() > kMaxJitInstructions)
    return std::unexpected(jit_limit_error(program.code.size()));
  auto tm = internal::host_target_machine(level);
  if (!tm) return std::unexpected(tm.error());
  llvm::LLVMContext context;
  auto module = optimised_module(program, context, "pfc_route", **tm, level);
  if (!module) return std::unexpected(module.error());
  std::string text;
  llvm::raw_string_ostream os(text);
  (*module)->print(os, nullptr);
  os.flush();
  return text;
}

Result<std::string> emit_asm(const ir::Program& program, OptLevel level) {
  if (program.code.size() > kMaxJitInstructions)
    return std::unexpected(jit_limit_error(program.code.size()));
  auto tm = internal::host_target_machine(level);
  if (!tm) return std::unexpected(tm.error());
  llvm::LLVMContext context;
  auto module = optimised_module(program, context, "pfc_route", **tm, level);
  if (!module) return std::unexpected(module.error());
  return internal::emit_machine_code(**module, **tm, internal::EmitKind::Assembly);
}

JitProgram::JitProgram(ir::Program program) : program_(std::move(program)) {}

Result<std::shared_ptr<const JitProgram>> JitProgram::create(ir::Program program, OptLevel level,
                                                             const CancelCheck& cancelled) {
  auto jit = Jit::shared();
  if (!jit) return std::unexpected(jit.error());
  std::shared_ptr<JitProgram> p(new JitProgram(std::move(program)));
  auto code = (*jit)->compile(p->program_, level, cancelled);
  if (!code) return std::unexpected(code.error());
  p->fn_ = (*code)->fn();
  p->code_ = std::move(*code);
  return p;
}

}  // namespace pfc
