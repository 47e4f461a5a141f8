// tests/api/filter_test.cc — pfc::Filter (pfc/filter.h): diagnostics as data, the script's
// providers and sessions, route / write / explain on each engine, set-up by hand, and the
// Status of calls the router refuses.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include "pfc/filter.h"

namespace pfc {

// ctest shows the engine's name, not its byte (found by argument-dependent lookup).
void PrintTo(Engine engine, std::ostream* os);
void PrintTo(Engine engine, std::ostream* os) { *os << engine_name(engine); }

namespace {

constexpr const char* kScript = R"(provider App {6B0D5E3C-8F1A-4B6E-9C2D-3A4F5B6C7D8E} {
    event Tick (id=1, level=4) { counter: uint32; }
}
session all { enable App level=verbose; }
session big {
    enable App level=4 { payload Tick all { counter gt 5 } }
}
)";

Event tick(uint8_t level, uint32_t counter) {
  Event e;
  e.desc.id = 1;
  e.desc.level = level;
  e.payload.resize(4);
  std::memcpy(e.payload.data(), &counter, 4);
  return e;
}

class FilterTest : public ::testing::TestWithParam<Engine> {
 protected:
  FilterOptions options() const {
    FilterOptions o;
    o.engine = GetParam();
    return o;
  }
};

TEST_P(FilterTest, ScriptErrorsAreDiagnosticsAndNoFilter) {
  CompileResult r = Filter::compile("session s { enable Nope; }\n", options(), "bad.pfs");
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.status.ok());  // the script's problem, not a failure
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::Error);
  EXPECT_EQ(r.diagnostics[0].pos.line, 1u);
  EXPECT_EQ(r.diagnostics[0].pos.column, 20u);
  EXPECT_NE(r.diagnostics[0].message.find("Nope"), std::string::npos);
  EXPECT_EQ(r.report.rfind("bad.pfs:1:20: error: ", 0), 0u) << r.report;
}

TEST_P(FilterTest, RoutesWritesAndExplainsTheScript) {
  std::mutex mu;
  std::vector<SessionId> got;
  FilterOptions o = options();
  o.on_event = [&](SessionId s, const EventView& e, bool) {
    std::lock_guard lock(mu);
    if (e.desc.id == 1) got.push_back(s);
  };
  CompileResult r = Filter::compile(kScript, o);
  ASSERT_TRUE(r.ok()) << r.report << r.status.message();
  Filter& f = *r.filter;
  EXPECT_EQ(f.engine(), GetParam());
  ASSERT_EQ(f.provider_count(), 1u);
  EXPECT_EQ(f.provider(0).name, "App");
  EXPECT_EQ(f.find_provider("App"), 0u);
  EXPECT_EQ(f.find_provider("{6B0D5E3C-8F1A-4B6E-9C2D-3A4F5B6C7D8E}"), 0u);
  EXPECT_EQ(f.find_provider("Nope"), std::nullopt);
  EXPECT_EQ(f.find_session("all"), 0u);
  EXPECT_EQ(f.find_session("big"), 1u);
  EXPECT_EQ(f.session_names(), (std::vector<std::string>{"all", "big"}));
  EXPECT_TRUE(f.enabled(0, 5, 0));
  EXPECT_FALSE(f.enabled(1, 5, 0));  // no such provider

  EXPECT_EQ(f.route(0, tick(4, 3).view()).deliver, 0b01u);
  EXPECT_EQ(f.route(0, tick(4, 9).view()).deliver, 0b11u);
  EXPECT_EQ(f.route(0, tick(5, 9).view()).deliver, 0b01u);        // 'big' stops at level 4
  EXPECT_EQ(f.route(0, tick(4, 9).view(), 0b01).deliver, 0b10u);  // exclude slot 0
  EXPECT_EQ(f.route(7, tick(4, 9).view()).deliver, 0u);
  EXPECT_EQ(f.write(0, tick(4, 9).view()).deliver, 0b11u);
  EXPECT_EQ(got, (std::vector<SessionId>{0, 1}));

  Decision d;
  ASSERT_TRUE(f.explain(0, tick(4, 3).view(), 0, &d).ok());
  EXPECT_EQ(d.result.deliver, 0b01u);
  ASSERT_EQ(d.rejected.size(), 1u);  // only the slots in use
  EXPECT_EQ(d.rejected[0].session, 1u);
  EXPECT_EQ(d.rejected[0].reason, "payload");
  ASSERT_TRUE(f.explain(0, tick(5, 9).view(), 0b01, &d).ok());
  ASSERT_EQ(d.rejected.size(), 2u);
  EXPECT_EQ(d.rejected[0].reason, "excluded");
  EXPECT_EQ(d.rejected[1].reason, "level");
  EXPECT_FALSE(f.explain(3, tick(4, 3).view(), 0, &d).ok());
  if (GetParam() != Engine::Crosscheck) {
    EXPECT_EQ(f.jit_error(), "");
  }
}

TEST_P(FilterTest, ProvidersAndSessionsByHand) {
  std::unique_ptr<Filter> f;
  ASSERT_TRUE(Filter::make(options(), &f).ok());
  ProviderDef p;
  p.name = "Hand";
  p.guid = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  size_t index = 9;
  ASSERT_TRUE(f->add_provider(p, &index).ok());
  EXPECT_EQ(index, 0u);
  SessionId a = 9, b = 9;
  ASSERT_TRUE(f->add_session("a", &a).ok());
  ASSERT_TRUE(f->add_session("b", &b).ok());
  EXPECT_EQ(a, 0u);
  EXPECT_EQ(b, 1u);
  Status dup = f->add_session("a", nullptr);
  EXPECT_FALSE(dup.ok());
  EXPECT_FALSE(dup.message().empty());

  EnableParams params;
  params.level = 3;
  ASSERT_TRUE(f->enable(b, p.guid, params).ok());
  Event e;
  e.desc.level = 3;
  EXPECT_EQ(f->route(0, e.view()).deliver, 0b10u);
  ASSERT_TRUE(f->disable(b, p.guid).ok());
  EXPECT_EQ(f->route(0, e.view()).deliver, 0u);
  EXPECT_FALSE(f->enable(40, p.guid, params).ok());  // no such session

  ASSERT_TRUE(f->stop_session(a).ok());
  EXPECT_EQ(f->find_session("a"), std::nullopt);
  EXPECT_EQ(f->session_names(), (std::vector<std::string>{"", "b"}));  // slot 0 is free
  SessionId again = 9;
  ASSERT_TRUE(f->add_session("c", &again).ok());
  EXPECT_EQ(again, 0u);  // the freed slot
  EXPECT_FALSE(f->stop_session(50).ok());
}

TEST_P(FilterTest, CompileFile) {
  const std::filesystem::path dir = ::testing::TempDir();
  const std::filesystem::path file = dir / "api_filter_test.pfs";
  std::ofstream(file) << kScript;
  CompileResult r = Filter::compile_file(file.string(), options());
  EXPECT_TRUE(r.ok()) << r.report;
  std::filesystem::remove(file);
  CompileResult missing = Filter::compile_file((dir / "no-such.pfs").string(), options());
  EXPECT_FALSE(missing.ok());
  EXPECT_FALSE(missing.status.ok());
  EXPECT_NE(missing.status.message().find("cannot read"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Engines, FilterTest,
                         ::testing::Values(Engine::Interp, Engine::Jit, Engine::Auto,
                                           Engine::Crosscheck),
                         [](const auto& info) { return std::string(engine_name(info.param)); });

TEST(EngineNames, RoundTrip) {
  for (Engine e : {Engine::Interp, Engine::Jit, Engine::Auto, Engine::Crosscheck})
    EXPECT_EQ(engine_from_name(engine_name(e)), e);
  EXPECT_EQ(engine_from_name("fast"), std::nullopt);
  EXPECT_TRUE(jit_available());
}

}  // namespace
}  // namespace pfc
