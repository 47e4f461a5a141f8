// compiler/check_absint.cc — abstract evaluation of IR programs (check_absint.h).
#include "compiler/check_absint.h"

#include <algorithm>

#include "runtime/tlg.h"

namespace pfc::internal {
namespace {

using ir::Cond;
using ir::Inst;
using ir::Op;
using Kind = AbstractValue::Kind;

AbstractValue constant(uint64_t v) { return {Kind::Const, v, ir::kNoReg, 0, {}}; }
AbstractValue unknown() { return {}; }

// The interval form of `field <cond> imm`.
IntervalSet cond_set(Cond c, uint64_t imm) {
  static constexpr PayloadOp kOps[] = {PayloadOp::Eq, PayloadOp::Ne, PayloadOp::Lt, PayloadOp::Le,
                                       PayloadOp::Gt, PayloadOp::Ge, PayloadOp::Lt, PayloadOp::Le,
                                       PayloadOp::Gt, PayloadOp::Ge};
  const auto i = static_cast<size_t>(c);
  IntervalSet s;
  IntervalSet::of_pred(kOps[i], i >= static_cast<size_t>(Cond::SLt), imm, 0, s);
  return s;
}

class Evaluator {
 public:
  Evaluator(const ir::Program& p, const KnownHeader& h) : p_(p), h_(h), r_(p.num_regs) {}

  std::vector<AbstractValue> run() {
    for (const Inst& in : p_.code) {
      if (in.dst == ir::kNoReg || in.dst >= r_.size()) continue;
      AbstractValue v = step(in);
      if (written_.size() < r_.size()) written_.resize(r_.size());
      // Registers are written once by lowering; a second write joins the two values.
      if (written_[in.dst] && !same(r_[in.dst], v)) v = unknown();
      written_[in.dst] = true;
      r_[in.dst] = std::move(v);
    }
    return std::move(r_);
  }

 private:
  static bool same(const AbstractValue& a, const AbstractValue& b) {
    return a.kind == b.kind && a.value == b.value && a.offset == b.offset && a.desc == b.desc &&
           a.set == b.set;
  }
  const AbstractValue& reg(uint32_t r) const {
    static const AbstractValue kUnknown;
    return r < r_.size() ? r_[r] : kUnknown;
  }
  IntervalSet domain(uint32_t desc) const {
    return desc < p_.fields.size() ? IntervalSet::domain(p_.fields[desc].type) : IntervalSet::all();
  }
  // A FieldBool, or the constant it is when its set is empty or the whole domain.
  AbstractValue field_bool(ir::Reg offset, uint32_t desc, const IntervalSet& set) const {
    const IntervalSet dom = domain(desc);
    const IntervalSet s = set.intersect(dom);
    if (s.empty()) return constant(0);
    if (s == dom) return constant(1);
    return {Kind::FieldBool, 0, offset, desc, s};
  }
  static bool same_field(const AbstractValue& a, const AbstractValue& b) {
    return a.kind == Kind::FieldBool && b.kind == Kind::FieldBool && a.offset == b.offset &&
           a.desc == b.desc;
  }

  AbstractValue bool_and(const AbstractValue& a, const AbstractValue& b) const {
    if (a.kind == Kind::Const && b.kind == Kind::Const) return constant(a.value & b.value);
    if (same_field(a, b)) return field_bool(a.offset, a.desc, a.set.intersect(b.set));
    if (truth(a) == false || truth(b) == false) return constant(0);
    if (a.kind == Kind::Const && a.value == 1) return b;
    if (b.kind == Kind::Const && b.value == 1) return a;
    return unknown();
  }
  AbstractValue bool_or(const AbstractValue& a, const AbstractValue& b) const {
    if (a.kind == Kind::Const && b.kind == Kind::Const) return constant(a.value | b.value);
    if (same_field(a, b)) return field_bool(a.offset, a.desc, a.set.unite(b.set));
    if (truth(a) == true || truth(b) == true) return constant(1);
    if (a.kind == Kind::Const && a.value == 0) return b;
    if (b.kind == Kind::Const && b.value == 0) return a;
    return unknown();
  }
  AbstractValue bool_not(const AbstractValue& a) const {
    if (a.kind == Kind::Const) return constant(a.value == 0 ? 1 : 0);
    if (a.kind == Kind::FieldBool) return field_bool(a.offset, a.desc, a.set.complement());
    return unknown();
  }

  AbstractValue in_set(const AbstractValue& a, uint32_t set) const {
    if (set >= p_.int_sets.size()) return unknown();
    const std::vector<uint64_t>& values = p_.int_sets[set].values;
    if (a.kind == Kind::Const)
      return constant(std::binary_search(values.begin(), values.end(), a.value) ? 1 : 0);
    if (a.kind != Kind::FieldValue) return unknown();
    IntervalSet s;
    for (uint64_t v : values) s = s.unite(IntervalSet::point(v));
    return field_bool(a.offset, a.desc, s);
  }

  // A mask table looked up with a known key (shifted right by `shift`, MaskByte's byte).
  AbstractValue mask_lookup(const AbstractValue& key, uint32_t map, uint32_t shift) const {
    if (key.kind != Kind::Const || map >= p_.mask_maps.size()) return unknown();
    const uint64_t k = shift == 0 ? key.value : (key.value >> shift) & 0xFF;
    return constant(p_.mask_maps[map].lookup(k));
  }

  AbstractValue step(const Inst& in) const {
    switch (in.op) {
      case Op::Const: return constant(in.imm);
      case Op::LoadHeader: {
        const auto& known = in.a < std::size(h_.fields) ? h_.fields[in.a] : std::nullopt;
        return known ? constant(*known) : unknown();
      }
      case Op::And: return bool_and(reg(in.a), reg(in.b));
      case Op::Or: return bool_or(reg(in.a), reg(in.b));
      case Op::Not: return bool_not(reg(in.a));
      case Op::AndImm: {
        const AbstractValue& a = reg(in.a);
        return a.kind == Kind::Const ? constant(a.value & in.imm) : unknown();
      }
      case Op::Cmp: {
        const AbstractValue& a = reg(in.a);
        const auto c = static_cast<Cond>(in.b);
        // One definition of the comparison: a constant is folded through its interval form.
        if (a.kind == Kind::Const)
          return constant(cond_set(c, in.imm).contains(IntervalSet::point(a.value)) ? 1 : 0);
        if (a.kind == Kind::FieldValue) return field_bool(a.offset, a.desc, cond_set(c, in.imm));
        return unknown();
      }
      case Op::InSet: return in_set(reg(in.a), in.b);
      case Op::LoadField: return {Kind::FieldValue, 0, in.a, in.b, {}};
      case Op::PredInt: {
        IntervalSet s;
        if (in.c >= p_.int_preds.size() || in.b >= p_.fields.size()) return unknown();
        const ir::IntPred& pred = p_.int_preds[in.c];
        if (!IntervalSet::of_pred(pred.op, in_type_is_signed(p_.fields[in.b].type), pred.lo,
                                  pred.hi, s))
          return unknown();
        return field_bool(in.a, in.b, s);
      }
      case Op::MaskMap: return mask_lookup(reg(in.a), in.b, 0);
      case Op::MaskByte: return mask_lookup(reg(in.a), in.c, 8 * in.b);
      case Op::MaskIf: {
        const AbstractValue& a = reg(in.a);
        if (a.kind == Kind::Const) return constant(a.value != 0 ? in.imm : 0);
        return in.imm == 1 && a.kind == Kind::FieldBool ? a : unknown();  // 0/1 stays 0/1
      }
      case Op::Select: {
        const AbstractValue& a = reg(in.a);
        if (a.kind == Kind::Const) return reg(a.value != 0 ? in.b : in.c);
        return same(reg(in.b), reg(in.c)) ? reg(in.b) : unknown();
      }
      default: return unknown();  // strings, GUIDs, skips, field-to-field comparisons
    }
  }

  const ir::Program& p_;
  const KnownHeader& h_;
  std::vector<AbstractValue> r_;
  std::vector<bool> written_;
};

}  // namespace

KnownHeader KnownHeader::of_event(const EventDescriptor& d) {
  KnownHeader h;
  auto set = [&](ir::HeaderField f, uint64_t v) { h.fields[static_cast<size_t>(f)] = v; };
  set(ir::HeaderField::Id, d.id);
  set(ir::HeaderField::Version, d.version);
  set(ir::HeaderField::Channel, d.channel);
  set(ir::HeaderField::Level, d.level);
  set(ir::HeaderField::Opcode, d.opcode);
  set(ir::HeaderField::Task, d.task);
  set(ir::HeaderField::Keyword, d.keyword);
  return h;
}

KnownHeader KnownHeader::of_tracelogging() {
  KnownHeader h;
  h.fields[static_cast<size_t>(ir::HeaderField::Id)] = 0;
  h.fields[static_cast<size_t>(ir::HeaderField::Version)] = 0;
  h.fields[static_cast<size_t>(ir::HeaderField::Channel)] = tlg::kChannel;
  return h;
}

std::optional<bool> truth(const AbstractValue& v) {
  if (v.kind == AbstractValue::Kind::Const) return v.value != 0;
  return std::nullopt;
}

std::vector<AbstractValue> evaluate_abstract(const ir::Program& p, const KnownHeader& header) {
  return Evaluator(p, header).run();
}

}  // namespace pfc::internal
