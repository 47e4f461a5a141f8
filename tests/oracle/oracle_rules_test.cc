// tests/oracle/oracle_rules_test.cc — the oracle on hand-worked cases, one per rule of
// docs/semantics.md (so a wrong oracle cannot silently agree with a wrong engine): expected
// masks are derived by hand from the spec text in each row's comment.
#include <gtest/gtest.h>

#include "tests/oracle/oracle.h"

namespace pfc {
namespace {

std::vector<uint8_t> u16z(std::u16string_view s) {
  std::vector<uint8_t> b;
  for (char16_t c : s) b.push_back(uint8_t(c)), b.push_back(uint8_t(c >> 8));
  b.push_back(0), b.push_back(0);
  return b;
}
void u32(std::vector<uint8_t>& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
}

// The EnableTraceEx2 example (examples/etw-sample.pfs).
ProviderDef example_provider() {
  ProviderDef p;
  p.name = "Example-Provider";
  EventDef e1{"Example_Event_1",
              {},
              {{"Initiator", InType::UnicodeString, {}, {}}, {"Level", InType::UInt32, {}, {}}}};
  e1.desc.id = 1, e1.desc.level = 1;
  p.events.push_back(e1);
  return p;
}

SessionEntry example_session() {
  SessionEntry s{0, {}};
  s.edit().level = 5;
  PayloadFilter f{1, 0, false, {}};
  PayloadValue user;
  user.text = "User";
  PayloadValue range;
  range.lo = 7, range.hi = 16;
  f.expr.preds = {{0, PayloadOp::Is, user}, {1, PayloadOp::Between, range}};
  f.expr.nodes = {{PayloadExpr::Node::Kind::Pred, 0, 0},
                  {PayloadExpr::Node::Kind::Pred, 1, 0},
                  {PayloadExpr::Node::Kind::And, 0, 2}};
  f.expr.kids = {0, 1};
  s.edit().payload.push_back(f);
  return s;
}

Event example_event(std::u16string_view who, uint32_t level) {
  Event e;
  e.desc.id = 1, e.desc.level = 1;
  e.payload = u16z(who);
  u32(e.payload, level);
  return e;
}

TEST(OracleRules, PayloadExampleFromTheDocs) {
  const ProviderDef p = example_provider();
  const std::vector<SessionEntry> s = {example_session()};
  // Initiator is "User" (case-insensitive) and Level in [7, 16] → delivered.
  EXPECT_EQ(oracle_route(p, s, example_event(u"uSER", 7).view()).deliver, 1u);
  EXPECT_EQ(oracle_route(p, s, example_event(u"User", 17).view()).deliver, 0u);
  EXPECT_EQ(oracle_route(p, s, example_event(u"Users", 10).view()).deliver, 0u);
  // Truncated Level: the predicate is false (§2.1) → not delivered.
  Event cut = example_event(u"User", 10);
  cut.payload.resize(cut.payload.size() - 1);
  EXPECT_EQ(oracle_route(p, s, cut.view()).deliver, 0u);
  // Another event id is not named by a payload filter → passes (§2.1).
  Event other = example_event(u"x", 0);
  other.desc.id = 2;
  EXPECT_EQ(oracle_route(p, s, other.view()).deliver, 1u);
  // Level 6 > session level 5 → rejected by rule 1.
  Event loud = example_event(u"User", 8);
  loud.desc.level = 6;
  EXPECT_EQ(oracle_route(p, s, loud.view()).deliver, 0u);
}

TEST(OracleRules, UndecodableIsFalseEvenForNegations) {
  ProviderDef p = example_provider();
  SessionEntry s{3, {}};
  PayloadFilter f{1, 0, false, {}};
  PayloadValue zero;
  f.expr.preds = {{1, PayloadOp::Ne, zero}};
  f.expr.nodes = {{PayloadExpr::Node::Kind::Pred, 0, 0}};
  s.edit().payload.push_back(f);
  Event e = example_event(u"no terminator", 1);
  e.payload.resize(6);  // the string's NUL is gone
  EXPECT_EQ(oracle_route(p, {s}, e.view()).deliver, 0u);
  EXPECT_EQ(oracle_route(p, {s}, example_event(u"", 1).view()).deliver, 8u);
  EXPECT_EQ(oracle_route(p, {s}, example_event(u"", 0).view()).deliver, 0u);
}

struct KeywordRow {
  uint64_t event_kw, any, all;
  uint32_t props;
  bool delivered;
};

TEST(OracleRules, Keywords) {
  const KeywordRow rows[] = {
      {0, 0x1, 0, 0, true},                                // keyword 0 passes
      {0, 0, 0, enable_property::kIgnoreKeyword0, false},  // ... unless IGNORE_KEYWORD_0
      {0x2, 0x1, 0, 0, false},                             // no common bit
      {0x3, 0x1, 0x3, 0, true},                            // any and all
      {0x1, 0x1, 0x3, 0, false},                           // all not covered
      {0x1, 0, 0x3, 0, true},                              // all ignored when any == 0
  };
  ProviderDef p;
  for (const KeywordRow& r : rows) {
    SessionEntry s{0, {}};
    s.edit().any = r.any, s.edit().all = r.all, s.edit().properties = r.props;
    Event e;
    e.desc.keyword = r.event_kw;
    EXPECT_EQ(oracle_route(p, {s}, e.view()).deliver != 0, r.delivered)
        << r.event_kw << " " << r.any << " " << r.all;
  }
}

TEST(OracleRules, ScopeIdsAndStacks) {
  ProviderDef p;
  SessionEntry s{1, {}};
  s.edit().exe_names = std::vector<std::string>{"a.exe"};
  s.edit().event_ids = EventIdFilter{false, {7}};
  s.edit().properties = enable_property::kStackTrace;
  s.edit().stack_ids = EventIdFilter{true, {2}};
  Event e;
  e.exe = "C:\\bin\\A.EXE";
  e.desc.id = 2;
  EXPECT_EQ(oracle_route(p, {s}, e.view()), (RouteResult{2, 2}));
  e.desc.id = 3;  // delivered, but the stack filter keeps only id 2
  EXPECT_EQ(oracle_route(p, {s}, e.view()), (RouteResult{2, 0}));
  e.desc.id = 7;  // dropped by event_id not in 7
  EXPECT_EQ(oracle_route(p, {s}, e.view()), (RouteResult{0, 0}));
  e.desc.id = 2;
  e.exe = "/bin/\xC3\x81.exe";  // non-ASCII is not folded
  s.edit().exe_names = std::vector<std::string>{"\xC3\xA1.exe"};
  EXPECT_EQ(oracle_route(p, {s}, e.view()), (RouteResult{0, 0}));
}

TEST(OracleRules, CountsFromFields) {
  ProviderDef p;
  EventDef ev{"E",
              {},
              {{"n", InType::UInt8, {}, {}},
               {"xs", InType::UInt16, {Extent::Kind::Field, 0}, {}},
               {"v", InType::Int8, {}, {}}}};
  p.events.push_back(ev);
  SessionEntry s{0, {}};
  PayloadFilter f{0, 0, true, {}};
  PayloadValue minus_one;
  minus_one.lo = ~uint64_t{0};
  f.expr.preds = {{2, PayloadOp::Eq, minus_one}};
  f.expr.nodes = {{PayloadExpr::Node::Kind::Pred, 0, 0}};
  s.edit().payload.push_back(f);
  Event e;
  e.payload = {2, 1, 0, 2, 0, 0xFF};  // n = 2, xs = {1, 2}, v = -1
  EXPECT_EQ(oracle_route(p, {s}, e.view()).deliver, 1u);
  e.payload = {3, 1, 0, 2, 0, 0xFF};  // n = 3: xs swallows v's byte and does not fit
  EXPECT_EQ(oracle_route(p, {s}, e.view()).deliver, 0u);
  e.payload = {0, 0xFF};  // empty array
  EXPECT_EQ(oracle_route(p, {s}, e.view()).deliver, 1u);
}

TEST(OracleRules, LegacyIgnoresFiltersAllAndProperties) {
  ProviderDef p;
  p.legacy = true;
  SessionEntry s{0, {}};
  s.edit().any = 0x100000001ull;  // truncated to 0x1
  s.edit().all = 0x3;
  s.edit().properties = enable_property::kStackTrace | enable_property::kIgnoreKeyword0;
  s.edit().pids = std::vector<uint32_t>{99};
  Event e;
  e.desc.keyword = 0x1;
  EXPECT_EQ(oracle_route(p, {s}, e.view()), (RouteResult{1, 0}));
  e.desc.keyword = 0x100000000ull;
  EXPECT_EQ(oracle_route(p, {s}, e.view()).deliver, 0u);
  e.desc.keyword = 0;
  EXPECT_EQ(oracle_route(p, {s}, e.view()).deliver, 1u);
}

}  // namespace
}  // namespace pfc
