// compiler/jit/pipeline.cc — TargetMachine creation, the new-pass-manager IR pipeline and
// machine-code emission (see pipeline.h).
#include "compiler/jit/pipeline.h"

#include <mutex>

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

#include "compiler/jit/llvm_error.h"

namespace pfc::internal {

Result<void> init_native_target() {
  static const bool ok = [] {
    return !llvm::InitializeNativeTarget() && !llvm::InitializeNativeTargetAsmPrinter();
  }();
  if (!ok) return make_error("LLVM has no native target for this host");
  return {};
}

Result<std::unique_ptr<llvm::TargetMachine>> host_target_machine(OptLevel level) {
  if (auto ok = init_native_target(); !ok) return std::unexpected(ok.error());
  auto jtmb = llvm_result(llvm::orc::JITTargetMachineBuilder::detectHost(), "detecting the host");
  if (!jtmb) return std::unexpected(jtmb.error());
  static constexpr llvm::CodeGenOptLevel kLevels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less, llvm::CodeGenOptLevel::Default};
  jtmb->setCodeGenOptLevel(kLevels[static_cast<size_t>(level)]);
  return llvm_result(jtmb->createTargetMachine(), "creating the target machine");
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
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(
      level == OptLevel::O1 ? llvm::OptimizationLevel::O1 : llvm::OptimizationLevel::O2);
  mpm.run(module, mam);
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
