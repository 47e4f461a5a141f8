// compiler/lower_builder.cc — the lowering's IR builder: hash-consing, boolean constant
// folding, guarded regions and deduplicated constant pools (see lower_builder.h).
#include "compiler/lower_builder.h"

#include <algorithm>
#include <cstring>

#include "base/ascii.h"

namespace pfc::internal {

using ir::Inst;
using ir::Op;
using ir::Reg;

ir::Reg IrBuilder::emit(Op op, uint32_t a, uint32_t b, uint32_t c, uint64_t imm) {
  return emit_inst(Inst{op, ir::kNoReg, a, b, c, imm});
}

ir::Reg IrBuilder::emit_inst(Inst inst) {
  Key key{uint8_t(inst.op), inst.a, inst.b, inst.c, inst.imm};
  if (auto it = global_.find(key); it != global_.end()) return it->second;
  if (in_region()) {
    if (auto it = region_.find(key); it != region_.end()) return it->second;
  }
  inst.dst = prog_.num_regs++;
  prog_.code.push_back(inst);
  (in_region() ? region_ : global_).emplace(key, inst.dst);
  return inst.dst;
}

ir::Reg IrBuilder::bool_and(Reg a, Reg b) {
  if (a == kFalse || b == kFalse) return kFalse;
  if (a == kTrue) return b;
  if (b == kTrue || a == b) return a;
  return emit(Op::And, std::min(a, b), std::max(a, b));
}

ir::Reg IrBuilder::bool_or(Reg a, Reg b) {
  if (a == kTrue || b == kTrue) return kTrue;
  if (a == kFalse) return b;
  if (b == kFalse || a == b) return a;
  return emit(Op::Or, std::min(a, b), std::max(a, b));
}

ir::Reg IrBuilder::bool_not(Reg a) {
  if (a == kTrue) return kFalse;
  if (a == kFalse) return kTrue;
  return emit(Op::Not, a);
}

ir::Reg IrBuilder::materialize(Reg v) {
  if (v == kTrue) return constant(1);
  if (v == kFalse) return constant(0);
  return v;
}

void IrBuilder::begin_region(Reg cond) {
  Reg r = materialize(cond);
  region_jz_ = prog_.code.size();
  prog_.code.push_back(Inst{Op::Jz, ir::kNoReg, r, 0, 0, 0});
}

void IrBuilder::end_region() {
  prog_.code[region_jz_].b = static_cast<uint32_t>(prog_.code.size());
  region_jz_ = kNone;
  region_.clear();
}

void IrBuilder::deliver(Reg v, uint32_t bit) {
  if (v == kFalse) return;
  Reg r = materialize(v);
  prog_.code.push_back(Inst{Op::Deliver, ir::kNoReg, r, bit, 0, 0});
}

void IrBuilder::stack(Reg v, uint32_t bit) {
  if (v == kFalse) return;
  Reg r = materialize(v);
  prog_.code.push_back(Inst{Op::Stack, ir::kNoReg, r, bit, 0, 0});
}

uint32_t IrBuilder::int_set(std::vector<uint64_t> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  auto [it, added] = int_set_ids_.emplace(values, uint32_t(prog_.int_sets.size()));
  if (added) prog_.int_sets.push_back(ir::IntSet{std::move(values)});
  return it->second;
}

uint32_t IrBuilder::str_set(std::vector<std::string> values, bool case_insensitive) {
  if (case_insensitive) {
    for (std::string& v : values) v = to_ascii_lower(v);
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  auto [it, added] =
      str_set_ids_.emplace(std::pair{case_insensitive, values}, uint32_t(prog_.str_sets.size()));
  if (added) prog_.str_sets.push_back(ir::StrSet{std::move(values), case_insensitive});
  return it->second;
}

uint32_t IrBuilder::field(const ir::FieldDesc& f) {
  auto key = std::tuple{uint16_t(f.type), uint8_t(f.count.kind), f.count.value,
                        uint8_t(f.length.kind), f.length.value};
  auto [it, added] = field_ids_.emplace(key, uint32_t(prog_.fields.size()));
  if (added) prog_.fields.push_back(f);
  return it->second;
}

uint32_t IrBuilder::int_pred(const ir::IntPred& p) {
  auto [it, added] = int_pred_ids_.emplace(std::tuple{uint16_t(p.op), p.lo, p.hi},
                                           uint32_t(prog_.int_preds.size()));
  if (added) prog_.int_preds.push_back(p);
  return it->second;
}

uint32_t IrBuilder::str_pred(ir::StrPred p) {
  auto [it, added] =
      str_pred_ids_.emplace(std::pair{uint16_t(p.op), p.text}, uint32_t(prog_.str_preds.size()));
  if (added) prog_.str_preds.push_back(std::move(p));
  return it->second;
}

uint32_t IrBuilder::guid_pred(const ir::GuidPred& p) {
  uint64_t d4 = 0;
  std::memcpy(&d4, p.value.data4.data(), sizeof d4);
  auto key = std::tuple{uint16_t(p.op), p.value.data1, p.value.data2, p.value.data3, d4};
  auto [it, added] = guid_pred_ids_.emplace(key, uint32_t(prog_.guid_preds.size()));
  if (added) prog_.guid_preds.push_back(p);
  return it->second;
}

void IrBuilder::note(uint32_t slot, ir::Check check, ir::Reg v) {
  const bool is_const = v == kTrue || v == kFalse;
  prog_.checks.push_back(ir::CheckNote{slot, check, is_const ? ir::kNoReg : v, v == kTrue});
}

ir::Program IrBuilder::finish() {
  prog_.code.push_back(Inst{Op::Return, ir::kNoReg, 0, 0, 0, 0});
  return std::move(prog_);
}

}  // namespace pfc::internal
