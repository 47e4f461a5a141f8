// compiler/lower_payload.cc — lowering of payload filters for one event (id, version):
// field offsets (constant-folded, then Skip), count/length loads, predicates and the
// post-order filter expressions, all hash-consed across sessions (lower_payload.h).
#include "compiler/lower_payload.h"

#include <string>

#include "runtime/casefold.h"
#include "runtime/payload_ops.h"

namespace pfc::internal {

using ir::Inst;
using ir::kNoReg;
using ir::Op;
using ir::Reg;

namespace {

// Constant offsets stop here; beyond it Skip does the (checked) arithmetic.
constexpr uint64_t kMaxConstOffset = uint64_t{1} << 40;

std::string field_error(const EventDef& e, uint32_t field, std::string_view what) {
  return "event '" + e.name + "' field " + std::to_string(field) + ": " + std::string(what);
}

}  // namespace

Result<uint32_t> PayloadLowering::desc_of(uint32_t field) {
  const FieldDef& f = event_.fields[field];
  for (const Extent* e : {&f.count, &f.length}) {
    if (e->kind == Extent::Kind::Field && e->value >= field) {
      return make_error(field_error(event_, field, "count/length refers to a later field"));
    }
  }
  return b_.field(ir::FieldDesc{f.type, f.count, f.length});
}

Result<Reg> PayloadLowering::value_of(uint32_t field) {
  if (value_[field] != kNoReg) return value_[field];
  const FieldDef& f = event_.fields[field];
  if (!in_type_is_integer(f.type) || f.count.present()) {
    return make_error(field_error(event_, field, "count/length source is not a scalar integer"));
  }
  auto off = offset_of(field);
  if (!off) return off;
  auto desc = desc_of(field);
  if (!desc) return std::unexpected(desc.error());
  value_[field] = b_.emit_inst(Inst{Op::LoadField, kNoReg, *off, *desc, 0, 0});
  return value_[field];
}

Result<Reg> PayloadLowering::extent_reg(const Extent& e, uint32_t field) {
  if (e.kind != Extent::Kind::Field) return kNoReg;
  if (e.value >= field) {
    return make_error(field_error(event_, field, "count/length refers to a later field"));
  }
  return value_of(e.value);
}

// Offsets are computed in field order, iteratively, up to `field`. Constant offsets are
// materialized (Const) only when an instruction uses them.
Result<Reg> PayloadLowering::offset_of(uint32_t field) {
  while (next_ <= field) {
    uint32_t j = next_;
    if (j == 0) {
      const_[0] = 0;
      next_ = 1;
      continue;
    }
    const FieldDef& prev = event_.fields[j - 1];
    uint64_t size = in_type_fixed_size(prev.type);
    uint64_t count = prev.count.kind == Extent::Kind::Fixed ? prev.count.value : 1;
    if (const_[j - 1] != kNotConst && size != 0 && prev.count.kind != Extent::Kind::Field &&
        !prev.length.present() && const_[j - 1] + size * count <= kMaxConstOffset) {
      const_[j] = const_[j - 1] + size * count;
    } else {
      auto count_reg = extent_reg(prev.count, j - 1);
      if (!count_reg) return count_reg;
      auto length_reg = extent_reg(prev.length, j - 1);
      if (!length_reg) return length_reg;
      auto desc = desc_of(j - 1);
      if (!desc) return std::unexpected(desc.error());
      auto start = offset_of(j - 1);  // already known: returns without looping
      if (!start) return start;
      off_[j] = b_.emit_inst(Inst{Op::Skip, kNoReg, *start, *desc, *count_reg, *length_reg});
    }
    next_ = j + 1;
  }
  if (off_[field] == kNoReg) off_[field] = b_.constant(const_[field]);
  return off_[field];
}

Result<Reg> PayloadLowering::predicate(const PayloadPredicate& p) {
  if (p.field >= event_.fields.size()) {
    return make_error(field_error(event_, p.field, "no such field"));
  }
  const FieldDef& f = event_.fields[p.field];
  if (f.count.present()) return make_error(field_error(event_, p.field, "predicate on an array"));
  auto off = offset_of(p.field);
  if (!off) return off;
  auto desc = desc_of(p.field);
  if (!desc) return std::unexpected(desc.error());
  const std::optional<ValueKind> kind = payload_value_kind(f.type);
  if (!kind || !payload_op_applies(*kind, p.op)) {
    return make_error(field_error(event_, p.field, "operator not allowed on the field's type"));
  }
  if (find_payload_op(p.op)->nonzero && p.value.lo == 0 && *kind == ValueKind::Integer) {
    return make_error(
        field_error(event_, p.field, std::string(payload_op_name(p.op)) + " by zero"));
  }
  switch (*kind) {
    case ValueKind::Integer: {
      uint32_t pred = b_.int_pred(ir::IntPred{p.op, p.value.lo, p.value.hi});
      return b_.emit_inst(Inst{Op::PredInt, kNoReg, *off, *desc, pred, 0});
    }
    case ValueKind::String: {
      auto length = extent_reg(f.length, p.field);
      if (!length) return length;
      uint32_t pred = b_.str_pred(ir::StrPred{p.op, p.value.text, fold_utf8(p.value.text)});
      return b_.emit_inst(Inst{Op::PredStr, kNoReg, *off, *desc, pred, *length});
    }
    case ValueKind::Guid: {
      uint32_t pred = b_.guid_pred(ir::GuidPred{p.op, p.value.guid});
      return b_.emit_inst(Inst{Op::PredGuid, kNoReg, *off, *desc, pred, 0});
    }
  }
  return make_error(field_error(event_, p.field, "operator not allowed on the field's type"));
}

// Post-order nodes: every child's value is known before its parent (no recursion).
Result<Reg> PayloadLowering::expr(const PayloadExpr& e) {
  if (e.empty()) return kTrue;
  std::vector<Reg> vals(e.nodes.size(), kNoReg);
  for (size_t i = 0; i < e.nodes.size(); ++i) {
    const PayloadExpr::Node& n = e.nodes[i];
    if (n.kind == PayloadExpr::Node::Kind::Pred) {
      if (n.index >= e.preds.size()) return make_error("payload expression: bad predicate index");
      auto r = predicate(e.preds[n.index]);
      if (!r) return r;
      vals[i] = *r;
      continue;
    }
    bool is_not = n.kind == PayloadExpr::Node::Kind::Not;
    if (n.count == 0 || (is_not && n.count != 1) || uint64_t(n.index) + n.count > e.kids.size()) {
      return make_error("payload expression: bad child list");
    }
    Reg acc = n.kind == PayloadExpr::Node::Kind::Or ? kFalse : kTrue;
    for (uint32_t k = 0; k < n.count; ++k) {
      uint32_t kid = e.kids[n.index + k];
      if (kid >= i) return make_error("payload expression: child after its parent");
      if (is_not) acc = b_.bool_not(vals[kid]);
      else if (n.kind == PayloadExpr::Node::Kind::And) acc = b_.bool_and(acc, vals[kid]);
      else acc = b_.bool_or(acc, vals[kid]);
    }
    vals[i] = acc;
  }
  return vals.back();
}

Result<Reg> PayloadLowering::session_filters(const std::vector<const PayloadFilter*>& filters) {
  Reg all = kTrue;
  Reg any = kFalse;
  bool has_any = false;
  for (const PayloadFilter* f : filters) {
    auto r = expr(f->expr);
    if (!r) return r;
    if (f->group_all) {
      all = b_.bool_and(all, *r);
    } else {
      any = b_.bool_or(any, *r);
      has_any = true;
    }
  }
  return has_any ? b_.bool_and(all, any) : all;
}

}  // namespace pfc::internal
