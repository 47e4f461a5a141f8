// compiler/jit/codegen_impl.h — internal to compiler/jit/: the class that lowers one
// ir::Program to one LLVM function (codegen.h has the calling convention). Its members are
// defined in codegen.cc (control flow, header checks, sets, session masks),
// codegen_payload.cc (payload reads and predicates) and codegen_table.cc (helpers and pool
// addresses: constants or pfc_table).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "compiler/ir.h"
#include "compiler/jit/codegen.h"
#include "compiler/jit/ssa.h"
#include "pfc/schema.h"

namespace pfc::internal {

using llvm::BasicBlock;
using llvm::Value;

class Codegen {
 public:
  Codegen(const ir::Program& program, llvm::LLVMContext& context, llvm::Module& module,
          CodegenMode mode)
      : p_(program), ctx_(context), m_(module), mode_(mode), b_(context), i1_(b_.getInt1Ty()),
        i32_(b_.getInt32Ty()), i64_(b_.getInt64Ty()), ptr_(b_.getPtrTy()),
        ssa_(i64_, b_.getInt64(0)), deliver_(program.num_regs), stack_(program.num_regs + 1) {}

  void run(const std::string& fn_name);
  // Table mode: the table's slots in order, after run().
  const std::vector<TableSlot>& slots() const { return slots_; }

 private:
  void emit_prologue();
  Value* payload();
  Value* psize();
  void emit(const ir::Inst& in);
  void emit_return();
  void accumulate(uint32_t acc, const ir::Inst& in);
  void branch_to(SsaBuilder::Segment target);
  void enter(SsaBuilder::Segment segment, BasicBlock* head);

  Value* load_header(uint32_t field);
  // An ir::Program pool entry's address: the constant `object` (Jit mode) or a load of
  // `slot` (Table mode).
  Value* pool_address(const void* object, TableSlot slot);
  Value* table_entry(TableSlot slot);  // Table mode: the slot's pointer, loaded
  void finish_table();                 // Table mode: defines pfc_table with every slot
  Value* in_set(Value* v, const ir::IntSet& set);
  Value* in_sorted(Value* v, const ir::IntSet& set);
  Value* search(Value* v, uint64_t size, llvm::function_ref<Value*(Value*)> at);
  Value* mask_if(Value* v, uint64_t bits);
  Value* in_window(Value* v, uint64_t base, uint64_t mask);
  Value* mask_lookup(Value* key, const ir::MaskMap& map, bool byte);
  Value* str_in(const ir::Inst& in);
  Value* str_index(const ir::Inst& in);
  Value* skip(const ir::Inst& in);
  Value* load_field(const ir::Inst& in);
  Value* pred_int(const ir::Inst& in);
  Value* mask_range(const ir::Inst& in);
  Value* range_index(Value* v, const std::vector<uint64_t>& starts);
  Value* pred_str(const ir::Inst& in);
  Value* pred_guid(const ir::Inst& in);
  Value* pred_regex(const ir::Inst& in);
  Value* mask_strs(const ir::Inst& in);
  Value* pred_short_wstr(const ir::Inst& in);
  Value* int_compare(Value* v, const ir::IntPred& pred, bool is_signed);
  Value* narrow_int_compare(Value* v, const ir::IntPred& pred);
  Value* compare(llvm::CmpInst::Predicate pred, Value* v, Value* k);
  Value* in_range(Value* v, uint64_t lo, uint64_t hi, bool is_signed);
  struct FieldValue {
    Value* ok;              // i1
    Value* value;           // i64, 0 when !ok
    Value* bits;            // i64, meaningful only when ok (what predicates compare, guarded by ok)
    Value* ok64 = nullptr;  // zext(ok), made on first use
  };
  FieldValue& field_value(Value* off, InType type);

  // Registers 0..num_regs-1 are the IR's; deliver_ and stack_ are the two after them.
  Value* reg(uint32_t r) { return ssa_.read(seg_, r); }
  void set(uint32_t r, Value* v) { ssa_.write(seg_, r, v); }
  llvm::AllocaInst* entry_slot(llvm::AllocaInst*& slot, llvm::Type* type, const char* name);
  Value* c64(uint64_t v) { return b_.getInt64(v); }
  Value* c32(uint64_t v) { return b_.getInt32(static_cast<uint32_t>(v)); }
  Value* bool64(Value* i1) { return b_.CreateZExt(i1, i64_); }
  // Booleans stay i1 where the IR's 0/1 registers allow it, so the light O1 pipeline needs
  // no InstCombine to clean up zext/compare chains: `r == 0` of a bool64 is a `not`, and
  // `and`/`or` of two bool64 values is done on their i1 sources.
  static Value* bool_source(Value* v);  // the i1 behind a bool64, or null
  // Booleans computed in 64-bit arithmetic (bit_arith.h) are i64 values 0 or 1 that are no
  // zext of an i1; is_bit() knows them, the bool64s, the constants 0 and 1, and phis of
  // such values, so `not`, mask.if and deliver stay 64-bit arithmetic on them too.
  Value* bit(Value* v) {
    bits_.insert(v);
    return v;
  }
  // The i32 result of a predicate helper (pfc_tdh_str_pred_next, its short form, the regex
  // and str.in helpers: each returns exactly 0 or 1) as a 0/1 i64, without an `icmp`. An
  // `icmp ne %call, 0` feeding a conjunction made EarlyCSE quadratic: simplifying each
  // compare asks isKnownNonZero(%call), which walks the compare's users through every
  // `and` after it (ValueTracking's dominating-condition search), so a `not in` list of
  // n strings cost O(n^2) (docs/jit.md "Large programs").
  Value* helper_bit(Value* hit) { return bit(b_.CreateZExt(hit, i64_)); }
  bool is_bit(Value* v, int depth = 0) const;
  Value* is_zero(Value* v);
  Value* logic(llvm::Instruction::BinaryOps op, Value* a, Value* b);
  Value* extent(const Extent& e, uint64_t reg_index, uint64_t absent);
  Value* length_extent(const Extent& e, uint64_t reg_index);
  Value* length_key(const ir::FieldDesc& f, uint64_t reg_index);
  llvm::FunctionCallee helper(const char* name, llvm::Type* ret, llvm::ArrayRef<llvm::Type*> args);
  llvm::Constant* constant_array(llvm::Constant* init, const char* name);
  BasicBlock* block(const char* name) { return BasicBlock::Create(ctx_, name, fn_); }

  const ir::Program& p_;
  llvm::LLVMContext& ctx_;
  llvm::Module& m_;
  const CodegenMode mode_;
  // Table mode: a placeholder global the loads index until finish_table() knows the size,
  // and the slots in the order they were first used.
  llvm::GlobalVariable* table_ = nullptr;
  std::vector<TableSlot> slots_;
  std::map<std::pair<TableSlotKind, uint32_t>, uint32_t> slot_numbers_;
  llvm::IRBuilder<> b_;
  llvm::IntegerType* i1_;
  llvm::IntegerType* i32_;
  llvm::IntegerType* i64_;
  llvm::PointerType* ptr_;
  llvm::Function* fn_ = nullptr;
  Value* event_ = nullptr;
  // The payload pointer and size, loaded from the event on first use in each segment (not
  // in the entry block: there they would be live across every block, which the O1
  // register allocator spills and reloads, on every event, regions taken or not).
  Value* payload_ = nullptr;
  Value* psize_ = nullptr;
  SsaBuilder ssa_;
  SsaBuilder::Segment seg_ = 0;
  const uint32_t deliver_;
  const uint32_t stack_;
  // The program has no Stack instruction: *stack is 0 whatever it delivers, stored in the
  // entry block, so the out-pointer is not live across blocks (the O1 allocator would
  // spill it on entry and reload it at each return).
  bool no_stack_ = false;
  // Out-parameter slots of helper calls, one each per function (created on first use).
  llvm::AllocaInst* ok_slot_ = nullptr;
  llvm::AllocaInst* next_slot_ = nullptr;
  // Offsets past string fields found by pred.str in the current segment, keyed by (offset
  // value, field, length value): a later `skip` of the same field reuses them instead of
  // scanning the string again. Values defined earlier in a segment dominate its rest.
  std::map<std::tuple<Value*, uint32_t, Value*>, Value*> string_next_;
  // Integer fields loaded in the current segment, by (offset value, type).
  std::map<std::pair<Value*, InType>, FieldValue> loads_;
  llvm::DenseSet<Value*> bits_;
  // Payload predicates are `ok & holds` (ok: the field fits). An `and` of such values
  // keeps the two parts apart, `(ok1 & ok2) & (holds1 & holds2)`, with the `and` of the
  // oks made once per segment: a session's conjunction of predicates on k fields then
  // costs one `and` of oks for all sessions alike, not one per predicate (the unused
  // `ok & holds` values are dead and deleted). Entries: 0/1 values of the current
  // function; ok_ands_ is per segment (its values dominate only the segment's rest).
  struct Guarded {
    Value* ok;
    Value* holds;
  };
  llvm::DenseMap<Value*, Guarded> guarded_;
  std::map<std::pair<Value*, Value*>, Value*> ok_ands_;
  Value* guarded_and(Value* a, Value* b);
  // Likewise for masks: mask.if of a guarded result is `-ok & mask.if(holds)`, and the `or`
  // of two such masks with the same ok is `-ok & (mask1 | mask2)`, so a region's mask
  // pays for its sessions' common ok once (`-ok` made once per segment, in neg_oks_).
  struct GuardedMask {
    Value* ok;
    Value* mask;
  };
  llvm::DenseMap<Value*, GuardedMask> guarded_masks_;
  std::map<Value*, Value*> neg_oks_;
  Value* neg_ok(Value* ok);
  Value* guarded_mask(Value* ok, Value* mask);
  Value* bit_mask(Value* v, uint64_t bits);
};

}  // namespace pfc::internal
