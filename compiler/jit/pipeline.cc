// compiler/jit/pipeline.cc — TargetMachine creation, the new-pass-manager IR pipeline and
// machine-code emission (see pipeline.h).
#include "compiler/jit/pipeline.h"

#include <iterator>
#include <mutex>
#include <ranges>
#include <string>
#include <vector>

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
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

// SimplifyCFG (and InstCombine, which O1 does not run) write `a && b` as
// `select i1 a, i1 b, i1 false` and `a || b` as `select i1 a, i1 true, i1 b` (the
// poison-safe forms), which FastISel cannot select: one such instruction hands its whole
// block to SelectionDAG (several times the cost). They become plain `and`/`or`. The two
// forms differ only when the second operand is poison, and generated code has no poison
// sources: its shifts are by less than 64, its divisors non-zero constants, its loads read
// initialised memory (the payload, or the event view for a field that does not fit), and
// it carries no nsw/nuw/exact flags.
void logical_selects_to_bitwise(llvm::Function& fn) {
  for (llvm::BasicBlock& block : fn) {
    for (llvm::Instruction& inst : llvm::make_early_inc_range(block)) {
      auto* select = llvm::dyn_cast<llvm::SelectInst>(&inst);
      if (!select || !select->getType()->isIntegerTy(1)) continue;
      auto* t = llvm::dyn_cast<llvm::ConstantInt>(select->getTrueValue());
      auto* f = llvm::dyn_cast<llvm::ConstantInt>(select->getFalseValue());
      llvm::IRBuilder<> b(select);
      llvm::Value* cond = select->getCondition();
      llvm::Value* result = nullptr;
      if (f && f->isZero()) result = b.CreateAnd(cond, select->getTrueValue());
      else if (t && t->isOne()) result = b.CreateOr(cond, select->getFalseValue());
      if (!result) continue;
      select->replaceAllUsesWith(result);
      select->eraseFromParent();
    }
  }
}

// The fast register allocator visits, at every call, every virtual register the block has
// seen so far (LLVM 19 RegAllocFast's regmask handling), so one block of n instructions
// with calls costs O(n^2): 10^5 predicates took 8.7 s, 2 x 10^5 53 s. Cutting blocks
// after kMaxBlockInstructions instructions (an unconditional branch to the rest) bounds
// that per block; only the few values live across a cut are spilled and reloaded.
constexpr size_t kMaxBlockInstructions = 512;

void split_long_blocks(llvm::Function& fn) {
  std::vector<llvm::BasicBlock*> blocks;
  for (llvm::BasicBlock& block : fn) blocks.push_back(&block);
  std::vector<llvm::Instruction*> cuts;
  for (llvm::BasicBlock* block : blocks) {
    cuts.clear();
    size_t n = 0;
    for (auto it = block->getFirstNonPHIIt(); it != block->end() && !it->isTerminator(); ++it) {
      if (++n % kMaxBlockInstructions == 0) cuts.push_back(&*std::next(it));
    }
    // From the back, so that each split moves at most one piece: O(n) in all (a
    // BasicBlock's size() and a split's move are linear in the instructions they see).
    for (llvm::Instruction* c : std::views::reverse(cuts))
      block->splitBasicBlock(c->getIterator(), block->getName() + ".cut");
  }
}

// The IR passes of `level` (optimize_module).
void run_ir_passes(llvm::Module& module, llvm::TargetMachine& tm, OptLevel level) {
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
  // O1: redundancy elimination and branch folding per function, without the module
  // pipeline. Codegen emits SSA values directly (ssa.h: nothing for SROA/mem2reg to do),
  // booleans as i1 and BETWEEN as one compare, so InstCombine is left out: it cost a
  // quarter of an Example1 compile for about 5% fewer routing instructions (docs/jit.md).
  llvm::FunctionPassManager fpm;
  fpm.addPass(llvm::EarlyCSEPass());
  fpm.addPass(llvm::SimplifyCFGPass());
  for (llvm::Function& f : module) {
    if (f.isDeclaration()) continue;
    fpm.run(f, fam);
    logical_selects_to_bitwise(f);
  }
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
  run_ir_passes(module, tm, level);
  for (llvm::Function& f : module) {
    if (!f.isDeclaration()) split_long_blocks(f);
  }
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
