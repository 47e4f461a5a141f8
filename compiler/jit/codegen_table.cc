// compiler/jit/codegen_table.cc — how generated code reaches helpers and pool entries
// (codegen.h, CodegenMode): as constants in Jit mode, through `pfc_table` in Table mode
// (docs/jit.md "Shared code").
#include <string_view>

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>

#include "compiler/jit/codegen_impl.h"

namespace pfc::internal {

llvm::FunctionCallee Codegen::helper(const char* name, llvm::Type* ret,
                                     llvm::ArrayRef<llvm::Type*> args) {
  auto* type = llvm::FunctionType::get(ret, args, false);
  if (mode_ == CodegenMode::Table) {
    const std::span<const NativeHelper> helpers = native_helpers();
    uint32_t index = 0;
    while (index < helpers.size() && std::string_view(helpers[index].name) != name) ++index;
    return llvm::FunctionCallee(type, table_entry({TableSlotKind::Helper, index}));
  }
  llvm::FunctionCallee callee = m_.getOrInsertFunction(name, type);
  if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    f->addFnAttr(llvm::Attribute::NoUnwind);
    f->addFnAttr(llvm::Attribute::WillReturn);
  }
  return callee;
}

Value* Codegen::pool_address(const void* object, TableSlot slot) {
  if (mode_ == CodegenMode::Table) return table_entry(slot);
  return b_.CreateIntToPtr(c64(reinterpret_cast<uintptr_t>(object)), ptr_);
}

// A load of the slot's pointer, PC-relative from pfc_table; invariant, so that passes may
// share and hoist it (the loader fills the table before the code first runs).
Value* Codegen::table_entry(TableSlot slot) {
  if (!table_) {
    table_ = new llvm::GlobalVariable(m_, ptr_, false, llvm::GlobalValue::PrivateLinkage,
                                      llvm::ConstantPointerNull::get(ptr_), "pfc_table.slots");
  }
  auto [it, added] = slot_numbers_.try_emplace({slot.kind, slot.index}, slots_.size());
  if (added) slots_.push_back(slot);
  Value* at = b_.CreateConstInBoundsGEP1_64(ptr_, table_, it->second);
  llvm::LoadInst* load = b_.CreateAlignedLoad(ptr_, at, llvm::Align(8));
  load->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(ctx_, {}));
  return load;
}

void Codegen::finish_table() {
  auto* type = llvm::ArrayType::get(ptr_, slots_.size());
  auto* table = new llvm::GlobalVariable(m_, type, false, llvm::GlobalValue::ExternalLinkage,
                                         llvm::ConstantAggregateZero::get(type), "pfc_table");
  table->setVisibility(llvm::GlobalValue::ProtectedVisibility);
  table->setDSOLocal(true);
  table->setAlignment(llvm::Align(8));
  if (table_) {
    table_->replaceAllUsesWith(table);
    table_->eraseFromParent();
    table_ = nullptr;
  }
  // The helpers' attributes, which Jit mode puts on their declarations, on each call.
  for (llvm::BasicBlock& block : *fn_) {
    for (llvm::Instruction& inst : block) {
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&inst); call && call->isIndirectCall()) {
        call->addFnAttr(llvm::Attribute::NoUnwind);
        call->addFnAttr(llvm::Attribute::WillReturn);
      }
    }
  }
}

}  // namespace pfc::internal
