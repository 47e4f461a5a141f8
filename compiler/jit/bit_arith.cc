// compiler/jit/bit_arith.cc — 0/1 i64 comparisons of narrow values (bit_arith.h).
#include "compiler/jit/bit_arith.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

namespace pfc::internal {

namespace {

constexpr uint64_t kNarrowMax = 0xFFFFFFFF;  // the largest narrow value

llvm::Value* sign_bit(llvm::IRBuilder<>& b, llvm::Value* x) { return b.CreateLShr(x, 63); }

}  // namespace

bool is_narrow(const llvm::Value* v) {
  if (const auto* c = llvm::dyn_cast<llvm::ConstantInt>(v))
    return c->getBitWidth() <= 64 && c->getZExtValue() <= kNarrowMax;
  if (const auto* z = llvm::dyn_cast<llvm::ZExtInst>(v))
    return z->getSrcTy()->getIntegerBitWidth() <= 32;
  if (const auto* s = llvm::dyn_cast<llvm::SelectInst>(v))
    return is_narrow(s->getTrueValue()) && is_narrow(s->getFalseValue());
  return false;
}

llvm::Value* narrow_compare(llvm::IRBuilder<>& b, llvm::CmpInst::Predicate pred, llvm::Value* v,
                            uint64_t k) {
  using P = llvm::CmpInst::Predicate;
  switch (pred) {
    case P::ICMP_UGT:  // k − v < 0
      if (k >= kNarrowMax) return b.getInt64(0);
      return sign_bit(b, b.CreateSub(b.getInt64(k), v));
    case P::ICMP_UGE:
      if (k == 0) return b.getInt64(1);
      return narrow_compare(b, P::ICMP_UGT, v, k - 1);
    case P::ICMP_ULT:  // v − k < 0
      if (k == 0) return b.getInt64(0);
      if (k > kNarrowMax) return b.getInt64(1);
      return sign_bit(b, b.CreateSub(v, b.getInt64(k)));
    case P::ICMP_ULE:
      if (k >= kNarrowMax) return b.getInt64(1);
      return narrow_compare(b, P::ICMP_ULT, v, k + 1);
    case P::ICMP_EQ:  // (v ^ k) − 1 < 0
      if (k > kNarrowMax) return b.getInt64(0);
      return sign_bit(b, b.CreateSub(b.CreateXor(v, b.getInt64(k)), b.getInt64(1)));
    case P::ICMP_NE:  // −(v ^ k) < 0
      if (k > kNarrowMax) return b.getInt64(1);
      return sign_bit(b, b.CreateNeg(b.CreateXor(v, b.getInt64(k))));
    default: return nullptr;
  }
}

llvm::Value* narrow_in_range(llvm::IRBuilder<>& b, llvm::Value* v, uint64_t lo, uint64_t hi,
                             bool negate) {
  if (hi > kNarrowMax) hi = kNarrowMax;
  if (lo > hi) return b.getInt64(negate ? 1 : 0);  // empty, or above every narrow value
  if (lo == 0 && hi == kNarrowMax) return b.getInt64(negate ? 0 : 1);  // every narrow value
  llvm::Value* d = b.CreateSub(v, b.getInt64(lo));
  llvm::Value* outside = sign_bit(b, b.CreateOr(d, b.CreateSub(b.getInt64(hi - lo), d)));
  return negate ? outside : b.CreateXor(outside, b.getInt64(1));
}

}  // namespace pfc::internal
