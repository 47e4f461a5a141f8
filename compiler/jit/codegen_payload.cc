// compiler/jit/codegen_payload.cc — Codegen (codegen_impl.h) for payload reads and
// predicates: inline bounds-checked integer loads, integer compares, string predicates
// (runtime/tdh.h helpers), regexes and the inline GUID compare.
#include <array>
#include <bit>
#include <cstring>

#include "compiler/interp.h"
#include "compiler/jit/bit_arith.h"
#include "compiler/jit/codegen.h"
#include "compiler/jit/codegen_impl.h"
#include "compiler/regex_pred.h"
#include "compiler/str_match.h"
#include "runtime/casefold.h"
#include "runtime/tdh.h"

namespace pfc::internal {

// The integer field of `type` at `off`: ok (i1) says whether it fits the payload, value is
// its bits sign- or zero-extended to 64 (0 when it does not fit). 1/2/4/8-byte integers are
// loaded inline and branch-free (a field that does not fit reads from the event view
// instead, which is always dereferenceable, and the value is then replaced by 0); other
// integer-like types go through pfc_tdh_load_int. One load per field and offset per
// segment: predicates on the same field share it.
Codegen::FieldValue& Codegen::field_value(Value* off, InType type) {
  auto [it, added] = loads_.try_emplace({off, type});
  if (!added) return it->second;
  uint64_t size = in_type_fixed_size(type);
  if (!in_type_is_integer(type) || !std::has_single_bit(size) || size > 8) {
    llvm::AllocaInst* ok_slot = entry_slot(ok_slot_, i32_, "ok");
    llvm::FunctionCallee fn = helper("pfc_tdh_load_int", i64_, {ptr_, i64_, i64_, i32_, ptr_});
    b_.CreateStore(c32(1), ok_slot);
    Value* value =
        b_.CreateCall(fn, {payload(), psize(), off, c32(static_cast<uint32_t>(type)), ok_slot});
    return it->second = {b_.CreateICmpNE(b_.CreateLoad(i32_, ok_slot), c32(0)), value, value};
  }
  // psize >= size && off <= psize - size; a bad offset (~0) always fails.
  Value* psize = this->psize();
  Value* fits_size = b_.CreateICmpUGE(psize, c64(size));
  Value* ok = b_.CreateAnd(fits_size, b_.CreateICmpULE(off, b_.CreateSub(psize, c64(size))));
  Value* at = b_.CreateGEP(b_.getInt8Ty(), payload(), off);
  Value* addr = b_.CreateSelect(ok, at, event_);
  Value* raw =
      b_.CreateAlignedLoad(b_.getIntNTy(static_cast<unsigned>(size * 8)), addr, llvm::Align(1));
  Value* value = in_type_is_signed(type) ? b_.CreateSExt(raw, i64_) : b_.CreateZExt(raw, i64_);
  return it->second = {ok, b_.CreateSelect(ok, value, c64(0)), value};
}

Value* Codegen::load_field(const ir::Inst& in) {
  return field_value(reg(in.a), p_.fields[in.b].type).value;
}

Value* Codegen::pred_int(const ir::Inst& in) {
  InType type = p_.fields[in.b].type;
  FieldValue& field = field_value(reg(in.a), type);
  Value* holds = nullptr;
  if (!in_type_is_signed(type) && is_narrow(field.bits))
    holds = narrow_int_compare(field.bits, p_.int_preds[in.c]);
  if (holds == nullptr)
    holds = bool64(int_compare(field.bits, p_.int_preds[in.c], in_type_is_signed(type)));
  // `ok & holds` in 64 bits, not on the i1s: byte-register `and`s chain (bit_arith.h).
  if (field.ok64 == nullptr) field.ok64 = bool64(field.ok);
  Value* r = bit(b_.CreateAnd(field.ok64, holds));
  guarded_[r] = {field.ok64, holds};
  return r;
}

// mask.range: the field's interval's mask (a select chain, a constant table or the helper,
// by size: codegen.h), `bad` when the field does not fit. With bad == 0 the result is a guarded
// mask (`-ok & mask`), so an `or` with another mask guarded by the same ok shares it.
Value* Codegen::mask_range(const ir::Inst& in) {
  const ir::RangeMap& map = p_.range_maps[in.c];
  FieldValue& field = field_value(reg(in.a), p_.fields[in.b].type);
  Value* mask = nullptr;
  if (map.starts.size() <= kSelectRangeStarts) {
    mask = c64(map.masks[0]);
    for (size_t i = 0; i < map.starts.size(); ++i)
      mask = b_.CreateSelect(b_.CreateICmpUGE(field.bits, c64(map.starts[i])),
                             c64(map.masks[i + 1]), mask);
  } else if (map.starts.size() > kInlineRangeStarts) {
    llvm::FunctionCallee f = helper("pfc_ir_mask_range", i64_, {ptr_, i64_});
    Value* address = pool_address(&map, {TableSlotKind::RangeMap, in.c});
    mask = b_.CreateCall(f, {address, field.bits});
  } else {
    llvm::Constant* data = constant_array(
        llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<uint64_t>(map.masks)), "range_masks");
    Value* at = b_.CreateGEP(i64_, data, range_index(field.bits, map.starts));
    mask = b_.CreateAlignedLoad(i64_, at, llvm::Align(8));
  }
  if (map.bad != 0) return b_.CreateSelect(field.ok, mask, c64(map.bad));
  if (field.ok64 == nullptr) field.ok64 = bool64(field.ok);
  return guarded_mask(field.ok64, mask);
}

// The number of `starts` (sorted, more than one) that are <= v, branch-free: the unrolled
// binary search of in_sorted over a constant table, then one compare.
Value* Codegen::range_index(Value* v, const std::vector<uint64_t>& starts) {
  llvm::Constant* table = constant_array(
      llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<uint64_t>(starts)), "range_starts");
  auto at = [&](Value* index) {
    return b_.CreateAlignedLoad(i64_, b_.CreateGEP(i64_, table, index), llvm::Align(8));
  };
  Value* base = search(v, starts.size(), at);
  return b_.CreateAdd(base, bool64(b_.CreateICmpULE(at(base), v)));
}

// The comparison of docs/semantics.md §2.2 on a loaded (sign- or zero-extended) value; same
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
    case PayloadOp::Between: return in_range(v, pred.lo, pred.hi, is_signed);
    case PayloadOp::NotBetween: return b_.CreateNot(in_range(v, pred.lo, pred.hi, is_signed));
    case PayloadOp::Modulo:
      if (is_signed && pred.lo == ~uint64_t{0})
        return b_.getTrue();  // x % -1 == 0; avoids the INT64_MIN trap
      return b_.CreateICmpEQ(
          is_signed ? b_.CreateSRem(v, c64(pred.lo)) : b_.CreateURem(v, c64(pred.lo)), c64(0));
    default: return b_.getFalse();  // rejected by verify()
  }
}

// int_compare for an unsigned narrow value (bit_arith.h) as a 0/1 i64; null for MODULO.
Value* Codegen::narrow_int_compare(Value* v, const ir::IntPred& pred) {
  using P = llvm::CmpInst::Predicate;
  switch (pred.op) {
    case PayloadOp::Eq: return narrow_compare(b_, P::ICMP_EQ, v, pred.lo);
    case PayloadOp::Ne: return narrow_compare(b_, P::ICMP_NE, v, pred.lo);
    case PayloadOp::Le: return narrow_compare(b_, P::ICMP_ULE, v, pred.lo);
    case PayloadOp::Gt: return narrow_compare(b_, P::ICMP_UGT, v, pred.lo);
    case PayloadOp::Lt: return narrow_compare(b_, P::ICMP_ULT, v, pred.lo);
    case PayloadOp::Ge: return narrow_compare(b_, P::ICMP_UGE, v, pred.lo);
    case PayloadOp::Between: return narrow_in_range(b_, v, pred.lo, pred.hi, false);
    case PayloadOp::NotBetween: return narrow_in_range(b_, v, pred.lo, pred.hi, true);
    default: return nullptr;
  }
}

// lo <= v <= hi (signed or unsigned) as one unsigned compare: v - lo <=u hi - lo, which
// holds for both orders when lo <= hi; an empty range (lo > hi) is false.
Value* Codegen::in_range(Value* v, uint64_t lo, uint64_t hi, bool is_signed) {
  bool empty = is_signed ? static_cast<int64_t>(lo) > static_cast<int64_t>(hi) : lo > hi;
  if (empty) return b_.getFalse();
  return b_.CreateICmpULE(b_.CreateSub(v, c64(lo)), c64(hi - lo));
}

Value* Codegen::pred_str(const ir::Inst& in) {
  const ir::FieldDesc& f = p_.fields[in.b];
  const ir::StrPred& pred = p_.str_preds[in.c];
  if (pred.regex) return pred_regex(in);
  if (Value* hit = pred_short_wstr(in)) return hit;
  std::vector<uint32_t> needle(pred.folded.begin(), pred.folded.end());
  needle.push_back(0);  // never empty; the helper reads only needle_len code points
  llvm::Constant* data = constant_array(
      llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<uint32_t>(needle)), "needle");
  // Only the searches read the failure links (runtime/tdh.h): the others get null, and a
  // long `in` list one constant per value, not two.
  const bool searches = pred.op == PayloadOp::Contains || pred.op == PayloadOp::DoesntContain ||
                        pred.op == PayloadOp::EndsWith || pred.op == PayloadOp::ContainsCs ||
                        pred.op == PayloadOp::DoesntContainCs || pred.op == PayloadOp::EndsWithCs;
  llvm::Constant* link_data = llvm::ConstantPointerNull::get(ptr_);
  if (searches) {
    std::vector<uint32_t> links(pred.links.begin(), pred.links.end());
    links.push_back(0);  // never empty, like the needle
    link_data = constant_array(llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<uint32_t>(links)),
                               "links");
  }
  llvm::FunctionCallee fn = helper("pfc_tdh_str_pred_next", i32_,
                                   {ptr_, i64_, i64_, i32_, i64_, i32_, ptr_, i64_, ptr_, ptr_});
  llvm::AllocaInst* next_slot = entry_slot(next_slot_, i64_, "next");
  Value* off = reg(in.a);
  Value* hit =
      b_.CreateCall(fn, {payload(), psize(), off, c32(static_cast<uint32_t>(f.type)),
                         length_extent(f.length, in.imm), c32(static_cast<uint32_t>(pred.op)), data,
                         c64(pred.folded.size()), link_data, next_slot});
  string_next_[{off, in.b, length_key(f, in.imm)}] = b_.CreateLoad(i64_, next_slot);
  return helper_bit(hit);
}

// IS / ISNOT / CONTAINS / DOESNTCONTAIN of 1..4 ASCII characters on a NUL-terminated
// UTF-16 field: pfc_tdh_wstr_short_pred_next, the needle packed into one register
// (runtime/tdh.h); null for any other predicate.
Value* Codegen::pred_short_wstr(const ir::Inst& in) {
  const ir::FieldDesc& f = p_.fields[in.b];
  const ir::StrPred& pred = p_.str_preds[in.c];
  const bool op_ok = pred.op == PayloadOp::Is || pred.op == PayloadOp::IsNot ||
                     pred.op == PayloadOp::Contains || pred.op == PayloadOp::DoesntContain;
  if (!op_ok || f.type != InType::UnicodeString || f.length.kind != Extent::Kind::None ||
      pred.folded.empty() || pred.folded.size() > PFC_TDH_SHORT_NEEDLE)
    return nullptr;
  uint64_t packed = 0;
  for (size_t i = 0; i < pred.folded.size(); ++i) {
    const char32_t c = pred.folded[i];
    if (c == 0 || c >= 0x80 || fold_case(c) != c) return nullptr;
    packed |= uint64_t{c} << (16 * i);
  }
  llvm::FunctionCallee fn =
      helper("pfc_tdh_wstr_short_pred_next", i32_, {ptr_, i64_, i64_, i64_, i32_, ptr_});
  llvm::AllocaInst* next_slot = entry_slot(next_slot_, i64_, "next");
  Value* off = reg(in.a);
  const uint64_t op_len = static_cast<uint64_t>(pred.op) | pred.folded.size() << 16;
  Value* hit = b_.CreateCall(fn, {payload(), psize(), off, c64(packed), c32(op_len), next_slot});
  string_next_[{off, in.b, length_key(f, in.imm)}] = b_.CreateLoad(i64_, next_slot);
  return helper_bit(hit);
}

// REGEX / REGEX.CS: the compiled RE2 object is passed by address (the program owns it).
Value* Codegen::pred_regex(const ir::Inst& in) {
  const ir::FieldDesc& f = p_.fields[in.b];
  const ir::StrPred& pred = p_.str_preds[in.c];
  llvm::FunctionCallee fn =
      helper("pfc_ir_pred_regex_next", i32_, {ptr_, i64_, i64_, i32_, i64_, ptr_, ptr_});
  llvm::AllocaInst* next_slot = entry_slot(next_slot_, i64_, "next");
  Value* off = reg(in.a);
  Value* hit =
      b_.CreateCall(fn, {payload(), psize(), off, c32(static_cast<uint32_t>(f.type)),
                         length_extent(f.length, in.imm),
                         pool_address(pred.regex.get(), {TableSlotKind::Regex, in.c}), next_slot});
  string_next_[{off, in.b, length_key(f, in.imm)}] = b_.CreateLoad(i64_, next_slot);
  return helper_bit(hit);
}

// mask.strs: pfc_ir_mask_strs_next with the map by address (its matcher scans every
// pattern at once, compiler/str_match.h); the field's end is shared with a later skip.
Value* Codegen::mask_strs(const ir::Inst& in) {
  const ir::FieldDesc& f = p_.fields[in.b];
  llvm::FunctionCallee fn =
      helper("pfc_ir_mask_strs_next", i64_, {ptr_, i64_, i64_, i32_, i64_, ptr_, ptr_});
  llvm::AllocaInst* next_slot = entry_slot(next_slot_, i64_, "next");
  Value* off = reg(in.a);
  Value* mask = b_.CreateCall(
      fn,
      {payload(), psize(), off, c32(static_cast<uint32_t>(f.type)), length_extent(f.length, in.imm),
       pool_address(&p_.str_maps[in.c], {TableSlotKind::StrMap, in.c}), next_slot});
  string_next_[{off, in.b, length_key(f, in.imm)}] = b_.CreateLoad(i64_, next_slot);
  return mask;
}

// IS / ISNOT of a GUID field, inline and branch-free, with pfc_tdh_guid_pred's semantics:
// false unless off <= psize && psize - off >= 16 (a bad offset never fits), whatever the
// operator; the 16 bytes are two unaligned 64-bit loads (from the event view when the
// field does not fit: always dereferenceable) xor-ed with the constant's halves.
Value* Codegen::pred_guid(const ir::Inst& in) {
  const ir::GuidPred& pred = p_.guid_preds[in.c];
  if (pred.op != PayloadOp::Is && pred.op != PayloadOp::IsNot) return c64(0);  // as the helper
  const std::array<uint8_t, 16> bytes = pred.value.to_bytes();
  uint64_t half[2];
  std::memcpy(half, bytes.data(), sizeof half);
  Value* off = reg(in.a);
  Value* psize = this->psize();
  Value* fits = b_.CreateAnd(b_.CreateICmpULE(off, psize),
                             b_.CreateICmpUGE(b_.CreateSub(psize, off), c64(16)));
  Value* at = b_.CreateSelect(fits, b_.CreateGEP(b_.getInt8Ty(), payload(), off), event_);
  Value* x0 = b_.CreateAlignedLoad(i64_, at, llvm::Align(1));
  Value* x1 =
      b_.CreateAlignedLoad(i64_, b_.CreateConstGEP1_64(b_.getInt8Ty(), at, 8), llvm::Align(1));
  Value* diff = b_.CreateOr(b_.CreateXor(x0, c64(half[0])), b_.CreateXor(x1, c64(half[1])));
  Value* holds =
      pred.op == PayloadOp::Is ? b_.CreateICmpEQ(diff, c64(0)) : b_.CreateICmpNE(diff, c64(0));
  Value* ok64 = bool64(fits);
  Value* holds64 = bool64(holds);
  Value* r = bit(b_.CreateAnd(ok64, holds64));
  guarded_[r] = {ok64, holds64};
  return r;
}

}  // namespace pfc::internal
