// tests/compiler/test_util.cc — helpers for the compiler tests (test_util.h).
#include "test_util.h"

namespace pfc::testing {

PayloadFilter filter(uint16_t id, std::vector<PayloadPredicate> preds, bool match_any,
                     bool group_all, uint8_t version) {
  PayloadFilter f;
  f.event_id = id;
  f.event_version = version;
  f.group_all = group_all;
  using Kind = PayloadExpr::Node::Kind;
  for (uint32_t i = 0; i < preds.size(); ++i) {
    f.expr.nodes.push_back({Kind::Pred, i, 0});
    f.expr.kids.push_back(i);
  }
  f.expr.preds = std::move(preds);
  if (f.expr.preds.size() > 1) {
    f.expr.nodes.push_back({match_any ? Kind::Or : Kind::And, 0, uint32_t(f.expr.preds.size())});
  } else {
    f.expr.kids.clear();
  }
  return f;
}

PayloadFilter not_filter(uint16_t id, PayloadPredicate p) {
  PayloadFilter f;
  f.event_id = id;
  using Kind = PayloadExpr::Node::Kind;
  f.expr.preds.push_back(std::move(p));
  f.expr.nodes.push_back({Kind::Pred, 0, 0});
  f.expr.kids.push_back(0);
  f.expr.nodes.push_back({Kind::Not, 0, 1});
  return f;
}

std::unique_ptr<Interpreter> compile(const ProgramSpec& spec) {
  auto prog = lower(spec);
  EXPECT_TRUE(prog.has_value()) << (prog ? "" : prog.error().message);
  if (!prog) return nullptr;
  auto ok = verify(*prog);
  EXPECT_TRUE(ok.has_value()) << (ok ? "" : ok.error().message) << "\n" << dump_ir(*prog);
  if (!ok) return nullptr;
  return std::make_unique<Interpreter>(std::move(*prog));
}

RouteResult route(const ProgramSpec& spec, const Event& e) {
  auto interp = compile(spec);
  if (!interp) return RouteResult{~uint64_t{0}, ~uint64_t{0}};  // fails any expectation
  return interp->route(e.view());
}

ProviderDef plain_provider(std::vector<uint16_t> ids) {
  ProviderDef p;
  p.name = "P";
  for (uint16_t id : ids) p.events.push_back(event_def("E" + std::to_string(id), id, 0, {}));
  return p;
}

ProgramSpec one_session(ProviderDef provider, EnableParams params) {
  ProgramSpec spec;
  spec.provider = std::move(provider);
  spec.sessions.push_back(SessionEntry{0, std::move(params)});
  return spec;
}

}  // namespace pfc::testing
