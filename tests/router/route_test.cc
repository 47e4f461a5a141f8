// tests/router/route_test.cc — the data plane: enabled() truth table, route() with the
// exclusion mask, write() delivery to sinks, legacy providers (last enabler wins, 32-bit
// keywords) and the sinks themselves.
#include <gtest/gtest.h>

#include <cstring>

#include "runtime/sink.h"
#include "tests/router/router_test_util.h"

namespace pfc::test {
namespace {

struct EnabledCase {
  std::vector<EnableParams> sessions;  // empty: provider disabled
  uint8_t level;
  uint64_t keyword;
  bool expected;
};

class Enabled : public RouterFixture, public ::testing::WithParamInterface<EnabledCase> {};

TEST_P(Enabled, TruthTable) {
  const EnabledCase& c = GetParam();
  ProviderHandle h = reg(make_provider(1));
  for (size_t i = 0; i < c.sessions.size(); ++i)
    ASSERT_TRUE(router_->enable(new_session("s" + std::to_string(i)), guid_n(1), c.sessions[i]));
  EXPECT_EQ(h->enabled(c.level, c.keyword), c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    Router, Enabled,
    ::testing::Values(
        EnabledCase{{}, 0, 0, false},  // nobody listening
        EnabledCase{{}, 1, 0x1, false}, EnabledCase{{params(3, 0x1)}, 3, 0x1, true},  // level equal
        EnabledCase{{params(3, 0x1)}, 4, 0x1, false},       // level above composite
        EnabledCase{{params(3, 0x1)}, 0, 0x1, true},        // event level 0 always passes
        EnabledCase{{params(3, 0x1)}, 2, 0, true},          // keyword 0 passes
        EnabledCase{{params(3, 0x1)}, 2, 0x2, false},       // no keyword in MatchAny
        EnabledCase{{params(3, 0x3, 0x3)}, 2, 0x1, false},  // MatchAll not satisfied
        EnabledCase{{params(3, 0x3, 0x3)}, 2, 0x3, true},
        EnabledCase{{params(0, 0)}, 255, 1ULL << 63, true},  // level 0 and any 0 = all
        EnabledCase{{params(2, 0x1), params(5, 0x2)}, 5, 0x2, true},
        EnabledCase{{params(2, 0x1), params(5, 0x2)}, 6, 0x2, false},
        EnabledCase{{params(2, 0x1), params(5, 0x2)}, 1, 0x4, false},
        EnabledCase{{params(2, 0x3, 0x3), params(2, 0x1, 0x1)}, 1, 0x1, true},  // all = AND
        EnabledCase{{params(2, 0x3, 0x3), params(2, 0x1, 0x1)}, 1, 0x2, false}));

TEST_F(RouterFixture, EnabledFollowsDisable) {
  ProviderHandle h = reg(make_provider(1));
  const SessionId s = new_session("s");
  ASSERT_TRUE(router_->enable(s, guid_n(1), params(4, 0x1)));
  EXPECT_TRUE(h->enabled(4, 0x1));
  ASSERT_TRUE(router_->disable(s, guid_n(1)));
  EXPECT_FALSE(h->enabled(0, 0));
}

// The mirror given to register_provider follows enabled(): its word is nonzero from the
// pre-enable on (already when the callback runs), 0 after a disable, a stop and the
// unregistration, and its count, shared by registrations, is the number of nonzero words;
// a registration without one is unaffected.
TEST_F(RouterFixture, EnableMirrorFollowsTheEnabledState) {
  const SessionId s = new_session("s");
  ASSERT_TRUE(router_->enable(s, guid_n(1), params(4, 0x1)));
  uint64_t word = 0, word2 = 0, count = 0;
  uint64_t seen_in_callback = 0, count_in_callback = 0;
  auto h = router_->register_provider(
      make_provider(1),
      [&](const EnableNotification&) {
        seen_in_callback = word;
        count_in_callback = count;
      },
      EnableMirror{&word, &count});
  ASSERT_TRUE(h.has_value());
  EXPECT_NE(seen_in_callback, 0u);
  EXPECT_EQ(count_in_callback, 1u);
  EXPECT_NE(word, 0u);
  EXPECT_TRUE((*h)->enabled(4, 0x1));
  ProviderHandle plain = reg(make_provider(1));
  auto h2 = router_->register_provider(make_provider(2), {}, EnableMirror{&word2, &count});
  ASSERT_TRUE(h2.has_value());
  EXPECT_EQ(word2, 0u);
  EXPECT_EQ(count, 1u);
  ASSERT_TRUE(router_->enable(s, guid_n(2), params(4, 0)));
  EXPECT_NE(word2, 0u);
  EXPECT_EQ(count, 2u);
  ASSERT_TRUE(router_->enable(s, guid_n(2), params(5, 0)));  // enabled again: counted once
  EXPECT_EQ(count, 2u);
  router_->unregister_provider(*h2);
  EXPECT_EQ(word2, 0u);
  EXPECT_EQ(count, 1u);
  ASSERT_TRUE(router_->disable(s, guid_n(1)));
  EXPECT_EQ(word, 0u);
  EXPECT_EQ(count, 0u);
  EXPECT_FALSE(plain->enabled(0, 0));
  ASSERT_TRUE(router_->enable(s, guid_n(1), params(2, 0)));
  EXPECT_NE(word, 0u);
  EXPECT_EQ(count, 1u);
  ASSERT_TRUE(router_->stop_session(s));
  EXPECT_EQ(word, 0u);
  EXPECT_EQ(count, 0u);
  const SessionId t = new_session("t");
  ASSERT_TRUE(router_->enable(t, guid_n(1), params(2, 0)));
  EXPECT_NE(word, 0u);
  EXPECT_EQ(count, 1u);
  router_->unregister_provider(*h);
  EXPECT_EQ(word, 0u);
  EXPECT_EQ(count, 0u);
  EXPECT_TRUE(plain->enabled(2, 0));
}

TEST_F(RouterFixture, ExclusionMaskRemovesSessionsAndTheirStacks) {
  ProviderHandle h = reg(make_provider(1));
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(router_->enable(new_session("s" + std::to_string(i)), guid_n(1),
                                params(5, 0, 0, enable_property::kStackTrace)));
  EXPECT_EQ(router_->route(h, event_at(1)), (RouteResult{0b111, 0b111}));
  EXPECT_EQ(router_->route(h, event_at(1), 0b010), (RouteResult{0b101, 0b101}));
  EXPECT_EQ(router_->route(h, event_at(1), ~uint64_t{0}), RouteResult{});
  EXPECT_EQ(router_->route(h, event_at(1), uint64_t{1} << 40), (RouteResult{0b111, 0b111}));
  EXPECT_EQ(router_->route(h, event_at(6)), RouteResult{}) << "level filter of the program";
  EXPECT_EQ(router_->route(nullptr, event_at(1)), RouteResult{});
}

TEST_F(RouterFixture, WriteDeliversInSlotOrderWithStackFlags) {
  std::vector<std::pair<int, bool>> order;
  auto sink_for = [&order](int tag) {
    return std::make_shared<CallbackSink>(
        [&order, tag](const EventView&, bool stack) { order.emplace_back(tag, stack); });
  };
  ProviderHandle h = reg(make_provider(1));
  const SessionId a = new_session("a", sink_for(0));
  const SessionId b = new_session("b", sink_for(1));
  const SessionId c = new_session("c", sink_for(2));
  ASSERT_TRUE(router_->enable(c, guid_n(1), params(5)));
  ASSERT_TRUE(router_->enable(a, guid_n(1), params(5, 0, 0, enable_property::kStackTrace)));
  ASSERT_TRUE(router_->enable(b, guid_n(1), params(2)));
  EXPECT_EQ(router_->write(h, event_at(4)), (RouteResult{0b101, 0b001}));
  EXPECT_EQ(router_->write(h, event_at(1), 0b001), (RouteResult{0b110, 0}));
  const std::vector<std::pair<int, bool>> want{{0, true}, {2, false}, {1, false}, {2, false}};
  EXPECT_EQ(order, want);
}

TEST_F(RouterFixture, LegacyLastEnablerWins) {
  Recorder rec;
  auto qa = std::make_shared<QueueSink>(), qb = std::make_shared<QueueSink>();
  ProviderHandle h = reg(make_provider(2, /*legacy=*/true), rec.callback());
  const SessionId a = new_session("a", qa), b = new_session("b", qb);
  ASSERT_TRUE(router_->enable(a, guid_n(2), params(4, 0x1'0000'0003ULL, 0, 0, guid_n(70))));
  EXPECT_EQ(router_->composite(h), state(4, 0x3, 0, 0b01));
  ASSERT_TRUE(router_->enable(b, guid_n(2), params(2, 0x4, 0, 0, guid_n(71))));
  ASSERT_EQ(rec.notes.size(), 2u);
  EXPECT_EQ(rec.notes[1].code, ControlCode::EnableProvider);
  EXPECT_EQ(rec.notes[1].state, state(2, 0x4, 0, 0b10)) << "a silently lost it";
  EXPECT_EQ(rec.notes[1].source_id, guid_n(71));
  router_->write(h, event_at(1));
  EXPECT_EQ(qa->size(), 0u);
  EXPECT_EQ(qb->size(), 1u);
  // a's enable is gone: disabling b leaves nobody (a does not come back).
  ASSERT_TRUE(router_->disable(b, guid_n(2)));
  EXPECT_EQ(rec.notes.back().code, ControlCode::DisableProvider);
  EXPECT_FALSE(h->enabled(0, 0));
  EXPECT_TRUE(router_->disable(a, guid_n(2)));
  EXPECT_EQ(rec.notes.size(), 3u);
}

TEST_F(RouterFixture, LegacyRegistrationKeepsOnlyLatestPreEnable) {
  const SessionId a = new_session("a"), b = new_session("b"), c = new_session("c");
  ASSERT_TRUE(router_->enable(b, guid_n(3), params(1)));
  ASSERT_TRUE(router_->enable(a, guid_n(3), params(2)));
  ASSERT_TRUE(router_->enable(c, guid_n(3), params(3)));
  ASSERT_TRUE(router_->enable(a, guid_n(3), params(4, 0x8)));  // a is the latest enabler
  Recorder rec;
  ProviderHandle h = reg(make_provider(3, true), rec.callback());
  ASSERT_EQ(rec.notes.size(), 1u);
  EXPECT_EQ(rec.notes[0].state, state(4, 0x8, 0, 0b001));
  EXPECT_TRUE(rec.notes[0].source_id.is_null());
  EXPECT_EQ(router_->route(h, event_at(1)), (RouteResult{0b001, 0}));
}

TEST(QueueSinkTest, OwnedCopiesFifoDrain) {
  QueueSink q;
  Event e;
  e.desc.id = 7;
  e.desc.level = 3;
  e.pid = 42;
  e.exe = "/usr/bin/app";
  e.name = "Start";
  e.payload = {1, 2, 3};
  q.deliver(e.view(), true);
  e.desc.id = 8;
  e.payload[0] = 9;  // the queued copy must not change
  e.exe = "other";
  q.deliver(e.view(), false);
  EXPECT_EQ(q.size(), 2u);
  auto first = q.pop();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->event.desc.id, 7);
  EXPECT_EQ(first->event.pid, 42u);
  EXPECT_EQ(first->event.exe, "/usr/bin/app");
  EXPECT_EQ(first->event.name, "Start");
  EXPECT_EQ(first->event.payload, (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_TRUE(first->with_stack);
  q.deliver(e.view(), false);
  auto rest = q.drain();
  ASSERT_EQ(rest.size(), 2u);
  EXPECT_EQ(rest[0].event.payload[0], 9);
  EXPECT_FALSE(rest[0].with_stack);
  EXPECT_EQ(q.size(), 0u);
  EXPECT_FALSE(q.pop().has_value());
}

TEST(CallbackSinkTest, ForwardsViewAndFlag) {
  int calls = 0;
  CallbackSink sink([&](const EventView& v, bool stack) {
    ++calls;
    EXPECT_EQ(v.desc.id, 5);
    EXPECT_TRUE(stack);
  });
  Event e;
  e.desc.id = 5;
  sink.deliver(e.view(), true);
  EXPECT_EQ(calls, 1);
  CallbackSink empty({});
  empty.deliver(e.view(), false);  // no function: ignored
}

}  // namespace
}  // namespace pfc::test
