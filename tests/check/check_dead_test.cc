// tests/check/check_dead_test.cc — the dead-filter warnings (compiler/check_dead.cc,
// docs/language.md §4 "Warnings"): one table row per warning with its exact position and
// message, rows that must stay silent, and the interval sets and abstract evaluation they
// rest on.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compiler/check_absint.h"
#include "compiler/check_interval.h"
#include "compiler/lower.h"
#include "tests/check/test_util.h"

namespace pfc::test {
namespace {

using internal::IntervalSet;

// Line 1; sessions start on line 2.
constexpr std::string_view kPrelude =
    "provider P { event E (id=1, level=4, keyword=0x1) { X: uint32; S: string; B: uint8; "
    "I: int8; L: int64; } event F (id=2, level=2) { Y: int32; } }\n";

struct Row {
  std::string_view name;
  std::string_view session;
  std::string_view want;
};

void run_rows(const std::vector<Row>& rows) {
  for (const Row& r : rows) {
    SCOPED_TRACE(r.name);
    const FrontendOutput out = compile_text(std::string(kPrelude) + std::string(r.session));
    EXPECT_EQ(render_diagnostics(out), r.want) << r.session;
    EXPECT_EQ(out.ok(), r.want.find("error") == std::string_view::npos);
  }
}

constexpr std::string_view kNever =
    "warning: payload filter on event 'E' can never pass: no values of its fields satisfy it";
constexpr std::string_view kAlways =
    "warning: payload filter on event 'E' always passes: every value of its fields satisfies it";

std::string at(std::string_view pos, std::string_view message) {
  return std::string(pos) + ": " + std::string(message);
}

TEST(DeadFilters, NeverOrAlways) {
  const std::string never = at("2:24", kNever);
  const std::string always = at("2:24", kAlways);
  run_rows({
      {"contradictory range", "session S { enable P { payload E where X gt 5 and X lt 3; } }",
       never},
      {"ne or ne", "session S { enable P { payload E where X ne 1 or X ne 2; } }", always},
      {"above the type's range", "session S { enable P { payload E where B gt 255; } }", never},
      {"below a signed type's range", "session S { enable P { payload E where I lt -128; } }",
       never},
      {"signed whole range", "session S { enable P { payload E where I ge -128; } }", always},
      {"int64 limits", "session S { enable P { payload E where L gt 9223372036854775807; } }",
       never},
      {"in and not in", "session S { enable P { payload E where X in 1, 2 and X not in 1, 2; } }",
       never},
      {"not in a complement",
       "session S { enable P { payload E where not (X between 1, 9) and X eq 5; } }", never},
      {"all block", "session S { enable P { payload E all { X eq 1; X eq 2 } } }", never},
      {"any block", "session S { enable P { payload E any { X ge 1; X le 1 } } }", always},
      {"between after the other field is constant-true",
       "session S { enable P { payload E where (B le 255 and X between 3, 4) and X gt 4; } }",
       never},
      {"second filter, own position",
       "session S { enable P {\n  payload E where X eq 1;\n  payload F where Y lt 1 and Y gt 1; } "
       "}",
       "4:3: warning: payload filter on event 'F' can never pass: no values of its fields "
       "satisfy it"},
  });
}

TEST(DeadFilters, ExcludedByTheEnable) {
  run_rows({
      {"level", "session S { enable P level=3 { payload E where X eq 1; } }",
       "2:32: warning: payload filter on event 'E' has no effect: the enable's level=3 excludes "
       "the event (level 4)"},
      {"keywords", "session S { enable P any=0x2 { payload E where X eq 1; } }",
       "2:32: warning: payload filter on event 'E' has no effect: the enable's keywords "
       "(any=0x2, all=0x0) exclude the event (keyword 0x1)"},
      {"event_id in", "session S { enable P { event_id in 2; payload E where X eq 1; } }",
       "2:39: warning: payload filter on event 'E' has no effect: the enable's event_id filter "
       "excludes the event (id 1)"},
      {"event_id not in", "session S { enable P { event_id not in 1; payload E where X eq 1; } }",
       "2:43: warning: payload filter on event 'E' has no effect: the enable's event_id filter "
       "excludes the event (id 1)"},
  });
}

TEST(DeadFilters, EnablesAndSessions) {
  run_rows({
      {"no declared event passes", "session S { enable P { event_id in 7; } }",
       "2:13: warning: enable of provider 'P' has no effect: none of the events it declares can "
       "pass its filters"},
      {"level below every event", "session S { enable P level=1; }",
       "2:13: warning: enable of provider 'P' has no effect: none of the events it declares can "
       "pass its filters"},
      {"a dead payload filter explains it: no enable warning",
       "session S { enable P { event_id in 1; payload E where B gt 255; } }",
       "2:39: warning: payload filter on event 'E' can never pass: no values of its fields "
       "satisfy it"},
      {"level excludes the only filtered event: the filter's warning",
       "provider W { event R (id=1, level=4) { S: uint16; } }\n"
       "session T { enable W level=3 { payload R where S in 500, 503; } }",
       "3:32: warning: payload filter on event 'R' has no effect: the enable's level=3 excludes "
       "the event (level 4)"},
      {"empty session", "session S { }", "2:1: warning: session 'S' enables nothing"},
  });
}

TEST(DeadFilters, Silent) {
  run_rows({
      {"ordinary filter", "session S { enable P { payload E where X gt 5 and X lt 9; } }", ""},
      {"two fields", "session S { enable P { payload E where X gt 5 or B lt 3; } }", ""},
      {"strings are not analysed",
       "session S { enable P { payload E where S is \"a\" and S is "
       "\"b\"; } }",
       ""},
      {"modulo is not analysed", "session S { enable P { payload E where X modulo 2; } }", ""},
      {"field to field", "session S { enable P { payload E where X gt X; } }", ""},
      {"keyword 0 passes any keyword", "session S { enable P any=0x2 { payload F where Y eq 1; } }",
       ""},
      {"provider without events", "provider Q {}\nsession S { enable Q level=1; }", ""},
      {"level that admits the event", "session S { enable P level=4 { payload E where X eq 1; } }",
       ""},
      {"a script with errors gets no dead-filter analysis",
       "session S { enable P { payload E where X gt 5 and X lt 3; payload E where Nope eq 1; } }",
       "2:75: error: unknown field 'Nope' in event 'E'"},
  });
}

// TraceLogging events: their filters are analysed on the declared fields, with the
// declared descriptor; the provider writes undeclared events too, so an enable is dead only
// when no event with id 0 and version 0 can pass (docs/language.md §4 "Warnings").
TEST(DeadFilters, TraceLogging) {
  const std::string tl =
      "provider T tracelogging { event Sent (level=4) { Count: uint32; Name: string; } "
      "event Low (level=2) { N: uint8; } }\n";
  run_rows({
      {"can never pass",
       tl + "session S { enable T { payload Sent where Count gt 5 and Count lt 3; } }",
       "3:24: warning: payload filter on event 'Sent' can never pass: no values of its fields "
       "satisfy it"},
      {"always passes", tl + "session S { enable T { payload Low where N le 255; } }",
       "3:24: warning: payload filter on event 'Low' always passes: every value of its fields "
       "satisfies it"},
      {"level excludes the declared event",
       tl + "session S { enable T level=3 { payload Sent where Count eq 1; } }",
       "3:32: warning: payload filter on event 'Sent' has no effect: the enable's level=3 "
       "excludes the event (level 4)"},
      {"event_id excludes id 0",
       tl + "session S { enable T { event_id in 3; payload Low where N eq 1; } }",
       "3:39: warning: payload filter on event 'Low' has no effect: the enable's event_id "
       "filter excludes the event (id 0)"},
      {"no TraceLogging event passes", tl + "session S { enable T { event_id not in 0; } }",
       "3:13: warning: enable of provider 'T' has no effect: no TraceLogging event (id 0, "
       "version 0) can pass its filters"},
      {"even without declared events",
       "provider U tracelogging {}\nsession S { enable U { event_id in 1; } }",
       "3:13: warning: enable of provider 'U' has no effect: no TraceLogging event (id 0, "
       "version 0) can pass its filters"},
      {"second filter, own position",
       tl + "session S { enable T {\n  payload Sent where Name is \"a\";\n  payload Low where N gt "
            "1 and N lt 1; } }",
       "5:3: warning: payload filter on event 'Low' can never pass: no values of its fields "
       "satisfy it"},
  });
  run_rows({
      {"undeclared events may pass a level below every declared one",
       tl + "session S { enable T level=1; }", ""},
      {"keyword 0 passes any keyword",
       tl + "session S { enable T any=0x8 { payload Sent where Count gt 1; } }", ""},
      {"event_id in 0",
       tl + "session S { enable T { event_id in 0; payload Sent where Count gt 1; } }", ""},
      {"ordinary filters",
       tl + "session S { enable T { payload Sent where Count gt 1 and Name "
            "contains \"x\"; payload Low all { N between 1, 9 } } }",
       ""},
      {"string predicates are not analysed",
       tl + "session S { enable T { payload Sent where Name is \"a\" and Name is \"b\"; } }", ""},
  });
}

// Pattern errors point at the offending character inside the literal, counting escapes in
// the source (a `\u{e9}` is six columns but two bytes of the pattern).
TEST(PatternPositions, GlobAndRegex) {
  run_rows({
      {"unterminated class", "session S { enable P { payload E where S matches \"ab[cd\"; } }",
       "2:53: error: unterminated '[' in glob pattern"},
      {"after escapes",
       "session S { enable P { payload E where S matches \"\\x41\\u{e9}[z-a]\"; } }",
       "2:61: error: empty range in glob pattern class"},
      {"regex: the offending escape",
       "session S { enable P { payload E where S regex \"ab\\\\x**\"; } }",
       "2:51: error: invalid regex: invalid escape sequence: \\x**"},
      {"regex: missing ')' is the whole pattern",
       "session S { enable P { payload E where S regex \"a\\u{e9}b(c\"; } }",
       "2:49: error: invalid regex: missing ): a\u00e9b(c"},
  });
}

TEST(IntervalSetTest, Operations) {
  const IntervalSet a = IntervalSet::range(false, 3, 9);
  EXPECT_TRUE(a.intersect(IntervalSet::range(false, 10, 20)).empty());
  EXPECT_EQ(a.unite(IntervalSet::range(false, 10, 20)), IntervalSet::range(false, 3, 20));
  EXPECT_EQ(a.complement().complement(), a);
  EXPECT_EQ(IntervalSet::all().complement(), IntervalSet::none());
  EXPECT_EQ(IntervalSet::none().complement(), IntervalSet::all());
  EXPECT_TRUE(IntervalSet::range(false, 9, 3).empty());
  // A signed range across zero is two unsigned intervals; complementing it leaves the rest.
  const IntervalSet s = IntervalSet::range(true, uint64_t(-5), 5);
  EXPECT_TRUE(s.contains(IntervalSet::point(uint64_t(-1))));
  EXPECT_FALSE(s.contains(IntervalSet::point(6)));
  EXPECT_TRUE(s.complement().contains(IntervalSet::point(uint64_t(-6))));
  EXPECT_EQ(IntervalSet::domain(InType::Int8), IntervalSet::range(true, uint64_t(-128), 127));
  EXPECT_EQ(IntervalSet::domain(InType::UInt16), IntervalSet::range(false, 0, 0xFFFF));
  EXPECT_EQ(IntervalSet::domain(InType::UInt64), IntervalSet::all());
  IntervalSet out;
  EXPECT_FALSE(IntervalSet::of_pred(PayloadOp::Modulo, false, 2, 0, out));
  ASSERT_TRUE(IntervalSet::of_pred(PayloadOp::Lt, true, uint64_t(INT64_MIN), 0, out));
  EXPECT_TRUE(out.empty());
  ASSERT_TRUE(IntervalSet::of_pred(PayloadOp::Gt, false, ~uint64_t{0}, 0, out));
  EXPECT_TRUE(out.empty());
}

// Header loads fold to the known event's values; unknown ones (pid) stay unknown.
TEST(AbstractEvaluation, HeaderFolding) {
  ProgramSpec spec;
  spec.provider.name = "P";
  EventDef ev;
  ev.name = "E";
  ev.desc.id = 1;
  ev.desc.level = 4;
  spec.provider.events.push_back(ev);
  EnableParams params;
  params.level = 3;
  params.pids = std::vector<uint32_t>{7};
  spec.sessions.emplace_back(0, params);
  Result<ir::Program> program = lower(spec);
  ASSERT_TRUE(program.has_value());
  const auto regs = internal::evaluate_abstract(*program, internal::KnownHeader::of_event(ev.desc));
  bool level_false = false;
  bool pid_unknown = false;
  for (const ir::CheckNote& n : program->checks) {
    if (n.reg == ir::kNoReg) continue;
    const auto t = internal::truth(regs[n.reg]);
    if (n.check == ir::Check::Level) level_false = t == false;
    if (n.check == ir::Check::Pid) pid_unknown = !t.has_value();
  }
  EXPECT_TRUE(level_false);
  EXPECT_TRUE(pid_unknown);
}

}  // namespace
}  // namespace pfc::test
