// compiler/jit/codegen.cc — lowers one ir::Program to one LLVM function (see codegen.h for
// the calling convention). Registers and the two accumulators become SSA values directly
// (ssa.h: no allocas, so no mem2reg pass is needed), jumps are branches, `in.set` is
// branch-free bit tests or an unrolled branch-free binary search, payload reads are inline
// bounds-checked little-endian loads, and decoding that is not fixed-size calls the runtime/tdh.h
// helpers.
#include "compiler/jit/codegen.h"

#include <algorithm>

#include <bit>
#include <cstddef>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

#include <llvm/ADT/DenseSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "compiler/interp.h"
#include "compiler/jit/bit_arith.h"
#include "compiler/jit/codegen_impl.h"
#include "compiler/jit/ssa.h"
#include "compiler/regex_pred.h"
#include "compiler/str_match.h"
#include "compiler/verify.h"
#include "pfc/event.h"
#include "runtime/tdh.h"

namespace pfc::internal {

namespace {

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
// LLVM predicates of ir::Cond, indexed by Cond.
constexpr llvm::CmpInst::Predicate kCondPreds[] = {
    llvm::CmpInst::ICMP_EQ,  llvm::CmpInst::ICMP_NE,  llvm::CmpInst::ICMP_ULT,
    llvm::CmpInst::ICMP_ULE, llvm::CmpInst::ICMP_UGT, llvm::CmpInst::ICMP_UGE,
    llvm::CmpInst::ICMP_SLT, llvm::CmpInst::ICMP_SLE, llvm::CmpInst::ICMP_SGT,
    llvm::CmpInst::ICMP_SGE};

static_assert(std::size(kHeaderSlots) == static_cast<size_t>(ir::HeaderField::PayloadSize) + 1);

// The index of `entry` in `pool` (an element of it).
template <typename T>
uint32_t pool_index(const std::vector<T>& pool, const T& entry) {
  return static_cast<uint32_t>(&entry - pool.data());
}

}  // namespace

void Codegen::run(const std::string& fn_name) {
  auto* fn_ty = llvm::FunctionType::get(i64_, {ptr_, ptr_}, false);
  fn_ = llvm::Function::Create(fn_ty, llvm::Function::ExternalLinkage, fn_name, m_);
  fn_->addFnAttr(llvm::Attribute::NoUnwind);
  fn_->addFnAttr(llvm::Attribute::WillReturn);
  fn_->addParamAttr(0, llvm::Attribute::NoAlias);
  fn_->addParamAttr(0, llvm::Attribute::NoCapture);
  fn_->addParamAttr(0, llvm::Attribute::ReadOnly);
  fn_->addParamAttr(0, llvm::Attribute::getWithDereferenceableBytes(ctx_, sizeof(EventView)));
  fn_->addParamAttr(1, llvm::Attribute::NoAlias);
  fn_->addParamAttr(1, llvm::Attribute::NoCapture);
  fn_->addParamAttr(1, llvm::Attribute::WriteOnly);
  fn_->addParamAttr(1, llvm::Attribute::getWithDereferenceableBytes(ctx_, sizeof(uint64_t)));
  event_ = fn_->getArg(0);
  event_->setName("event");
  fn_->getArg(1)->setName("stack");
  emit_prologue();

  // One segment (ssa.h) per jump target; straight-line code after a terminator (jmp, ret)
  // that is not a target is unreachable and goes into a fresh segment without predecessors,
  // whose block later passes delete.
  std::vector<BasicBlock*> heads(p_.code.size(), nullptr);
  std::vector<SsaBuilder::Segment> targets(p_.code.size(), 0);
  for (const ir::Inst& in : p_.code) {
    if ((in.op == ir::Op::Jz || in.op == ir::Op::Jmp) && !heads[in.b]) {
      heads[in.b] = BasicBlock::Create(ctx_, "L" + std::to_string(in.b));
      targets[in.b] = ssa_.add_segment(heads[in.b]);
    }
  }
  for (size_t i = 0; i < p_.code.size(); ++i) {
    const ir::Inst& in = p_.code[i];
    bool open = b_.GetInsertBlock()->getTerminator() == nullptr;
    if (heads[i]) {
      if (open) branch_to(targets[i]);
      heads[i]->insertInto(fn_);
      enter(targets[i], heads[i]);
    } else if (!open) {
      BasicBlock* dead = block("dead");
      enter(ssa_.add_segment(dead), dead);
    }
    if (in.op == ir::Op::Jz) {
      BasicBlock* next = block("next");
      SsaBuilder::Segment fall = ssa_.add_segment(next);
      Value* cond = reg(in.a);
      if (Value* bit = bool_source(cond)) b_.CreateCondBr(bit, next, heads[in.b]);
      else b_.CreateCondBr(b_.CreateICmpEQ(cond, c64(0)), heads[in.b], next);
      ssa_.add_edge(seg_, b_.GetInsertBlock(), targets[in.b]);
      ssa_.add_edge(seg_, b_.GetInsertBlock(), fall);
      enter(fall, next);
    } else if (in.op == ir::Op::Jmp) {
      branch_to(targets[in.b]);
    } else {
      emit(in);
    }
  }
  if (mode_ == CodegenMode::Table) {
    fn_->setVisibility(llvm::GlobalValue::ProtectedVisibility);
    fn_->setDSOLocal(true);
    finish_table();
  }
}

// Ends the current segment with a branch to `target`'s head.
void Codegen::branch_to(SsaBuilder::Segment target) {
  ssa_.add_edge(seg_, b_.GetInsertBlock(), target);
  b_.CreateBr(ssa_.head(target));
}

void Codegen::enter(SsaBuilder::Segment segment, BasicBlock* head) {
  seg_ = segment;
  string_next_.clear();
  loads_.clear();
  ok_ands_.clear();
  neg_oks_.clear();
  payload_ = psize_ = nullptr;
  b_.SetInsertPoint(head);
}

void Codegen::emit_prologue() {
  BasicBlock* entry = block("entry");
  enter(ssa_.add_segment(entry), entry);
  no_stack_ = std::none_of(p_.code.begin(), p_.code.end(),
                           [](const ir::Inst& in) { return in.op == ir::Op::Stack; });
  if (no_stack_) b_.CreateAlignedStore(c64(0), fn_->getArg(1), llvm::Align(8));
}

Value* Codegen::payload() {
  if (payload_ == nullptr) {
    Value* at = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), event_, offsetof(EventView, payload));
    payload_ = b_.CreateAlignedLoad(ptr_, at, llvm::Align(8), "payload");
  }
  return payload_;
}

Value* Codegen::psize() {
  if (psize_ == nullptr) {
    psize_ = load_header(static_cast<uint32_t>(ir::HeaderField::PayloadSize));
    psize_->setName("psize");
  }
  return psize_;
}

// One case per opcode (Jz/Jmp are handled by run()).
void Codegen::emit(const ir::Inst& in) {
  switch (in.op) {
    case ir::Op::Const: return set(in.dst, c64(in.imm));
    case ir::Op::LoadHeader: return set(in.dst, load_header(in.a));
    case ir::Op::And: return set(in.dst, logic(llvm::Instruction::And, reg(in.a), reg(in.b)));
    case ir::Op::Or: return set(in.dst, logic(llvm::Instruction::Or, reg(in.a), reg(in.b)));
    case ir::Op::Not: {
      Value* a = reg(in.a);
      if (is_bit(a) && !bool_source(a)) return set(in.dst, bit(b_.CreateXor(a, c64(1))));
      return set(in.dst, bool64(is_zero(a)));
    }
    case ir::Op::AndImm: return set(in.dst, b_.CreateAnd(reg(in.a), c64(in.imm)));
    case ir::Op::Cmp: return set(in.dst, compare(kCondPreds[in.b], reg(in.a), c64(in.imm)));
    case ir::Op::CmpReg:
      return set(in.dst, bool64(b_.CreateICmp(kCondPreds[in.b], reg(in.a), reg(in.c))));
    case ir::Op::InSet: return set(in.dst, in_set(reg(in.a), p_.int_sets[in.b]));
    case ir::Op::StrIn: return set(in.dst, str_in(in));
    case ir::Op::Deliver: return accumulate(deliver_, in);
    case ir::Op::Stack: return accumulate(stack_, in);
    case ir::Op::Skip: return set(in.dst, skip(in));
    case ir::Op::LoadField: return set(in.dst, load_field(in));
    case ir::Op::PredInt: return set(in.dst, pred_int(in));
    case ir::Op::PredStr: return set(in.dst, pred_str(in));
    case ir::Op::PredGuid: return set(in.dst, pred_guid(in));
    case ir::Op::MaskMap: return set(in.dst, mask_lookup(reg(in.a), p_.mask_maps[in.b], false));
    case ir::Op::MaskByte: {
      Value* byte = b_.CreateAnd(b_.CreateLShr(reg(in.a), c64(8 * in.b)), c64(0xFF));
      return set(in.dst, mask_lookup(byte, p_.mask_maps[in.c], true));
    }
    case ir::Op::MaskIf: return set(in.dst, mask_if(reg(in.a), in.imm));
    case ir::Op::Select:
      return set(in.dst, b_.CreateSelect(is_zero(reg(in.a)), reg(in.c), reg(in.b)));
    case ir::Op::DeliverMask: return set(deliver_, b_.CreateOr(reg(deliver_), reg(in.a)));
    case ir::Op::MaskRange: return set(in.dst, mask_range(in));
    case ir::Op::StrIndex: return set(in.dst, str_index(in));
    case ir::Op::MaskStrs: return set(in.dst, mask_strs(in));
    case ir::Op::Return: return emit_return();
    case ir::Op::Jz:
    case ir::Op::Jmp: return;
  }
}

void Codegen::emit_return() {
  Value* deliver = reg(deliver_);
  if (!no_stack_)
    b_.CreateAlignedStore(b_.CreateAnd(reg(stack_), deliver), fn_->getArg(1), llvm::Align(8));
  b_.CreateRet(deliver);
}

void Codegen::accumulate(uint32_t acc, const ir::Inst& in) {
  Value* a = reg(in.a);
  Value* one = is_bit(a) ? a : bool64(b_.CreateNot(is_zero(a)));
  set(acc, b_.CreateOr(reg(acc), b_.CreateShl(one, c64(in.b))));
}

bool Codegen::is_bit(Value* v, int depth) const {
  if (bool_source(v) || bits_.contains(v)) return true;
  if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(v)) return c->getZExtValue() <= 1;
  auto* phi = llvm::dyn_cast<llvm::PHINode>(v);
  if (!phi || depth >= 4) return false;
  for (Value* in : phi->incoming_values())
    if (!is_bit(in, depth + 1)) return false;
  return true;
}

// A header or field compare with a constant: 64-bit arithmetic for a narrow value and an
// unsigned predicate (bit_arith.h), else icmp.
Value* Codegen::compare(llvm::CmpInst::Predicate pred, Value* v, Value* k) {
  auto* c = llvm::dyn_cast<llvm::ConstantInt>(k);
  if (c && is_narrow(v)) {
    if (Value* r = narrow_compare(b_, pred, v, c->getZExtValue())) return bit(r);
  }
  return bool64(b_.CreateICmp(pred, v, k));
}

Value* Codegen::bool_source(Value* v) {
  auto* ext = llvm::dyn_cast<llvm::ZExtInst>(v);
  return ext && ext->getSrcTy()->isIntegerTy(1) ? ext->getOperand(0) : nullptr;
}

Value* Codegen::is_zero(Value* v) {
  if (Value* bit = bool_source(v)) return b_.CreateNot(bit);
  return b_.CreateICmpEQ(v, c64(0));
}

Value* Codegen::logic(llvm::Instruction::BinaryOps op, Value* a, Value* b) {
  Value* x = bool_source(a);
  Value* y = bool_source(b);
  if (x && y) return bool64(b_.CreateBinOp(op, x, y));
  if (op == llvm::Instruction::And) {
    if (Value* r = guarded_and(a, b)) return r;
  }
  if (op == llvm::Instruction::Or) {
    auto ga = guarded_masks_.find(a), gb = guarded_masks_.find(b);
    if (ga != guarded_masks_.end() && gb != guarded_masks_.end() && ga->second.ok == gb->second.ok)
      return guarded_mask(ga->second.ok, b_.CreateOr(ga->second.mask, gb->second.mask));
  }
  Value* r = b_.CreateBinOp(op, a, b);
  return is_bit(a) && is_bit(b) ? bit(r) : r;
}

// `a & b` when at least one is a guarded predicate result (guarded_) and both are 0/1
// values; null otherwise.
Value* Codegen::guarded_and(Value* a, Value* b) {
  auto ga = guarded_.find(a), gb = guarded_.find(b);
  if ((ga == guarded_.end() && gb == guarded_.end()) || !is_bit(a) || !is_bit(b)) return nullptr;
  if (ga == guarded_.end()) {
    std::swap(a, b);
    std::swap(ga, gb);
  }
  Guarded g = ga->second;
  if (gb == guarded_.end()) {
    g.holds = b_.CreateAnd(g.holds, b);
  } else {
    Value* ok2 = gb->second.ok;
    if (ok2 != g.ok) {
      // Looked up in both orders; made in the order met (deterministic output).
      auto it = ok_ands_.find({ok2, g.ok});
      if (it == ok_ands_.end()) it = ok_ands_.try_emplace({g.ok, ok2}, nullptr).first;
      if (it->second == nullptr) it->second = b_.CreateAnd(g.ok, ok2);
      g.ok = it->second;
    }
    g.holds = b_.CreateAnd(g.holds, gb->second.holds);
  }
  Value* r = bit(b_.CreateAnd(g.ok, g.holds));
  guarded_[r] = g;
  return r;
}

// An alloca in the entry block, made once per function: helpers' out-parameters.
llvm::AllocaInst* Codegen::entry_slot(llvm::AllocaInst*& slot, llvm::Type* type, const char* name) {
  if (!slot) {
    llvm::IRBuilder<> entry(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
    slot = entry.CreateAlloca(type, nullptr, name);
  }
  return slot;
}

Value* Codegen::load_header(uint32_t field) {
  const HeaderSlot& slot = kHeaderSlots[field];
  Value* addr = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), event_, slot.offset);
  Value* v = b_.CreateAlignedLoad(b_.getIntNTy(slot.bits), addr, llvm::Align(slot.bits / 8));
  return b_.CreateZExt(v, i64_);
}

llvm::Constant* Codegen::constant_array(llvm::Constant* init, const char* name) {
  return new llvm::GlobalVariable(m_, init->getType(), /*isConstant=*/true,
                                  llvm::GlobalValue::PrivateLinkage, init, name);
}

// Branch-free: the sorted values are cut into windows of 64 (each a base and a bit mask)
// and the membership is the `or` of the windows' tests; sets needing more than
// kInlineSetWindows windows are searched inline (in_sorted).
Value* Codegen::in_set(Value* v, const ir::IntSet& set) {
  std::vector<std::pair<uint64_t, uint64_t>> windows;  // (base, mask)
  for (uint64_t value : set.values) {
    if (windows.empty() || value - windows.back().first >= 64) windows.emplace_back(value, 0);
    windows.back().second |= uint64_t{1} << (value - windows.back().first);
  }
  if (windows.size() > kInlineSetWindows) return bool64(in_sorted(v, set));
  Value* hit = b_.getFalse();
  for (const auto& [base, mask] : windows) hit = b_.CreateOr(hit, in_window(v, base, mask));
  return bool64(hit);
}

// v ∈ values (sorted, duplicate-free, not empty), as an i1: a branch-free binary search
// unrolled over the constant size, ceil(log2 n) steps of load, compare and select, then
// one equality test. The table is a constant global (32-bit elements when every value
// fits) for at most kConstSetValues values, else `values` itself, by address.
Value* Codegen::in_sorted(Value* v, const ir::IntSet& set) {
  const std::vector<uint64_t>& values = set.values;
  llvm::Type* elem = i64_;
  Value* table = nullptr;
  if (values.size() > kConstSetValues) {
    table =
        pool_address(values.data(), {TableSlotKind::IntSetValues, pool_index(p_.int_sets, set)});
  } else if (values.back() <= std::numeric_limits<uint32_t>::max()) {
    std::vector<uint32_t> narrow(values.begin(), values.end());
    table =
        constant_array(llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<uint32_t>(narrow)), "set");
    elem = i32_;
  } else {
    table =
        constant_array(llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<uint64_t>(values)), "set");
  }
  const llvm::Align align(elem == i32_ ? 4 : 8);
  auto at = [&](Value* index) {
    return b_.CreateZExt(b_.CreateAlignedLoad(elem, b_.CreateGEP(elem, table, index), align), i64_);
  };
  return b_.CreateICmpEQ(at(search(v, values.size(), at)), v);
}

// The unrolled search: base = the last index whose value is <= v, or 0 when v is below
// them all. Invariant: values[base] <= v, or v < values[0] and base == 0; n values remain
// from base.
Value* Codegen::search(Value* v, uint64_t size, llvm::function_ref<Value*(Value*)> at) {
  Value* base = c64(0);
  for (uint64_t n = size; n > 1;) {
    const uint64_t half = n / 2;
    Value* probe = b_.CreateAdd(base, c64(half));
    base = b_.CreateSelect(b_.CreateICmpULE(at(probe), v), probe, base);
    n -= half;
  }
  return base;
}

// `v != 0 ? bits : 0`. On a 0/1 value (is_bit): `v << bit` for a one-bit mask, else
// `-v & bits` — 64-bit arithmetic, no constant held in a register across the block (a
// select of two constants made FastISel keep each in a register the allocator spilled).
// On any other value a select on `v == 0`.
Value* Codegen::mask_if(Value* v, uint64_t bits) {
  if (auto g = guarded_.find(v); g != guarded_.end())
    return guarded_mask(g->second.ok, bit_mask(g->second.holds, bits));
  if (is_bit(v)) return bit_mask(v, bits);
  return b_.CreateSelect(is_zero(v), c64(0), c64(bits));
}

// `bit ? bits : 0` for a 0/1 value.
Value* Codegen::bit_mask(Value* bit, uint64_t bits) {
  if (std::has_single_bit(bits)) return b_.CreateShl(bit, c64(std::countr_zero(bits)));
  return b_.CreateAnd(b_.CreateNeg(bit), c64(bits));
}

Value* Codegen::neg_ok(Value* ok) {
  auto [it, added] = neg_oks_.try_emplace(ok, nullptr);
  if (added) it->second = b_.CreateNeg(ok);
  return it->second;
}

// `ok ? mask : 0` for a 0/1 ok, remembered as guarded (unused ones are dead code).
Value* Codegen::guarded_mask(Value* ok, Value* mask) {
  Value* r = b_.CreateAnd(neg_ok(ok), mask);
  guarded_masks_[r] = {ok, mask};
  return r;
}

// v ∈ {base + i : bit i of mask set}, as an i1.
Value* Codegen::in_window(Value* v, uint64_t base, uint64_t mask) {
  if (mask == 1) return b_.CreateICmpEQ(v, c64(base));
  Value* delta = b_.CreateSub(v, c64(base));
  Value* bit = b_.CreateTrunc(b_.CreateLShr(c64(mask), b_.CreateAnd(delta, c64(63))), i1_);
  return b_.CreateAnd(b_.CreateICmpULT(delta, c64(64)), bit);
}

// A session-mask lookup, straight-line: a constant table indexed by the key when the keys
// span at most kDenseMaskSpan values (MaskByte: always, 256 entries, no bounds check), a
// select chain for a few sparse keys, else the shared binary search.
Value* Codegen::mask_lookup(Value* key, const ir::MaskMap& map, bool byte) {
  if (map.keys.empty()) return c64(map.other);
  const uint64_t lo = byte ? 0 : map.keys.front();
  const uint64_t hi = byte ? 255 : map.keys.back();
  if (hi - lo < kDenseMaskSpan) {
    std::vector<uint64_t> table(hi - lo + 1, map.other);
    for (size_t k = 0; k < map.keys.size(); ++k) table[map.keys[k] - lo] = map.masks[k];
    llvm::Constant* data = constant_array(
        llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<uint64_t>(table)), "masks");
    if (byte) return b_.CreateAlignedLoad(i64_, b_.CreateGEP(i64_, data, key), llvm::Align(8));
    Value* index = b_.CreateSub(key, c64(lo));
    Value* inside = b_.CreateICmpULT(index, c64(table.size()));
    Value* at = b_.CreateGEP(i64_, data, b_.CreateSelect(inside, index, c64(0)));
    return b_.CreateSelect(inside, b_.CreateAlignedLoad(i64_, at, llvm::Align(8)), c64(map.other));
  }
  if (map.keys.size() <= kInlineMaskKeys) {
    Value* out = c64(map.other);
    for (size_t k = 0; k < map.keys.size(); ++k)
      out = b_.CreateSelect(b_.CreateICmpEQ(key, c64(map.keys[k])), c64(map.masks[k]), out);
    return out;
  }
  llvm::FunctionCallee f = helper("pfc_ir_mask_map", i64_, {ptr_, i64_});
  return b_.CreateCall(
      f, {pool_address(&map, {TableSlotKind::MaskMap, pool_index(p_.mask_maps, map)}), key});
}

Value* Codegen::str_in(const ir::Inst& in) {
  llvm::FunctionCallee f = helper("pfc_ir_str_in", i32_, {ptr_, ptr_, i32_});
  Value* set = pool_address(&p_.str_sets[in.b], {TableSlotKind::StrSet, in.b});
  Value* hit = b_.CreateCall(f, {set, event_, c32(in.a)});
  return helper_bit(hit);
}

Value* Codegen::str_index(const ir::Inst& in) {
  llvm::FunctionCallee f = helper("pfc_ir_str_index", i64_, {ptr_, ptr_, i32_});
  Value* set = pool_address(&p_.str_sets[in.b], {TableSlotKind::StrSet, in.b});
  return b_.CreateCall(f, {set, event_, c32(in.a)});
}

Value* Codegen::extent(const Extent& e, uint64_t reg_index, uint64_t absent) {
  switch (e.kind) {
    case Extent::Kind::None: return c64(absent);
    case Extent::Kind::Fixed: return c64(e.value);
    case Extent::Kind::Field: return reg(static_cast<uint32_t>(reg_index));
  }
  return c64(absent);
}

// The value a field's length comes from, for string_next_'s key: the length register's
// current value when the length is read from a field, else none (the field fixes it).
Value* Codegen::length_key(const ir::FieldDesc& f, uint64_t reg_index) {
  return f.length.kind == Extent::Kind::Field ? reg(static_cast<uint32_t>(reg_index)) : nullptr;
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
  if (auto it = string_next_.find({off, in.b, length_key(f, in.imm)});
      it != string_next_.end() && f.count.kind == Extent::Kind::None) {
    return it->second;  // pred.str already found the end of this very field
  }
  const bool one = f.count.kind == Extent::Kind::None ||
                   (f.count.kind == Extent::Kind::Fixed && f.count.value == 1);
  if (f.type == InType::UnicodeString && one && f.length.kind == Extent::Kind::None) {
    llvm::FunctionCallee fn = helper("pfc_tdh_skip_wstr", i64_, {ptr_, i64_, i64_});
    return b_.CreateCall(fn, {payload(), psize(), off});
  }
  if (size == 0) {
    llvm::FunctionCallee fn = helper("pfc_tdh_skip", i64_, {ptr_, i64_, i64_, i32_, i64_, i64_});
    Value* length = length_extent(f.length, in.imm);
    Value* data = payload();
    Value* size = psize();
    return b_.CreateCall(fn, {data, size, off, c32(static_cast<uint32_t>(f.type)), count, length});
  }
  // Fixed-size elements: fits iff off <= psize && count <= (psize - off) / size (the
  // wrapped difference when off > psize is masked by the first test). A bad offset (~0)
  // never fits unless psize is ~0 too, and then only with count 0, giving ~0.
  Value* psize = this->psize();
  Value* in_range = b_.CreateICmpULE(off, psize);
  Value* room = b_.CreateSub(psize, off);
  Value* room_ok = nullptr;
  Value* bytes = nullptr;
  if (auto* n = llvm::dyn_cast<llvm::ConstantInt>(count);
      n && n->getZExtValue() <= ~uint64_t{0} / size) {
    bytes = c64(n->getZExtValue() * size);  // a constant count: no division
    room_ok = b_.CreateICmpUGE(room, bytes);
  } else {
    room_ok = b_.CreateICmpULE(count, b_.CreateUDiv(room, c64(size)));
    bytes = b_.CreateMul(count, c64(size));
  }
  Value* fits = b_.CreateAnd(in_range, room_ok);
  Value* end = b_.CreateAdd(off, bytes);
  return b_.CreateSelect(fits, end, c64(ir::kBadOffset));
}

Result<std::unique_ptr<llvm::Module>> generate_module(const ir::Program& program,
                                                      llvm::LLVMContext& context,
                                                      const std::string& fn_name, CodegenMode mode,
                                                      std::vector<TableSlot>* slots) {
  static_assert(std::endian::native == std::endian::little,
                "generated payload loads assume a little-endian host");
  // The one IR verifier: everything codegen indexes (registers, pools, fields, jump
  // targets, the final Return) is in range once it passes.
  if (auto ok = verify(program); !ok) return std::unexpected(ok.error());
  auto module = std::make_unique<llvm::Module>("pfc." + fn_name, context);
  Codegen codegen(program, context, *module, mode);
  codegen.run(mode == CodegenMode::Table ? "pfc_route" : fn_name);
  if (slots) *slots = codegen.slots();
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*module, &os))
    return make_error("generated LLVM IR is invalid (internal error): " + os.str());
  return module;
}

}  // namespace pfc::internal
