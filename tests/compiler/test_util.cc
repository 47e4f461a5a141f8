// tests/compiler/test_util.cc — helpers for the compiler tests (test_util.h).
#include "test_util.h"
#include "compiler/str_match.h"
#include "runtime/tdh.h"

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

ProviderDef plain_provider(const std::vector<uint16_t>& ids) {
  ProviderDef p;
  p.name = "P";
  for (uint16_t id : ids) p.events.push_back(event_def("E" + std::to_string(id), id, 0, {}));
  return p;
}

ProgramSpec one_session(ProviderDef provider, EnableParams params) {
  ProgramSpec spec;
  spec.provider = std::move(provider);
  spec.sessions.emplace_back(0, std::move(params));
  return spec;
}

ProgramSpec hs_spec(uint32_t literals, bool narrow) {
  ProgramSpec s;
  s.provider.name = "P";
  s.provider.events.push_back(event_def("Wide", 1, 0, {field("Name", InType::UnicodeString)}));
  if (narrow)
    s.provider.events.push_back(event_def("Narrow", 2, 0, {field("Text", InType::AnsiString)}));
  const std::pair<PayloadOp, std::string> hard[] = {{PayloadOp::Matches,
                                                     "*stra\xc3\x9f"
                                                     "e*"},
                                                    {PayloadOp::ContainsCs, "\xc3\x89LAN"},
                                                    {PayloadOp::Contains,
                                                     "\xe2\x84\xaa"
                                                     "elvin"},
                                                    {PayloadOp::MatchesCs, "[A-Z]?ser*"},
                                                    {PayloadOp::Regex, "u.er[0-9]"},
                                                    {PayloadOp::EndsWith, "\xcf\x83"}};
  for (uint32_t slot = 0; slot < 6; ++slot) {
    EnableParams p;
    const uint16_t ids = narrow ? 2 : 1;
    for (uint16_t id = 1; id <= ids; ++id) {
      std::vector<PayloadPredicate> preds{pred_str(0, hard[slot].first, hard[slot].second)};
      for (uint32_t i = 0; i < literals; ++i)
        preds.push_back(pred_str(0, i % 2 ? PayloadOp::ContainsCs : PayloadOp::Contains,
                                 "w" + std::to_string(slot) + "_" + std::to_string(i)));
      p.payload.push_back(filter(id, preds, true));
    }
    s.sessions.emplace_back(slot, p);
  }
  return s;
}

void expect_str_maps_exact(const ir::Program& prog, std::initializer_list<const char16_t*> texts) {
  for (const ir::StrMap& map : prog.str_maps) {
    for (const char16_t* text : texts) {
      const std::vector<uint8_t> payload = Bytes().wstr(text).data;
      uint64_t next = 0, next_each = 0;
      EXPECT_EQ(pfc_ir_mask_strs_next(payload.data(), payload.size(), 0, 1, PFC_TDH_NO_LENGTH, &map,
                                      &next),
                pfc_ir_mask_strs_each(payload.data(), payload.size(), 0, 1, PFC_TDH_NO_LENGTH, &map,
                                      prog.str_preds.data(), &next_each));
      EXPECT_EQ(next, next_each);
    }
  }
}

}  // namespace pfc::testing
