// compiler/lower_payload.cc — lowering of payload filters for one event (id, version):
// field offsets (constant-folded, then Skip), count/length loads, predicates and the
// post-order filter expressions, all hash-consed across sessions (lower_payload.h).
#include "compiler/lower_payload.h"

#include <algorithm>
#include <string>

#include "base/payload_ops.h"
#include "base/utf8.h"
#include "compiler/regex_pred.h"
#include "runtime/casefold.h"
#include "runtime/glob.h"

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
  if (!kind || !payload_op_applies(*kind, p.op) || payload_op_has(p.op, kListOp)) {
    return make_error(field_error(event_, p.field, "operator not allowed on the field's type"));
  }
  if (find_payload_op(p.op)->nonzero && p.value.lo == 0 && *kind == ValueKind::Integer) {
    return make_error(
        field_error(event_, p.field, std::string(payload_op_name(p.op)) + " by zero"));
  }
  switch (*kind) {
    case ValueKind::Integer: {
      if (payload_op_has(p.op, kFieldOp)) return field_compare(p);
      uint32_t pred = b_.int_pred(ir::IntPred{p.op, p.value.lo, p.value.hi});
      return b_.emit_inst(Inst{Op::PredInt, kNoReg, *off, *desc, pred, 0});
    }
    case ValueKind::String: {
      auto length = extent_reg(f.length, p.field);
      if (!length) return length;
      auto pred = str_pred(p);
      if (!pred) return std::unexpected(pred.error());
      return b_.emit_inst(
          Inst{Op::PredStr, kNoReg, *off, *desc, b_.str_pred(std::move(*pred)), *length});
    }
    case ValueKind::Guid: {
      uint32_t pred = b_.guid_pred(ir::GuidPred{p.op, p.value.guid});
      return b_.emit_inst(Inst{Op::PredGuid, kNoReg, *off, *desc, pred, 0});
    }
  }
  return make_error(field_error(event_, p.field, "operator not allowed on the field's type"));
}

// The needle of a string predicate: folded, plain (`.cs`), a compiled glob or an RE2 object.
std::expected<ir::StrPred, std::string> string_pred(PayloadOp op, const std::string& text) {
  const bool fold = !payload_op_has(op, kCaseSensitive);
  if (op == PayloadOp::Regex || op == PayloadOp::RegexCs) {
    RegexResult re = compile_regex(text, !fold);
    if (!re.re) return std::unexpected("invalid regex: " + re.error);
    return ir::StrPred{op, text, {}, std::move(re.re)};
  }
  if (op == PayloadOp::Matches || op == PayloadOp::MatchesCs) {
    GlobResult g = compile_glob(text, fold);
    if (!g.error.empty()) return std::unexpected(g.error);
    return ir::StrPred{op, text, std::move(g.code)};
  }
  return ir::StrPred{op, text, fold ? fold_utf8(text) : utf8_to_utf32(text)};
}

Result<ir::StrPred> PayloadLowering::str_pred(const PayloadPredicate& p) {
  auto pred = string_pred(p.op, p.value.text);
  if (!pred) return make_error(field_error(event_, p.field, pred.error()));
  return std::move(*pred);
}

// True (PredInt over the type's whole range) iff the integer field decodes: LoadField reads
// an undecodable field as 0, and predicates on it must be false (docs/semantics.md §2.1).
Result<Reg> PayloadLowering::decodable(uint32_t field) {
  auto off = offset_of(field);
  if (!off) return off;
  auto desc = desc_of(field);
  if (!desc) return std::unexpected(desc.error());
  const bool is_signed = in_type_is_signed(event_.fields[field].type);
  const uint64_t lo = is_signed ? uint64_t{1} << 63 : 0;
  const uint64_t hi = is_signed ? lo - 1 : ~uint64_t{0};
  uint32_t pred = b_.int_pred(ir::IntPred{PayloadOp::Between, lo, hi});
  return b_.emit_inst(Inst{Op::PredInt, kNoReg, *off, *desc, pred, 0});
}

// Field-to-field (FieldEq..FieldGe, other field in value.lo): both decode and compare, signed
// when either is signed (the checker rejects signed against 64-bit unsigned).
Result<Reg> PayloadLowering::field_compare(const PayloadPredicate& p) {
  const uint32_t other = static_cast<uint32_t>(p.value.lo);
  if (other >= event_.fields.size() || !in_type_is_integer(event_.fields[other].type) ||
      event_.fields[other].count.present()) {
    return make_error(field_error(event_, p.field, "compared field is not a scalar integer"));
  }
  const bool is_signed = in_type_is_signed(event_.fields[p.field].type) ||
                         in_type_is_signed(event_.fields[other].type);
  static constexpr ir::Cond kUnsigned[] = {ir::Cond::Eq,  ir::Cond::Ne,  ir::Cond::ULe,
                                           ir::Cond::UGt, ir::Cond::ULt, ir::Cond::UGe};
  static constexpr ir::Cond kSigned[] = {ir::Cond::Eq,  ir::Cond::Ne,  ir::Cond::SLe,
                                         ir::Cond::SGt, ir::Cond::SLt, ir::Cond::SGe};
  const auto base = static_cast<size_t>(field_op_base(p.op));  // Eq..Ge = 0..5
  Reg ok = kTrue;
  for (uint32_t f : {p.field, other}) {
    auto d = decodable(f);
    if (!d) return d;
    ok = b_.bool_and(ok, *d);
  }
  auto a = value_of(p.field);
  if (!a) return a;
  auto b = value_of(other);
  if (!b) return b;
  const ir::Cond cond = is_signed ? kSigned[base] : kUnsigned[base];
  return b_.bool_and(ok, b_.emit_inst(Inst{Op::CmpReg, kNoReg, *a, uint32_t(cond), *b, 0}));
}

// The integer field whose set an Or of Eq (`in`) or an And of Ne (`not in`) predicates tests,
// or nullopt: every kid is such a predicate on the same scalar integer field.
std::optional<uint32_t> PayloadLowering::set_field(const PayloadExpr& e,
                                                   const PayloadExpr::Node& n) {
  using K = PayloadExpr::Node::Kind;
  if ((n.kind != K::Or && n.kind != K::And) || n.count < 2) return std::nullopt;
  const PayloadOp want = n.kind == K::Or ? PayloadOp::Eq : PayloadOp::Ne;
  std::optional<uint32_t> field;
  for (uint32_t k = 0; k < n.count; ++k) {
    const uint32_t kid = e.kids[n.index + k];
    if (kid >= e.nodes.size() || e.nodes[kid].kind != K::Pred) return std::nullopt;
    if (e.nodes[kid].index >= e.preds.size()) return std::nullopt;
    const PayloadPredicate& q = e.preds[e.nodes[kid].index];
    if (q.op != want || (field && *field != q.field) || q.field >= event_.fields.size())
      return std::nullopt;
    field = q.field;
  }
  const FieldDef& f = event_.fields[*field];
  if (!in_type_is_integer(f.type) || f.count.present()) return std::nullopt;
  return field;
}

// `in` / `not in` on an integer field: decodable && (not) in.set.
Result<Reg> PayloadLowering::set_test(const PayloadExpr& e, const PayloadExpr::Node& n,
                                      uint32_t field) {
  std::vector<uint64_t> values;
  values.reserve(n.count);
  for (uint32_t k = 0; k < n.count; ++k)
    values.push_back(e.preds[e.nodes[e.kids[n.index + k]].index].value.lo);
  auto ok = decodable(field);
  if (!ok) return ok;
  auto v = value_of(field);
  if (!v) return v;
  Reg hit = b_.emit_inst(Inst{Op::InSet, kNoReg, *v, b_.int_set(std::move(values)), 0, 0});
  if (n.kind == PayloadExpr::Node::Kind::And) hit = b_.bool_not(hit);
  return b_.bool_and(*ok, hit);
}

Result<Reg> PayloadLowering::expr(const PayloadExpr& e) {
  if (e.empty()) return kTrue;
  return expr(e, uint32_t(e.nodes.size() - 1));
}

// The nodes `root` reaches (all of them for the last node: the whole expression is lowered,
// every node checked), or an error on a bad child list.
Result<std::vector<bool>> PayloadLowering::reached(const PayloadExpr& e, uint32_t root) {
  const bool whole = root + 1 == e.nodes.size();
  std::vector<bool> needed(size_t(root) + 1, whole);
  needed[root] = true;
  for (size_t i = root + 1; !whole && i-- > 0;) {
    const PayloadExpr::Node& n = e.nodes[i];
    if (!needed[i] || n.kind == PayloadExpr::Node::Kind::Pred) continue;
    if (uint64_t(n.index) + n.count > e.kids.size())
      return make_error("payload expression: bad child list");
    for (uint32_t k = 0; k < n.count; ++k)
      if (e.kids[n.index + k] < i) needed[e.kids[n.index + k]] = true;
  }
  return needed;
}

// Post-order nodes: every child's value is known before its parent (no recursion). An Or of
// Eq / And of Ne on one integer field (the checker's expansion of `in` / `not in`, or
// written out) becomes one in.set test; its predicates are then not emitted.
Result<Reg> PayloadLowering::expr(const PayloadExpr& e, uint32_t root) {
  if (root >= e.nodes.size()) return make_error("payload expression: bad node index");
  auto needed = reached(e, root);
  if (!needed) return std::unexpected(needed.error());
  std::vector<Reg> vals(size_t(root) + 1, kNoReg);
  std::vector<bool> absorbed(size_t(root) + 1, false);
  std::vector<std::optional<uint32_t>> sets(size_t(root) + 1);
  for (size_t i = 0; i <= root; ++i) {
    const PayloadExpr::Node& n = e.nodes[i];
    if (n.kind == PayloadExpr::Node::Kind::Pred || !(*needed)[i]) continue;
    if (uint64_t(n.index) + n.count > e.kids.size())
      return make_error("payload expression: bad child list");
    sets[i] = set_field(e, n);
    for (uint32_t k = 0; sets[i] && k < n.count; ++k)
      if (e.kids[n.index + k] < i) absorbed[e.kids[n.index + k]] = true;
  }
  for (size_t i = 0; i <= root; ++i) {
    const PayloadExpr::Node& n = e.nodes[i];
    if (!(*needed)[i]) continue;
    if (sets[i]) {
      for (uint32_t k = 0; k < n.count; ++k)
        if (e.kids[n.index + k] >= i)
          return make_error("payload expression: child after its parent");
      auto r = set_test(e, n, *sets[i]);
      if (!r) return r;
      vals[i] = *r;
      continue;
    }
    if (n.kind == PayloadExpr::Node::Kind::Pred) {
      if (absorbed[i]) continue;
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
  return vals[root];
}

Result<Reg> PayloadLowering::mask_range(uint32_t field, ir::RangeMap map) {
  auto off = offset_of(field);
  if (!off) return off;
  auto desc = desc_of(field);
  if (!desc) return std::unexpected(desc.error());
  const uint32_t id = b_.range_map(std::move(map));
  return b_.emit_inst(Inst{Op::MaskRange, kNoReg, *off, *desc, id, 0});
}

Result<Reg> PayloadLowering::mask_strs(uint32_t field, const std::vector<StrPattern>& patterns,
                                       uint64_t base) {
  auto off = offset_of(field);
  if (!off) return off;
  auto desc = desc_of(field);
  if (!desc) return std::unexpected(desc.error());
  auto length = extent_reg(event_.fields[field].length, field);
  if (!length) return length;
  ir::StrMap map;
  map.base = base;
  for (const StrPattern& p : patterns) {
    auto pred = str_pred(*p.pred);
    if (!pred) return std::unexpected(pred.error());
    const uint32_t id = b_.str_pred(std::move(*pred));
    auto at = std::find(map.preds.begin(), map.preds.end(), id);
    if (at != map.preds.end()) {
      map.masks[size_t(at - map.preds.begin())] |= p.mask;
      continue;
    }
    map.preds.push_back(id);
    map.masks.push_back(p.mask);
  }
  const uint32_t id = b_.str_map(std::move(map));
  return b_.emit_inst(Inst{Op::MaskStrs, kNoReg, *off, *desc, id, *length});
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
