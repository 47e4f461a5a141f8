// fuzz/native_file/hsdb_program.h — the program whose string databases the native_file
// fuzzer loads fuzzed `prog-KEY.hsdb` bytes into (compiler/hs_image.h): one UTF-16 field
// with globs, non-ASCII and ASCII literals of both case rules, so both of its map's
// Hyperscan databases exist (small ones: a refused database is compiled for each input).
// tests/jit/make_fuzz_seeds writes the compile service's file of it as a seed.
#pragma once

#include <string>
#include <utility>

#include "compiler/lower.h"

namespace pfc::fuzz {

inline ProgramSpec hsdb_spec() {
  ProgramSpec s;
  s.provider.name = "HsdbFuzz";
  EventDef e;
  e.name = "E";
  e.desc.id = 1;
  FieldDef f;
  f.name = "s";
  f.type = InType::UnicodeString;
  e.fields.push_back(f);
  s.provider.events.push_back(e);
  const std::pair<PayloadOp, const char*> hard[] = {{PayloadOp::Matches,
                                                     "*stra\xc3\x9f"
                                                     "e*"},
                                                    {PayloadOp::ContainsCs, "\xc3\x89LAN"},
                                                    {PayloadOp::MatchesCs, "[A-Z]?ser*"}};
  for (uint32_t slot = 0; slot < 3; ++slot) {
    PayloadFilter filter;
    filter.event_id = 1;
    using Kind = PayloadExpr::Node::Kind;
    for (uint32_t i = 0; i < 4; ++i) {
      PayloadPredicate p;
      p.field = 0;
      p.op = i == 0 ? hard[slot].first : i % 2 ? PayloadOp::ContainsCs : PayloadOp::Contains;
      p.value.text = i == 0 ? hard[slot].second : "w" + std::to_string(slot * 4 + i);
      filter.expr.preds.push_back(p);
      filter.expr.nodes.push_back({Kind::Pred, i, 0});
      filter.expr.kids.push_back(i);
    }
    filter.expr.nodes.push_back({Kind::Or, 0, uint32_t(filter.expr.preds.size())});
    EnableParams params;
    params.payload.push_back(filter);
    s.sessions.emplace_back(slot, params);
  }
  return s;
}

// The program lowered: with its databases compiled (the service's), or deferred (a
// provider's, to be installed from a file).
inline ir::Program hsdb_program(bool defer) {
  LowerOptions o;
  o.defer_string_databases = defer;
  auto prog = lower(hsdb_spec(), o);
  return prog ? std::move(*prog) : ir::Program{};
}

}  // namespace pfc::fuzz
