// tests/router/router_query_test.cc — the router's enable-state queries (enables,
// enabling_sessions, program_spec; docs/runtime.md §3 "Reading the enable state"): what
// front ends read instead of keeping their own copy, including the legacy last-enabler
// rule, pre-enables, provider-side filter bytes and reads from inside a callback.
#include <gtest/gtest.h>

#include "tests/router/router_test_util.h"

namespace pfc::test {
namespace {

using Queries = RouterFixture;

std::vector<SessionId> slots_of(const std::vector<SessionEnable>& enables) {
  std::vector<SessionId> out;
  out.reserve(enables.size());
  for (const SessionEnable& e : enables) out.push_back(e.session);
  return out;
}

TEST_F(Queries, EnablesInSlotOrderWithTheirParameters) {
  const SessionId a = new_session("a");
  const SessionId b = new_session("b");
  const ProviderHandle h = reg(make_provider(1));
  EnableParams pb = params(5, 0x2);
  pb.provider_filter = {1, 2, 3};
  ASSERT_TRUE(router_->enable(b, guid_n(1), pb));
  ASSERT_TRUE(router_->enable(a, guid_n(1), params(3)));
  const std::vector<SessionEnable> e = router_->enables(guid_n(1));
  ASSERT_EQ(slots_of(e), (std::vector<SessionId>{a, b}));
  EXPECT_EQ(e[0].params->level, 3);
  EXPECT_EQ(e[1].params->any, 0x2u);
  EXPECT_EQ(e[1].params->provider_filter, (std::vector<uint8_t>{1, 2, 3}));  // kept whole
  EXPECT_EQ(router_->enabling_sessions(guid_n(1)), 0b11u);

  const ProgramSpec spec = router_->program_spec(h);
  EXPECT_EQ(spec.provider.name, "Provider1");
  ASSERT_EQ(spec.sessions.size(), 2u);
  EXPECT_EQ(spec.sessions[0].slot, a);
  EXPECT_EQ(spec.sessions[1].slot, b);
  EXPECT_EQ(spec.sessions[1].params->provider_filter, pb.provider_filter);

  ASSERT_TRUE(router_->disable(a, guid_n(1)));
  EXPECT_EQ(slots_of(router_->enables(guid_n(1))), (std::vector<SessionId>{b}));
  ASSERT_TRUE(router_->stop_session(b));
  EXPECT_TRUE(router_->enables(guid_n(1)).empty());
  EXPECT_EQ(router_->enabling_sessions(guid_n(1)), 0u);
  EXPECT_TRUE(router_->program_spec(h).sessions.empty());
}

// enable() with shared parameters keeps that one value: the queries, the compiled program's
// spec and later changes of other sessions all see the same object, never a copy (a
// script's filter may hold millions of predicates).
TEST_F(Queries, SharedParametersAreKeptNotCopied) {
  const SessionId a = new_session("a");
  const SessionId b = new_session("b");
  const auto pa = std::make_shared<const EnableParams>(params(3));
  ASSERT_TRUE(router_->enable(a, guid_n(1), pa));  // pre-enable
  const ProviderHandle h = reg(make_provider(1));
  ASSERT_TRUE(router_->enable(b, guid_n(1), params(4)));  // copied once, then shared
  const ProgramSpec spec = router_->program_spec(h);
  ASSERT_EQ(spec.sessions.size(), 2u);
  EXPECT_EQ(spec.sessions[0].params.get(), pa.get());
  const std::vector<SessionEnable> e = router_->enables(guid_n(1));
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].params.get(), pa.get());
  EXPECT_EQ(e[1].params.get(), spec.sessions[1].params.get());
  ASSERT_TRUE(router_->disable(b, guid_n(1)));
  EXPECT_EQ(router_->program_spec(h).sessions.at(0).params.get(), pa.get());

  const auto refused = router_->enable(a, guid_n(1), std::shared_ptr<const EnableParams>());
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message, "enable: null parameters");
  EXPECT_EQ(router_->enables(guid_n(1)).at(0).params.get(), pa.get());  // unchanged
}

// SessionEntry::edit() gives the entry a private copy: other holders keep the old value.
TEST(SessionEntryTest, EditCopiesBeforeChanging) {
  SessionEntry a{2, EnableParams{}};
  const SessionEntry b = SessionEntry::sharing(5, a.params);
  a.edit().level = 4;
  EXPECT_EQ(a.params->level, 4);
  EXPECT_EQ(b.params->level, 0);
  EXPECT_NE(a.params.get(), b.params.get());
  EXPECT_EQ(SessionEntry().params->level, 0);  // never null
}

// effective_params: the parameters themselves for a manifest provider, the legacy subset
// (level and the low 32 keyword bits, no filters) for a classic one.
TEST(EffectiveParamsTest, NoCopyUnlessLegacy) {
  EnableParams p = params(3, 0x100000001ull);
  p.payload.resize(2);
  EnableParams storage;
  EXPECT_EQ(&effective_params(p, false, storage), &p);
  const EnableParams& legacy = effective_params(p, true, storage);
  EXPECT_EQ(&legacy, &storage);
  EXPECT_EQ(legacy.level, 3);
  EXPECT_EQ(legacy.any, 0x1u);
  EXPECT_TRUE(legacy.payload.empty());
}

TEST_F(Queries, PreEnabledGuidWithoutRegistration) {
  const SessionId a = new_session("a");
  ASSERT_TRUE(router_->enable(a, guid_n(7), params(2)));
  EXPECT_EQ(slots_of(router_->enables(guid_n(7))), (std::vector<SessionId>{a}));
  EXPECT_EQ(router_->enabling_sessions(guid_n(7)), 1u);
  EXPECT_TRUE(router_->enables(guid_n(8)).empty());
  EXPECT_TRUE(router_->program_spec(nullptr).sessions.empty());
}

// Legacy providers: the last enabler takes the provider; every query says so.
TEST_F(Queries, LegacyLastEnablerOnly) {
  const SessionId a = new_session("a");
  const SessionId b = new_session("b");
  const ProviderHandle h = reg(make_provider(1, /*legacy=*/true));
  ASSERT_TRUE(router_->enable(b, guid_n(1), params(4)));
  ASSERT_TRUE(router_->enable(a, guid_n(1), params(5)));
  EXPECT_EQ(slots_of(router_->enables(guid_n(1))), (std::vector<SessionId>{a}));
  EXPECT_EQ(router_->enabling_sessions(guid_n(1)), uint64_t{1} << a);
  const ProgramSpec spec = router_->program_spec(h);
  ASSERT_EQ(spec.sessions.size(), 1u);
  EXPECT_EQ(spec.sessions[0].slot, a);
  EXPECT_TRUE(spec.provider.legacy);
}

// Pre-enables by two sessions, then a legacy registration keeps the later one.
TEST_F(Queries, LegacyRegistrationAfterPreEnables) {
  const SessionId a = new_session("a");
  const SessionId b = new_session("b");
  ASSERT_TRUE(router_->enable(a, guid_n(1), params(4)));
  ASSERT_TRUE(router_->enable(b, guid_n(1), params(5)));
  EXPECT_EQ(router_->enabling_sessions(guid_n(1)), 0b11u);  // no legacy registration yet
  const ProviderHandle h = reg(make_provider(1, /*legacy=*/true));
  EXPECT_EQ(router_->enabling_sessions(guid_n(1)), uint64_t{1} << b);
  EXPECT_EQ(router_->program_spec(h).sessions.size(), 1u);
}

// Callbacks run with the router's lock held; the queries must not deadlock there.
TEST_F(Queries, WorkInsideCallbacks) {
  const SessionId a = new_session("a");
  std::vector<std::vector<SessionId>> seen;
  uint64_t mask = 0;
  size_t spec_sessions = 0;
  ProviderHandle h = nullptr;
  h = reg(make_provider(1), [&](const EnableNotification&) {
    seen.push_back(slots_of(router_->enables(guid_n(1))));
    mask = router_->enabling_sessions(guid_n(1));
    spec_sessions = router_->program_spec(h).sessions.size();
  });
  ASSERT_TRUE(router_->enable(a, guid_n(1), params(3)));
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], (std::vector<SessionId>{a}));  // the committed state
  EXPECT_EQ(mask, 1u);
  EXPECT_EQ(spec_sessions, 1u);
}

}  // namespace
}  // namespace pfc::test
