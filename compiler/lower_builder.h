// compiler/lower_builder.h — internal to the lowering: an IR builder that hash-conses pure
// instructions and constant pools, folds boolean constants, and scopes sharing to guarded
// regions (an instruction inside a skipped region reads as 0, so it is reused only there).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "compiler/ir.h"
#include "compiler/pool_index.h"

namespace pfc::internal {

// Boolean values during lowering are registers or one of these two folded constants; they
// become Const instructions only where an instruction needs a register (materialize()).
inline constexpr ir::Reg kTrue = 0xFFFFFFFEu;
inline constexpr ir::Reg kFalse = 0xFFFFFFFDu;

class IrBuilder {
 public:
  // Emits a pure instruction (one with a dst) unless an identical one is visible; returns
  // its register. Visible = emitted outside any region, or inside the current region.
  ir::Reg emit(ir::Op op, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0, uint64_t imm = 0);

  ir::Reg header(ir::HeaderField f) { return emit(ir::Op::LoadHeader, uint32_t(f)); }
  ir::Reg constant(uint64_t v) { return emit(ir::Op::Const, 0, 0, 0, v); }
  ir::Reg cmp(ir::Reg a, ir::Cond c, uint64_t imm) {
    return emit(ir::Op::Cmp, a, uint32_t(c), 0, imm);
  }
  ir::Reg and_imm(ir::Reg a, uint64_t imm) { return emit(ir::Op::AndImm, a, 0, 0, imm); }

  // Boolean operations on registers or kTrue/kFalse, folding the constants.
  ir::Reg bool_and(ir::Reg a, ir::Reg b);
  ir::Reg bool_or(ir::Reg a, ir::Reg b);
  ir::Reg bool_not(ir::Reg a);
  // A real register holding `v` (kTrue/kFalse become Const 1/0).
  ir::Reg materialize(ir::Reg v);

  // Guarded region: `jz cond` over everything emitted until end_region().
  void begin_region(ir::Reg cond);
  void end_region();
  bool in_region() const { return region_jz_ != kNone; }
  // Registers allocated so far (a region's registers are those numbered from its start).
  uint32_t num_regs() const { return prog_.num_regs; }

  // Records that check `check` of session `slot` has value `v` (a register or kTrue /
  // kFalse): an ir::CheckNote, which emits nothing.
  void note(uint32_t slot, ir::Check check, ir::Reg v);
  // Records that check `check` of session `slot` passed iff bit `bit` of register `mask`
  // is set (a session mask).
  void note_bit(uint32_t slot, ir::Check check, ir::Reg mask, uint32_t bit);

  // Effects.
  void deliver(ir::Reg v, uint32_t bit);
  void stack(ir::Reg v, uint32_t bit);
  void deliver_mask(ir::Reg mask);
  // Impure instructions emitted as-is (Skip, LoadField, Pred*): hash-consed like emit() but
  // with the operands spelled out, since c/imm may be registers or kNoReg.
  ir::Reg emit_inst(ir::Inst inst);

  // Constant pools, deduplicated; return the pool index.
  uint32_t int_set(std::vector<uint64_t> values);
  uint32_t str_set(std::vector<std::string> values, bool case_insensitive);
  // The values of string set `id` as stored (sorted, duplicate-free, folded if nocase).
  const std::vector<std::string>& str_set_values(uint32_t id) const {
    return prog_.str_sets[id].values;
  }
  uint32_t field(const ir::FieldDesc& f);
  uint32_t int_pred(const ir::IntPred& p);
  uint32_t str_pred(ir::StrPred p);
  uint32_t guid_pred(const ir::GuidPred& p);
  uint32_t mask_map(ir::MaskMap m);
  uint32_t range_map(ir::RangeMap m);
  // Also builds the map's matcher (compiler/str_match.h) over the string predicates, its
  // Hyperscan databases as set by defer_string_databases().
  uint32_t str_map(ir::StrMap m);
  void defer_string_databases(bool defer) { defer_databases_ = defer; }

  // Room for `n` instructions: a caller that knows the program's size up front saves the
  // growing vector's copies and its up-to-2x slack (millions of predicates), and the
  // growing steps of the regions' hash-consing index, which holds the payload filters'
  // instructions (lowered in their key's region) and keeps its table from one region to
  // the next.
  void reserve(size_t n) {
    prog_.code.reserve(n);
    region_.reserve(n);
  }

  // Appends Return, orders the check notes by slot (then check) and hands out the program.
  ir::Program finish();

 private:
  static constexpr size_t kNone = ~size_t{0};

  // Hash and equality of pool entries, as their hash-consing keys (an instruction's
  // operands without its dst; a string predicate's operator and text).
  struct InstKey {
    static uint64_t hash(const ir::Inst& i);
    static bool equal(const ir::Inst& x, const ir::Inst& y);
  };
  struct FieldKey {
    static uint64_t hash(const ir::FieldDesc& f);
    static bool equal(const ir::FieldDesc& x, const ir::FieldDesc& y);
  };
  struct IntPredKey {
    static uint64_t hash(const ir::IntPred& p);
    static bool equal(const ir::IntPred& x, const ir::IntPred& y);
  };
  struct StrPredKey {
    static uint64_t hash(const ir::StrPred& p);
    static bool equal(const ir::StrPred& x, const ir::StrPred& y);
  };
  struct GuidPredKey {
    static uint64_t hash(const ir::GuidPred& p);
    static bool equal(const ir::GuidPred& x, const ir::GuidPred& y);
  };

  ir::Program prog_;
  PoolIndex<ir::Inst, InstKey> global_;  // instructions outside regions
  PoolIndex<ir::Inst, InstKey> region_;  // instructions of the current region
  size_t region_jz_ = kNone;
  bool defer_databases_ = false;  // LowerOptions::defer_string_databases

  std::map<std::vector<uint64_t>, uint32_t> int_set_ids_;
  std::map<std::pair<bool, std::vector<std::string>>, uint32_t> str_set_ids_;
  PoolIndex<ir::FieldDesc, FieldKey> field_ids_;
  PoolIndex<ir::IntPred, IntPredKey> int_pred_ids_;
  PoolIndex<ir::StrPred, StrPredKey> str_pred_ids_;
  PoolIndex<ir::GuidPred, GuidPredKey> guid_pred_ids_;
  std::map<std::tuple<std::vector<uint64_t>, std::vector<uint64_t>, uint64_t>, uint32_t>
      mask_map_ids_;
  std::map<std::tuple<std::vector<uint64_t>, std::vector<uint64_t>, uint64_t>, uint32_t>
      range_map_ids_;
  std::map<std::tuple<std::vector<uint32_t>, std::vector<uint64_t>, uint64_t>, uint32_t>
      str_map_ids_;
};

}  // namespace pfc::internal
