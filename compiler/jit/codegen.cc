// compiler/jit/codegen.cc — lowers one ir::Program to one LLVM function (see codegen.h for
// the calling convention). Registers are i64 allocas zeroed in the entry block (mem2reg
// turns them into SSA values), jumps are branches, payload reads are inline bounds-checked
// little-endian loads, and decoding that is not fixed-size calls the runtime/tdh.h helpers.
#include "compiler/jit/codegen.h"

#include <bit>
#include <cstddef>

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "compiler/interp.h"
#include "pfc/event.h"
#include "runtime/tdh.h"

namespace pfc::internal {

std::span<const HelperSymbol> helper_symbols() {
  static const HelperSymbol kHelpers[] = {
      {"pfc_tdh_skip", reinterpret_cast<void*>(&pfc_tdh_skip)},
      {"pfc_tdh_load_int", reinterpret_cast<void*>(&pfc_tdh_load_int)},
      {"pfc_tdh_str_pred", reinterpret_cast<void*>(&pfc_tdh_str_pred)},
      {"pfc_tdh_guid_pred", reinterpret_cast<void*>(&pfc_tdh_guid_pred)},
      {"pfc_ir_in_set", reinterpret_cast<void*>(&pfc_ir_in_set)},
      {"pfc_ir_str_in", reinterpret_cast<void*>(&pfc_ir_str_in)},
  };
  return kHelpers;
}

namespace {

using llvm::BasicBlock;
using llvm::Value;

// Byte offset and width of each HeaderField inside EventView, indexed by HeaderField.
struct HeaderSlot {
  size_t offset;
  unsigned bits;
};
constexpr size_t kDesc = offsetof(EventView, desc);
constexpr HeaderSlot kHeaderSlots[] = {
    {kDesc + offsetof(EventDescriptor, id), 16},
    {kDesc + offsetof(EventDescriptor, version), 8},
    {kDesc + offsetof(EventDescriptor, channel), 8},
    {kDesc + offsetof(EventDescriptor, level), 8},
    {kDesc + offsetof(EventDescriptor, opcode), 8},
    {kDesc + offsetof(EventDescriptor, task), 16},
    {kDesc + offsetof(EventDescriptor, keyword), 64},
    {offsetof(EventView, pid), 32},
    {offsetof(EventView, tid), 32},
    {offsetof(EventView, payload_size), 64},
};
static_assert(std::size(kHeaderSlots) == static_cast<size_t>(ir::HeaderField::PayloadSize) + 1);

class Codegen {
 public:
  Codegen(const ir::Program& program, llvm::LLVMContext& context, llvm::Module& module)
      : p_(program), ctx_(context), m_(module), b_(context),
        i1_(b_.getInt1Ty()), i32_(b_.getInt32Ty()), i64_(b_.getInt64Ty()), ptr_(b_.getPtrTy()) {}

  void run(const std::string& fn_name);

 private:
  void emit_prologue();
  void emit(const ir::Inst& in);
  void emit_return();
  void accumulate(llvm::AllocaInst* acc, const ir::Inst& in);

  Value* load_header(uint32_t field);
  Value* pool_address(const void* object);  // an ir::Program pool entry, by address
  Value* in_set(Value* v, const ir::IntSet& set);
  Value* str_in(const ir::Inst& in);
  Value* skip(const ir::Inst& in);
  Value* load_field(const ir::Inst& in);
  Value* pred_int(const ir::Inst& in);
  Value* pred_str(const ir::Inst& in);
  Value* pred_guid(const ir::Inst& in);
  Value* int_compare(Value* v, const ir::IntPred& pred, bool is_signed);
  Value* guarded_load(Value* off, InType type, llvm::function_ref<Value*(Value*)> on_ok);
  Value* helper_load_int(Value* off, InType type, llvm::function_ref<Value*(Value*)> on_ok);

  Value* reg(uint32_t r) { return b_.CreateLoad(i64_, regs_[r]); }
  void set(uint32_t r, Value* v) { b_.CreateStore(v, regs_[r]); }
  Value* c64(uint64_t v) { return b_.getInt64(v); }
  Value* c32(uint64_t v) { return b_.getInt32(static_cast<uint32_t>(v)); }
  Value* bool64(Value* i1) { return b_.CreateZExt(i1, i64_); }
  Value* extent(const Extent& e, uint64_t reg_index, uint64_t absent);
  Value* length_extent(const Extent& e, uint64_t reg_index);
  llvm::FunctionCallee helper(const char* name, llvm::Type* ret, llvm::ArrayRef<llvm::Type*> args);
  llvm::Constant* constant_array(llvm::Constant* init, const char* name);
  BasicBlock* block(const char* name) { return BasicBlock::Create(ctx_, name, fn_); }

  const ir::Program& p_;
  llvm::LLVMContext& ctx_;
  llvm::Module& m_;
  llvm::IRBuilder<> b_;
  llvm::IntegerType* i1_;
  llvm::IntegerType* i32_;
  llvm::IntegerType* i64_;
  llvm::PointerType* ptr_;
  llvm::Function* fn_ = nullptr;
  Value* event_ = nullptr;
  Value* payload_ = nullptr;
  Value* psize_ = nullptr;
  std::vector<llvm::AllocaInst*> regs_;
  llvm::AllocaInst* deliver_ = nullptr;
  llvm::AllocaInst* stack_ = nullptr;
};

void Codegen::run(const std::string& fn_name) {
  auto* ret_ty = llvm::StructType::get(ctx_, {i64_, i64_});
  auto* fn_ty = llvm::FunctionType::get(ret_ty, {ptr_}, false);
  fn_ = llvm::Function::Create(fn_ty, llvm::Function::ExternalLinkage, fn_name, m_);
  fn_->addFnAttr(llvm::Attribute::NoUnwind);
  fn_->addFnAttr(llvm::Attribute::WillReturn);
  fn_->addParamAttr(0, llvm::Attribute::NoAlias);
  fn_->addParamAttr(0, llvm::Attribute::NoCapture);
  fn_->addParamAttr(0, llvm::Attribute::ReadOnly);
  fn_->addParamAttr(0, llvm::Attribute::getWithDereferenceableBytes(ctx_, sizeof(EventView)));
  event_ = fn_->getArg(0);
  event_->setName("event");
  emit_prologue();

  // One block per jump target; straight-line code after a terminator (jmp, ret) that is not
  // a target is unreachable and goes into a fresh block that later passes delete.
  std::vector<BasicBlock*> targets(p_.code.size(), nullptr);
  for (const ir::Inst& in : p_.code)
    if ((in.op == ir::Op::Jz || in.op == ir::Op::Jmp) && !targets[in.b])
      targets[in.b] = BasicBlock::Create(ctx_, "L" + std::to_string(in.b));
  for (size_t i = 0; i < p_.code.size(); ++i) {
    const ir::Inst& in = p_.code[i];
    bool open = b_.GetInsertBlock()->getTerminator() == nullptr;
    if (targets[i]) {
      if (open) b_.CreateBr(targets[i]);
      targets[i]->insertInto(fn_);
      b_.SetInsertPoint(targets[i]);
    } else if (!open) {
      b_.SetInsertPoint(block("dead"));
    }
    if (in.op == ir::Op::Jz) {
      BasicBlock* next = block("next");
      b_.CreateCondBr(b_.CreateICmpEQ(reg(in.a), c64(0)), targets[in.b], next);
      b_.SetInsertPoint(next);
    } else if (in.op == ir::Op::Jmp) {
      b_.CreateBr(targets[in.b]);
    } else {
      emit(in);
    }
  }
}

void Codegen::emit_prologue() {
  b_.SetInsertPoint(block("entry"));
  regs_.reserve(p_.num_regs);
  for (uint32_t r = 0; r < p_.num_regs; ++r)
    regs_.push_back(b_.CreateAlloca(i64_, nullptr, "r" + std::to_string(r)));
  deliver_ = b_.CreateAlloca(i64_, nullptr, "deliver");
  stack_ = b_.CreateAlloca(i64_, nullptr, "stack");
  for (llvm::AllocaInst* a : regs_) b_.CreateStore(c64(0), a);
  b_.CreateStore(c64(0), deliver_);
  b_.CreateStore(c64(0), stack_);
  Value* payload_ptr = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), event_,
                                                     offsetof(EventView, payload));
  payload_ = b_.CreateAlignedLoad(ptr_, payload_ptr, llvm::Align(8), "payload");
  psize_ = load_header(static_cast<uint32_t>(ir::HeaderField::PayloadSize));
  psize_->setName("psize");
}

// One case per opcode (Jz/Jmp are handled by run()).
void Codegen::emit(const ir::Inst& in) {
  switch (in.op) {
    case ir::Op::Const: return set(in.dst, c64(in.imm));
    case ir::Op::LoadHeader: return set(in.dst, load_header(in.a));
    case ir::Op::And: return set(in.dst, b_.CreateAnd(reg(in.a), reg(in.b)));
    case ir::Op::Or: return set(in.dst, b_.CreateOr(reg(in.a), reg(in.b)));
    case ir::Op::Not: return set(in.dst, bool64(b_.CreateICmpEQ(reg(in.a), c64(0))));
    case ir::Op::AndImm: return set(in.dst, b_.CreateAnd(reg(in.a), c64(in.imm)));
    case ir::Op::Cmp: {
      static constexpr llvm::CmpInst::Predicate kPreds[] = {
          llvm::CmpInst::ICMP_EQ,  llvm::CmpInst::ICMP_NE,  llvm::CmpInst::ICMP_ULT,
          llvm::CmpInst::ICMP_ULE, llvm::CmpInst::ICMP_UGT, llvm::CmpInst::ICMP_UGE,
          llvm::CmpInst::ICMP_SLT, llvm::CmpInst::ICMP_SLE, llvm::CmpInst::ICMP_SGT,
          llvm::CmpInst::ICMP_SGE};
      return set(in.dst, bool64(b_.CreateICmp(kPreds[in.b], reg(in.a), c64(in.imm))));
    }
    case ir::Op::InSet: return set(in.dst, in_set(reg(in.a), p_.int_sets[in.b]));
    case ir::Op::StrIn: return set(in.dst, str_in(in));
    case ir::Op::Deliver: return accumulate(deliver_, in);
    case ir::Op::Stack: return accumulate(stack_, in);
    case ir::Op::Skip: return set(in.dst, skip(in));
    case ir::Op::LoadField: return set(in.dst, load_field(in));
    case ir::Op::PredInt: return set(in.dst, pred_int(in));
    case ir::Op::PredStr: return set(in.dst, pred_str(in));
    case ir::Op::PredGuid: return set(in.dst, pred_guid(in));
    case ir::Op::Return: return emit_return();
    case ir::Op::Jz:
    case ir::Op::Jmp: return;
  }
}

void Codegen::emit_return() {
  Value* deliver = b_.CreateLoad(i64_, deliver_);
  Value* stack = b_.CreateAnd(b_.CreateLoad(i64_, stack_), deliver);
  Value* result = llvm::UndefValue::get(fn_->getReturnType());
  result = b_.CreateInsertValue(result, deliver, 0);
  result = b_.CreateInsertValue(result, stack, 1);
  b_.CreateRet(result);
}

void Codegen::accumulate(llvm::AllocaInst* acc, const ir::Inst& in) {
  Value* bit = b_.CreateShl(bool64(b_.CreateICmpNE(reg(in.a), c64(0))), c64(in.b));
  b_.CreateStore(b_.CreateOr(b_.CreateLoad(i64_, acc), bit), acc);
}

Value* Codegen::load_header(uint32_t field) {
  const HeaderSlot& slot = kHeaderSlots[field];
  Value* addr = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), event_, slot.offset);
  Value* v = b_.CreateAlignedLoad(b_.getIntNTy(slot.bits), addr, llvm::Align(slot.bits / 8));
  return b_.CreateZExt(v, i64_);
}

llvm::FunctionCallee Codegen::helper(const char* name, llvm::Type* ret,
                                     llvm::ArrayRef<llvm::Type*> args) {
  llvm::FunctionCallee callee = m_.getOrInsertFunction(name, llvm::FunctionType::get(ret, args, false));
  if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    f->addFnAttr(llvm::Attribute::NoUnwind);
    f->addFnAttr(llvm::Attribute::WillReturn);
  }
  return callee;
}

llvm::Constant* Codegen::constant_array(llvm::Constant* init, const char* name) {
  return new llvm::GlobalVariable(m_, init->getType(), /*isConstant=*/true,
                                  llvm::GlobalValue::PrivateLinkage, init, name);
}

Value* Codegen::pool_address(const void* object) {
  return b_.CreateIntToPtr(c64(reinterpret_cast<uintptr_t>(object)), ptr_);
}

Value* Codegen::in_set(Value* v, const ir::IntSet& set) {
  if (set.values.size() > kInlineSetMax) {
    llvm::FunctionCallee f = helper("pfc_ir_in_set", i32_, {ptr_, i64_});
    return bool64(b_.CreateICmpNE(b_.CreateCall(f, {pool_address(&set), v}), c32(0)));
  }
  BasicBlock* from = b_.GetInsertBlock();
  BasicBlock* yes = block("in");
  BasicBlock* join = block("in.join");
  llvm::SwitchInst* sw = b_.CreateSwitch(v, join, static_cast<unsigned>(set.values.size()));
  for (uint64_t value : set.values) sw->addCase(b_.getInt64(value), yes);
  b_.SetInsertPoint(yes);
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
  llvm::PHINode* phi = b_.CreatePHI(i64_, 2);
  phi->addIncoming(c64(0), from);
  phi->addIncoming(c64(1), yes);
  return phi;
}

Value* Codegen::str_in(const ir::Inst& in) {
  llvm::FunctionCallee f = helper("pfc_ir_str_in", i32_, {ptr_, ptr_, i32_});
  Value* hit = b_.CreateCall(f, {pool_address(&p_.str_sets[in.b]), event_, c32(in.a)});
  return bool64(b_.CreateICmpNE(hit, c32(0)));
}

Value* Codegen::extent(const Extent& e, uint64_t reg_index, uint64_t absent) {
  switch (e.kind) {
    case Extent::Kind::None: return c64(absent);
    case Extent::Kind::Fixed: return c64(e.value);
    case Extent::Kind::Field: return reg(static_cast<uint32_t>(reg_index));
  }
  return c64(absent);
}

// A string/binary length; a value read from a field never reads as "none declared"
// (pfc_tdh_field_length in runtime/tdh.h, inlined).
Value* Codegen::length_extent(const Extent& e, uint64_t reg_index) {
  Value* v = extent(e, reg_index, PFC_TDH_NO_LENGTH);
  if (e.kind != Extent::Kind::Field) return v;
  Value* is_none = b_.CreateICmpEQ(v, c64(PFC_TDH_NO_LENGTH));
  return b_.CreateSelect(is_none, c64(PFC_TDH_NO_LENGTH - 1), v);
}

Value* Codegen::skip(const ir::Inst& in) {
  const ir::FieldDesc& f = p_.fields[in.b];
  Value* off = reg(in.a);
  Value* count = extent(f.count, in.c, 1);
  uint64_t size = in_type_fixed_size(f.type);
  if (size == 0) {
    llvm::FunctionCallee fn = helper("pfc_tdh_skip", i64_, {ptr_, i64_, i64_, i32_, i64_, i64_});
    Value* length = length_extent(f.length, in.imm);
    return b_.CreateCall(fn, {payload_, psize_, off, c32(static_cast<uint32_t>(f.type)), count, length});
  }
  // Fixed-size elements: fits iff off <= psize && count <= (psize - off) / size. A bad
  // offset (~0) never fits unless psize is ~0 too, and then only with count 0, giving ~0.
  Value* in_range = b_.CreateICmpULE(off, psize_);
  Value* room = b_.CreateSelect(in_range, b_.CreateSub(psize_, off), c64(0));
  Value* fits = b_.CreateAnd(in_range, b_.CreateICmpULE(count, b_.CreateUDiv(room, c64(size))));
  Value* end = b_.CreateAdd(off, b_.CreateMul(count, c64(size)));
  return b_.CreateSelect(fits, end, c64(ir::kBadOffset));
}

// ok ? on_ok(value) : 0, where value is the integer field of `type` at `off`, loaded inline
// (bounds-checked, little-endian, sign- or zero-extended) when the type is a 1/2/4/8-byte
// integer, otherwise through pfc_tdh_load_int.
Value* Codegen::guarded_load(Value* off, InType type, llvm::function_ref<Value*(Value*)> on_ok) {
  uint64_t size = in_type_fixed_size(type);
  if (!in_type_is_integer(type) || !std::has_single_bit(size) || size > 8)
    return helper_load_int(off, type, on_ok);
  // psize >= size && off <= psize - size; a bad offset (~0) always fails.
  Value* ok = b_.CreateAnd(b_.CreateICmpUGE(psize_, c64(size)),
                           b_.CreateICmpULE(off, b_.CreateSub(psize_, c64(size))));
  BasicBlock* from = b_.GetInsertBlock();
  BasicBlock* load = block("field");
  BasicBlock* join = block("field.join");
  b_.CreateCondBr(ok, load, join);
  b_.SetInsertPoint(load);
  Value* addr = b_.CreateInBoundsGEP(b_.getInt8Ty(), payload_, off);
  Value* raw = b_.CreateAlignedLoad(b_.getIntNTy(static_cast<unsigned>(size * 8)), addr, llvm::Align(1));
  Value* value = in_type_is_signed(type) ? b_.CreateSExt(raw, i64_) : b_.CreateZExt(raw, i64_);
  Value* result = on_ok(value);
  BasicBlock* load_end = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
  llvm::PHINode* phi = b_.CreatePHI(i64_, 2);
  phi->addIncoming(c64(0), from);
  phi->addIncoming(result, load_end);
  return phi;
}

Value* Codegen::helper_load_int(Value* off, InType type, llvm::function_ref<Value*(Value*)> on_ok) {
  llvm::IRBuilder<> entry(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
  llvm::AllocaInst* ok_slot = entry.CreateAlloca(i32_, nullptr, "ok");
  llvm::FunctionCallee fn = helper("pfc_tdh_load_int", i64_, {ptr_, i64_, i64_, i32_, ptr_});
  b_.CreateStore(c32(1), ok_slot);
  Value* value = b_.CreateCall(fn, {payload_, psize_, off, c32(static_cast<uint32_t>(type)), ok_slot});
  Value* ok = b_.CreateICmpNE(b_.CreateLoad(i32_, ok_slot), c32(0));
  return b_.CreateSelect(ok, on_ok(value), c64(0));
}

Value* Codegen::load_field(const ir::Inst& in) {
  return guarded_load(reg(in.a), p_.fields[in.b].type, [](Value* v) { return v; });
}

Value* Codegen::pred_int(const ir::Inst& in) {
  InType type = p_.fields[in.b].type;
  const ir::IntPred& pred = p_.int_preds[in.c];
  bool is_signed = in_type_is_signed(type);
  return guarded_load(reg(in.a), type,
                      [&](Value* v) { return bool64(int_compare(v, pred, is_signed)); });
}

// The comparison of design.md §4.8 on a loaded (sign- or zero-extended) value; same
// semantics as pfc_tdh_int_pred.
Value* Codegen::int_compare(Value* v, const ir::IntPred& pred, bool is_signed) {
  using P = llvm::CmpInst::Predicate;
  auto cmp = [&](P u, P s, uint64_t rhs) { return b_.CreateICmp(is_signed ? s : u, v, c64(rhs)); };
  switch (pred.op) {
    case PayloadOp::Eq: return b_.CreateICmpEQ(v, c64(pred.lo));
    case PayloadOp::Ne: return b_.CreateICmpNE(v, c64(pred.lo));
    case PayloadOp::Le: return cmp(P::ICMP_ULE, P::ICMP_SLE, pred.lo);
    case PayloadOp::Gt: return cmp(P::ICMP_UGT, P::ICMP_SGT, pred.lo);
    case PayloadOp::Lt: return cmp(P::ICMP_ULT, P::ICMP_SLT, pred.lo);
    case PayloadOp::Ge: return cmp(P::ICMP_UGE, P::ICMP_SGE, pred.lo);
    case PayloadOp::Between:
      return b_.CreateAnd(cmp(P::ICMP_UGE, P::ICMP_SGE, pred.lo), cmp(P::ICMP_ULE, P::ICMP_SLE, pred.hi));
    case PayloadOp::NotBetween:
      return b_.CreateNot(b_.CreateAnd(cmp(P::ICMP_UGE, P::ICMP_SGE, pred.lo),
                                       cmp(P::ICMP_ULE, P::ICMP_SLE, pred.hi)));
    case PayloadOp::Modulo:
      if (is_signed && pred.lo == ~uint64_t{0}) return b_.getTrue();  // x % -1 == 0; avoids the INT64_MIN trap
      return b_.CreateICmpEQ(is_signed ? b_.CreateSRem(v, c64(pred.lo)) : b_.CreateURem(v, c64(pred.lo)), c64(0));
    default: return b_.getFalse();  // rejected by check_codegen_input
  }
}

Value* Codegen::pred_str(const ir::Inst& in) {
  const ir::FieldDesc& f = p_.fields[in.b];
  const ir::StrPred& pred = p_.str_preds[in.c];
  std::vector<uint32_t> needle(pred.folded.begin(), pred.folded.end());
  needle.push_back(0);  // never empty; the helper reads only needle_len code points
  llvm::Constant* data = constant_array(llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<uint32_t>(needle)), "needle");
  llvm::FunctionCallee fn = helper("pfc_tdh_str_pred", i32_, {ptr_, i64_, i64_, i32_, i64_, i32_, ptr_, i64_});
  Value* hit = b_.CreateCall(fn, {payload_, psize_, reg(in.a), c32(static_cast<uint32_t>(f.type)),
                                  length_extent(f.length, in.imm),
                                  c32(static_cast<uint32_t>(pred.op)), data, c64(pred.folded.size())});
  return bool64(b_.CreateICmpNE(hit, c32(0)));
}

Value* Codegen::pred_guid(const ir::Inst& in) {
  const ir::GuidPred& pred = p_.guid_preds[in.c];
  std::array<uint8_t, 16> bytes = pred.value.to_bytes();
  llvm::Constant* data = constant_array(llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<uint8_t>(bytes)), "guid");
  llvm::FunctionCallee fn = helper("pfc_tdh_guid_pred", i32_, {ptr_, i64_, i64_, i32_, ptr_});
  Value* hit = b_.CreateCall(fn, {payload_, psize_, reg(in.a), c32(static_cast<uint32_t>(pred.op)), data});
  return bool64(b_.CreateICmpNE(hit, c32(0)));
}

}  // namespace

Result<std::unique_ptr<llvm::Module>> generate_module(const ir::Program& program,
                                                      llvm::LLVMContext& context,
                                                      const std::string& fn_name) {
  static_assert(std::endian::native == std::endian::little,
                "generated payload loads assume a little-endian host");
  if (auto ok = check_codegen_input(program); !ok) return std::unexpected(ok.error());
  auto module = std::make_unique<llvm::Module>("pfc." + fn_name, context);
  Codegen(program, context, *module).run(fn_name);
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*module, &os))
    return make_error("generated LLVM IR is invalid (internal error): " + os.str());
  return module;
}

}  // namespace pfc::internal
