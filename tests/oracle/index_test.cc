// tests/oracle/index_test.cc — predicate indexing (docs/ir.md §4 "Predicate indexing"):
// random multi-session specs whose integer payload predicates share fields (every
// interval operator, `in` / `not in`, values at the types' edges, empty and full sets,
// mixed with strings, `modulo`, `not`, field-to-field, all / any groups and mixed groups),
// routed on whole and truncated payloads. The indexed lowering, the lowering without
// indexing and the JIT (O0, O1, O2) of the indexed one must all give the oracle's masks,
// and `pfc run --explain`'s first failed check must be the same with and without indexing.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "compiler/jit/jit.h"
#include "tests/oracle/lowering_check.h"

namespace pfc {
namespace {

using Kind = PayloadExpr::Node::Kind;

constexpr uint16_t kId = 7;
// Field types of the filtered event: integer fields of every width and signedness, a
// string, and an integer field behind the string (its offset is a skip).
const InType kFields[] = {InType::UInt32,        InType::Int8,  InType::UInt16, InType::Int32,
                          InType::UInt64,        InType::Int64, InType::UInt8,  InType::Int16,
                          InType::UnicodeString, InType::UInt32};
constexpr uint32_t kString = 8;

unsigned bytes_of(InType t) { return in_type_fixed_size(t); }

uint64_t extend(uint64_t raw, InType t) {
  const unsigned bits = 8 * bytes_of(t);
  if (bits == 64) return raw;
  raw &= (uint64_t{1} << bits) - 1;
  if (in_type_is_signed(t) && (raw >> (bits - 1)) != 0) raw |= ~uint64_t{0} << bits;
  return raw;
}

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}
  uint64_t below(uint64_t n) { return rng_() % n; }

  // A value of field type t: an edge (0, ±1, min, max, min+1, max−1) or a small or any value.
  uint64_t value(InType t) {
    const unsigned bits = 8 * bytes_of(t);
    const bool sg = in_type_is_signed(t);
    const uint64_t max = sg ? (uint64_t{1} << (bits - 1)) - 1
                            : (bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
    const uint64_t min = sg ? extend(uint64_t{1} << (bits - 1), t) : 0;
    const uint64_t choices[] = {0, 1, extend(~uint64_t{0}, t), min, max, min + 1, max - 1};
    switch (below(3)) {
      case 0: return choices[below(std::size(choices))];
      case 1: return extend(below(40), t) - (sg ? 20 : 0);
      default: return extend(rng_(), t);
    }
  }

  ProgramSpec spec() {
    ProgramSpec spec;
    EventDef ev{"E", {kId, 0, 0, 4, 0, 0, 0}, {}};
    for (size_t i = 0; i < std::size(kFields); ++i)
      ev.fields.push_back(FieldDef{"f" + std::to_string(i), kFields[i], {}, {}});
    spec.provider.name = "P";
    spec.provider.events = {ev, EventDef{"Other", {kId + 1, 0, 0, 4, 0, 0, 0}, {}}};
    // A few fields per case, so that sessions share them.
    hot_ = {uint32_t(below(3)), uint32_t(3 + below(3)), uint32_t(6 + below(2)), 9};
    const uint32_t sessions = 2 + uint32_t(below(7));
    for (uint32_t s = 0; s < sessions; ++s) {
      EnableParams p;
      const uint64_t mode = below(6);  // 0-1 all, 2 any-and, 3 any-or, 4 several any, 5 mixed
      const int filters = mode == 0 || mode >= 4 ? 1 + int(below(2)) + (mode >= 4) : 1;
      for (int f = 0; f < filters; ++f) {
        PayloadFilter pf;
        pf.event_id = kId;
        pf.group_all = mode <= 1 || (mode == 5 && f == 0);
        pf.expr = expr(mode == 3 || (mode >= 4 && below(2)) ? Kind::Or : Kind::And);
        p.payload.push_back(std::move(pf));
      }
      spec.sessions.emplace_back(s * 3 % 64, std::move(p));
    }
    return spec;
  }

  Event event() {
    Event e;
    e.desc = {uint16_t(below(10) == 0 ? kId + 1 : kId), 0, 0, 4, 0, 0, 0};
    for (InType t : kFields) {
      if (t == InType::UnicodeString) {
        for (char c : std::string(below(2) ? "k1" : "xk2y"))
          e.payload.push_back(uint8_t(c)), e.payload.push_back(0);
        e.payload.push_back(0), e.payload.push_back(0);
        continue;
      }
      const uint64_t v = value(t);
      for (unsigned i = 0; i < bytes_of(t); ++i) e.payload.push_back(uint8_t(v >> (8 * i)));
    }
    if (below(3) == 0) e.payload.resize(below(e.payload.size() + 1));
    return e;
  }

 private:
  PayloadPredicate int_pred(uint32_t field) {
    const InType t = kFields[field];
    static const PayloadOp kOps[] = {PayloadOp::Eq,      PayloadOp::Ne,        PayloadOp::Lt,
                                     PayloadOp::Le,      PayloadOp::Gt,        PayloadOp::Ge,
                                     PayloadOp::Between, PayloadOp::NotBetween};
    PayloadPredicate p{field, kOps[below(std::size(kOps))], {value(t), value(t), "", {}}};
    if (below(12) == 0) p.op = PayloadOp::Modulo, p.value.lo = 1 + below(7);
    return p;
  }

  // One term: an integer predicate on a hot field (mostly), an `in` / `not in` list, a
  // string predicate, a field-to-field comparison or a `not`.
  uint32_t term(PayloadExpr& e) {
    const uint64_t k = below(14);
    const uint32_t field = hot_[below(hot_.size())];
    if (k < 8) return pred(e, int_pred(field));
    if (k < 10) {  // in / not in
      const bool in = k == 8;
      std::vector<uint32_t> kids;
      for (uint64_t n = 1 + below(3); n > 0; --n)
        kids.push_back(pred(
            e, {field, in ? PayloadOp::Eq : PayloadOp::Ne, {value(kFields[field]), 0, "", {}}}));
      return join(e, in ? Kind::Or : Kind::And, kids);
    }
    if (k == 10) return pred(e, {kString, PayloadOp::Contains, {0, 0, below(2) ? "k1" : "k", {}}});
    if (k == 11) return pred(e, {0, PayloadOp::FieldGt, {2, 0, "", {}}});  // f0 > f2 (unsigned)
    if (k == 12) return join(e, Kind::Not, {pred(e, int_pred(field))});
    return join(e, Kind::Or, {pred(e, int_pred(field)), pred(e, int_pred(hot_[0]))});
  }

  PayloadExpr expr(Kind root) {
    PayloadExpr e;
    std::vector<uint32_t> kids;
    for (uint64_t n = 1 + below(4); n > 0; --n) kids.push_back(term(e));
    if (kids.size() > 1) join(e, root, kids);
    return e;
  }

  static uint32_t pred(PayloadExpr& e, PayloadPredicate p) {
    e.preds.push_back(std::move(p));
    e.nodes.push_back({Kind::Pred, uint32_t(e.preds.size() - 1), 0});
    return uint32_t(e.nodes.size() - 1);
  }
  static uint32_t join(PayloadExpr& e, Kind kind, const std::vector<uint32_t>& kids) {
    e.nodes.push_back({kind, uint32_t(e.kids.size()), uint32_t(kids.size())});
    e.kids.insert(e.kids.end(), kids.begin(), kids.end());
    return uint32_t(e.nodes.size() - 1);
  }

  std::mt19937_64 rng_;
  std::vector<uint32_t> hot_;
};

bool has_mask_range(const ir::Program& p) {
  for (const ir::Inst& in : p.code)
    if (in.op == ir::Op::MaskRange) return true;
  return false;
}

// Every engine against the oracle on `events`, with and without indexing; the number of
// events something disagreed on.
int check_case(const ProgramSpec& spec, const std::vector<Event>& events, bool jit,
               const std::string& what) {
  std::vector<EventView> views;
  views.reserve(events.size());
  for (const Event& e : events) views.push_back(e.view());
  return check_lowerings(spec, views, LowerOptions{}, LowerOptions{false}, jit, what);
}

TEST(PredicateIndex, RandomSpecsAgreeWithOracle) {
  int indexed = 0, failures = 0;
  const bool jit = Jit::shared().has_value();
  for (uint64_t seed = 1; seed <= 300 && failures < 3; ++seed) {
    Gen g(seed);
    const ProgramSpec spec = g.spec();
    std::vector<Event> events;
    events.reserve(60);
    for (int i = 0; i < 60; ++i) events.push_back(g.event());
    auto prog = lower(spec);
    ASSERT_TRUE(prog.has_value()) << prog.error().message;
    indexed += has_mask_range(*prog);
    failures += check_case(spec, events, jit && seed % 3 == 0, "seed " + std::to_string(seed)) > 0;
  }
  EXPECT_GT(indexed, 150);  // most cases index some field
}

// IntPayload8's shape (bench/limit/payload_workloads.cc): three indexed fields, no pred.int.
TEST(PredicateIndex, IntPayload8ShapeIsIndexed) {
  ProgramSpec spec;
  spec.provider.name = "Io";
  spec.provider.events = {EventDef{
      "Io",
      {10, 0, 0, 4, 0, 0, 0},
      {FieldDef{"Status", InType::UInt32, {}, {}}, FieldDef{"Bytes", InType::UInt64, {}, {}},
       FieldDef{"Flags", InType::UInt16, {}, {}}, FieldDef{"Latency", InType::UInt32, {}, {}}}}};
  for (uint32_t s = 0; s < 8; ++s) {
    PayloadFilter f{10, 0, false, {}};
    f.expr.preds = {{0, s % 2 ? PayloadOp::Eq : PayloadOp::Ne, {s % 2 ? 200u : 0u, 0, "", {}}},
                    {1, PayloadOp::Between, {512 * (s + 1), 1 << 20, "", {}}},
                    {3, PayloadOp::Gt, {100 + 25 * s, 0, "", {}}}};
    f.expr.nodes = {{Kind::Pred, 0, 0}, {Kind::Pred, 1, 0}, {Kind::Pred, 2, 0}, {Kind::And, 0, 3}};
    f.expr.kids = {0, 1, 2};
    EnableParams p;
    p.payload = {std::move(f)};
    spec.sessions.emplace_back(s, std::move(p));
  }
  auto prog = lower(spec);
  ASSERT_TRUE(prog.has_value());
  int ranges = 0, preds = 0;
  for (const ir::Inst& in : prog->code) {
    ranges += in.op == ir::Op::MaskRange;
    preds += in.op == ir::Op::PredInt;
  }
  EXPECT_EQ(ranges, 3);
  EXPECT_EQ(preds, 0);
  // Without indexing: one pred.int per distinct predicate (2 + 8 + 8).
  auto plain = lower(spec, LowerOptions{false});
  ASSERT_TRUE(plain.has_value());
  EXPECT_FALSE(has_mask_range(*plain));
  std::mt19937_64 rng(18);
  std::vector<Event> events;
  for (int i = 0; i < 400; ++i) {
    Event e;
    e.desc = {10, 0, 0, 4, 0, 0, 0};
    const uint64_t status[] = {0, 200, 199, 201, rng()};
    const uint64_t v[] = {status[rng() % 5], rng() >> (43 + rng() % 21), rng(), 100 + rng() % 200};
    const unsigned width[] = {4, 8, 2, 4};
    for (int f = 0; f < 4; ++f)
      for (unsigned b = 0; b < width[f]; ++b) e.payload.push_back(uint8_t(v[f] >> (8 * b)));
    if (rng() % 3 == 0) e.payload.resize(rng() % (e.payload.size() + 1));
    events.push_back(std::move(e));
  }
  EXPECT_EQ(check_case(spec, events, Jit::shared().has_value(), "IntPayload8"), 0);
}

// One session: nothing to share, so the program is the one without indexing.
TEST(PredicateIndex, OneSessionProgramUnchanged) {
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    Gen g(seed);
    ProgramSpec spec = g.spec();
    spec.sessions.resize(1);
    auto a = lower(spec), b = lower(spec, LowerOptions{false});
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->code.size(), b->code.size()) << "seed " << seed;
    EXPECT_FALSE(has_mask_range(*a)) << "seed " << seed;
  }
}

}  // namespace
}  // namespace pfc
