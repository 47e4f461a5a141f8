// tests/compiler/random_test.cc — randomized self-check: random schemas, sessions and
// payload filters lower to programs that verify; random events route without faults, and
// the header-only rules agree with a direct oracle.
#include <random>

#include "base/ascii.h"
#include "test_util.h"

namespace pfc::testing {
namespace {

constexpr InType kTypes[] = {
    InType::Int8,     InType::UInt8,    InType::Int16,   InType::UInt16,        InType::Int32,
    InType::UInt32,   InType::Int64,    InType::UInt64,  InType::Boolean,       InType::HexInt32,
    InType::HexInt64, InType::FileTime, InType::Pointer, InType::UnicodeString, InType::AnsiString,
    InType::Guid,     InType::Binary,   InType::Sid,     InType::Double,        InType::SystemTime};

class Gen {
 public:
  explicit Gen(uint32_t seed) : rng_(seed) {}
  uint64_t below(uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }
  bool coin() { return below(2) == 0; }
  uint64_t bits() { return rng_(); }
  uint64_t small_or_bits() { return coin() ? below(8) : bits(); }

  std::vector<FieldDef> fields() {
    std::vector<FieldDef> out = {field("lead", InType::UInt32)};  // predicate() falls back to it
    size_t n = 2 + below(7);
    for (size_t i = 1; i < n; ++i) {
      InType t = kTypes[below(std::size(kTypes))];
      FieldDef f = field("f" + std::to_string(i), t);
      int src = scalar_int_before(out);
      if (t == InType::Binary || (in_type_is_string(t) && below(3) == 0)) {
        f.length = (src >= 0 && coin()) ? from(uint32_t(src)) : fixed(uint32_t(below(5)));
      }
      if (below(5) == 0)
        f.count = (src >= 0 && coin()) ? from(uint32_t(src)) : fixed(uint32_t(below(4)));
      out.push_back(f);
    }
    return out;
  }

  PayloadPredicate predicate(const std::vector<FieldDef>& fields) {
    for (int tries = 0; tries < 20; ++tries) {
      uint32_t i = uint32_t(below(fields.size()));
      const FieldDef& f = fields[i];
      if (f.count.present()) continue;
      if (in_type_is_integer(f.type)) {
        auto op = static_cast<PayloadOp>(below(9));
        uint64_t lo = small_or_bits(), hi = small_or_bits();
        if (op == PayloadOp::Modulo && lo == 0) lo = 3;
        return pred(i, op, lo, hi);
      }
      if (in_type_is_string(f.type)) {
        const PayloadOp ops[] = {PayloadOp::Contains, PayloadOp::DoesntContain, PayloadOp::Is,
                                 PayloadOp::IsNot};
        return pred_str(i, ops[below(4)], std::string(below(3), char('a' + below(3))));
      }
      if (f.type == InType::Guid)
        return pred_guid(i, coin() ? PayloadOp::Is : PayloadOp::IsNot, Guid{});
    }
    return pred(0, PayloadOp::Eq, 0);  // caller guarantees field 0 is uint32
  }

  // A random expression tree in post-order.
  PayloadExpr expr(const std::vector<FieldDef>& fields) {
    PayloadExpr e;
    using Kind = PayloadExpr::Node::Kind;
    std::vector<uint32_t> open;  // roots not yet used as children
    size_t steps = 1 + below(8);
    for (size_t s = 0; s < steps || open.size() != 1; ++s) {
      uint64_t pick = open.empty() ? 0 : below(4);
      if (pick <= 1 && s < steps) {
        e.preds.push_back(predicate(fields));
        open.push_back(uint32_t(e.nodes.size()));
        e.nodes.push_back({Kind::Pred, uint32_t(e.preds.size() - 1), 0});
      } else if (pick == 2 && s < steps) {
        uint32_t kid = open.back();
        open.pop_back();
        e.nodes.push_back({Kind::Not, uint32_t(e.kids.size()), 1});
        e.kids.push_back(kid);
        open.push_back(uint32_t(e.nodes.size() - 1));
      } else {
        size_t n = std::min<size_t>(open.size(), 1 + below(3));
        uint32_t first = uint32_t(e.kids.size());
        for (size_t k = 0; k < n; ++k) e.kids.push_back(open[open.size() - n + k]);
        open.resize(open.size() - n);
        e.nodes.push_back({coin() ? Kind::And : Kind::Or, first, uint32_t(n)});
        open.push_back(uint32_t(e.nodes.size() - 1));
      }
    }
    return e;
  }

 private:
  int scalar_int_before(const std::vector<FieldDef>& fs) {
    for (int k = int(fs.size()) - 1; k >= 0; --k) {
      if (in_type_is_integer(fs[k].type) && !fs[k].count.present() && fs[k].type != InType::Int64)
        return k;
    }
    return -1;
  }
  std::mt19937_64 rng_;
};

EnableParams random_params(Gen& g, const ProviderDef& prov) {
  EnableParams p;
  p.level = uint8_t(g.below(3) == 0 ? 0 : g.below(6));
  p.any = g.coin() ? 0 : g.bits() & 0xFF;
  p.all = g.coin() ? 0 : g.bits() & 0x0F;
  p.properties = uint32_t(g.below(4) == 0 ? enable_property::kIgnoreKeyword0 : 0) |
                 uint32_t(g.coin() ? enable_property::kStackTrace : 0);
  if (g.below(4) == 0) p.pids = std::vector<uint32_t>{uint32_t(g.below(4)), uint32_t(g.below(4))};
  if (g.below(4) == 0) p.exe_names = std::vector<std::string>{"a.exe", "B.EXE"};
  if (g.below(4) == 0)
    p.event_ids = EventIdFilter{g.coin(), {uint16_t(g.below(4)), uint16_t(g.below(4))}};
  if (g.below(5) == 0)
    p.event_names = EventNameFilter{uint8_t(g.below(4)), g.below(4), 0, g.coin(), {"E1"}};
  if (g.below(5) == 0) p.stack_ids = EventIdFilter{g.coin(), {uint16_t(g.below(4))}};
  if (g.below(5) == 0)
    p.stack_level_kw = LevelKeywordFilter{uint8_t(g.below(4)), g.below(4), 0, g.coin()};
  size_t nf = g.below(4);
  for (size_t k = 0; k < nf; ++k) {
    const EventDef& ev = prov.events[g.below(prov.events.size())];
    PayloadFilter f;
    f.event_id = ev.desc.id;
    f.event_version = ev.desc.version;
    f.group_all = g.coin();
    f.expr = g.expr(ev.fields);
    p.payload.push_back(std::move(f));
  }
  return p;
}

// Direct statement of docs/semantics.md §1.1–§1.4 (sessions without payload or name filters).
bool header_oracle(const EnableParams& p, const Event& e) {
  const EventDescriptor& d = e.desc;
  if (p.level != 0 && d.level != 0 && d.level > p.level) return false;
  if (d.keyword == 0) {
    if (p.properties & enable_property::kIgnoreKeyword0) return false;
  } else {
    uint64_t any = p.any == 0 ? ~uint64_t{0} : p.any;
    if ((d.keyword & any) == 0) return false;
    if (p.any != 0 && (d.keyword & p.all) != p.all) return false;
  }
  if (p.pids && std::find(p.pids->begin(), p.pids->end(), e.pid) == p.pids->end()) return false;
  if (p.exe_names) {
    std::string exe = e.exe.substr(
        e.exe.find_last_of("/\\") == std::string::npos ? 0 : e.exe.find_last_of("/\\") + 1);
    bool found = false;
    for (const std::string& n : *p.exe_names) {
      found |= iequals_ascii(n, exe);
    }
    if (!found) return false;
  }
  if (p.event_ids) {
    bool listed =
        std::find(p.event_ids->ids.begin(), p.event_ids->ids.end(), d.id) != p.event_ids->ids.end();
    if (listed != p.event_ids->filter_in) return false;
  }
  return true;
}

TEST(RandomSelfCheck, LoweringVerifiesAndRoutesAgree) {
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    Gen g(seed);
    ProviderDef prov;
    prov.name = "R";
    for (uint16_t id = 0; id < 4; ++id) {
      std::vector<FieldDef> fs = g.fields();
      prov.events.push_back(
          event_def("E" + std::to_string(id), id, uint8_t(g.below(2)), std::move(fs)));
    }
    ProgramSpec spec;
    spec.provider = prov;
    size_t n = 1 + g.below(8);
    uint64_t used = 0;
    for (size_t k = 0; k < n; ++k) {
      uint32_t slot = uint32_t(g.below(64));
      if (used & (uint64_t{1} << slot)) continue;
      used |= uint64_t{1} << slot;
      spec.sessions.emplace_back(slot, random_params(g, prov));
    }
    auto prog = lower(spec);
    ASSERT_TRUE(prog.has_value()) << "seed " << seed << ": " << prog.error().message;
    auto ok = verify(*prog);
    ASSERT_TRUE(ok.has_value()) << "seed " << seed << ": " << ok.error().message << "\n"
                                << dump_ir(*prog);
    auto again = lower(spec);
    ASSERT_EQ(dump_ir(*again), dump_ir(*prog)) << "lowering is not deterministic, seed " << seed;
    Interpreter interp(std::move(*prog));
    for (int k = 0; k < 30; ++k) {
      Event e = event(uint16_t(g.below(5)), uint8_t(g.below(7)), g.coin() ? 0 : g.bits() & 0xFF, {},
                      uint8_t(g.below(2)));
      e.pid = uint32_t(g.below(4));
      e.exe = g.coin() ? "C:\\x\\A.exe" : "/bin/b.exe";
      e.name = g.coin() ? "E1" : "E2";
      size_t len = g.below(40);
      for (size_t b = 0; b < len; ++b) e.payload.push_back(uint8_t(g.below(3) == 0 ? 0 : g.bits()));
      RouteResult r = interp.route(e.view());
      EXPECT_EQ(r.stack & ~r.deliver, 0u);
      for (const SessionEntry& s : spec.sessions) {
        const EnableParams& p = *s.params;
        if (!p.payload.empty() || p.event_names) continue;
        bool want = header_oracle(p, e);
        EXPECT_EQ((r.deliver >> s.slot) & 1, want ? 1u : 0u)
            << "seed " << seed << " slot " << s.slot;
      }
    }
  }
}

}  // namespace
}  // namespace pfc::testing
