// compiler/jit/ssa.h — SSA construction for the IR's registers while codegen walks the
// instruction list once (internal to compiler/jit/codegen.cc).
//
// Codegen cuts the instruction list into segments: a segment starts at the entry, at a
// jump target, after a `jz` (its fall-through) or after a terminator, and its head is the
// LLVM block every edge into it enters. IR jumps go strictly forward, so when codegen
// enters a segment every edge into it is already known — segments are sealed on entry,
// and no phi is ever incomplete. A register read where the segment does not define it is
// looked up through the predecessors; a join gets a phi only when its incoming values
// differ (Braun et al., "Simple and Efficient Construction of SSA Form", CC 2013, in its
// acyclic case); a phi of booleans (zero-extended i1s or zero) is an i1 phi, extended
// after the phis. Registers nobody wrote read as the zero constant (ir.h: every register
// is 0 at entry). The lookup is iterative, so deep chains of joins cannot exhaust the stack.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>

namespace llvm {
class BasicBlock;
class Type;
class Value;
}  // namespace llvm

namespace pfc::internal {

class SsaBuilder {
 public:
  using Segment = uint32_t;
  using Var = uint32_t;  // any value below 0xFFFFFFFE (DenseMap's reserved keys)

  // Variables are of type `type`; unwritten ones read as `zero`.
  SsaBuilder(llvm::Type* type, llvm::Value* zero) : type_(type), zero_(zero) {}

  // A new segment whose edges all enter `head` (which may not be in a function yet).
  Segment add_segment(llvm::BasicBlock* head);
  // Records the edge from segment `from`, whose code ends in LLVM block `from_block`, to
  // segment `to`. Every edge into `to` must be added before the first read in `to`.
  void add_edge(Segment from, llvm::BasicBlock* from_block, Segment to);

  llvm::BasicBlock* head(Segment s) const { return segs_[s].head; }

  void write(Segment s, Var var, llvm::Value* value) { segs_[s].defs[var] = value; }
  // The value of `var` at the current end of segment `s`; may insert phis at the heads of
  // `s` and of earlier segments.
  llvm::Value* read(Segment s, Var var);

 private:
  struct Seg {
    llvm::BasicBlock* head = nullptr;
    llvm::SmallVector<std::pair<Segment, llvm::BasicBlock*>, 2> preds;
    llvm::DenseMap<Var, llvm::Value*> defs;  // the value at the end, once known
  };
  llvm::Value* join(Seg& seg, Var var);
  llvm::Value* bool_join(Seg& seg, Var var);

  llvm::Type* type_;
  llvm::Value* zero_;
  std::vector<Seg> segs_;
  std::vector<Segment> work_;
};

}  // namespace pfc::internal
