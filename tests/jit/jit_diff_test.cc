// tests/jit/jit_diff_test.cc — differential tests: lowered programs routed on the
// interpreter (the reference) and on native code at O0, the default level and O2 must give
// identical results. Includes an exhaustive generator in the style of re2's
// exhaustive_tester: every payload expression up to a small size over a tiny predicate
// alphabet × generated events, including every truncation of each payload.
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "compiler/lower.h"
#include "runtime/encode.h"
#include "tests/jit/jit_test_util.h"

namespace pfc::testing {
namespace {

const char kProvider[] = R"(provider P {
  event E (id=1, version=0, level=4, keyword=0x6) { a: uint8; s: wstring; b: int16; t: string; }
  event F (id=2, level=2) { n: uint16; v: uint32[n]; g: guid; }
}
)";

// Routes every event on the interpreter and on native code at O0, O1 and O2 and expects
// identical results.
// Returns how many distinct interpreter results were seen (so callers can check that the
// test is not vacuous).
size_t expect_engines_agree(const ir::Program& program, const std::vector<Event>& events,
                            const std::string& context) {
  AllEngines engines(program);
  EXPECT_TRUE(engines.ok()) << context;
  if (!engines.ok()) return 0;
  int failures = 0;
  std::set<std::pair<uint64_t, uint64_t>> distinct;
  for (const Event& e : events) {
    EngineResults r = engines.route(e.view());
    distinct.insert({r.interp.deliver, r.interp.stack});
    for (int l = 0; l < 3 && failures < 5; ++l) {
      if (r.native[l] == r.interp) continue;
      ++failures;
      ADD_FAILURE() << context << "\nO" << l << " " << describe(r.native[l]) << " != interp "
                    << describe(r.interp) << " for event id " << e.desc.id << " payload size "
                    << e.payload.size();
    }
  }
  return distinct.size();
}

// Every event of the tiny alphabet for E (and all truncations), plus a few F events and
// header variations.
std::vector<Event> generated_events(const ProviderDef& provider) {
  const EventDef& e_def = *provider.find_event("E");
  const EventDef& f_def = *provider.find_event("F");
  std::vector<Event> events;
  auto add_with_truncations = [&](const EventDef& def,
                                  const std::vector<std::pair<std::string, FieldValue>>& values) {
    auto payload = encode_payload(def, values);
    ASSERT_TRUE(payload.has_value()) << payload.error().message;
    for (size_t n = 0; n <= payload->size(); ++n) {
      Event ev;
      ev.desc = def.desc;
      ev.payload.assign(payload->begin(), payload->begin() + n);
      events.push_back(ev);
    }
  };
  for (uint64_t a : {0, 1, 2, 3})
    for (int64_t b : {-1, 0, 5})
      for (const char* s : {"", "x", "X", "xy", "Y"})
        add_with_truncations(e_def, {{"a", FieldValue::of_uint(a)},
                                     {"b", FieldValue::of_int(b)},
                                     {"s", FieldValue::of_string(s)},
                                     {"t", FieldValue::of_string(s)}});
  const Guid g = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  for (uint64_t n : {0, 1, 2}) {
    std::vector<FieldValue> v;
    v.reserve(n);
    for (uint64_t i = 0; i < n; ++i) v.push_back(FieldValue::of_uint(7 * i));
    add_with_truncations(
        f_def, {{"v", FieldValue::of_array(v)}, {"g", FieldValue::of_guid(n == 1 ? g : Guid{})}});
  }
  // Header variations on one full E event.
  Event base = events[events.size() / 3];
  for (uint8_t level : {0, 1, 4, 5}) {
    Event e = base;
    e.desc.level = level;
    for (uint64_t kw : {0x0ull, 0x2ull, 0x6ull, 0x8ull}) {
      e.desc.keyword = kw;
      events.push_back(e);
    }
  }
  Event other_version = base;
  other_version.desc.version = 1;
  events.push_back(other_version);
  return events;
}

// All expressions over the alphabet: leaves and negated leaves; pairs of those joined by
// and/or, also negated; triples of plain leaves with both groupings.
// The concatenation of parts.
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string s;
  for (std::string_view part : parts) s += part;
  return s;
}

std::vector<std::string> generated_expressions() {
  const std::vector<std::string> preds = {"a eq 1",  "a between 1,2", "b lt 0",
                                          "b ne -1", "s is \"x\"",    "t contains \"Y\""};
  std::vector<std::string> leaves = preds;
  for (const std::string& p : preds) leaves.push_back(cat({"not ", p}));
  std::vector<std::string> out = leaves;
  for (const char* op : {" and ", " or "})
    for (const std::string& x : leaves)
      for (const std::string& y : leaves) {
        out.push_back(cat({x, op, y}));
        out.push_back(cat({"not (", x, op, y, ")"}));
      }
  for (const char* op1 : {" and ", " or "})
    for (const char* op2 : {" and ", " or "})
      for (const std::string& x : preds)
        for (const std::string& y : preds)
          for (const std::string& z : preds) {
            out.push_back(cat({"(", x, op1, y, ")", op2, z}));
            out.push_back(cat({x, op1, "(", y, op2, z, ")"}));
          }
  return out;
}

TEST(JitExhaustive, PayloadExpressionsMatchInterpreter) {
  const std::vector<std::string> exprs = generated_expressions();
  ASSERT_GT(exprs.size(), 1000u);
  std::vector<Event> events;
  size_t programs = 0;
  for (size_t first = 0; first < exprs.size(); first += 64) {
    // One program per 64 expressions: one session each (slot = index).
    std::string text = kProvider;
    for (size_t i = first; i < exprs.size() && i < first + 64; ++i)
      text += "session S" + std::to_string(i) + " { enable P level=" + std::to_string(i % 6) +
              " { payload E where " + exprs[i] + "; } }\n";
    ProgramSpec spec = spec_from_script(text);
    ASSERT_FALSE(spec.sessions.empty());
    if (events.empty()) events = generated_events(spec.provider);
    auto program = lower(spec);
    ASSERT_TRUE(program.has_value()) << program.error().message;
    size_t distinct =
        expect_engines_agree(*program, events, "expressions from #" + std::to_string(first));
    EXPECT_GE(distinct, 4u) << "the events should separate the expressions";
    if (HasFailure()) return;
    ++programs;
  }
  EXPECT_EQ(programs, (exprs.size() + 63) / 64);
}

// Session options beyond payload filters: levels, keywords, scope and attribute filters,
// stacks, the F event's counted array and GUID.
TEST(JitDifferential, SessionOptionsMatchInterpreter) {
  const std::vector<std::string> enables = {
      "enable P;",
      "enable P level=2 any=0x2 all=0x6;",
      "enable P any=0x8 properties=(ignore_keyword_0);",
      "enable P properties=(stack_trace) { stack_id in 1; }",
      "enable P properties=(stack_trace) { event_id not in 2; stack_id not in 1; }",
      // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): one script on two lines
      "enable P { event_id in 2; payload F all { n gt 0; g is "
      "{0E95CFBC-58D4-44BA-BE40-E63A853536DF} } }",
      "enable P { payload F any { n eq 2; g isnot {0E95CFBC-58D4-44BA-BE40-E63A853536DF} } "
      "group=all; "
      "payload E where a modulo 2; }",
      "enable P { pid 0, 5; exe \"a.exe;b.exe\"; }",
      "enable P { payload id=1 version=0 where s contains \"x\" or b ge 0; }",
  };
  std::string text = kProvider;
  for (size_t i = 0; i < enables.size(); ++i)
    text += "session S" + std::to_string(i) + " { " + enables[i] + " }\n";
  ProgramSpec spec = spec_from_script(text);
  ASSERT_EQ(spec.sessions.size(), enables.size());
  auto program = lower(spec);
  ASSERT_TRUE(program.has_value()) << program.error().message;
  std::vector<Event> events = generated_events(spec.provider);
  for (size_t i = 0; i < 40; ++i) {
    Event e = events[i * 7 % events.size()];
    e.pid = static_cast<uint32_t>(i % 7);
    e.exe = i % 2 ? "C:\\bin\\A.EXE" : "/usr/bin/b.exe.old";
    events.push_back(e);
  }
  EXPECT_GT(expect_engines_agree(*program, events, text), 10u);
}

}  // namespace
}  // namespace pfc::testing
