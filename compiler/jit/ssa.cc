// compiler/jit/ssa.cc — iterative SSA variable lookup over sealed, acyclic segments (see ssa.h).
#include "compiler/jit/ssa.h"

#include <algorithm>

#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

namespace pfc::internal {

SsaBuilder::Segment SsaBuilder::add_segment(llvm::BasicBlock* head) {
  segs_.emplace_back();
  segs_.back().head = head;
  return static_cast<Segment>(segs_.size() - 1);
}

void SsaBuilder::add_edge(Segment from, llvm::BasicBlock* from_block, Segment to) {
  segs_[to].preds.emplace_back(from, from_block);
}

// Post-order over the predecessors that do not know `var` yet: a segment is resolved once
// all of its predecessors are. The graph is acyclic, so this terminates; a segment may be
// pushed more than once, and is skipped once resolved.
llvm::Value* SsaBuilder::read(Segment s, Var var) {
  if (auto it = segs_[s].defs.find(var); it != segs_[s].defs.end()) return it->second;
  work_.assign(1, s);
  while (!work_.empty()) {
    Seg& seg = segs_[work_.back()];
    if (seg.defs.contains(var)) {
      work_.pop_back();
      continue;
    }
    bool ready = true;
    for (const auto& [pred, block] : seg.preds) {
      if (!segs_[pred].defs.contains(var)) {
        work_.push_back(pred);
        ready = false;
      }
    }
    if (!ready) continue;
    work_.pop_back();
    llvm::Value* value = join(seg, var);
    seg.defs[var] = value;
  }
  return segs_[s].defs.find(var)->second;
}

// The value of `var` on entry to `seg`, every predecessor's value being known.
llvm::Value* SsaBuilder::join(Seg& seg, Var var) {
  if (seg.preds.empty()) return zero_;  // the entry, or unreachable code
  llvm::Value* first = segs_[seg.preds.front().first].defs.find(var)->second;
  const bool same = std::all_of(seg.preds.begin(), seg.preds.end(), [&](const auto& edge) {
    return segs_[edge.first].defs.find(var)->second == first;
  });
  if (same) return first;
  if (llvm::Value* b = bool_join(seg, var)) return b;
  llvm::IRBuilder<> at_head(seg.head, seg.head->begin());
  llvm::PHINode* phi = at_head.CreatePHI(type_, static_cast<unsigned>(seg.preds.size()));
  for (const auto& [pred, block] : seg.preds)
    phi->addIncoming(segs_[pred].defs.find(var)->second, block);
  return phi;
}

namespace {

// The i1 behind a zero-extended boolean, false for the zero constant, else null.
llvm::Value* bool_of(llvm::Value* v, llvm::Value* zero) {
  if (v == zero) return llvm::ConstantInt::getFalse(v->getContext());
  auto* ext = llvm::dyn_cast<llvm::ZExtInst>(v);
  return ext && ext->getSrcTy()->isIntegerTy(1) ? ext->getOperand(0) : nullptr;
}

}  // namespace

// When every incoming value is a zero-extended boolean or zero (a region's result and the
// 0 of the edge that skipped it): an i1 phi of the booleans, zero-extended after the
// phis, so codegen keeps working on the i1 (and the allocator carries a byte); else null.
llvm::Value* SsaBuilder::bool_join(Seg& seg, Var var) {
  llvm::SmallVector<llvm::Value*, 2> bits;
  for (const auto& [pred, block] : seg.preds) {
    llvm::Value* bit = bool_of(segs_[pred].defs.find(var)->second, zero_);
    if (bit == nullptr) return nullptr;
    bits.push_back(bit);
  }
  llvm::IRBuilder<> at_head(seg.head, seg.head->begin());
  llvm::PHINode* phi =
      at_head.CreatePHI(at_head.getInt1Ty(), static_cast<unsigned>(seg.preds.size()));
  for (size_t i = 0; i < bits.size(); ++i) phi->addIncoming(bits[i], seg.preds[i].second);
  llvm::IRBuilder<> after(seg.head, seg.head->getFirstInsertionPt());
  return after.CreateZExt(phi, type_);
}

}  // namespace pfc::internal
