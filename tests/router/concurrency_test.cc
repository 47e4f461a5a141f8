// tests/router/concurrency_test.cc — reconfiguration while other threads route
// (docs/architecture.md §6): two writers route continuously while a controller enables, updates and
// disables sessions; every event reaches the always-enabled session exactly once, no program is
// used after being freed, and each thread only ever moves forward through programs.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "runtime/sink.h"
#include "tests/router/router_test_util.h"

namespace pfc::test {
namespace {

TEST_F(RouterFixture, ReconfigureWhileRouting) {
  // Writers run until the controller has finished all its rounds (and at least
  // kMinWrites each), so every round overlaps routing; both loops are bounded.
  constexpr int kMinWrites = 5000;
  constexpr int kControlRounds = 400;
  std::atomic<uint64_t> delivered_a{0}, delivered_b{0};
  auto sink_a = std::make_shared<CallbackSink>(
      [&](const EventView&, bool) { delivered_a.fetch_add(1, std::memory_order_relaxed); });
  auto sink_b = std::make_shared<CallbackSink>(
      [&](const EventView&, bool) { delivered_b.fetch_add(1, std::memory_order_relaxed); });
  ProviderHandle h = reg(make_provider(1));
  const SessionId a = new_session("always", sink_a);
  const SessionId b = new_session("toggled", sink_b);
  ASSERT_TRUE(router_->enable(a, guid_n(1), params(5)));

  std::atomic<bool> control_done{false};
  std::atomic<uint64_t> writes{0}, missing{0}, backwards{0}, not_enabled{0};
  auto writer = [&] {
    uint64_t last_gen = 0;
    const EventView e = event_at(1);
    int i = 0;
    for (; i < kMinWrites || !control_done.load(std::memory_order_acquire); ++i) {
      if (!h->enabled(1, 0)) not_enabled.fetch_add(1);
      const RouteResult r = router_->write(h, e);
      if ((r.deliver & (uint64_t{1} << a)) == 0) missing.fetch_add(1);
      if (FakeProgram::last_generation < last_gen) backwards.fetch_add(1);
      last_gen = FakeProgram::last_generation;
    }
    writes.fetch_add(static_cast<uint64_t>(i));
  };
  std::thread w1(writer), w2(writer);
  for (int rounds = 0; rounds < kControlRounds; ++rounds) {
    EXPECT_TRUE(router_->enable(b, guid_n(1), params(3)));
    EXPECT_TRUE(router_->enable(a, guid_n(1), params(static_cast<uint8_t>(4 + rounds % 3))));
    EXPECT_TRUE(router_->disable(b, guid_n(1)));
    if (rounds % 16 == 0) {  // a session that comes and goes, reusing a slot
      const SessionId c = new_session("transient", std::make_shared<QueueSink>());
      EXPECT_TRUE(router_->enable(c, guid_n(1), params(2)));
      EXPECT_TRUE(router_->stop_session(c));
    }
  }
  control_done.store(true, std::memory_order_release);
  w1.join();
  w2.join();
  EXPECT_GE(writes.load(), 2u * kMinWrites);
  EXPECT_EQ(missing.load(), 0u);
  EXPECT_EQ(delivered_a.load(), writes.load()) << "no event lost or duplicated";
  EXPECT_EQ(backwards.load(), 0u);
  EXPECT_EQ(not_enabled.load(), 0u);
  EXPECT_EQ(FakeProgram::bad_reads.load(), 0u);
}

TEST_F(RouterFixture, RegisterAndUnregisterWhileOthersRoute) {
  ProviderHandle h = reg(make_provider(1));
  const SessionId s = new_session("s");
  ASSERT_TRUE(router_->enable(s, guid_n(1), params(5)));
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> missing{0};
  std::thread reader([&] {
    while (!stop.load(std::memory_order_relaxed))
      if (router_->route(h, event_at(2)).deliver != 1) missing.fetch_add(1);
  });
  for (int i = 0; i < 300; ++i) {
    ProviderHandle extra = reg(make_provider(1));
    if (extra == nullptr) break;  // reg() already reported the failure
    EXPECT_EQ(router_->route(extra, event_at(2)).deliver, 1u);
    router_->unregister_provider(extra);
  }
  stop.store(true);
  reader.join();
  EXPECT_EQ(missing.load(), 0u);
}

}  // namespace
}  // namespace pfc::test
