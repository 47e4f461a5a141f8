// tests/router/router_test.cc — the router's control plane over the fake compiler:
// sessions, composite state, enable callbacks (codes, SourceId, pre-enable), stop_session,
// several registrations per GUID, compile failures and callback reentrancy.
#include <gtest/gtest.h>

#include <semaphore>
#include <thread>

#include "runtime/epoch.h"
#include "tests/router/router_test_util.h"

namespace pfc::test {
namespace {

using Sessions = RouterFixture;

TEST(RouterCreate, NullCompilerFails) {
  auto r = Router::create(nullptr);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("compiler"), std::string::npos);
}

TEST_F(Sessions, LowestFreeSlotAndReuse) {
  EXPECT_EQ(new_session("a"), 0u);
  EXPECT_EQ(new_session("b"), 1u);
  EXPECT_EQ(new_session("c"), 2u);
  ASSERT_TRUE(router_->stop_session(1));
  EXPECT_EQ(new_session("d"), 1u);
  EXPECT_EQ(new_session("e"), 3u);
}

TEST_F(Sessions, SixtyFourSessionCap) {
  for (uint32_t i = 0; i < kMaxSessions; ++i) EXPECT_EQ(new_session("s" + std::to_string(i)), i);
  auto over = router_->create_session("one-too-many", nullptr);
  ASSERT_FALSE(over.has_value());
  EXPECT_NE(over.error().message.find("64"), std::string::npos);
  ASSERT_TRUE(router_->stop_session(10));
  EXPECT_EQ(new_session("again"), 10u);
}

TEST_F(Sessions, DuplicateNamesRejectedUntilStopped) {
  const SessionId a = new_session("trace");
  auto dup = router_->create_session("trace", nullptr);
  ASSERT_FALSE(dup.has_value());
  EXPECT_NE(dup.error().message.find("trace"), std::string::npos);
  ASSERT_TRUE(router_->stop_session(a));
  EXPECT_EQ(new_session("trace"), a);
}

TEST_F(Sessions, InvalidSessionIdsFail) {
  EXPECT_FALSE(router_->stop_session(0));
  EXPECT_FALSE(router_->stop_session(64));
  EXPECT_FALSE(router_->enable(3, guid_n(1), params(4)));
  EXPECT_FALSE(router_->disable(3, guid_n(1)));
  EXPECT_FALSE(router_->capture_state(3, guid_n(1)));
  const SessionId s = new_session("x");
  ASSERT_TRUE(router_->stop_session(s));
  EXPECT_FALSE(router_->stop_session(s));
}

// Composite state over several sessions, with the normalisation of docs/runtime.md §2.
struct CompositeCase {
  const char* name;
  std::vector<EnableParams> sessions;  // session i enables with sessions[i]
  bool legacy;
  CompositeState expected;
};

class Composite : public RouterFixture, public ::testing::WithParamInterface<CompositeCase> {};

TEST_P(Composite, Values) {
  const CompositeCase& c = GetParam();
  ProviderHandle h = reg(make_provider(1, c.legacy));
  for (size_t i = 0; i < c.sessions.size(); ++i) {
    const SessionId s = new_session("s" + std::to_string(i));
    ASSERT_TRUE(router_->enable(s, guid_n(1), c.sessions[i]));
  }
  EXPECT_EQ(router_->composite(h), c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    Router, Composite,
    ::testing::Values(
        CompositeCase{"Single", {params(4, 0x10, 0x10)}, false, state(4, 0x10, 0x10, 0b1)},
        CompositeCase{
            "LevelZeroIs255", {params(0, 0x1), params(3, 0x1)}, false, state(255, 0x1, 0, 0b11)},
        CompositeCase{"LevelMax", {params(3, 0x1), params(1, 0x1)}, false, state(3, 0x1, 0, 0b11)},
        CompositeCase{"AnyZeroIsAllOnes",
                      {params(2, 0), params(2, 0x1)},
                      false,
                      state(2, ~uint64_t{0}, 0, 0b11)},
        CompositeCase{"AnyOr",
                      {params(2, 0x10), params(2, 0x1), params(2, 0x100)},
                      false,
                      state(2, 0x111, 0, 0b111)},
        CompositeCase{
            "AllAnd", {params(5, 0x3, 0x3), params(5, 0x1, 0x1)}, false, state(5, 0x3, 0x1, 0b11)},
        CompositeCase{
            "AllIgnoredWhenAnyZero", {params(5, 0, 0x3)}, false, state(5, ~uint64_t{0}, 0, 0b1)},
        CompositeCase{"LegacyTruncatesTo32Bits",
                      {params(4, 0xF00000001ULL, 0x1)},
                      true,
                      state(4, 0x1, 0, 0b1)},
        CompositeCase{"LegacyAnyZero", {params(0, 0)}, true, state(255, ~uint64_t{0}, 0, 0b1)},
        // Only bits above 32: EnableFlags 0, i.e. every keyword (legacy_effective_params).
        CompositeCase{"LegacyHighBitsOnly",
                      {params(2, 0xF00000000ULL, 0x3)},
                      true,
                      state(2, ~uint64_t{0}, 0, 0b1)}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_F(RouterFixture, CallbackSequenceAcrossThreeSessions) {
  Recorder rec;
  ProviderHandle h = reg(make_provider(7), rec.callback());
  ASSERT_TRUE(rec.notes.empty()) << "no session: no callback at registration";
  const SessionId a = new_session("a"), b = new_session("b"), c = new_session("c");
  const Guid src_a = guid_n(100), src_b = guid_n(200), src_c = guid_n(300);
  const Guid p = guid_n(7);

  struct Step {
    Result<void> result;
    ControlCode code;
    CompositeState state;
    Guid source;
  };
  std::vector<Step> steps;
  steps.push_back({router_->enable(a, p, params(2, 0x1, 0x1, 0, src_a)),
                   ControlCode::EnableProvider, state(2, 0x1, 0x1, 0b001), src_a});
  steps.push_back({router_->enable(b, p, params(4, 0x6, 0x2, 0, src_b)),
                   ControlCode::EnableProvider, state(4, 0x7, 0x0, 0b011), src_b});
  steps.push_back({router_->enable(c, p, params(0, 0x8, 0, 0, src_c)), ControlCode::EnableProvider,
                   state(255, 0xF, 0x0, 0b111), src_c});
  // Update: ENABLE again replaces a's state wholesale.
  steps.push_back({router_->enable(a, p, params(1, 0x3, 0x3, 0, src_a)),
                   ControlCode::EnableProvider, state(255, 0xF, 0x0, 0b111), src_a});
  // c disables while others remain: ENABLE with the recomputed composite, GUID_NULL.
  steps.push_back(
      {router_->disable(c, p), ControlCode::EnableProvider, state(4, 0x7, 0x2, 0b011), Guid{}});
  steps.push_back(
      {router_->capture_state(b, p), ControlCode::CaptureState, state(4, 0x7, 0x2, 0b011), src_b});
  steps.push_back(
      {router_->disable(b, p), ControlCode::EnableProvider, state(1, 0x3, 0x3, 0b001), Guid{}});
  steps.push_back({router_->disable(a, p), ControlCode::DisableProvider, CompositeState{}, Guid{}});

  ASSERT_EQ(rec.notes.size(), steps.size());
  for (size_t i = 0; i < steps.size(); ++i) {
    SCOPED_TRACE("step " + std::to_string(i));
    EXPECT_TRUE(steps[i].result.has_value());
    EXPECT_EQ(rec.notes[i].code, steps[i].code);
    EXPECT_EQ(rec.notes[i].state, steps[i].state);
    EXPECT_EQ(rec.notes[i].source_id, steps[i].source);
  }
  EXPECT_EQ(router_->composite(h), CompositeState{});
  EXPECT_FALSE(h->enabled(0, 0));
}

TEST_F(RouterFixture, DisableNotEnabledIsNoOpAndCaptureRequiresEnable) {
  Recorder rec;
  reg(make_provider(1), rec.callback());
  const SessionId s = new_session("s");
  EXPECT_TRUE(router_->disable(s, guid_n(1)));
  EXPECT_TRUE(router_->disable(s, guid_n(99)));
  auto cap = router_->capture_state(s, guid_n(1));
  ASSERT_FALSE(cap.has_value());
  EXPECT_NE(cap.error().message.find("has not enabled"), std::string::npos);
  EXPECT_TRUE(rec.notes.empty());
}

TEST_F(RouterFixture, PreEnableThenRegisterCallsBackWithNullSourceId) {
  const SessionId a = new_session("a"), b = new_session("b");
  ASSERT_TRUE(router_->enable(a, guid_n(3), params(2, 0x1, 0, 0, guid_n(11))));
  ASSERT_TRUE(router_->enable(b, guid_n(3), params(5, 0x4, 0, 0, guid_n(12))));
  EXPECT_EQ(compiler_->compiles(), 0) << "nothing to compile without a registration";
  Recorder rec;
  ProviderHandle h = reg(make_provider(3), rec.callback());
  ASSERT_EQ(rec.notes.size(), 1u);
  EXPECT_EQ(rec.notes[0].code, ControlCode::EnableProvider);
  EXPECT_EQ(rec.notes[0].state, state(5, 0x5, 0, 0b11));
  EXPECT_TRUE(rec.notes[0].source_id.is_null());
  EXPECT_EQ(router_->route(h, event_at(3)), (RouteResult{0b10, 0}));
  EXPECT_EQ(router_->route(h, event_at(1)), (RouteResult{0b11, 0}));
}

TEST_F(RouterFixture, StopSessionDisablesEverythingItEnabled) {
  Recorder r1, r2;
  ProviderHandle h1 = reg(make_provider(1), r1.callback());
  ProviderHandle h2 = reg(make_provider(2), r2.callback());
  const SessionId a = new_session("a"), b = new_session("b");
  ASSERT_TRUE(router_->enable(a, guid_n(1), params(3, 0x1, 0, 0, guid_n(50))));
  ASSERT_TRUE(router_->enable(b, guid_n(1), params(1, 0x2, 0, 0, guid_n(51))));
  ASSERT_TRUE(router_->enable(a, guid_n(2), params(4, 0, 0, 0, guid_n(52))));
  r1.notes.clear();
  r2.notes.clear();
  ASSERT_TRUE(router_->stop_session(a));
  ASSERT_EQ(r1.notes.size(), 1u);
  EXPECT_EQ(r1.notes[0].code, ControlCode::EnableProvider);
  EXPECT_EQ(r1.notes[0].state, state(1, 0x2, 0, 0b10));
  EXPECT_TRUE(r1.notes[0].source_id.is_null());
  ASSERT_EQ(r2.notes.size(), 1u);
  EXPECT_EQ(r2.notes[0].code, ControlCode::DisableProvider);
  EXPECT_EQ(r2.notes[0].state, CompositeState{});
  EXPECT_TRUE(r2.notes[0].source_id.is_null());
  EXPECT_EQ(router_->route(h1, event_at(1)), (RouteResult{0b10, 0}));
  EXPECT_EQ(router_->route(h2, event_at(1)), RouteResult{});
  // The freed slot is reused by a new session that has enabled nothing.
  EXPECT_EQ(new_session("c"), a);
  EXPECT_EQ(router_->route(h1, event_at(1)), (RouteResult{0b10, 0}));
}

TEST_F(RouterFixture, SeveralRegistrationsOfOneGuid) {
  Recorder r1, r2;
  ProviderHandle h1 = reg(make_provider(4), r1.callback());
  ProviderHandle h2 = reg(make_provider(4), r2.callback());
  EXPECT_NE(h1, h2);
  const SessionId s = new_session("s");
  ASSERT_TRUE(router_->enable(s, guid_n(4), params(2, 0, 0, 0, guid_n(9))));
  ASSERT_EQ(r1.notes.size(), 1u);
  ASSERT_EQ(r2.notes.size(), 1u);
  EXPECT_EQ(r1.notes[0].state, r2.notes[0].state);
  EXPECT_EQ(router_->route(h1, event_at(2)), (RouteResult{0b1, 0}));
  EXPECT_EQ(router_->route(h2, event_at(2)), (RouteResult{0b1, 0}));
  router_->unregister_provider(h1);
  ASSERT_TRUE(router_->disable(s, guid_n(4)));
  EXPECT_EQ(r1.notes.size(), 1u) << "unregistered: no more callbacks";
  ASSERT_EQ(r2.notes.size(), 2u);
  EXPECT_EQ(r2.notes[1].code, ControlCode::DisableProvider);
}

TEST_F(RouterFixture, ProgramSpecCarriesSessionsAndProvider) {
  ProviderDef def = make_provider(5);
  reg(def);
  const SessionId a = new_session("a"), b = new_session("b");
  ASSERT_TRUE(router_->enable(b, guid_n(5), params(7, 0x1)));
  ASSERT_TRUE(router_->enable(a, guid_n(5), params(3, 0x2)));
  const ProgramSpec spec = compiler_->last_spec();
  EXPECT_EQ(spec.provider.name, def.name);
  ASSERT_EQ(spec.sessions.size(), 2u);
  EXPECT_EQ(spec.sessions[0].slot, a);
  EXPECT_EQ(spec.sessions[0].params->level, 3);
  EXPECT_EQ(spec.sessions[1].slot, b);
  EXPECT_EQ(spec.sessions[1].params->any, 0x1u);
}

TEST_F(RouterFixture, CompileFailureLeavesStateUnchanged) {
  Recorder rec;
  ProviderHandle h = reg(make_provider(6), rec.callback());
  const SessionId a = new_session("a"), b = new_session("b");
  ASSERT_TRUE(router_->enable(a, guid_n(6), params(3, 0x1)));
  const CompositeState before = router_->composite(h);
  const size_t notes = rec.notes.size();
  auto bad = router_->enable(b, guid_n(6), params(kFailLevel));
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("fake compile failure"), std::string::npos);
  EXPECT_EQ(router_->composite(h), before);
  EXPECT_EQ(rec.notes.size(), notes);
  EXPECT_EQ(router_->route(h, event_at(1)), (RouteResult{0b01, 0}));
  // An update that fails keeps the session's previous parameters.
  ASSERT_FALSE(router_->enable(a, guid_n(6), params(kFailLevel)));
  EXPECT_EQ(router_->composite(h), before);
  EXPECT_TRUE(router_->disable(b, guid_n(6))) << "b never got enabled";
  EXPECT_EQ(rec.notes.size(), notes);
}

TEST_F(RouterFixture, RegistrationFailsWhenPreEnabledProgramCannotCompile) {
  const SessionId a = new_session("a");
  ASSERT_TRUE(router_->enable(a, guid_n(8), params(kFailLevel)));
  Recorder rec;
  auto h = router_->register_provider(make_provider(8), rec.callback());
  ASSERT_FALSE(h.has_value());
  EXPECT_TRUE(rec.notes.empty());
  // The pre-enable is still there: fixing it lets a later registration succeed.
  ASSERT_TRUE(router_->enable(a, guid_n(8), params(2)));
  ProviderHandle ok = reg(make_provider(8), rec.callback());
  ASSERT_EQ(rec.notes.size(), 1u);
  EXPECT_EQ(router_->composite(ok), state(2, ~uint64_t{0}, 0, 0b1));
}

TEST_F(RouterFixture, CallbackReentrancyIsRejectedNotDeadlocked) {
  Result<void> nested = {};
  Result<SessionId> nested_session = 0u;
  CompositeState seen;
  ProviderHandle h = nullptr;
  Router* router = router_.get();
  auto cb = [&](const EnableNotification&) {
    nested = router->enable(0, guid_n(2), params(1));
    nested_session = router->create_session("inner", nullptr);
    seen = router->composite(h);
  };
  h = reg(make_provider(2), cb);
  const SessionId s = new_session("s");
  ASSERT_TRUE(router_->enable(s, guid_n(2), params(4, 0x1)));
  ASSERT_FALSE(nested.has_value());
  EXPECT_NE(nested.error().message.find("callback"), std::string::npos);
  EXPECT_FALSE(nested_session.has_value());
  EXPECT_EQ(seen, state(4, 0x1, 0, 0b1)) << "composite() works inside a callback";
  // Outside a callback the router works normally again.
  EXPECT_TRUE(router_->enable(s, guid_n(9), params(1)));
}

TEST_F(RouterFixture, UnregisterFromCallbackIsDeferred) {
  ProviderHandle h = nullptr;
  Router* router = router_.get();
  int calls = 0;
  h = reg(make_provider(2), [&](const EnableNotification&) {
    ++calls;
    router->unregister_provider(h);
  });
  Recorder other;
  ProviderHandle h2 = reg(make_provider(2), other.callback());
  const SessionId s = new_session("s");
  ASSERT_TRUE(router_->enable(s, guid_n(2), params(4)));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(other.notes.size(), 1u);
  ASSERT_TRUE(router_->enable(s, guid_n(2), params(5)));
  EXPECT_EQ(calls, 1) << "unregistered after its callback returned";
  EXPECT_EQ(other.notes.size(), 2u);
  EXPECT_EQ(router_->route(h2, event_at(5)), (RouteResult{0b1, 0}));
}

TEST_F(RouterFixture, ReplacedProgramsAreReleasedOnceReadersLeave) {
  ProviderHandle h = reg(make_provider(1));
  const SessionId s = new_session("s");
  ASSERT_TRUE(router_->enable(s, guid_n(1), params(3)));
  EXPECT_EQ(FakeProgram::live.load(), 1);
  ASSERT_TRUE(router_->enable(s, guid_n(1), params(4)));
  EXPECT_EQ(FakeProgram::live.load(), 1) << "no reader: the old program goes at once";
  // A reader inside any epoch guard (the registry is process-wide) holds reclamation.
  std::binary_semaphore entered{0}, leave{0};
  EpochDomain other;
  std::thread reader([&] {
    auto g = other.enter();
    entered.release();
    leave.acquire();
  });
  entered.acquire();
  ASSERT_TRUE(router_->enable(s, guid_n(1), params(5)));
  EXPECT_EQ(FakeProgram::live.load(), 2);
  EXPECT_EQ(router_->route(h, event_at(5)), (RouteResult{0b1, 0})) << "new program in use";
  leave.release();
  reader.join();
  ASSERT_TRUE(router_->disable(s, guid_n(1)));
  EXPECT_EQ(FakeProgram::live.load(), 0);
}

}  // namespace
}  // namespace pfc::test
