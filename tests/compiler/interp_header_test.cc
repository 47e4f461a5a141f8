// tests/compiler/interp_header_test.cc — docs/semantics.md §1.1–§1.4, §1.6, §1.7 and legacy
// providers (§1.9) on the reference interpreter: tables of {session params, event} →
// deliver/stack bits.
#include "test_util.h"

namespace pfc::testing {
namespace {

using enable_property::kIgnoreKeyword0;
using enable_property::kStackTrace;

struct LevelCase {
  uint8_t session;
  uint8_t event;
  bool pass;
};

TEST(InterpLevel, Table) {
  const LevelCase cases[] = {
      {0, 0, true}, {0, 5, true},  {0, 255, true},  {3, 0, true},     {3, 3, true},
      {3, 2, true}, {3, 4, false}, {1, 255, false}, {255, 255, true}, {5, 6, false},
  };
  for (const LevelCase& c : cases) {
    EnableParams p;
    p.level = c.session;
    RouteResult r = route(one_session(plain_provider(), p), event(1, c.event));
    EXPECT_EQ(r.deliver, c.pass ? 1u : 0u)
        << "session " << int(c.session) << " event " << int(c.event);
  }
}

struct KeywordCase {
  uint64_t any;
  uint64_t all;
  bool ignore_kw0;
  uint64_t kw;
  bool pass;
};

TEST(InterpKeyword, Table) {
  const KeywordCase cases[] = {
      // keyword 0 passes unless IGNORE_KEYWORD_0
      {0, 0, false, 0, true},
      {0x10, 0x10, false, 0, true},
      {0, 0, true, 0, false},
      {0x10, 0, true, 0, false},
      // any = 0 → every keyword; all is then ignored
      {0, 0, false, 0x8000000000000000ull, true},
      {0, 0xF0, false, 0x1, true},
      {0, 0xF0, true, 0x1, true},
      // any ≠ 0
      {0x6, 0, false, 0x2, true},
      {0x6, 0, false, 0x1, false},
      {0x6, 0, false, 0x9, false},
      // any ≠ 0 and all ≠ 0
      {0x7, 0x3, false, 0x3, true},
      {0x7, 0x3, false, 0x1, false},
      {0x7, 0x3, false, 0xB, true},
      {0x4, 0x3, false, 0x3, false},
      {0x4, 0x3, false, 0x7, true},
      {0x7, 0x3, true, 0x13, true},
      {~0ull, 0, false, 0x40, true},
      {~0ull, 0x40, false, 0x41, true},
      {~0ull, 0x40, false, 0x1, false},
  };
  for (const KeywordCase& c : cases) {
    EnableParams p;
    p.any = c.any;
    p.all = c.all;
    p.properties = c.ignore_kw0 ? kIgnoreKeyword0 : 0;
    RouteResult r = route(one_session(plain_provider(), p), event(1, 0, c.kw));
    EXPECT_EQ(r.deliver, c.pass ? 1u : 0u) << std::hex << "any " << c.any << " all " << c.all
                                           << " ign " << c.ignore_kw0 << " kw " << c.kw;
  }
}

TEST(InterpScope, Pid) {
  EnableParams p;
  p.pids = std::vector<uint32_t>{7, 42, 4000000000u};
  auto interp = compile(one_session(plain_provider(), p));
  for (auto [pid, pass] :
       {std::pair{7u, true}, {42u, true}, {4000000000u, true}, {8u, false}, {0u, false}}) {
    Event e = event(1);
    e.pid = pid;
    EXPECT_EQ(interp->route(e.view()).deliver, pass ? 1u : 0u) << pid;
  }
}

struct StrCase {
  std::string value;
  bool pass;
};

TEST(InterpScope, ExeFinalComponentCaseInsensitive) {
  EnableParams p;
  p.exe_names = std::vector<std::string>{"Cmd.exe", "svchost.EXE"};
  auto interp = compile(one_session(plain_provider(), p));
  const StrCase cases[] = {
      {"cmd.exe", true},
      {"CMD.EXE", true},
      {"/usr/bin/cmd.exe", true},
      {"C:\\Windows\\CMD.exe", true},
      {"C:\\a/b\\SvcHost.exe", true},
      {"/x/cmd.exe/", false},
      {"cmd.ex", false},
      {"cmd.exe.bak", false},
      {"", false},
      {"C:\\cmd.exe\\other.exe", false},
      {"xcmd.exe", false},
  };
  for (const StrCase& c : cases) {
    Event e = event(1);
    e.exe = c.value;
    EXPECT_EQ(interp->route(e.view()).deliver, c.pass ? 1u : 0u) << c.value;
  }
}

TEST(InterpScope, PackageAndAppIdsCaseInsensitiveExact) {
  EnableParams p;
  p.package_ids = std::vector<std::string>{"Contoso.App_1.0"};
  p.app_ids = std::vector<std::string>{"MainApp"};
  auto interp = compile(one_session(plain_provider(), p));
  struct Case {
    std::string pkg, app;
    bool pass;
  };
  const Case cases[] = {
      {"contoso.app_1.0", "mainapp", true},   {"CONTOSO.APP_1.0", "MainApp", true},
      {"contoso.app_1.0 ", "mainapp", false}, {"contoso.app", "mainapp", false},
      {"contoso.app_1.0", "other", false},    {"", "", false},
  };
  for (const Case& c : cases) {
    Event e = event(1);
    e.package_id = c.pkg;
    e.app_id = c.app;
    EXPECT_EQ(interp->route(e.view()).deliver, c.pass ? 1u : 0u) << c.pkg << " " << c.app;
  }
}

TEST(InterpEventId, InAndNotIn) {
  for (bool in : {true, false}) {
    EnableParams p;
    p.event_ids = EventIdFilter{in, {2, 3}};
    auto interp = compile(one_session(plain_provider({1, 2, 3, 4}), p));
    for (uint16_t id : {1, 2, 3, 4}) {
      bool listed = id == 2 || id == 3;
      Event e = event(id);
      e.desc.version = 7;  // matched on id only
      EXPECT_EQ(interp->route(e.view()).deliver, listed == in ? 1u : 0u) << id << " in=" << in;
    }
  }
}

struct NameCase {
  EventNameFilter filter;
  std::string name;
  uint8_t level;
  uint64_t kw;
  bool pass;
};

TEST(InterpEventName, AppliesOnlyToMatchingEvents) {
  const EventNameFilter in_any{0, 0, 0, true, {"Start", "Stop"}};
  const EventNameFilter out_any{0, 0, 0, false, {"Start"}};
  const EventNameFilter in_l3{3, 0, 0, true, {"Start"}};
  const EventNameFilter in_kw{0, 0x4, 0, true, {"Start"}};
  const EventNameFilter out_kw_all{0, 0x4, 0x5, false, {"Start"}};
  const NameCase cases[] = {
      {in_any, "Start", 0, 0, true},
      {in_any, "Stop", 0, 0, true},
      {in_any, "start", 0, 0, false},
      {in_any, "Other", 0, 0, false},
      {in_any, "", 0, 0, true},  // an event without a name is not affected
      {out_any, "", 0, 0, true},
      {out_any, "Start", 0, 0, false},
      {out_any, "Other", 0, 0, true},
      {in_l3, "Other", 3, 0, false},
      {in_l3, "Other", 4, 0, true},
      {in_l3, "Start", 4, 0, true},
      {in_l3, "Other", 0, 0, false},
      {in_kw, "Other", 0, 0x4, false},
      {in_kw, "Other", 0, 0x8, true},
      {in_kw, "Other", 0, 0, false},
      {out_kw_all, "Start", 0, 0x5, false},
      {out_kw_all, "Start", 0, 0x4, true},
      {out_kw_all, "Other", 0, 0x5, true},
  };
  for (const NameCase& c : cases) {
    EnableParams p;
    p.event_names = c.filter;
    Event e = event(1, c.level, c.kw);
    e.name = c.name;
    EXPECT_EQ(route(one_session(plain_provider(), p), e).deliver, c.pass ? 1u : 0u)
        << c.name << " level " << int(c.level) << " kw " << c.kw;
  }
}

TEST(InterpStack, StackTraceAndStackIds) {
  struct Case {
    uint32_t props;
    std::optional<EventIdFilter> ids;
    uint16_t id;
    uint64_t stack;
  };
  const Case cases[] = {
      {0, std::nullopt, 1, 0},
      {kStackTrace, std::nullopt, 1, 1},
      {0, EventIdFilter{true, {1}}, 1, 0},  // stack_id without stack_trace: no stack
      {kStackTrace, EventIdFilter{true, {1}}, 1, 1},
      {kStackTrace, EventIdFilter{true, {1}}, 2, 0},
      {kStackTrace, EventIdFilter{false, {1}}, 1, 0},
      {kStackTrace, EventIdFilter{false, {1}}, 2, 1},
  };
  for (const Case& c : cases) {
    EnableParams p;
    p.properties = c.props;
    p.stack_ids = c.ids;
    RouteResult r = route(one_session(plain_provider(), p), event(c.id));
    EXPECT_EQ(r.deliver, 1u);
    EXPECT_EQ(r.stack, c.stack) << "props " << c.props << " id " << c.id;
  }
}

TEST(InterpStack, NoStackWhenNotDelivered) {
  EnableParams p;
  p.properties = kStackTrace;
  p.level = 2;
  RouteResult r = route(one_session(plain_provider(), p), event(1, 3));
  EXPECT_EQ(r, (RouteResult{0, 0}));
}

TEST(InterpStack, LevelKeywordFilter) {
  struct Case {
    LevelKeywordFilter f;
    uint8_t level;
    uint64_t kw;
    uint64_t stack;
  };
  const Case cases[] = {
      {{2, 0, 0, true}, 1, 0, 1},          {{2, 0, 0, true}, 3, 0, 0},
      {{2, 0, 0, false}, 1, 0, 0},         {{2, 0, 0, false}, 3, 0, 1},
      {{0, 0x8, 0, true}, 5, 0x8, 1},      {{0, 0x8, 0, true}, 5, 0x1, 0},
      {{0, 0x8, 0, false}, 5, 0x1, 1},     {{0, 0x18, 0x10, true}, 5, 0x8, 0},
      {{0, 0x18, 0x10, true}, 5, 0x10, 1},
  };
  for (const Case& c : cases) {
    EnableParams p;
    p.properties = kStackTrace;
    p.stack_level_kw = c.f;
    RouteResult r = route(one_session(plain_provider(), p), event(1, c.level, c.kw));
    EXPECT_EQ(r.deliver, 1u);
    EXPECT_EQ(r.stack, c.stack) << int(c.level) << " " << c.kw;
  }
}

TEST(InterpStack, StackNames) {
  EnableParams p;
  p.properties = kStackTrace;
  p.stack_names = EventNameFilter{3, 0, 0, true, {"Alloc"}};
  auto interp = compile(one_session(plain_provider(), p));
  struct Case {
    std::string name;
    uint8_t level;
    uint64_t stack;
  };
  for (const Case& c :
       {Case{"Alloc", 2, 1}, Case{"Free", 2, 0}, Case{"Free", 4, 1}, Case{"alloc", 1, 0},
        Case{"", 2, 1}}) {  // an event without a name is not affected (semantics.md §1.7)
    Event e = event(1, c.level);
    e.name = c.name;
    RouteResult r = interp->route(e.view());
    EXPECT_EQ(r.deliver, 1u);
    EXPECT_EQ(r.stack, c.stack) << c.name;
  }
}

TEST(InterpLegacy, LevelAndTruncatedKeywordsOnly) {
  ProviderDef prov = plain_provider();
  prov.legacy = true;
  EnableParams p;
  p.level = 3;
  p.any = 0xF00000000ull | 0x2;            // the high part is truncated away
  p.event_ids = EventIdFilter{true, {2}};  // ignored: legacy providers are not filtered
  p.pids = std::vector<uint32_t>{99};
  auto interp = compile(one_session(prov, p));
  EXPECT_EQ(interp->route(event(1, 2, 0x2).view()).deliver, 1u);
  EXPECT_EQ(interp->route(event(1, 4, 0x2).view()).deliver, 0u);
  EXPECT_EQ(interp->route(event(1, 2, 0x100000000ull).view()).deliver, 0u);
  EXPECT_EQ(interp->route(event(1, 2, 0).view()).deliver, 1u);

  EnableParams q;
  q.any = 0x300000000ull;  // truncates to 0 = every keyword
  q.all = 0x100000000ull;
  auto interp2 = compile(one_session(prov, q));
  EXPECT_EQ(interp2->route(event(1, 2, 0x1).view()).deliver, 1u);
}

TEST(InterpSessions, EightDifferentSessions) {
  ProgramSpec spec;
  spec.provider = plain_provider({1, 2, 3});
  auto add = [&](uint32_t slot, EnableParams p) { spec.sessions.emplace_back(slot, std::move(p)); };
  EnableParams p0;  // everything
  EnableParams p1;
  p1.level = 2;
  EnableParams p2;
  p2.any = 0x4;
  EnableParams p3;
  p3.event_ids = EventIdFilter{true, {3}};
  EnableParams p4;
  p4.pids = std::vector<uint32_t>{5};
  EnableParams p5;
  p5.exe_names = std::vector<std::string>{"a.out"};
  p5.properties = kStackTrace;
  EnableParams p6;
  p6.properties = kIgnoreKeyword0;
  EnableParams p7;
  p7.event_names = EventNameFilter{0, 0, 0, false, {"Noisy"}};
  add(63, p0);
  add(9, p1);
  add(2, p2);
  add(3, p3);
  add(40, p4);
  add(5, p5);
  add(6, p6);
  add(0, p7);
  auto interp = compile(spec);
  auto bit = [](uint32_t s) { return uint64_t{1} << s; };
  Event e = event(3, 1, 0x4);
  e.pid = 5;
  e.exe = "/bin/A.OUT";
  e.name = "Quiet";
  uint64_t all = bit(63) | bit(9) | bit(2) | bit(3) | bit(40) | bit(5) | bit(6) | bit(0);
  EXPECT_EQ(interp->route(e.view()), (RouteResult{all, bit(5)}));
  e.desc.level = 3;
  e.desc.keyword = 0;
  e.desc.id = 1;
  e.pid = 6;
  e.exe = "b.out";
  e.name = "Noisy";
  EXPECT_EQ(interp->route(e.view()), (RouteResult{bit(63) | bit(2), 0}));
}

TEST(InterpSessions, NoSessions) {
  ProgramSpec spec;
  spec.provider = plain_provider();
  EXPECT_EQ(route(spec, event(1)), (RouteResult{0, 0}));
}

TEST(Lower, RejectsBadSlots) {
  ProgramSpec spec;
  spec.provider = plain_provider();
  spec.sessions.push_back(SessionEntry{64, {}});
  EXPECT_FALSE(lower(spec).has_value());
  spec.sessions = {SessionEntry{3, {}}, SessionEntry{3, {}}};
  EXPECT_FALSE(lower(spec).has_value());
}

}  // namespace
}  // namespace pfc::testing
