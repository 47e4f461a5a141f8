// tests/compiler/explain_test.cc — Interpreter::explain (the engine's own explanation,
// from the check notes lowering writes): one row per rule of docs/semantics.md §1 with the
// first check that must fail (or none) and the stack bit, including the keyword-0 events
// on which the former independent evaluator of cli/explain.cc disagreed with lowering
// (event-name and level/keyword stack filters match keyword 0, §1.2 / §1.6 / §1.7). Every
// row also checks that the explanation agrees with route().
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>

#include "tests/compiler/test_util.h"

namespace pfc::testing {
namespace {

using ir::Check;

struct Row {
  std::string name;
  std::function<void(EnableParams&)> params;
  std::function<void(Event&)> event;
  std::optional<Check> failed;  // nullopt: delivered
  bool stack = false;
};

ProviderDef provider_with_payload() {
  ProviderDef p = plain_provider({1, 2, 3});
  p.events[0].fields = {field("N", InType::UInt32)};
  p.events[1].fields = {field("M", InType::UInt32)};
  return p;
}

EventNameFilter names(std::vector<std::string> list, bool in, uint8_t level = 0, uint64_t any = 0,
                      uint64_t all = 0) {
  EventNameFilter f;
  f.names = std::move(list);
  f.filter_in = in;
  f.level = level;
  f.any = any;
  f.all = all;
  return f;
}

void run_rows(const std::vector<Row>& rows, bool legacy = false) {
  for (const Row& r : rows) {
    SCOPED_TRACE(r.name);
    EnableParams params;
    r.params(params);
    ProviderDef provider = provider_with_payload();
    provider.legacy = legacy;
    Event e = event(1, 4, 0x2, Bytes().u32(7).data);
    e.name = "Send";
    e.pid = 42;
    e.exe = "C:\\bin\\App.exe";
    r.event(e);
    const ProgramSpec spec = one_session(provider, params);
    const Explanation x = compile(spec)->explain(e.view());
    ASSERT_EQ(x.sessions.size(), 1u);
    EXPECT_EQ(x.sessions[0].slot, 0u);
    EXPECT_EQ(x.sessions[0].failed, r.failed);
    const RouteResult expected{r.failed ? 0u : 1u, r.stack ? 1u : 0u};
    EXPECT_EQ(x.result, expected);
    EXPECT_EQ(route(spec, e), expected);  // the explanation is the engine's run
  }
}

void none(EnableParams&) {}
void same(Event&) {}

TEST(Explain, HeaderRules) {
  run_rows({
      {"everything passes", none, same, std::nullopt},
      {"level", [](EnableParams& p) { p.level = 3; }, same, Check::Level},
      {"level 0 event passes any level", [](EnableParams& p) { p.level = 1; },
       [](Event& e) { e.desc.level = 0; }, std::nullopt},
      {"keyword", [](EnableParams& p) { p.any = 0x4; }, same, Check::Keyword},
      {"level before keyword",
       [](EnableParams& p) {
         p.level = 3;
         p.any = 0x4;
       },
       same, Check::Level},
      {"keyword 0 passes", [](EnableParams& p) { p.any = 0x4; },
       [](Event& e) { e.desc.keyword = 0; }, std::nullopt},
      {"ignore_keyword_0", [](EnableParams& p) { p.properties = enable_property::kIgnoreKeyword0; },
       [](Event& e) { e.desc.keyword = 0; }, Check::Keyword},
      {"match all",
       [](EnableParams& p) {
         p.any = 0x2;
         p.all = 0x3;
       },
       same, Check::Keyword},
      {"pid", [](EnableParams& p) { p.pids = std::vector<uint32_t>{1}; }, same, Check::Pid},
      {"exe", [](EnableParams& p) { p.exe_names = std::vector<std::string>{"other.exe"}; }, same,
       Check::Exe},
      {"exe final component, any case",
       [](EnableParams& p) { p.exe_names = std::vector<std::string>{"app.EXE"}; }, same,
       std::nullopt},
      {"package id", [](EnableParams& p) { p.package_ids = std::vector<std::string>{"pkg"}; }, same,
       Check::PackageId},
      {"app id", [](EnableParams& p) { p.app_ids = std::vector<std::string>{"app"}; }, same,
       Check::AppId},
      {"event id",
       [](EnableParams& p) {
         p.event_ids = EventIdFilter{true, {2}};
       },
       same, Check::EventId},
      {"pid before event id",
       [](EnableParams& p) {
         p.pids = std::vector<uint32_t>{1};
         p.event_ids = EventIdFilter{true, {2}};
       },
       same, Check::Pid},
      {"event name", [](EnableParams& p) { p.event_names = names({"Other"}, true); }, same,
       Check::EventName},
      {"event name filter out", [](EnableParams& p) { p.event_names = names({"Send"}, false); },
       same, Check::EventName},
      {"event name filter for another level",
       [](EnableParams& p) { p.event_names = names({"Other"}, true, 2); }, same, std::nullopt},
      // §1.7 applies §1.2 for the filter's own keywords: keyword 0 matches, so the filter
      // applies (the former cli/explain.cc said it did not and let the event through).
      {"event name filter, keyword-0 event",
       [](EnableParams& p) { p.event_names = names({"Other"}, true, 0, 0x8); },
       [](Event& e) { e.desc.keyword = 0; }, Check::EventName},
      {"event name filter, other keyword",
       [](EnableParams& p) { p.event_names = names({"Other"}, true, 0, 0x8); }, same, std::nullopt},
  });
}

TEST(Explain, Payload) {
  run_rows({
      {"payload passes",
       [](EnableParams& p) { p.payload = {filter(1, {pred(0, PayloadOp::Eq, 7)})}; }, same,
       std::nullopt},
      {"payload fails",
       [](EnableParams& p) { p.payload = {filter(1, {pred(0, PayloadOp::Eq, 8)})}; }, same,
       Check::Payload},
      {"payload for another event",
       [](EnableParams& p) { p.payload = {filter(2, {pred(0, PayloadOp::Eq, 8)})}; }, same,
       std::nullopt},
      {"undecodable field",
       [](EnableParams& p) { p.payload = {filter(1, {pred(0, PayloadOp::Ne, 8)})}; },
       [](Event& e) { e.payload.resize(2); }, Check::Payload},
      {"header check before payload",
       [](EnableParams& p) {
         p.level = 1;
         p.payload = {filter(1, {pred(0, PayloadOp::Eq, 8)})};
       },
       same, Check::Level},
  });
}

TEST(Explain, Stacks) {
  auto stack = [](EnableParams& p) { p.properties = enable_property::kStackTrace; };
  run_rows({
      {"stack_trace", stack, same, std::nullopt, true},
      {"stack id filter out",
       [&](EnableParams& p) {
         stack(p);
         p.stack_ids = EventIdFilter{false, {1}};
       },
       same, std::nullopt, false},
      {"stack name filter",
       [&](EnableParams& p) {
         stack(p);
         p.stack_names = names({"Send"}, true);
       },
       same, std::nullopt, true},
      // §1.6: STACKWALK_LEVEL_KW selects the events passing §1.1–§1.2 for its own level and
      // keywords, and keyword 0 passes §1.2 (the former evaluator disagreed here).
      {"level/keyword stack filter, keyword-0 event",
       [&](EnableParams& p) {
         stack(p);
         p.stack_level_kw = LevelKeywordFilter{0, 0x8, 0, true};
       },
       [](Event& e) { e.desc.keyword = 0; }, std::nullopt, true},
      {"level/keyword stack filter out, keyword-0 event",
       [&](EnableParams& p) {
         stack(p);
         p.stack_level_kw = LevelKeywordFilter{0, 0x8, 0, false};
       },
       [](Event& e) { e.desc.keyword = 0; }, std::nullopt, false},
      {"level/keyword stack filter, other keyword",
       [&](EnableParams& p) {
         stack(p);
         p.stack_level_kw = LevelKeywordFilter{0, 0x8, 0, true};
       },
       same, std::nullopt, false},
      {"no stack when rejected",
       [&](EnableParams& p) {
         stack(p);
         p.level = 1;
       },
       same, Check::Level, false},
  });
}

// Legacy providers (§1.9): only level and the low 32 bits of MatchAny count; filters and
// properties are ignored, so nothing else is ever named.
TEST(Explain, LegacyProvider) {
  run_rows(
      {
          {"filters ignored",
           [](EnableParams& p) {
             p.pids = std::vector<uint32_t>{1};
             p.payload = {filter(1, {pred(0, PayloadOp::Eq, 8)})};
             p.properties = enable_property::kStackTrace | enable_property::kIgnoreKeyword0;
           },
           [](Event& e) { e.desc.keyword = 0; }, std::nullopt, false},
          {"level", [](EnableParams& p) { p.level = 2; }, same, Check::Level},
          {"high keyword bits do not count", [](EnableParams& p) { p.any = uint64_t{1} << 40; },
           same, std::nullopt},
          {"low keyword bits", [](EnableParams& p) { p.any = 0x4; }, same, Check::Keyword},
      },
      /*legacy=*/true);
}

// Several sessions: each gets its own first failure, in slot order.
TEST(Explain, EverySessionItsOwnReason) {
  ProgramSpec spec;
  spec.provider = provider_with_payload();
  EnableParams a, b, c;
  a.level = 1;
  b.payload = {filter(1, {pred(0, PayloadOp::Eq, 8)})};
  spec.sessions = {SessionEntry{5, c}, SessionEntry{0, a}, SessionEntry{3, b}};
  const Event e = event(1, 4, 0x2, Bytes().u32(7).data);
  const Explanation x = compile(spec)->explain(e.view());
  ASSERT_EQ(x.sessions.size(), 3u);
  EXPECT_EQ(x.sessions[0].slot, 0u);
  EXPECT_EQ(x.sessions[0].failed, Check::Level);
  EXPECT_EQ(x.sessions[1].slot, 3u);
  EXPECT_EQ(x.sessions[1].failed, Check::Payload);
  EXPECT_EQ(x.sessions[2].slot, 5u);
  EXPECT_EQ(x.sessions[2].failed, std::nullopt);
  EXPECT_EQ(x.result, (RouteResult{uint64_t{1} << 5, 0}));
}

}  // namespace
}  // namespace pfc::testing
