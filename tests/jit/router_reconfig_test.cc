// tests/jit/router_reconfig_test.cc — the real Router over the tiered JIT engine: two
// threads route while the main thread enables, updates and disables sessions, so routing
// programs are compiled, tiered up in the background, swapped and retired while in use
// (docs/architecture.md §4, §6). Run under ThreadSanitizer in the tsan preset. Session A stays
// enabled throughout and must receive every event, exactly once per route; no other bit may ever
// appear, and no stack bit (no session asked for stacks).
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "compiler/jit/tiered.h"
#include "runtime/router.h"

namespace pfc {
namespace {

ProviderDef provider() {
  ProviderDef p;
  p.name = "P";
  p.guid = Guid::from_provider_name("P");
  EventDef e;
  e.name = "E";
  e.desc.id = 1;
  e.desc.level = 4;
  e.fields = {FieldDef{"n", InType::UInt32, {}, {}}};
  p.events.push_back(e);
  return p;
}

// `payload E all { n ge min }` at level 5.
EnableParams n_at_least(uint32_t min) {
  EnableParams p;
  p.level = 5;
  PayloadFilter f;
  f.event_id = 1;
  f.expr.preds = {PayloadPredicate{0, PayloadOp::Ge, PayloadValue{min, 0, "", {}}}};
  using Kind = PayloadExpr::Node::Kind;
  f.expr.nodes = {{Kind::Pred, 0, 0}, {Kind::And, 0, 1}};
  f.expr.kids = {0};
  p.payload.push_back(f);
  return p;
}

TEST(RouterReconfigure, TieredProgramsSwapAndRetireWhileThreadsRoute) {
  auto created = Router::create(make_program_compiler(Engine::Auto));
  ASSERT_TRUE(created.has_value()) << created.error().message;
  Router& router = **created;
  const ProviderDef def = provider();
  auto a = router.create_session("A", nullptr);
  auto b = router.create_session("B", nullptr);
  auto h = router.register_provider(def);
  ASSERT_TRUE(a && b && h);
  EnableParams a_params;
  a_params.level = 5;
  ASSERT_TRUE(router.enable(*a, def.guid, a_params).has_value());
  const uint64_t a_bit = uint64_t{1} << *a;
  const uint64_t b_bit = uint64_t{1} << *b;

  Event event;
  event.desc = def.events[0].desc;
  event.payload = {10, 0, 0, 0};  // n = 10
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> routed{0}, a_hits{0}, b_hits{0}, bad{0};
  auto route_loop = [&] {
    const EventView view = event.view();
    while (!stop.load(std::memory_order_relaxed)) {
      const RouteResult r = router.route(*h, view);
      routed.fetch_add(1, std::memory_order_relaxed);
      if (r.deliver & a_bit) a_hits.fetch_add(1, std::memory_order_relaxed);
      if (r.deliver & b_bit) b_hits.fetch_add(1, std::memory_order_relaxed);
      if ((r.deliver & ~(a_bit | b_bit)) != 0 || r.stack != 0) {
        bad.fetch_add(1, std::memory_order_relaxed);
      }
    }
  };
  std::array<std::thread, 2> threads{std::thread(route_loop), std::thread(route_loop)};
  // Waits until 3 more routes completed: each of the 2 threads can have at most one route
  // in flight from before, so at least one of them started after the last change. Keeps
  // the test independent of scheduling (bounded: 30 s).
  auto wait_for_routes = [&] {
    const uint64_t target = routed.load() + 3;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (routed.load() < target && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    return routed.load() >= target;
  };
  for (int i = 0; i < 120; ++i) {
    // B's verdict on n = 10 flips with each update; every tenth round B disables, and every
    // 25th A is updated in place (its program is replaced while routed).
    ASSERT_TRUE(router.enable(*b, def.guid, n_at_least(i % 2 == 0 ? 5 : 20)).has_value());
    ASSERT_TRUE(wait_for_routes());
    if (i % 10 == 9) {
      ASSERT_TRUE(router.disable(*b, def.guid).has_value());
    }
    if (i % 25 == 24) {
      ASSERT_TRUE(router.enable(*a, def.guid, a_params).has_value());
      ASSERT_TRUE(wait_for_routes());
    }
  }
  stop.store(true);
  for (std::thread& t : threads) t.join();

  EXPECT_GT(routed.load(), 0u);
  EXPECT_EQ(bad.load(), 0u);
  EXPECT_EQ(a_hits.load(), routed.load()) << "session A lost events during reconfiguration";
  EXPECT_GT(b_hits.load(), 0u);  // a route after each accepting enable saw B's new program

  // The final configurations route exactly as specified, whichever tier serves them.
  ASSERT_TRUE(router.enable(*b, def.guid, n_at_least(5)).has_value());
  EXPECT_EQ(router.route(*h, event.view()).deliver, a_bit | b_bit);
  ASSERT_TRUE(router.enable(*b, def.guid, n_at_least(20)).has_value());
  EXPECT_EQ(router.route(*h, event.view()).deliver, a_bit);
  ASSERT_TRUE(router.disable(*b, def.guid).has_value());
  EXPECT_EQ(router.route(*h, event.view()).deliver, a_bit);
}

}  // namespace
}  // namespace pfc
