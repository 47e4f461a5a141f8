// tests/router/alloc_test.cc (router_alloc_test) — route(), write() to a non-allocating
// sink, enabled() and epoch guards allocate nothing. Replaces the global operator new of
// this binary with a counter armed per thread; built without sanitizers only (their
// runtimes define operator new too).
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>

#include "runtime/epoch.h"
#include "runtime/sink.h"
#include "tests/router/router_test_util.h"

namespace {
thread_local bool t_counting = false;
thread_local size_t t_allocations = 0;
}  // namespace

void* operator new(std::size_t n) {
  if (t_counting) ++t_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
// NOLINTBEGIN(clang-analyzer-cplusplus.NewDelete): the replacements' own release
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
// NOLINTEND(clang-analyzer-cplusplus.NewDelete)

namespace pfc::test {
namespace {

struct CountAllocations {
  CountAllocations() {
    t_allocations = 0;
    t_counting = true;
  }
  ~CountAllocations() { t_counting = false; }
  size_t count() const { return t_allocations; }
};

TEST(AllocCounter, DetectsAllocations) {
  CountAllocations c;
  auto* p = new int(3);
  delete p;
  EXPECT_EQ(c.count(), 1u) << "the counter itself works";
}

TEST_F(RouterFixture, HotPathsDoNotAllocate) {
  int delivered = 0;
  auto sink = std::make_shared<CallbackSink>([&](const EventView&, bool) { ++delivered; });
  ProviderHandle h = reg(make_provider(1));
  ProviderHandle off = reg(make_provider(2));
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(
        router_->enable(new_session("s" + std::to_string(i), sink), guid_n(1),
                        params(static_cast<uint8_t>(2 + i), 0x1, 0, enable_property::kStackTrace)));
  const EventView e = event_at(3, 0x1);
  (void)router_->route(h, e);  // first use on this thread registers it (may allocate)
  CountAllocations c;
  uint64_t acc = 0;
  bool any = false;
  for (int i = 0; i < 1000; ++i) {
    acc += router_->route(h, e, static_cast<uint64_t>(i) & 1).deliver;
    acc += router_->route(off, e).deliver;
    acc += router_->write(h, e).deliver;
    any |= h->enabled(3, 0x1) && !off->enabled(1, 0);
  }
  EXPECT_EQ(c.count(), 0u);
  EXPECT_GT(acc, 0u);
  EXPECT_TRUE(any);
  EXPECT_EQ(delivered, 2000);
}

TEST(Epoch, GuardDoesNotAllocateAfterFirstUse) {
  EpochDomain d;
  { auto g = d.enter(); }
  CountAllocations c;
  for (int i = 0; i < 100; ++i) {
    auto g = d.enter();
    auto inner = d.enter();
  }
  EXPECT_EQ(c.count(), 0u);
}

// collect() allocates nothing: a retire() whose own entry is queued cannot then fail (its
// caller would free the object a second time), and the router's fallback for a failed
// retire (synchronize) relies on it (runtime/router_internal.h).
TEST(Epoch, CollectDoesNotAllocate) {
  EpochDomain domain;
  int deleted = 0;
  {
    auto guard = domain.enter();  // a reader: the entries below must be kept
    for (int i = 0; i < 8; ++i) domain.retire([&deleted] { ++deleted; });
    CountAllocations c;
    EXPECT_EQ(domain.collect(), 0u);
    EXPECT_EQ(c.count(), 0u);
    EXPECT_EQ(domain.pending(), 8u);
  }
  CountAllocations c;
  EXPECT_EQ(domain.collect(), 8u);
  EXPECT_EQ(c.count(), 0u);
  EXPECT_EQ(deleted, 8);
}

}  // namespace
}  // namespace pfc::test
