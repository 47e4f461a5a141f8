// compiler/lower_builder.cc — the lowering's IR builder: hash-consing, boolean constant
// folding, guarded regions and deduplicated constant pools (see lower_builder.h).
#include "compiler/lower_builder.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "base/ascii.h"
#include "base/stable_sort.h"
#include "compiler/str_match.h"

namespace pfc::internal {

using ir::Inst;
using ir::Op;
using ir::Reg;

ir::Reg IrBuilder::emit(Op op, uint32_t a, uint32_t b, uint32_t c, uint64_t imm) {
  return emit_inst(Inst{op, ir::kNoReg, a, b, c, imm});
}

ir::Reg IrBuilder::emit_inst(Inst inst) {
  const uint64_t h = InstKey::hash(inst);  // the key ignores dst
  if (uint32_t at = global_.find(prog_.code, inst, h); at != global_.kNone)
    return prog_.code[at].dst;
  if (in_region()) {
    if (uint32_t at = region_.find(prog_.code, inst, h); at != region_.kNone)
      return prog_.code[at].dst;
  }
  inst.dst = prog_.num_regs++;
  prog_.code.push_back(inst);
  (in_region() ? region_ : global_).insert(static_cast<uint32_t>(prog_.code.size() - 1), h);
  return inst.dst;
}

uint64_t IrBuilder::InstKey::hash(const Inst& i) {
  uint64_t h = hash_mix(uint64_t(i.op), i.a);
  h = hash_mix(h, uint64_t{i.b} << 32 | i.c);
  return hash_mix(h, i.imm);
}

bool IrBuilder::InstKey::equal(const Inst& x, const Inst& y) {
  return x.op == y.op && x.a == y.a && x.b == y.b && x.c == y.c && x.imm == y.imm;
}

uint64_t IrBuilder::FieldKey::hash(const ir::FieldDesc& f) {
  uint64_t h = hash_mix(uint64_t(f.type), uint64_t(f.count.kind) << 32 | f.count.value);
  return hash_mix(h, uint64_t(f.length.kind) << 32 | f.length.value);
}

bool IrBuilder::FieldKey::equal(const ir::FieldDesc& x, const ir::FieldDesc& y) {
  return x.type == y.type && x.count.kind == y.count.kind && x.count.value == y.count.value &&
         x.length.kind == y.length.kind && x.length.value == y.length.value;
}

uint64_t IrBuilder::IntPredKey::hash(const ir::IntPred& p) {
  return hash_mix(hash_mix(uint64_t(p.op), p.lo), p.hi);
}

bool IrBuilder::IntPredKey::equal(const ir::IntPred& x, const ir::IntPred& y) {
  return x.op == y.op && x.lo == y.lo && x.hi == y.hi;
}

uint64_t IrBuilder::StrPredKey::hash(const ir::StrPred& p) {
  return hash_mix(uint64_t(p.op), std::hash<std::string>{}(p.text));
}

bool IrBuilder::StrPredKey::equal(const ir::StrPred& x, const ir::StrPred& y) {
  return x.op == y.op && x.text == y.text;
}

uint64_t IrBuilder::GuidPredKey::hash(const ir::GuidPred& p) {
  uint64_t d4 = 0;
  std::memcpy(&d4, p.value.data4.data(), sizeof d4);
  const uint64_t d123 =
      uint64_t{p.value.data1} << 32 | uint64_t{p.value.data2} << 16 | p.value.data3;
  return hash_mix(hash_mix(uint64_t(p.op), d123), d4);
}

bool IrBuilder::GuidPredKey::equal(const ir::GuidPred& x, const ir::GuidPred& y) {
  return x.op == y.op && x.value == y.value;
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

uint32_t IrBuilder::mask_map(ir::MaskMap m) {
  auto [it, added] =
      mask_map_ids_.emplace(std::tuple{m.keys, m.masks, m.other}, uint32_t(prog_.mask_maps.size()));
  if (added) prog_.mask_maps.push_back(std::move(m));
  return it->second;
}

uint32_t IrBuilder::range_map(ir::RangeMap m) {
  auto [it, added] = range_map_ids_.emplace(std::tuple{m.starts, m.masks, m.bad},
                                            uint32_t(prog_.range_maps.size()));
  if (added) prog_.range_maps.push_back(std::move(m));
  return it->second;
}

uint32_t IrBuilder::str_map(ir::StrMap m) {
  auto [it, added] =
      str_map_ids_.emplace(std::tuple{m.preds, m.masks, m.base}, uint32_t(prog_.str_maps.size()));
  if (added) {
    m.matcher = StrMatcher::build(
        m, prog_.str_preds,
        defer_databases_ ? StrMatcher::Databases::Defer : StrMatcher::Databases::Compile);
    prog_.str_maps.push_back(std::move(m));
  }
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

namespace {

// The pool index of `value`, appending it (and indexing it) when it is new.
template <typename Key, typename T, typename Index>
uint32_t intern(std::vector<T>& pool, Index& index, T value) {
  const uint64_t h = Key::hash(value);
  if (uint32_t at = index.find(pool, value, h); at != index.kNone) return at;
  pool.push_back(std::move(value));
  index.insert(static_cast<uint32_t>(pool.size() - 1), h);
  return static_cast<uint32_t>(pool.size() - 1);
}

}  // namespace

uint32_t IrBuilder::field(const ir::FieldDesc& f) {
  return intern<FieldKey>(prog_.fields, field_ids_, f);
}

uint32_t IrBuilder::int_pred(const ir::IntPred& p) {
  return intern<IntPredKey>(prog_.int_preds, int_pred_ids_, p);
}

uint32_t IrBuilder::str_pred(ir::StrPred p) {
  return intern<StrPredKey>(prog_.str_preds, str_pred_ids_, std::move(p));
}

uint32_t IrBuilder::guid_pred(const ir::GuidPred& p) {
  return intern<GuidPredKey>(prog_.guid_preds, guid_pred_ids_, p);
}

void IrBuilder::note(uint32_t slot, ir::Check check, ir::Reg v) {
  const bool is_const = v == kTrue || v == kFalse;
  prog_.checks.push_back(ir::CheckNote{slot, check, is_const ? ir::kNoReg : v, v == kTrue});
}

void IrBuilder::note_bit(uint32_t slot, ir::Check check, ir::Reg mask, uint32_t bit) {
  prog_.checks.push_back(ir::CheckNote{slot, check, mask, false, uint8_t(bit)});
}

void IrBuilder::deliver_mask(Reg mask) {
  prog_.code.push_back(Inst{Op::DeliverMask, ir::kNoReg, mask, 0, 0, 0});
}

ir::Program IrBuilder::finish() {
  prog_.code.push_back(Inst{Op::Return, ir::kNoReg, 0, 0, 0, 0});
  // By slot, then check; notes of the same pair keep their emission order.
  stable_sort_by(prog_.checks, [](const ir::CheckNote& x, const ir::CheckNote& y) {
    return x.slot != y.slot ? x.slot < y.slot : x.check < y.check;
  });
  return std::move(prog_);
}

}  // namespace pfc::internal
