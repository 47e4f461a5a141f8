// tests/check/check_hostile_test.cc — large and adversarial scripts: the checker stays fast
// (linear) and reports every error. Parsing is timed apart: only check_script is ours here.
#include <gtest/gtest.h>

#include <chrono>

#include "compiler/check.h"
#include "grammar/parse.h"
#include "tests/check/test_util.h"
#include "tests/sanitizer.h"

namespace pfc::test {
namespace {

using Clock = std::chrono::steady_clock;

struct Timed {
  CheckOutput out;
  double check_seconds = 0;
};

// Parses (untimed; must succeed), then times check_script.
Timed parse_and_check(const std::string& text) {
  const ParseOutput parsed = parse_script(SourceFile("hostile.pfs", text));
  EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.diagnostics[0].message);
  const Clock::time_point t0 = Clock::now();
  Timed t{check_script(parsed.script), 0};
  t.check_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return t;
}

TEST(CheckHostile, TenThousandPayloadFilters) {
  std::string script = "provider P {\n";
  for (int i = 0; i < 1000; ++i) {
    script += "  event E" + std::to_string(i) + " (id=" + std::to_string(i) +
              ") { A: uint32; B: wstring; C: int16; }\n";
  }
  script += "}\nsession S { enable P {\n";
  for (int i = 0; i < 10000; ++i) {
    script += "  payload E" + std::to_string(i % 1000) + " all { A between \"1," +
              std::to_string(i + 1) + "\"; B contains \"x\"; C ne -5 }\n";
  }
  script += "} }\n";
  const Timed t = parse_and_check(script);
  EXPECT_TRUE(t.out.ok());
  ASSERT_EQ(t.out.script.sessions.size(), 1u);
  const std::vector<PayloadFilter>& f = t.out.script.sessions[0].enables[0].params->payload;
  ASSERT_EQ(f.size(), 10000u);
  EXPECT_EQ(f[9999].event_id, 999);
  EXPECT_EQ(f[9999].expr.preds[0].value.hi, 10000u);
  EXPECT_EQ(f[9999].expr.preds[2].value.lo, uint64_t(-5));
  EXPECT_LT(t.check_seconds, 2.0 * kSlowFactor);  // tens of ms in a debug build
}

TEST(CheckHostile, ThousandsOfErrorsAllReportedSorted) {
  std::string script = "provider P { event E (id=1) { Level: uint8; } }\nsession S { enable P {\n";
  for (int i = 0; i < 3000; ++i) script += "  payload E all { Levle eq 1; Level eq 300 }\n";
  script += "} }\n";
  const Timed t = parse_and_check(script);
  EXPECT_LT(t.check_seconds, 2.0 * kSlowFactor);
  const std::vector<Diagnostic>& d = t.out.diagnostics;
  ASSERT_EQ(d.size(), 6000u);
  for (size_t i = 0; i < d.size(); ++i) {
    EXPECT_EQ(d[i].pos.line, 3 + i / 2);
    if (i + 1 < d.size()) {
      EXPECT_TRUE(d[i].pos.line < d[i + 1].pos.line ||
                  (d[i].pos.line == d[i + 1].pos.line && d[i].pos.column < d[i + 1].pos.column));
    }
  }
  EXPECT_EQ(d[0].message, "unknown field 'Levle' in event 'E'; did you mean 'Level'?");
  EXPECT_EQ(d[1].message, "value 300 is out of range for field 'Level' of type 'uint8' (0..255)");
}

TEST(CheckHostile, HugeNamesGetNoSuggestionAndStayOneLine) {
  const std::string long_name(100000, 'F');
  const std::string script =
      "provider P { event E (id=1) { F: uint8; } }\n"
      "session S { enable P { payload E all { \"" +
      long_name + "\" eq 1 } } }\n";
  const Timed t = parse_and_check(script);
  EXPECT_LT(t.check_seconds, 1.0 * kSlowFactor);
  ASSERT_EQ(t.out.diagnostics.size(), 1u);
  EXPECT_EQ(t.out.diagnostics[0].message,
            "unknown field '" + std::string(64, 'F') + "...' in event 'E'");
}

TEST(CheckHostile, ManyEventsAndFields) {
  std::string script = "provider P {\n";
  for (int i = 0; i < 2000; ++i) {
    script += "  event E" + std::to_string(i) + " (id=" + std::to_string(i) + ") {\n";
    for (int k = 0; k < 20; ++k) script += "    F" + std::to_string(k) + ": uint32;\n";
    script += "  }\n";
  }
  script += "  event E0 (id=0) {}\n}\n";  // one duplicate name and one duplicate (id, version)
  const Timed t = parse_and_check(script);
  EXPECT_LT(t.check_seconds, 2.0 * kSlowFactor);
  ASSERT_EQ(t.out.diagnostics.size(), 2u);
  EXPECT_EQ(t.out.diagnostics[0].message, "duplicate event 'E0' in provider 'P'");
  EXPECT_EQ(t.out.diagnostics[1].message,
            "event 'E0' has the same id 0 and version 0 as event 'E0'");
}

}  // namespace
}  // namespace pfc::test
