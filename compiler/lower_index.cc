// compiler/lower_index.cc — predicate indexing of one payload region (lower_index.h,
// docs/ir.md §4 "Predicate indexing").
#include "compiler/lower_index.h"

#include <algorithm>
#include <map>
#include <optional>

#include "base/payload_ops.h"
#include "compiler/check_interval.h"
#include "compiler/str_match.h"

namespace pfc::internal {

using ir::Reg;

namespace {

using Kind = PayloadExpr::Node::Kind;

uint64_t bit(uint32_t slot) { return uint64_t{1} << slot; }

// A term of a session's AND / OR: node `node` of `expr`, and, for an interval term, the
// field it tests and the values for which it holds (it is false on an undecodable field,
// like every predicate, docs/semantics.md §2.1); for a pattern term (`str`), the field and
// the predicate.
struct Term {
  const PayloadExpr* expr = nullptr;
  uint32_t node = 0;
  std::optional<uint32_t> field;
  IntervalSet set;
  const PayloadPredicate* str = nullptr;
};

// A session's result for the key: the OR (disj) or the AND of its terms.
struct Shape {
  bool disj = false;
  std::vector<Term> terms;
};

// A predicate an interval set describes: a non-field comparison (eq … notbetween) on a
// scalar integer field; anything the lowering would reject is left to it (nullopt).
std::optional<std::pair<uint32_t, IntervalSet>> interval_pred(const EventDef& ev,
                                                              const PayloadPredicate& p) {
  if (p.field >= ev.fields.size()) return std::nullopt;
  const FieldDef& f = ev.fields[p.field];
  if (!in_type_is_integer(f.type) || f.count.present() ||
      payload_value_kind(f.type) != ValueKind::Integer ||
      !payload_op_applies(ValueKind::Integer, p.op) ||
      payload_op_has(p.op, OpFlags(kListOp | kFieldOp)))
    return std::nullopt;
  IntervalSet set;
  if (!IntervalSet::of_pred(p.op, in_type_is_signed(f.type), p.value.lo, p.value.hi, set))
    return std::nullopt;
  return std::pair{p.field, std::move(set)};
}

bool kids_ok(const PayloadExpr& e, uint32_t k) {
  const PayloadExpr::Node& n = e.nodes[k];
  if (n.count == 0 || uint64_t(n.index) + n.count > e.kids.size()) return false;
  for (uint32_t j = 0; j < n.count; ++j)
    if (e.kids[n.index + j] >= k) return false;
  return true;
}

// Node k as an interval term: a predicate, or an AND / OR of predicates on one field (the
// checker's `in` / `not in`); nullopt for anything else.
std::optional<std::pair<uint32_t, IntervalSet>> interval_node(const EventDef& ev,
                                                              const PayloadExpr& e, uint32_t k) {
  const PayloadExpr::Node& n = e.nodes[k];
  if (n.kind == Kind::Pred)
    return n.index < e.preds.size() ? interval_pred(ev, e.preds[n.index]) : std::nullopt;
  if ((n.kind != Kind::And && n.kind != Kind::Or) || !kids_ok(e, k)) return std::nullopt;
  std::optional<std::pair<uint32_t, IntervalSet>> out;
  for (uint32_t j = 0; j < n.count; ++j) {
    const PayloadExpr::Node& kid = e.nodes[e.kids[n.index + j]];
    if (kid.kind != Kind::Pred || kid.index >= e.preds.size()) return std::nullopt;
    auto t = interval_pred(ev, e.preds[kid.index]);
    if (!t || (out && t->first != out->first)) return std::nullopt;
    if (!out) out = std::move(t);
    else if (n.kind == Kind::And) out->second = out->second.intersect(t->second);
    else out->second = out->second.unite(t->second);
  }
  return out;
}

// Node k as a pattern term: a CONTAINS, STARTSWITH, ENDSWITH, IS, MATCHES or REGEX
// predicate (or a `.cs` form) on a scalar string field; null for anything else.
const PayloadPredicate* pattern_node(const EventDef& ev, const PayloadExpr& e, uint32_t k) {
  const PayloadExpr::Node& n = e.nodes[k];
  if (n.kind != Kind::Pred || n.index >= e.preds.size()) return nullptr;
  const PayloadPredicate& p = e.preds[n.index];
  if (p.field >= ev.fields.size()) return nullptr;
  const FieldDef& f = ev.fields[p.field];
  if (f.count.present() || payload_value_kind(f.type) != ValueKind::String) return nullptr;
  return is_str_map_op(p.op) ? &p : nullptr;
}

// Appends the terms of node `root`: its children when it is a `want` node (AND for an AND
// shape, OR for an OR shape), else the node itself. False on a malformed expression.
bool add_terms(const EventDef& ev, const PayloadExpr& e, Kind want, std::vector<Term>& out) {
  if (e.empty()) return false;  // an empty expression (true) is left to the one-by-one path
  const uint32_t root = uint32_t(e.nodes.size() - 1);
  std::vector<uint32_t> nodes = {root};
  if (e.nodes[root].kind == want) {
    if (!kids_ok(e, root)) return false;
    const PayloadExpr::Node& n = e.nodes[root];
    nodes.assign(e.kids.begin() + n.index, e.kids.begin() + n.index + n.count);
  }
  for (uint32_t k : nodes) {
    Term t{&e, k, std::nullopt, {}};
    if (auto iv = interval_node(ev, e, k)) {
      t.field = iv->first;
      t.set = std::move(iv->second);
    } else if (const PayloadPredicate* p = pattern_node(ev, e, k)) {
      t.field = p->field;
      t.str = p;
    }
    out.push_back(std::move(t));
  }
  return true;
}

// docs/semantics.md §2.1 for one session's filters as one AND or OR of terms: only
// group=all filters (AND of all their terms), or only unmarked ones (one: its own AND or
// OR; several: the OR of their terms). Mixed groups: nullopt.
std::optional<Shape> shape_of(const EventDef& ev, const std::vector<const PayloadFilter*>& fs) {
  size_t all = 0;
  for (const PayloadFilter* f : fs) all += f->group_all ? 1 : 0;
  if (fs.empty() || (all != 0 && all != fs.size())) return std::nullopt;
  Shape s;
  s.disj = all == 0 &&
           (fs.size() > 1 || (!fs[0]->expr.empty() && fs[0]->expr.nodes.back().kind == Kind::Or));
  for (const PayloadFilter* f : fs)
    if (!add_terms(ev, f->expr, s.disj ? Kind::Or : Kind::And, s.terms)) return std::nullopt;
  return s;
}

// One indexed session: its slot, shape, the merged interval set per indexed integer
// field, the patterns per indexed string field (an AND session: one per field, the others
// stay terms), and which of its terms these take.
struct Indexed {
  uint32_t slot = 0;
  const Shape* shape = nullptr;
  std::map<uint32_t, IntervalSet> sets;
  std::map<uint32_t, std::vector<const PayloadPredicate*>> strs;
  std::vector<bool> used;
};

// The patterns of string field `field` over the indexed sessions: each pattern passes its
// session; `base`: the AND sessions without a pattern on the field (neutral, also when it
// is undecodable), as range_map's.
std::vector<PayloadLowering::StrPattern> str_patterns(uint32_t field,
                                                      const std::vector<Indexed>& sessions,
                                                      uint64_t& base) {
  std::vector<PayloadLowering::StrPattern> out;
  base = 0;
  for (const Indexed& s : sessions) {
    auto it = s.strs.find(field);
    if (it == s.strs.end()) {
      if (!s.shape->disj) base |= bit(s.slot);
      continue;
    }
    for (const PayloadPredicate* p : it->second) out.push_back({p, bit(s.slot)});
  }
  return out;
}

// The range map of `field` over the indexed sessions: bit s set where s's set holds (an
// AND session without a term on the field: everywhere; an OR session: nowhere), and on an
// undecodable field for the AND sessions without a term on it.
ir::RangeMap range_map(uint32_t field, const std::vector<Indexed>& sessions) {
  std::vector<uint64_t> cuts;
  for (const Indexed& s : sessions) {
    auto it = s.sets.find(field);
    if (it == s.sets.end()) continue;
    for (const auto& [lo, hi] : it->second.parts()) {
      cuts.push_back(lo);
      if (hi != ~uint64_t{0}) cuts.push_back(hi + 1);
    }
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  if (!cuts.empty() && cuts.front() == 0) cuts.erase(cuts.begin());
  ir::RangeMap map;
  auto mask_at = [&](uint64_t v) {
    uint64_t m = 0;
    for (const Indexed& s : sessions) {
      auto it = s.sets.find(field);
      if (it == s.sets.end() ? !s.shape->disj : it->second.holds(v)) m |= bit(s.slot);
    }
    return m;
  };
  map.masks.push_back(mask_at(0));
  for (uint64_t c : cuts) {
    const uint64_t m = mask_at(c);
    if (m == map.masks.back()) continue;  // merge intervals with one mask
    map.starts.push_back(c);
    map.masks.push_back(m);
  }
  for (const Indexed& s : sessions)
    if (!s.shape->disj && !s.sets.contains(field)) map.bad |= bit(s.slot);
  return map;
}

// The indexed sessions' results as one mask: (AND of their fields' masks & their other
// terms) for AND sessions, (OR of …) for OR sessions.
Result<MaskVal> indexed_mask(MaskLowering& ml, PayloadLowering& payload,
                             const std::vector<Indexed>& sessions,
                             const std::vector<uint32_t>& fields, IrBuilder& b) {
  uint64_t and_bits = 0, or_bits = 0;
  for (const Indexed& s : sessions) (s.shape->disj ? or_bits : and_bits) |= bit(s.slot);
  // The other terms first: a string predicate finds its field's end, which a later skip
  // to an indexed field behind it reuses (docs/jit.md).
  std::vector<std::pair<uint32_t, Reg>> and_rest, or_rest;
  for (const Indexed& s : sessions) {
    Reg acc = s.shape->disj ? kFalse : kTrue;
    bool any = false;
    for (size_t k = 0; k < s.shape->terms.size(); ++k) {
      const Term& t = s.shape->terms[k];
      if (s.used[k]) continue;
      auto r = payload.expr(*t.expr, t.node);
      if (!r) return std::unexpected(r.error());
      acc = s.shape->disj ? b.bool_or(acc, *r) : b.bool_and(acc, *r);
      any = true;
    }
    if (any) (s.shape->disj ? or_rest : and_rest).emplace_back(s.slot, acc);
  }
  MaskVal conj = ml.all(), disj = MaskVal::constant(0);
  for (uint32_t f : fields) {
    bool in_and = false, in_or = false, strs = false;
    for (const Indexed& s : sessions) {
      if (s.sets.contains(f) || s.strs.contains(f)) (s.shape->disj ? in_or : in_and) = true;
      strs = strs || s.strs.contains(f);
    }
    uint64_t base = 0;
    std::vector<PayloadLowering::StrPattern> patterns;
    if (strs) patterns = str_patterns(f, sessions, base);
    auto r =
        strs ? payload.mask_strs(f, patterns, base) : payload.mask_range(f, range_map(f, sessions));
    if (!r) return std::unexpected(r.error());
    if (in_and) conj = ml.bit_and(conj, MaskVal::of(*r));
    if (in_or) disj = ml.bit_or(disj, MaskVal::of(*r));
  }
  MaskVal out = MaskVal::constant(0);
  if (and_bits != 0) {
    MaskVal m = ml.bit_and(conj, ml.from_bools(and_rest, /*unlisted_pass=*/true));
    out = or_bits != 0 ? ml.bit_and(m, MaskVal::constant(and_bits)) : m;
  }
  if (or_bits != 0) {
    MaskVal m = ml.bit_or(disj, ml.from_bools(or_rest, /*unlisted_pass=*/false));
    out = ml.bit_or(out, and_bits != 0 ? ml.bit_and(m, MaskVal::constant(or_bits)) : m);
  }
  return out;
}

}  // namespace

Result<RegionFilters> lower_key_filters(IrBuilder& b, MaskLowering& ml, PayloadLowering& payload,
                                        const EventDef& event,
                                        const std::vector<KeyFilters>& sessions, bool indexing) {
  indexing = indexing && sessions.size() >= 2;  // nothing to share (the checker's dead-filter
                                                // analysis lowers one session per filter)
  std::vector<std::optional<Shape>> shapes(sessions.size());
  std::map<uint32_t, uint32_t> users;  // field → sessions with an interval term on it
  for (size_t i = 0; i < sessions.size() && indexing; ++i) {
    shapes[i] = shape_of(event, sessions[i].filters);
    if (!shapes[i]) continue;
    std::vector<uint32_t> seen;
    for (const Term& t : shapes[i]->terms)
      if (t.field && std::find(seen.begin(), seen.end(), *t.field) == seen.end())
        seen.push_back(*t.field);
    for (uint32_t f : seen) ++users[f];
  }
  std::vector<uint32_t> fields;  // indexed: tested by two sessions or more, ascending
  for (const auto& [f, n] : users)
    if (n >= 2) fields.push_back(f);
  RegionFilters out;
  std::vector<Indexed> indexed;
  for (size_t i = 0; i < sessions.size(); ++i) {
    Indexed s{sessions[i].slot, shapes[i] ? &*shapes[i] : nullptr, {}, {}, {}};
    if (s.shape) s.used.assign(s.shape->terms.size(), false);
    for (size_t k = 0; s.shape && k < s.shape->terms.size(); ++k) {
      const Term& t = s.shape->terms[k];
      if (!t.field || !std::binary_search(fields.begin(), fields.end(), *t.field)) continue;
      if (t.str) {
        std::vector<const PayloadPredicate*>& pats = s.strs[*t.field];
        if (!s.shape->disj && !pats.empty()) continue;
        pats.push_back(t.str);
        s.used[k] = true;
        continue;
      }
      s.used[k] = true;
      auto [it, added] = s.sets.try_emplace(*t.field, t.set);
      if (!added)
        it->second = s.shape->disj ? it->second.unite(t.set) : it->second.intersect(t.set);
    }
    if (!s.sets.empty() || !s.strs.empty()) {
      indexed.push_back(std::move(s));
      continue;
    }
    auto r = payload.session_filters(sessions[i].filters);
    if (!r) return std::unexpected(r.error());
    out.bools.emplace_back(sessions[i].slot, *r);
  }
  if (indexed.empty()) return out;
  auto m = indexed_mask(ml, payload, indexed, fields, b);
  if (!m) return std::unexpected(m.error());
  out.indexed = *m;
  return out;
}

}  // namespace pfc::internal
