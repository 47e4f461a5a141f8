// compiler/jit/pipeline.cc — TargetMachine creation, the new-pass-manager IR pipeline and
// machine-code emission (see pipeline.h).
#include "compiler/jit/pipeline.h"

#include <iterator>
#include <mutex>
#include <string>

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>

#include "compiler/jit/llvm_error.h"

namespace pfc::internal {

Result<void> init_native_target() {
  static const bool ok = [] {
    return !llvm::InitializeNativeTarget() && !llvm::InitializeNativeTargetAsmPrinter();
  }();
  if (!ok) return make_error("LLVM has no native target for this host");
  return {};
}

namespace {

Result<std::unique_ptr<llvm::TargetMachine>> new_target_machine(OptLevel level) {
  if (auto ok = init_native_target(); !ok) return std::unexpected(ok.error());
  auto jtmb = llvm_result(llvm::orc::JITTargetMachineBuilder::detectHost(), "detecting the host");
  if (!jtmb) return std::unexpected(jtmb.error());
  // O1 pairs the light IR pipeline with the fast instruction selector and register
  // allocator: the IR passes do the work that matters, SelectionDAG would triple the cost
  // (docs/jit.md, "Choosing the pipeline").
  static constexpr llvm::CodeGenOptLevel kLevels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Default};
  jtmb->setCodeGenOptLevel(kLevels[static_cast<size_t>(level)]);
  // Small code model, PIC: helper calls go through JITLink's PLT stubs, and the fast
  // instruction selector can lower them (it gives up on large-model calls).
  jtmb->setCodeModel(llvm::CodeModel::Small);
  jtmb->setRelocationModel(llvm::Reloc::PIC_);
  return llvm_result(jtmb->createTargetMachine(), "creating the target machine");
}

}  // namespace

Result<llvm::TargetMachine*> host_target_machine(OptLevel level) {
  // Creating a machine costs about as much as emitting a small function; each thread keeps
  // one per level (a machine must not be used by two threads at once).
  thread_local std::unique_ptr<llvm::TargetMachine> cache[3];
  if (static_cast<size_t>(level) >= std::size(cache)) {
    return make_error("unknown optimisation level " + std::to_string(static_cast<int>(level)));
  }
  std::unique_ptr<llvm::TargetMachine>& slot = cache[static_cast<size_t>(level)];
  if (!slot) {
    auto tm = new_target_machine(level);
    if (!tm) return std::unexpected(tm.error());
    slot = std::move(*tm);
  }
  return slot.get();
}

void optimize_module(llvm::Module& module, llvm::TargetMachine& tm, OptLevel level) {
  if (level == OptLevel::O0) return;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  if (level == OptLevel::O2) {
    pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2).run(module, mam);
    return;
  }
  // O1: the few function passes that matter for straight-line routing code — registers to
  // SSA, redundancy elimination, peepholes, branch folding — without the module pipeline.
  llvm::FunctionPassManager fpm;
  fpm.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  fpm.addPass(llvm::EarlyCSEPass());
  fpm.addPass(llvm::InstCombinePass());
  fpm.addPass(llvm::SimplifyCFGPass());
  for (llvm::Function& f : module)
    if (!f.isDeclaration()) fpm.run(f, fam);
}

Result<std::string> emit_machine_code(llvm::Module& module, llvm::TargetMachine& tm,
                                      EmitKind kind) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  auto type = kind == EmitKind::Object ? llvm::CodeGenFileType::ObjectFile
                                       : llvm::CodeGenFileType::AssemblyFile;
  if (tm.addPassesToEmitFile(pm, os, nullptr, type))
    return make_error("the target cannot emit this kind of file");
  pm.run(module);
  return std::string(buffer.data(), buffer.size());
}

}  // namespace pfc::internal
