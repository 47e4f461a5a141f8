// compiler/jit/bit_arith.h — comparisons of narrow unsigned values as 0/1 i64 arithmetic
// (internal to compiler/jit/codegen.cc, docs/jit.md "Booleans in 64-bit registers").
//
// The O1 code generator (FastISel and the fast register allocator) turns `icmp` + `and` /
// `or` of i1 into setcc and byte-register logic whose copies (`movb %al, %r10b`) merge
// into the old register and chain unrelated predicates together. For a value v known to
// be below 2^32 (a zero-extended load of at most 4 bytes) every comparison with a constant
// is instead a subtraction and a shift of the sign bit (v − k cannot overflow 64 bits):
// full-width ALU instructions without flags, whose 0/1 results and, or and shift freely.
#pragma once

#include <cstdint>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstrTypes.h>

namespace pfc::internal {

// True when `v` is an i64 that is provably below 2^32: zext of an integer of at most 32
// bits, a constant below 2^32, or a select of two such values.
bool is_narrow(const llvm::Value* v);

// `v <pred> k` as an i64 that is 0 or 1, for a narrow `v` (is_narrow) and an unsigned
// predicate (EQ, NE, ULT, ULE, UGT, UGE): a constant when the result does not depend on v,
// else subtraction/xor and `lshr 63`. Null for signed predicates (the caller uses icmp).
llvm::Value* narrow_compare(llvm::IRBuilder<>& b, llvm::CmpInst::Predicate pred, llvm::Value* v,
                            uint64_t k);

// lo <= v <= hi (unsigned) for a narrow v, as a 0/1 i64: with d = v − lo, d and hi − lo − d
// both non-negative, i.e. ((d | (hi − lo − d)) >> 63) ^ 1. `negate` gives NOT BETWEEN.
llvm::Value* narrow_in_range(llvm::IRBuilder<>& b, llvm::Value* v, uint64_t lo, uint64_t hi,
                             bool negate);

}  // namespace pfc::internal
